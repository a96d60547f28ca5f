package view

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/internal/svg"
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

// The axes a space-time diagram can use (SVGOptions.Axis).
const (
	AxisTime  = "time"  // time from left to right
	AxisEvent = "event" // every event a column of its own, in order
)

// SVGOptions choose how SVG draws a trace.
type SVGOptions struct {
	// Axis is AxisTime or AxisEvent; "" chooses as the page does: event
	// order for a checker's counterexample and for a run that takes at
	// most one time unit, time otherwise.
	Axis string
}

// SVG writes a static space-time diagram of a trace, fit for a paper, on
// the axis the page would open it on (SVGOptions).
func SVG(w io.Writer, tr *trace.Trace) error { return WriteSVG(w, tr, SVGOptions{}) }

// WriteSVG writes a static space-time diagram of a trace, fit for a paper:
// one horizontal line per node (labelled with its index and ID), time (or event
// order) from left to right with ticks, an arrow per message from its
// send to its delivery coloured by type (dashed and crossed out when it
// was dropped at a terminated node, dotted to the right edge when it is
// still in flight at the end), a dot per decision (large for elected), a
// red band per violation, marked as the page marks them (a violation
// line, the second node elected, a cut, a whole run that ends with no
// node elected) and named above it, and a legend that wraps. On the event
// axis event k is the k-th, counted from 1 as the page's status line and
// its #e=k do. A run with faults (docs/faults.md) has its lost messages
// end in a red cross short of their receiver ("lost", or "cut" by a
// partition), a duplicate's copy marked "dup", a delayed message marked
// "delay +d", a crash as a cross on the node's line, dashed grey after
// it, a partition as a shaded band over its time window (its two sides
// lettered A and B), each with a title naming it, and the legend names
// them. The document is written with internal/svg, as the figures of
// elect plot are.
func WriteSVG(w io.Writer, tr *trace.Trace, opts SVGOptions) error {
	d, err := newDiagram(tr, opts)
	if err != nil {
		return err
	}
	sw := svg.New(w, diagramWidth, d.height, "", "font-family", "sans-serif", "font-size", "11")
	d.writeHead(sw)
	d.writePartitions(sw)
	d.writeLanes(sw)
	d.writeMessages(sw)
	d.writeDecisions(sw)
	d.writeViolations(sw)
	d.writeAxis(sw)
	d.writeLegend(sw)
	return sw.End()
}

// The margins of a space-time diagram and its width, in pixels.
const (
	diagramLeft, diagramRight, diagramTop = 70.0, 20.0, 30.0
	diagramWidth                          = 900.0
	// violationRow is the room above the lanes for the violations' names.
	violationRow = 14.0
)

// diagram is the layout of a trace's space-time diagram: what SVG draws
// and where.
type diagram struct {
	tr *trace.Trace
	h  *trace.Header
	n  int
	// events says the axis is event order.
	events bool
	// tMax is the time of the last event (at least 1), at the right edge.
	tMax float64
	// top is the lanes' top; lane is the height of a node's line.
	top, lane float64
	// axisY, legendY and height are the axis's, the legend's and the
	// drawing's bottom.
	axisY, legendY, height float64
	msgs                   []message
	crashAt                map[int32]int // the event at which each crashed node crashed
	partitions             []faults.Clause
	violations             []violation
	legend                 []placedEntry
	color                  map[string]string // each message type's colour
	typeIndex              map[string]int    // each message type's declaration index
}

// violation is an event the page marks as a violation, and what it says.
type violation struct {
	event int
	text  string
}

