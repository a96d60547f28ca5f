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
	d := newDiagram(tr)
	bw := bufio.NewWriter(w)
	d.writeHead(bw)
	d.writePartitions(bw)
	d.writeLanes(bw)
	d.writeMessages(bw)
	d.writeDecisions(bw)
	d.writeAxis(bw)
	d.writeLegend(bw)
	bw.WriteString("\n</svg>\n")
	return bw.Flush()
}

// The margins of a space-time diagram and its width, in pixels.
const (
	diagramLeft, diagramRight, diagramTop = 70.0, 20.0, 30.0
	diagramWidth                          = 900.0
)

// diagram is the layout of a trace's space-time diagram: what SVG draws
// and where.
type diagram struct {
	tr *trace.Trace
	h  *trace.Header
	n  int
	// tMax is the time of the last event (at least 1), at the right edge.
	tMax float64
	// lane is the height of a node's line.
	lane float64
	// axisY, legendY and height are the time axis's, the legend's and the
	// drawing's bottom.
	axisY, legendY, height float64
	msgs                   []message
	crashAt                map[int32]float64 // the time each crashed node crashed
	partitions             []faults.Clause
	legend                 []placedEntry
	color                  map[string]string // each message type's colour
	typeIndex              map[string]int    // each message type's declaration index
}

// newDiagram lays out the diagram of tr.
func newDiagram(tr *trace.Trace) *diagram {
	h := tr.Header
	d := &diagram{tr: tr, h: h, n: h.N, crashAt: map[int32]float64{}, color: map[string]string{}, typeIndex: map[string]int{}}
	d.msgs, _ = matchMessages(tr)
	for k := range tr.Events {
		if ev := &tr.Events[k]; ev.Ev == "crash" {
			if _, ok := d.crashAt[ev.Node]; !ok {
				d.crashAt[ev.Node] = ev.Time()
			}
		}
	}
	if h.Faults != "" {
		if spec, err := faults.Parse(h.Faults); err == nil {
			for _, c := range spec.Clauses {
				if c.Kind == elect.FaultPartition {
					d.partitions = append(d.partitions, c)
				}
			}
		}
	}
	for k := range tr.Events {
		d.tMax = max(d.tMax, tr.Events[k].Time())
	}
	if d.tMax <= 0 {
		d.tMax = 1
	}
	d.lane = 18.0
	if d.n > 40 {
		d.lane = max(2, 720/float64(d.n))
	}
	var rows float64
	d.legend, rows = placeLegend(legendEntries(h))
	d.axisY = diagramTop + d.lane*float64(d.n) + 4
	d.legendY = d.axisY + 34
	d.height = d.legendY + 16*rows
	for k, m := range h.Messages {
		d.color[m.Name] = typeColors[k%len(typeColors)]
		d.typeIndex[m.Name] = k
	}
	return d
}

// x is the abscissa of time t.
func (d *diagram) x(t float64) float64 {
	return diagramLeft + (diagramWidth-diagramLeft-diagramRight)*t/d.tMax
}

// y is the ordinate of node i's line.
func (d *diagram) y(i int32) float64 { return diagramTop + (float64(i)+0.5)*d.lane }

