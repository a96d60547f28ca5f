package view

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/trace"
)

// The page's colours for message types, in declaration order, and for
// decisions.
var (
	faultCol     = "#b00020"
	crashCol     = "#424242"
	partitionCol = "rgba(255, 152, 0, 0.14)"
	typeColors   = []string{"#d81b60", "#1e88e5", "#43a047", "#fb8c00", "#8e24aa", "#00897b", "#6d4c41", "#3949ab", "#c0ca33", "#546e7a"}
	electedCol   = "#f9a825"
	notElected   = "#5c6bc0"
)

// SVG writes a static space-time diagram of a trace, fit for a paper: one
// horizontal line per node (labelled with its ID), time from left to right
// with ticks, an arrow per message from its send to its delivery coloured
// by type (dashed and crossed out when it was dropped at a terminated
// node, dotted to the right edge when it is still in flight at the end), a
// dot per decision (large for elected), a red band per violation, and a
// legend that wraps. A run with faults (docs/faults.md) has its lost
// messages end in a red cross short of their receiver ("lost", or "cut" by
// a partition), a duplicate's copy marked "dup", a delayed message marked
// "delay +d", a crash as a cross on the node's line, dashed grey after it,
// a partition as a shaded band over its time window (its two sides
// lettered A and B), each with a title naming it, and the legend names
// them.
func SVG(w io.Writer, tr *trace.Trace) error {
	h := tr.Header
	msgs, _ := matchMessages(tr)
	crashAt := map[int32]float64{}
	for k := range tr.Events {
		if ev := &tr.Events[k]; ev.Ev == "crash" {
			if _, ok := crashAt[ev.Node]; !ok {
				crashAt[ev.Node] = ev.Time()
			}
		}
	}
	var parts []faults.Clause
	if h.Faults != "" {
		if spec, err := faults.Parse(h.Faults); err == nil {
			for _, c := range spec.Clauses {
				if c.Kind == elect.FaultPartition {
					parts = append(parts, c)
				}
			}
		}
	}
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
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	// Below the lanes: the time axis with its ticks, then the legend in
	// rows that wrap at the drawing's width (names measured at 7 px a
	// character, generous for 11 px sans-serif).
	type entry struct {
		text string
		draw func(x, y float64) string // the swatch at (x, y), the row's baseline
	}
	var legend []entry
	for k, m := range h.Messages {
		c := typeColors[k%len(typeColors)]
		legend = append(legend, entry{m.Name, func(x, y float64) string {
			return fmt.Sprintf(`<rect x="%s" y="%s" width="10" height="10" fill="%s"/>`, f(x), f(y-9), c)
		}})
	}
	legend = append(legend,
		entry{"elected", func(x, y float64) string {
			return fmt.Sprintf(`<circle cx="%s" cy="%s" r="6" fill="%s"/>`, f(x+5), f(y-4), electedCol)
		}},
		entry{"not elected", func(x, y float64) string {
			return fmt.Sprintf(`<circle cx="%s" cy="%s" r="3" fill="%s"/>`, f(x+5), f(y-4), notElected)
		}},
		entry{"dropped (reached a halted node)", func(x, y float64) string {
			return fmt.Sprintf(`<path d="M%s,%sh7M%s,%sl4,4m0,-4l-4,4" stroke="#555" stroke-dasharray="3 2" fill="none"/>`, f(x-2), f(y-4), f(x+6), f(y-6))
		}},
		entry{"in flight at the end", func(x, y float64) string {
			return fmt.Sprintf(`<path d="M%s,%sh12" stroke="#555" stroke-dasharray="1 3" fill="none"/>`, f(x-2), f(y-4))
		}})
	if h.Faults != "" {
		legend = append(legend,
			entry{"lost (cut: by a partition)", func(x, y float64) string {
				return fmt.Sprintf(`<path d="M%s,%sh6M%s,%sl6,6m0,-6l-6,6" stroke="%s" stroke-width="1.5" fill="none"/>`, f(x-2), f(y-4), f(x+4), f(y-7), faultCol)
			}},
			entry{"dup: the copy of a duplicate", func(x, y float64) string {
				return fmt.Sprintf(`<text x="%s" y="%s" fill="%s" font-size="8" font-weight="bold">dup</text>`, f(x-3), f(y-1), faultCol)
			}},
			entry{"delay +d: late", func(x, y float64) string {
				return fmt.Sprintf(`<text x="%s" y="%s" fill="%s" font-size="8" font-weight="bold">+d</text>`, f(x-1), f(y-1), faultCol)
			}},
			entry{"crash, then a dashed line", func(x, y float64) string {
				return fmt.Sprintf(`<path d="M%s,%sl8,8m0,-8l-8,8" stroke="%s" stroke-width="2" fill="none"/>`, f(x+1), f(y-8), crashCol)
			}},
			entry{"partition", func(x, y float64) string {
				return fmt.Sprintf(`<rect x="%s" y="%s" width="10" height="10" fill="%s" stroke="#e65100"/>`, f(x), f(y-9), partitionCol)
			}})
	}
	type placed struct {
		entry
		x, row float64
	}
	var items []placed
	lx, row := left, 0.0
	for _, e := range legend {
		w := 18 + 7*float64(len(e.text)) + 14
		if lx > left && lx+w > width-right {
			lx, row = left, row+1
		}
		items = append(items, placed{e, lx, row})
		lx += w
	}
	axisY := top + lane*float64(n) + 4
	legendY := axisY + 34
	height := legendY + 16*(row+1)
	x := func(t float64) float64 { return left + (width-left-right)*t/tMax }
	y := func(i int32) float64 { return top + (float64(i)+0.5)*lane }
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
	for _, c := range parts {
		xa, xb := x(max(0, min(float64(c.From), tMax))), x(max(0, min(float64(c.To), tMax)))
		fmt.Fprintf(bw, `<g class="partition"><title>partition %s | %s from t = %d up to %d</title><rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`,
			sideText(c.A), sideText(c.B), c.From, c.To, f(xa), f(top), f(max(2, xb-xa)), f(lane*float64(n)), partitionCol)
		fmt.Fprintf(bw, `<text x="%s" y="%s" fill="#e65100" font-size="10">partition %s | %s</text>`, f(xa+2), f(top-3), sideText(c.A), sideText(c.B))
		if lane >= 9 {
			for i := range int32(n) {
				side := ""
				switch {
				case slices.Contains(c.A, int(i)):
					side = "A"
				case slices.Contains(c.B, int(i)):
					side = "B"
				}
				if side != "" {
					fmt.Fprintf(bw, `<text x="%s" y="%s" fill="#e65100" font-size="9" font-weight="bold">%s</text>`, f(xa+2), f(y(i)-3), side)
				}
			}
		}
		bw.WriteString("</g>\n")
	}
	for i := range int32(n) {
		end := width - right
		if t, ok := crashAt[i]; ok {
			end = x(t)
		}
		fmt.Fprintf(bw, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#cfd8dc"/>`, f(left), f(y(i)), f(end), f(y(i)))
		if t, ok := crashAt[i]; ok {
			fmt.Fprintf(bw, `<g class="crash"><title>node %d crashed at t = %s</title><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#757575" stroke-width="1.5" stroke-dasharray="4 4"/><path d="M%s,%sl10,10m0,-10l-10,10" stroke="%s" stroke-width="2.5" fill="none"/></g>`,
				i, strconv.FormatFloat(t, 'g', -1, 64), f(end), f(y(i)), f(width-right), f(y(i)), f(end-5), f(y(i)-5), crashCol)
		}
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
		if m.lost != "" {
			// 70% of the way it would have gone in one time unit
			x1 := x0 + 0.7*max(x(tr.Events[m.send].Time()+1)-x0, 12)
			y1 := y0 + 0.7*(y(m.to)-y0)
			label := "lost"
			if m.lost == "partition" {
				label = "cut"
			}
			fmt.Fprintf(bw, `<g class="%s"><title>%s %s: node %d to node %d, %s (%s)</title><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/><path d="M%s,%sl8,8m0,-8l-8,8" stroke="%s" stroke-width="2" fill="none"/><text x="%s" y="%s" fill="%s" font-size="10">%s</text></g>`+"\n",
				label, html.EscapeString(m.typ), html.EscapeString(m.payload), m.from, m.to, label, m.lost,
				f(x0), f(y0), f(x1), f(y1), color[m.typ], f(x1-4), f(y1-4), faultCol, f(x1+6), f(y1+4), faultCol, label)
			continue
		}
		if m.dup {
			x0 += 4 // the copy leaves right after its original
		}
		x1, y1, dash, end, what := width-right, y(m.to), ` stroke-dasharray="1 3"`, "", "in flight at the end"
		switch {
		case m.recv >= 0 && m.dropped:
			x1, dash, what = x(tr.Events[m.recv].Time()), ` stroke-dasharray="4 3"`, "dropped"
		case m.recv >= 0:
			x1, dash, end, what = x(tr.Events[m.recv].Time()), "", fmt.Sprintf(` marker-end="url(#a%d)"`, typeIndex[m.typ]), "delivered"
		}
		fmt.Fprintf(bw, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s%s><title>%s %s: node %d to node %d, %s</title></line>`+"\n",
			f(x0), f(y0), f(x1), f(y1), color[m.typ], dash, end, html.EscapeString(m.typ), html.EscapeString(m.payload), m.from, m.to, what)
		if m.dropped {
			fmt.Fprintf(bw, `<path d="M%s,%sl8,8m0,-8l-8,8" stroke="%s" fill="none"/>`+"\n", f(x1-4), f(y1-4), color[m.typ])
		}
		mx, my := (x0+x1)/2, (y0+y1)/2
		if m.dup {
			fmt.Fprintf(bw, `<text class="dup" x="%s" y="%s" fill="%s" font-size="10" font-weight="bold">dup<title>the copy of a duplicated message</title></text>`+"\n", f(mx+3), f(my-3), faultCol)
		}
		if m.delay > 0 {
			fmt.Fprintf(bw, `<text class="delay" x="%s" y="%s" fill="%s" font-size="10" font-weight="bold">delay +%d<title>delayed by %d time units</title></text>`+"\n", f(mx+3), f(my+9), faultCol, m.delay, m.delay)
		}
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
	// The time axis: ticks at 1, 2 or 5 times a power of ten, at least
	// 60 px apart.
	fmt.Fprintf(bw, `<path d="M%s,%sH%s" stroke="#607d8b" fill="none"/>`+"\n", f(left), f(axisY), f(width-right))
	step := niceStep(tMax * 60 / (width - left - right))
	for k := 0; float64(k)*step <= tMax*(1+1e-9); k++ {
		tv := float64(k) * step
		fmt.Fprintf(bw, `<path d="M%s,%sv4" stroke="#607d8b"/><text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n",
			f(x(tv)), f(axisY), f(x(tv)), f(axisY+16), strconv.FormatFloat(tv, 'g', 6, 64))
	}
	fmt.Fprintf(bw, `<text x="%s" y="%s" text-anchor="end">end: t = %s</text>`+"\n", f(width-right), f(axisY+30), strconv.FormatFloat(tMax, 'g', -1, 64))
	for _, it := range items {
		ly := legendY + 16*it.row + 10
		fmt.Fprintf(bw, `%s<text x="%s" y="%s">%s</text>`, it.draw(it.x, ly), f(it.x+16), f(ly), html.EscapeString(it.text))
	}
	bw.WriteString("\n</svg>\n")
	return bw.Flush()
}

// sideText writes a partition's side as the specification does: 0-3,7.
func sideText(side []int) string {
	var b strings.Builder
	for k := 0; k < len(side); {
		j := k
		for j+1 < len(side) && side[j+1] == side[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j > k {
			fmt.Fprintf(&b, "%d-%d", side[k], side[j])
		} else {
			fmt.Fprintf(&b, "%d", side[k])
		}
		k = j + 1
	}
	return b.String()
}

// niceStep is the smallest of 1, 2 or 5 times a power of ten that is at
// least v.
func niceStep(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}