// newDiagram lays out the diagram of tr.
func newDiagram(tr *trace.Trace, opts SVGOptions) (*diagram, error) {
	h := tr.Header
	d := &diagram{tr: tr, h: h, n: h.N, crashAt: map[int32]int{}, color: map[string]string{}, typeIndex: map[string]int{}}
	d.msgs, _ = matchMessages(tr)
	for k := range tr.Events {
		if ev := &tr.Events[k]; ev.Ev == "crash" {
			if _, ok := d.crashAt[ev.Node]; !ok {
				d.crashAt[ev.Node] = k
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
	tMin := math.Inf(1)
	for k := range tr.Events {
		d.tMax = max(d.tMax, tr.Events[k].Time())
		tMin = min(tMin, tr.Events[k].Time())
	}
	switch opts.Axis {
	case "":
		d.events = h.Runtime == "check" || len(tr.Events) > 1 && d.tMax-tMin <= 1
	case AxisEvent:
		d.events = true
	case AxisTime:
	default:
		return nil, fmt.Errorf("view: axis %q: use %s or %s", opts.Axis, AxisTime, AxisEvent)
	}
	if d.tMax <= 0 {
		d.tMax = 1
	}
	d.violations = violations(tr)
	d.top = diagramTop
	if len(d.violations) > 0 {
		d.top += violationRow
	}
	d.lane = 18.0
	if d.n > 40 {
		d.lane = max(2, 720/float64(d.n))
	}
	var rows float64
	d.legend, rows = placeLegend(legendEntries(h, len(d.violations) > 0))
	d.axisY = d.top + d.lane*float64(d.n) + 4
	d.legendY = d.axisY + 34
	d.height = d.legendY + 16*rows
	for k, m := range h.Messages {
		d.color[m.Name] = typeColors[k%len(typeColors)]
		d.typeIndex[m.Name] = k
	}
	return d, nil
}

// violations lists the events the page marks as violations: a violation
// line; the second node to be elected (the monitor reports two leaders as
// the run's outcome, not as a line); a cut (the execution comes back to
// the state of its loop line); and the last event of a whole run (not
// truncated, not cut) that ends with no node elected.
func violations(tr *trace.Trace) []violation {
	var out []violation
	elected := map[int32]bool{}
	cut := false
	for k := range tr.Events {
		ev := &tr.Events[k]
		switch ev.Ev {
		case "violation":
			out = append(out, violation{k, ev.Name + ": " + ev.Message})
		case "decide":
			if ev.Decision == "elected" && !elected[ev.Node] {
				elected[ev.Node] = true
				if len(elected) == 2 {
					out = append(out, violation{k, fmt.Sprintf("%s: node %d is the second node elected", election.PropMultipleLeaders, ev.Node)})
				}
			}
		case "cut":
			cut = true
			out = append(out, violation{k, election.PropNonTermination.String() + ": the execution comes back to the state of its loop line (" + ev.Reason + ")"})
		}
	}
	last := len(tr.Events) - 1
	if last >= 0 && !tr.Truncated && !cut && len(elected) == 0 && (len(out) == 0 || out[len(out)-1].event != last) {
		out = append(out, violation{last, election.PropNoLeader.String() + ": the execution ended with no node elected"})
	}
	return out
}

// ex is the abscissa of event k: its time, or its column in event order.
func (d *diagram) ex(k int) float64 {
	if d.events {
		return diagramLeft + (diagramWidth-diagramLeft-diagramRight)*(float64(k)+0.5)/float64(max(1, len(d.tr.Events)))
	}
	return d.x(d.tr.Events[k].Time())
}

// x is the abscissa of time t: on the event axis, before the first event
// at or after t.
func (d *diagram) x(t float64) float64 {
	if d.events {
		q := 0
		for q < len(d.tr.Events) && d.tr.Events[q].Time() < t {
			q++
		}
		return diagramLeft + (diagramWidth-diagramLeft-diagramRight)*float64(q)/float64(max(1, len(d.tr.Events)))
	}
	return diagramLeft + (diagramWidth-diagramLeft-diagramRight)*t/d.tMax
}

// y is the ordinate of node i's line.
func (d *diagram) y(i int32) float64 { return d.top + (float64(i)+0.5)*d.lane }

// coord writes a coordinate.
func coord(v float64) string { return svg.Num(v) }

// legendEntry is a line of the legend: its text and its swatch, drawn at
// (x, y), the row's baseline.
type legendEntry struct {
	text string
	draw func(w *svg.Writer, x, y float64)
}

// placedEntry is a legend entry at its place: its left edge and its row.
type placedEntry struct {
	legendEntry
	x, row float64
}

// cross is the path of an x of side s whose top left corner is (x, y).
func cross(x, y, s float64) string { return new(svg.Path).Cross(x, y, s).String() }

// legendEntries lists the legend of a diagram of a trace with header h:
// the message types, the decisions, the ends of messages, a violation
// when there is one, and the faults when the run had some.
func legendEntries(h *trace.Header, violated bool) []legendEntry {
	var legend []legendEntry
	for k, m := range h.Messages {
		c := typeColors[k%len(typeColors)]
		legend = append(legend, legendEntry{m.Name, func(w *svg.Writer, x, y float64) {
			w.Elem("rect", "x", coord(x), "y", coord(y-9), "width", "10", "height", "10", "fill", c)
		}})
	}
	legend = append(legend,
		legendEntry{"elected", func(w *svg.Writer, x, y float64) {
			w.Elem("circle", "cx", coord(x+5), "cy", coord(y-4), "r", "6", "fill", electedCol)
		}},
		legendEntry{"not elected", func(w *svg.Writer, x, y float64) {
			w.Elem("circle", "cx", coord(x+5), "cy", coord(y-4), "r", "3", "fill", notElected)
		}},
		legendEntry{"dropped (reached a halted node)", func(w *svg.Writer, x, y float64) {
			w.Elem("path", "d", new(svg.Path).MoveTo(x-2, y-4).LineTo(x+5, y-4).String()+cross(x+6, y-6, 4), "stroke", "#555", "stroke-dasharray", "3 2", "fill", "none")
		}},
		legendEntry{"in flight at the end", func(w *svg.Writer, x, y float64) {
			w.Elem("path", "d", new(svg.Path).MoveTo(x-2, y-4).LineTo(x+10, y-4).String(), "stroke", "#555", "stroke-dasharray", "1 3", "fill", "none")
		}})
	if violated {
		legend = append(legend, legendEntry{"violation (named above)", func(w *svg.Writer, x, y float64) {
			w.Elem("rect", "x", coord(x+3.5), "y", coord(y-10), "width", "3", "height", "12", "fill", faultCol)
		}})
	}
	if h.Faults == "" {
		return legend
	}
	return append(legend,
		legendEntry{"lost (cut: by a partition)", func(w *svg.Writer, x, y float64) {
			w.Elem("path", "d", new(svg.Path).MoveTo(x-2, y-4).LineTo(x+4, y-4).String()+cross(x+4, y-7, 6), "stroke", faultCol, "stroke-width", "1.5", "fill", "none")
		}},
		legendEntry{"dup: the copy of a duplicate", func(w *svg.Writer, x, y float64) {
			w.TextElem("text", "dup", "x", coord(x-3), "y", coord(y-1), "fill", faultCol, "font-size", "8", "font-weight", "bold")
		}},
		legendEntry{"delay +d: late", func(w *svg.Writer, x, y float64) {
			w.TextElem("text", "+d", "x", coord(x-1), "y", coord(y-1), "fill", faultCol, "font-size", "8", "font-weight", "bold")
		}},
		legendEntry{"crash, then a dashed line", func(w *svg.Writer, x, y float64) {
			w.Elem("path", "d", cross(x+1, y-8, 8), "stroke", crashCol, "stroke-width", "2", "fill", "none")
		}},
		legendEntry{"partition", func(w *svg.Writer, x, y float64) {
			w.Elem("rect", "x", coord(x), "y", coord(y-9), "width", "10", "height", "10", "fill", partitionCol, "stroke", "#e65100")
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

// writeHead writes the arrow heads of each message type, the white
// background and the title.
func (d *diagram) writeHead(w *svg.Writer) {
	h := d.h
	w.Open("defs")
	for k := range h.Messages {
		w.Open("marker", "id", fmt.Sprintf("a%d", k), "viewBox", "0 0 10 10", "refX", "10", "refY", "5", "markerWidth", "6", "markerHeight", "6", "orient", "auto")
		w.Elem("path", "d", "M0,0L10,5L0,10z", "fill", typeColors[k%len(typeColors)])
		w.Close()
	}
	w.Close()
	w.Newline()
	w.Elem("rect", "width", "100%", "height", "100%", "fill", "white")
	w.Newline()
	w.TextElem("text", fmt.Sprintf("%s, n = %d, %s delivery, seed %d (t in %s)", h.Algorithm, d.n, h.Delivery, h.Seed, h.Time), "x", coord(diagramLeft), "y", "18", "font-size", "13")
	w.Newline()
}

// writePartitions shades each partition's time window, with its sides
// lettered on the nodes' lines when they are tall enough.
func (d *diagram) writePartitions(w *svg.Writer) {
	for _, c := range d.partitions {
		xa, xb := d.x(max(0, min(float64(c.From), d.tMax))), d.x(max(0, min(float64(c.To), d.tMax)))
		w.Open("g", "class", "partition")
		w.Title(fmt.Sprintf("partition %s | %s from t = %d up to %d", sideText(c.A), sideText(c.B), c.From, c.To))
		w.Elem("rect", "x", coord(xa), "y", coord(d.top), "width", coord(max(2, xb-xa)), "height", coord(d.lane*float64(d.n)), "fill", partitionCol)
		w.TextElem("text", fmt.Sprintf("partition %s | %s", sideText(c.A), sideText(c.B)), "x", coord(xa+2), "y", coord(d.top-3), "fill", "#e65100", "font-size", "10")
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
					w.TextElem("text", side, "x", coord(xa+2), "y", coord(d.y(i)-3), "fill", "#e65100", "font-size", "9", "font-weight", "bold")
				}
			}
		}
		w.Close()
		w.Newline()
	}
}

// writeLanes draws each node's line, labelled with its index and its ID
// on small networks as the page does ("[2] ID 1", so that equal IDs are
// told apart), ending in a cross where the node crashed.
func (d *diagram) writeLanes(w *svg.Writer) {
	for i := range int32(d.n) {
		y := d.y(i)
		end := diagramWidth - diagramRight
		k, crashed := d.crashAt[i]
		if crashed {
			end = d.ex(k)
		}
		w.Elem("line", "x1", coord(diagramLeft), "y1", coord(y), "x2", coord(end), "y2", coord(y), "stroke", "#cfd8dc")
		if crashed {
			w.Open("g", "class", "crash")
			w.Title(fmt.Sprintf("node %d crashed at t = %s", i, strconv.FormatFloat(d.tr.Events[k].Time(), 'g', -1, 64)))
			w.Elem("line", "x1", coord(end), "y1", coord(y), "x2", coord(diagramWidth-diagramRight), "y2", coord(y), "stroke", "#757575", "stroke-width", "1.5", "stroke-dasharray", "4 4")
			w.Elem("path", "d", cross(end-5, y-5, 10), "stroke", crashCol, "stroke-width", "2.5", "fill", "none")
			w.Close()
		}
		if d.n <= 60 {
			w.TextElem("text", fmt.Sprintf("[%d] ID %d", i, d.h.IDs[i]), "x", "4", "y", coord(y+4))
		}
		w.Newline()
	}
}

// writeMessages draws an arrow per message, or a line ending in a red
// cross for a lost one.
func (d *diagram) writeMessages(w *svg.Writer) {
	for _, m := range d.msgs {
		if m.lost != "" {
			d.writeLost(w, m)
		} else {
			d.writeSent(w, m)
		}
	}
}

// writeLost draws a lost message: 70% of the way it would have gone in one
// time unit (on the event axis, three events), ending in a cross labelled
// "lost" (or "cut" by a partition).
func (d *diagram) writeLost(w *svg.Writer, m message) {
	x0, y0 := d.ex(m.send), d.y(m.from)
	next := d.x(d.tr.Events[m.send].Time() + 1)
	if d.events {
		next = d.ex(min(len(d.tr.Events)-1, m.send+3))
	}
	x1 := x0 + 0.7*max(next-x0, 12)
	y1 := y0 + 0.7*(d.y(m.to)-y0)
	label := "lost"
	if m.lost == "partition" {
		label = "cut"
	}
	w.Open("g", "class", label)
	w.Title(fmt.Sprintf("%s %s: node %d to node %d, %s (%s)", m.typ, m.payload, m.from, m.to, label, m.lost))
	w.Elem("line", "x1", coord(x0), "y1", coord(y0), "x2", coord(x1), "y2", coord(y1), "stroke", d.color[m.typ])
	w.Elem("path", "d", cross(x1-4, y1-4, 8), "stroke", faultCol, "stroke-width", "2", "fill", "none")
	w.TextElem("text", label, "x", coord(x1+6), "y", coord(y1+4), "fill", faultCol, "font-size", "10")
	w.Close()
	w.Newline()
}

// writeSent draws a message that was not lost: an arrow to its delivery,
// dashed and crossed out when it was dropped at a halted node, dotted to
// the right edge when it is still in flight at the end, marked when it is
// a duplicate's copy or was delayed.
func (d *diagram) writeSent(w *svg.Writer, m message) {
	x0, y0 := d.ex(m.send), d.y(m.from)
	if m.dup && !d.events {
		x0 += 4 // the copy leaves right after its original
	}
	x1, y1, dash, end, what := diagramWidth-diagramRight, d.y(m.to), "1 3", "", "in flight at the end"
	switch {
	case m.recv >= 0 && m.dropped:
		x1, dash, what = d.ex(m.recv), "4 3", "dropped"
	case m.recv >= 0:
		x1, dash, end, what = d.ex(m.recv), "", fmt.Sprintf("url(#a%d)", d.typeIndex[m.typ]), "delivered"
	}
	w.Open("line", "x1", coord(x0), "y1", coord(y0), "x2", coord(x1), "y2", coord(y1), "stroke", d.color[m.typ], "stroke-dasharray", dash, "marker-end", end)
	w.Title(fmt.Sprintf("%s %s: node %d to node %d, %s", m.typ, m.payload, m.from, m.to, what))
	w.Close()
	w.Newline()
	if m.dropped {
		w.Elem("path", "d", cross(x1-4, y1-4, 8), "stroke", d.color[m.typ], "fill", "none")
		w.Newline()
	}
	mx, my := (x0+x1)/2, (y0+y1)/2
	if m.dup {
		w.Open("text", "class", "dup", "x", coord(mx+3), "y", coord(my-3), "fill", faultCol, "font-size", "10", "font-weight", "bold")
		w.Text("dup")
		w.Title("the copy of a duplicated message")
		w.Close()
		w.Newline()
	}
	if m.delay > 0 {
		w.Open("text", "class", "delay", "x", coord(mx+3), "y", coord(my+9), "fill", faultCol, "font-size", "10", "font-weight", "bold")
		w.Text(fmt.Sprintf("delay +%d", m.delay))
		w.Title(fmt.Sprintf("delayed by %d time units", m.delay))
		w.Close()
		w.Newline()
	}
}

// writeDecisions draws a dot per decision (large for elected).
func (d *diagram) writeDecisions(w *svg.Writer) {
	for k := range d.tr.Events {
		ev := &d.tr.Events[k]
		if ev.Ev != "decide" {
			continue
		}
		r, c := "3", notElected
		if ev.Decision == "elected" {
			r, c = "6", electedCol
		}
		w.Open("circle", "cx", coord(d.ex(k)), "cy", coord(d.y(ev.Node)), "r", r, "fill", c)
		w.Title(fmt.Sprintf("node %d %s", ev.Node, ev.Decision))
		w.Close()
		w.Newline()
	}
}

// writeViolations draws a red band over the lanes at each violation, its
// kind named above it (the whole text in its title), as the page marks
// them.
func (d *diagram) writeViolations(w *svg.Writer) {
	for _, v := range d.violations {
		x := d.ex(v.event)
		kind, _, _ := strings.Cut(v.text, ":")
		w.Open("g", "class", "violation")
		w.Title(fmt.Sprintf("event #%d: %s", v.event+1, v.text))
		w.Elem("rect", "x", coord(x-1.5), "y", coord(d.top), "width", "3", "height", coord(d.lane*float64(d.n)), "fill", faultCol)
		anchor := "middle"
		switch {
		case x > diagramWidth-diagramRight-60:
			anchor = "end"
		case x < diagramLeft+60:
			anchor = "start"
		}
		w.TextElem("text", kind, "x", coord(x), "y", coord(d.top-4), "fill", faultCol, "font-size", "10", "font-weight", "bold", "text-anchor", anchor)
		w.Close()
		w.Newline()
	}
}

// writeAxis draws the axis: time, with ticks at 1, 2 or 5 times a power
// of ten, at least 60 px apart, and the end time; or event order, with
// ticks at events #1 and every 1, 2 or 5 times a power of ten, counted
// from 1 as the page's status line and #e= count.
func (d *diagram) writeAxis(w *svg.Writer) {
	w.Elem("path", "d", new(svg.Path).MoveTo(diagramLeft, d.axisY).LineTo(diagramWidth-diagramRight, d.axisY).String(), "stroke", "#607d8b", "fill", "none")
	w.Newline()
	tick := func(x float64, label string) {
		w.Elem("path", "d", new(svg.Path).MoveTo(x, d.axisY).LineTo(x, d.axisY+4).String(), "stroke", "#607d8b")
		w.TextElem("text", label, "x", coord(x), "y", coord(d.axisY+16), "text-anchor", "middle")
		w.Newline()
	}
	if d.events {
		e := len(d.tr.Events)
		step := max(1, int(niceStep(float64(e)*60/(diagramWidth-diagramLeft-diagramRight))))
		if e > 0 {
			tick(d.ex(0), "#1")
		}
		for v := step; v <= e; v += step {
			if v > 1 {
				tick(d.ex(v-1), "#"+strconv.Itoa(v))
			}
		}
		caption := fmt.Sprintf("event order: %d events, #k the k-th; t = 0 to %s", e, strconv.FormatFloat(d.tMax, 'g', -1, 64))
		w.TextElem("text", caption, "x", coord(diagramWidth-diagramRight), "y", coord(d.axisY+30), "text-anchor", "end")
		w.Newline()
		return
	}
	step := niceStep(d.tMax * 60 / (diagramWidth - diagramLeft - diagramRight))
	for k := 0; float64(k)*step <= d.tMax*(1+1e-9); k++ {
		tv := float64(k) * step
		tick(d.x(tv), strconv.FormatFloat(tv, 'g', 6, 64))
	}
	w.TextElem("text", "end: t = "+strconv.FormatFloat(d.tMax, 'g', -1, 64), "x", coord(diagramWidth-diagramRight), "y", coord(d.axisY+30), "text-anchor", "end")
	w.Newline()
}

// writeLegend draws the legend below the axis.
func (d *diagram) writeLegend(w *svg.Writer) {
	for _, it := range d.legend {
		ly := d.legendY + 16*it.row + 10
		it.draw(w, it.x, ly)
		w.TextElem("text", it.text, "x", coord(it.x+16), "y", coord(ly))
	}
	w.Newline()
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