// svgNum writes a coordinate with one decimal.
func svgNum(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// legendEntry is a line of the legend: its text and its swatch, drawn at
// (x, y), the row's baseline.
type legendEntry struct {
	text string
	draw func(x, y float64) string
}

// placedEntry is a legend entry at its place: its left edge and its row.
type placedEntry struct {
	legendEntry
	x, row float64
}

// legendEntries lists the legend of a diagram of a trace with header h:
// the message types, the decisions, the ends of messages, and the faults
// when the run had some.
func legendEntries(h *trace.Header) []legendEntry {
	f := svgNum
	var legend []legendEntry
	for k, m := range h.Messages {
		c := typeColors[k%len(typeColors)]
		legend = append(legend, legendEntry{m.Name, func(x, y float64) string {
			return fmt.Sprintf(`<rect x="%s" y="%s" width="10" height="10" fill="%s"/>`, f(x), f(y-9), c)
		}})
	}
	legend = append(legend,
		legendEntry{"elected", func(x, y float64) string {
			return fmt.Sprintf(`<circle cx="%s" cy="%s" r="6" fill="%s"/>`, f(x+5), f(y-4), electedCol)
		}},
		legendEntry{"not elected", func(x, y float64) string {
			return fmt.Sprintf(`<circle cx="%s" cy="%s" r="3" fill="%s"/>`, f(x+5), f(y-4), notElected)
		}},
		legendEntry{"dropped (reached a halted node)", func(x, y float64) string {
			return fmt.Sprintf(`<path d="M%s,%sh7M%s,%sl4,4m0,-4l-4,4" stroke="#555" stroke-dasharray="3 2" fill="none"/>`, f(x-2), f(y-4), f(x+6), f(y-6))
		}},
		legendEntry{"in flight at the end", func(x, y float64) string {
			return fmt.Sprintf(`<path d="M%s,%sh12" stroke="#555" stroke-dasharray="1 3" fill="none"/>`, f(x-2), f(y-4))
		}})
	if h.Faults == "" {
		return legend
	}
	return append(legend,
		legendEntry{"lost (cut: by a partition)", func(x, y float64) string {
			return fmt.Sprintf(`<path d="M%s,%sh6M%s,%sl6,6m0,-6l-6,6" stroke="%s" stroke-width="1.5" fill="none"/>`, f(x-2), f(y-4), f(x+4), f(y-7), faultCol)
		}},
		legendEntry{"dup: the copy of a duplicate", func(x, y float64) string {
			return fmt.Sprintf(`<text x="%s" y="%s" fill="%s" font-size="8" font-weight="bold">dup</text>`, f(x-3), f(y-1), faultCol)
		}},
		legendEntry{"delay +d: late", func(x, y float64) string {
			return fmt.Sprintf(`<text x="%s" y="%s" fill="%s" font-size="8" font-weight="bold">+d</text>`, f(x-1), f(y-1), faultCol)
		}},
		legendEntry{"crash, then a dashed line", func(x, y float64) string {
			return fmt.Sprintf(`<path d="M%s,%sl8,8m0,-8l-8,8" stroke="%s" stroke-width="2" fill="none"/>`, f(x+1), f(y-8), crashCol)
		}},
		legendEntry{"partition", func(x, y float64) string {
			return fmt.Sprintf(`<rect x="%s" y="%s" width="10" height="10" fill="%s" stroke="#e65100"/>`, f(x), f(y-9), partitionCol)
		}})
}

// placeLegend places the legend in rows that wrap at the drawing's width
// (names measured at 7 px a character, generous for 11 px sans-serif) and
// returns the entries at their places and the number of rows.
func placeLegend(legend []legendEntry) ([]placedEntry, float64) {
	var items []placedEntry
	lx, row := diagramLeft, 0.0
	for _, e := range legend {
		w := 18 + 7*float64(len(e.text)) + 14
		if lx > diagramLeft && lx+w > diagramWidth-diagramRight {
			lx, row = diagramLeft, row+1
		}
		items = append(items, placedEntry{e, lx, row})
		lx += w
	}
	return items, row + 1
}

// writeHead writes the drawing's element, the arrow heads of each message
// type, the white background and the title.
func (d *diagram) writeHead(bw *bufio.Writer) {
	f, h := svgNum, d.h
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="11">`+"\n", f(diagramWidth), f(d.height), f(diagramWidth), f(d.height))
	fmt.Fprintf(bw, `<defs>`)
	for k := range h.Messages {
		fmt.Fprintf(bw, `<marker id="a%d" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0L10,5L0,10z" fill="%s"/></marker>`, k, typeColors[k%len(typeColors)])
	}
	fmt.Fprintf(bw, "</defs>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n")
	fmt.Fprintf(bw, `<text x="%s" y="18" font-size="13">%s, n = %d, %s delivery, seed %d (t in %s)</text>`+"\n",
		f(diagramLeft), html.EscapeString(h.Algorithm), d.n, html.EscapeString(h.Delivery), h.Seed, html.EscapeString(h.Time))
}

