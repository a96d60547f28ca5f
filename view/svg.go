package view

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strconv"

	"github.com/electkit/elect/trace"
)

// The page's colours for message types, in declaration order, and for
// decisions.
var (
	typeColors = []string{"#d81b60", "#1e88e5", "#43a047", "#fb8c00", "#8e24aa", "#00897b", "#6d4c41", "#3949ab", "#c0ca33", "#546e7a"}
	electedCol = "#f9a825"
	notElected = "#5c6bc0"
)

// SVG writes a static space-time diagram of a trace, fit for a paper: one
// horizontal line per node (labelled with its ID), time from left to right,
// an arrow per message from its send to its delivery coloured by type
// (dashed to the right edge when it is still in flight at the end), a dot
// per decision (large for elected), a red band per violation, and a legend.
func SVG(w io.Writer, tr *trace.Trace) error {
	h := tr.Header
	msgs, _ := matchMessages(tr)
	tMax := 0.0
	for k := range tr.Events {
		tMax = max(tMax, tr.Events[k].Time())
	}
	if tMax <= 0 {
		tMax = 1
	}
	n := h.N
	lane := 18.0
	if n > 40 {
		lane = max(2, 720/float64(n))
	}
	const left, right, top = 70.0, 20.0, 30.0
	width := 900.0
	height := top + lane*float64(n) + 50
	x := func(t float64) float64 { return left + (width-left-right)*t/tMax }
	y := func(i int32) float64 { return top + (float64(i)+0.5)*lane }
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	color := map[string]string{}
	for k, m := range h.Messages {
		color[m.Name] = typeColors[k%len(typeColors)]
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="11">`+"\n", f(width), f(height), f(width), f(height))
	fmt.Fprintf(bw, `<defs>`)
	for k := range h.Messages {
		fmt.Fprintf(bw, `<marker id="a%d" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0L10,5L0,10z" fill="%s"/></marker>`, k, typeColors[k%len(typeColors)])
	}
	fmt.Fprintf(bw, "</defs>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n")
	fmt.Fprintf(bw, `<text x="%s" y="18" font-size="13">%s, n = %d, %s delivery, seed %d (t in %s)</text>`+"\n",
		f(left), html.EscapeString(h.Algorithm), n, html.EscapeString(h.Delivery), h.Seed, html.EscapeString(h.Time))
	for i := range int32(n) {
		fmt.Fprintf(bw, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#cfd8dc"/>`, f(left), f(y(i)), f(width-right), f(y(i)))
		if n <= 60 {
			fmt.Fprintf(bw, `<text x="4" y="%s">ID %d</text>`, f(y(i)+4), h.IDs[i])
		}
		bw.WriteByte('\n')
	}
	typeIndex := map[string]int{}
	for k, m := range h.Messages {
		typeIndex[m.Name] = k
	}
	for _, m := range msgs {
		x0, y0 := x(tr.Events[m.send].Time()), y(m.from)
		x1, dash := width-right, ` stroke-dasharray="4 3"`
		if m.recv >= 0 {
			x1, dash = x(tr.Events[m.recv].Time()), ""
		}
		fmt.Fprintf(bw, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s marker-end="url(#a%d)"><title>%s %s: node %d to node %d</title></line>`+"\n",
			f(x0), f(y0), f(x1), f(y(m.to)), color[m.typ], dash, typeIndex[m.typ], html.EscapeString(m.typ), html.EscapeString(m.payload), m.from, m.to)
	}
	for k := range tr.Events {
		ev := &tr.Events[k]
		switch ev.Ev {
		case "decide":
			r, c := 3, notElected
			if ev.Decision == "elected" {
				r, c = 6, electedCol
			}
			fmt.Fprintf(bw, `<circle cx="%s" cy="%s" r="%d" fill="%s"><title>node %d %s</title></circle>`+"\n", f(x(ev.Time())), f(y(ev.Node)), r, c, ev.Node, ev.Decision)
		case "violation":
			fmt.Fprintf(bw, `<rect x="%s" y="%s" width="3" height="%s" fill="#b00020"><title>%s</title></rect>`+"\n", f(x(ev.Time())-1.5), f(top), f(lane*float64(n)), html.EscapeString(ev.Name+": "+ev.Message))
		}
	}
	ly := height - 18
	lx := left
	for k, m := range h.Messages {
		fmt.Fprintf(bw, `<rect x="%s" y="%s" width="10" height="10" fill="%s"/><text x="%s" y="%s">%s</text>`, f(lx), f(ly-9), typeColors[k%len(typeColors)], f(lx+14), f(ly), html.EscapeString(m.Name))
		lx += 24 + 7*float64(len(m.Name))
	}
	fmt.Fprintf(bw, `<circle cx="%s" cy="%s" r="6" fill="%s"/><text x="%s" y="%s">elected</text>`, f(lx+6), f(ly-4), electedCol, f(lx+16), f(ly))
	fmt.Fprintf(bw, `<circle cx="%s" cy="%s" r="3" fill="%s"/><text x="%s" y="%s">not elected</text>`, f(lx+76), f(ly-4), notElected, f(lx+84), f(ly))
	fmt.Fprintf(bw, `<text x="%s" y="%s" text-anchor="end">t = %s</text>`, f(width-right), f(ly), strconv.FormatFloat(tMax, 'g', -1, 64))
	bw.WriteString("\n</svg>\n")
	return bw.Flush()
}