// writePartitions shades each partition's time window, with its sides
// lettered on the nodes' lines when they are tall enough.
func (d *diagram) writePartitions(bw *bufio.Writer) {
	f := svgNum
	for _, c := range d.partitions {
		xa, xb := d.x(max(0, min(float64(c.From), d.tMax))), d.x(max(0, min(float64(c.To), d.tMax)))
		fmt.Fprintf(bw, `<g class="partition"><title>partition %s | %s from t = %d up to %d</title><rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`,
			sideText(c.A), sideText(c.B), c.From, c.To, f(xa), f(diagramTop), f(max(2, xb-xa)), f(d.lane*float64(d.n)), partitionCol)
		fmt.Fprintf(bw, `<text x="%s" y="%s" fill="#e65100" font-size="10">partition %s | %s</text>`, f(xa+2), f(diagramTop-3), sideText(c.A), sideText(c.B))
		if d.lane >= 9 {
			for i := range int32(d.n) {
				side := ""
				switch {
				case slices.Contains(c.A, int(i)):
					side = "A"
				case slices.Contains(c.B, int(i)):
					side = "B"
				}
				if side != "" {
					fmt.Fprintf(bw, `<text x="%s" y="%s" fill="#e65100" font-size="9" font-weight="bold">%s</text>`, f(xa+2), f(d.y(i)-3), side)
				}
			}
		}
		bw.WriteString("</g>\n")
	}
}

// writeLanes draws each node's line, labelled with its ID on small
// networks, ending in a cross where the node crashed.
func (d *diagram) writeLanes(bw *bufio.Writer) {
	f := svgNum
	for i := range int32(d.n) {
		y := d.y(i)
		end := diagramWidth - diagramRight
		t, crashed := d.crashAt[i]
		if crashed {
			end = d.x(t)
		}
		fmt.Fprintf(bw, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#cfd8dc"/>`, f(diagramLeft), f(y), f(end), f(y))
		if crashed {
			fmt.Fprintf(bw, `<g class="crash"><title>node %d crashed at t = %s</title><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#757575" stroke-width="1.5" stroke-dasharray="4 4"/><path d="M%s,%sl10,10m0,-10l-10,10" stroke="%s" stroke-width="2.5" fill="none"/></g>`,
				i, strconv.FormatFloat(t, 'g', -1, 64), f(end), f(y), f(diagramWidth-diagramRight), f(y), f(end-5), f(y-5), crashCol)
		}
		if d.n <= 60 {
			fmt.Fprintf(bw, `<text x="4" y="%s">ID %d</text>`, f(y+4), d.h.IDs[i])
		}
		bw.WriteByte('\n')
	}
}

// writeMessages draws an arrow per message, or a line ending in a red
// cross for a lost one.
func (d *diagram) writeMessages(bw *bufio.Writer) {
	for _, m := range d.msgs {
		if m.lost != "" {
			d.writeLost(bw, m)
		} else {
			d.writeSent(bw, m)
		}
	}
}

// writeLost draws a lost message: 70% of the way it would have gone in one
// time unit, ending in a cross labelled "lost" (or "cut" by a partition).
func (d *diagram) writeLost(bw *bufio.Writer, m message) {
	f := svgNum
	x0, y0 := d.x(d.tr.Events[m.send].Time()), d.y(m.from)
	x1 := x0 + 0.7*max(d.x(d.tr.Events[m.send].Time()+1)-x0, 12)
	y1 := y0 + 0.7*(d.y(m.to)-y0)
	label := "lost"
	if m.lost == "partition" {
		label = "cut"
	}
	fmt.Fprintf(bw, `<g class="%s"><title>%s %s: node %d to node %d, %s (%s)</title><line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/><path d="M%s,%sl8,8m0,-8l-8,8" stroke="%s" stroke-width="2" fill="none"/><text x="%s" y="%s" fill="%s" font-size="10">%s</text></g>`+"\n",
		label, html.EscapeString(m.typ), html.EscapeString(m.payload), m.from, m.to, label, m.lost,
		f(x0), f(y0), f(x1), f(y1), d.color[m.typ], f(x1-4), f(y1-4), faultCol, f(x1+6), f(y1+4), faultCol, label)
}

// writeSent draws a message that was not lost: an arrow to its delivery,
// dashed and crossed out when it was dropped at a halted node, dotted to
// the right edge when it is still in flight at the end, marked when it is
// a duplicate's copy or was delayed.
func (d *diagram) writeSent(bw *bufio.Writer, m message) {
	f := svgNum
	x0, y0 := d.x(d.tr.Events[m.send].Time()), d.y(m.from)
	if m.dup {
		x0 += 4 // the copy leaves right after its original
	}
	x1, y1, dash, end, what := diagramWidth-diagramRight, d.y(m.to), ` stroke-dasharray="1 3"`, "", "in flight at the end"
	switch {
	case m.recv >= 0 && m.dropped:
		x1, dash, what = d.x(d.tr.Events[m.recv].Time()), ` stroke-dasharray="4 3"`, "dropped"
	case m.recv >= 0:
		x1, dash, end, what = d.x(d.tr.Events[m.recv].Time()), "", fmt.Sprintf(` marker-end="url(#a%d)"`, d.typeIndex[m.typ]), "delivered"
	}
	fmt.Fprintf(bw, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s%s><title>%s %s: node %d to node %d, %s</title></line>`+"\n",
		f(x0), f(y0), f(x1), f(y1), d.color[m.typ], dash, end, html.EscapeString(m.typ), html.EscapeString(m.payload), m.from, m.to, what)
	if m.dropped {
		fmt.Fprintf(bw, `<path d="M%s,%sl8,8m0,-8l-8,8" stroke="%s" fill="none"/>`+"\n", f(x1-4), f(y1-4), d.color[m.typ])
	}
	mx, my := (x0+x1)/2, (y0+y1)/2
	if m.dup {
		fmt.Fprintf(bw, `<text class="dup" x="%s" y="%s" fill="%s" font-size="10" font-weight="bold">dup<title>the copy of a duplicated message</title></text>`+"\n", f(mx+3), f(my-3), faultCol)
	}
	if m.delay > 0 {
		fmt.Fprintf(bw, `<text class="delay" x="%s" y="%s" fill="%s" font-size="10" font-weight="bold">delay +%d<title>delayed by %d time units</title></text>`+"\n", f(mx+3), f(my+9), faultCol, m.delay, m.delay)
	}
}

// writeDecisions draws a dot per decision (large for elected) and a red
// band per violation.
func (d *diagram) writeDecisions(bw *bufio.Writer) {
	f := svgNum
	for k := range d.tr.Events {
		ev := &d.tr.Events[k]
		switch ev.Ev {
		case "decide":
			r, c := 3, notElected
			if ev.Decision == "elected" {
				r, c = 6, electedCol
			}
			fmt.Fprintf(bw, `<circle cx="%s" cy="%s" r="%d" fill="%s"><title>node %d %s</title></circle>`+"\n", f(d.x(ev.Time())), f(d.y(ev.Node)), r, c, ev.Node, ev.Decision)
		case "violation":
			fmt.Fprintf(bw, `<rect x="%s" y="%s" width="3" height="%s" fill="#b00020"><title>%s</title></rect>`+"\n", f(d.x(ev.Time())-1.5), f(diagramTop), f(d.lane*float64(d.n)), html.EscapeString(ev.Name+": "+ev.Message))
		}
	}
}

// writeAxis draws the time axis: ticks at 1, 2 or 5 times a power of ten,
// at least 60 px apart, and the end time.
func (d *diagram) writeAxis(bw *bufio.Writer) {
	f := svgNum
	fmt.Fprintf(bw, `<path d="M%s,%sH%s" stroke="#607d8b" fill="none"/>`+"\n", f(diagramLeft), f(d.axisY), f(diagramWidth-diagramRight))
	step := niceStep(d.tMax * 60 / (diagramWidth - diagramLeft - diagramRight))
	for k := 0; float64(k)*step <= d.tMax*(1+1e-9); k++ {
		tv := float64(k) * step
		fmt.Fprintf(bw, `<path d="M%s,%sv4" stroke="#607d8b"/><text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n",
			f(d.x(tv)), f(d.axisY), f(d.x(tv)), f(d.axisY+16), strconv.FormatFloat(tv, 'g', 6, 64))
	}
	fmt.Fprintf(bw, `<text x="%s" y="%s" text-anchor="end">end: t = %s</text>`+"\n", f(diagramWidth-diagramRight), f(d.axisY+30), strconv.FormatFloat(d.tMax, 'g', -1, 64))
}

// writeLegend draws the legend below the axis.
func (d *diagram) writeLegend(bw *bufio.Writer) {
	for _, it := range d.legend {
		ly := d.legendY + 16*it.row + 10
		fmt.Fprintf(bw, `%s<text x="%s" y="%s">%s</text>`, it.draw(it.x, ly), svgNum(it.x+16), svgNum(ly), html.EscapeString(it.text))
	}
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
