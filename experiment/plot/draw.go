package plot

import (
	"fmt"
	"image/color"
	"math"
	"strings"
)

// Colours of the frame.
var (
	black     = color.NRGBA{A: 255}
	white     = color.NRGBA{R: 255, G: 255, B: 255, A: 255}
	darkGrey  = color.NRGBA{R: 60, G: 60, B: 60, A: 255}
	gridColor = color.NRGBA{R: 228, G: 228, B: 228, A: 255}
	legendRim = color.NRGBA{R: 190, G: 190, B: 190, A: 255}
)

// tick is a mark on a log axis; a minor one has no label.
type tick struct {
	value float64
	label string
}

// logTicks marks a log axis alike on both axes: a labelled tick at every
// power of ten in range, unlabelled ticks at 2..9 times it; when fewer than
// two powers of ten are in range, 2 and 5 times them are labelled too, and
// when still fewer than two labels are, every minor tick is.
func logTicks(lo, hi float64) []tick {
	if !(lo > 0) || !(hi >= lo) {
		return nil
	}
	first, last := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	in := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	count := func(keep func(m int) bool) int {
		c := 0
		for e := first; e <= last; e++ {
			for m := 1; m <= 9; m++ {
				if keep(m) && in(float64(m)*math.Pow(10, float64(e))) {
					c++
				}
			}
		}
		return c
	}
	labelled := func(m int) bool { return m == 1 }
	if count(labelled) < 2 {
		labelled = func(m int) bool { return m == 1 || m == 2 || m == 5 }
		if count(labelled) < 2 {
			labelled = func(int) bool { return true }
		}
	}
	var ticks []tick
	for e := first; e <= last; e++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow(10, float64(e))
			if !in(v) {
				continue
			}
			t := tick{value: v}
			if labelled(m) {
				t.label = tickLabel(m, e)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// tickLabel writes m*10^e the same way on every axis: 10^e for a power of
// ten, m×10^e otherwise, which labelRuns typesets with a raised exponent
// (a minus sign as U+2212).
func tickLabel(m, e int) string {
	exp := strings.Replace(fmt.Sprint(e), "-", "−", 1)
	if m == 1 {
		return "10^" + exp
	}
	return fmt.Sprintf("%d×10^%s", m, exp)
}

// x and y place a data point.
func (f *Figure) x(fr frame, v float64) float64 {
	return fr.left + (math.Log(v)-math.Log(f.xlo))/(math.Log(f.xhi)-math.Log(f.xlo))*(fr.right-fr.left)
}

func (f *Figure) y(fr frame, v float64) float64 {
	return fr.bottom - (math.Log(v)-math.Log(f.ylo))/(math.Log(f.yhi)-math.Log(f.ylo))*(fr.bottom-fr.top)
}

func (f *Figure) pts(fr frame, data []xy) []pt {
	out := make([]pt, len(data))
	for i, d := range data {
		out[i] = pt{f.x(fr, d.x), f.y(fr, d.y)}
	}
	return out
}

// draw draws the figure: the title and subtitle, the axes, the data and
// reference lines, the legend.
func (f *Figure) draw(c canvas) {
	w, h := f.Size()
	c.fill(rect(pt{0, 0}, pt{w, h}), white)
	y := float64(margin)
	for _, line := range f.title {
		y += ascent(f.sizes.title)
		c.text(pt{w / 2, y}, []textRun{{s: line, size: f.sizes.title}}, black, anchorMiddle, false)
		y += descent(f.sizes.title)
	}
	if len(f.title) > 0 {
		y += gap
	}
	for _, line := range f.subtitle {
		y += ascent(f.sizes.legend)
		c.text(pt{w / 2, y}, []textRun{{s: line, size: f.sizes.legend}}, darkGrey, anchorMiddle, false)
		y += descent(f.sizes.legend)
	}
	fr := f.frame
	f.drawAxes(c, fr)
	for _, sr := range f.series {
		if sr.band() {
			poly := f.pts(fr, sr.lo)
			for j := len(sr.hi) - 1; j >= 0; j-- {
				poly = append(poly, pt{f.x(fr, sr.hi[j].x), f.y(fr, sr.hi[j].y)})
			}
			bandFill, bandEdge := sr.style.color, sr.style.color
			bandFill.A, bandEdge.A = bandFillAlpha, bandEdgeAlpha
			c.fill(poly, bandFill)
			c.stroke(poly, true, lineStyle{color: bandEdge, width: bandEdgeWidth})
		}
	}
	for _, r := range f.refs {
		c.stroke(f.pts(fr, r.pts), false, r.style)
	}
	for _, sr := range f.series {
		pts := f.pts(fr, sr.mean)
		c.stroke(pts, false, sr.style)
		for _, p := range pts {
			drawGlyph(c, p, sr.glyph, sr.style.color)
		}
	}
	f.drawLegend(c)
}

// drawAxes draws the grid, the axes with their ticks and labels, and the
// axes' names.
func (f *Figure) drawAxes(c canvas, fr frame) {
	for _, t := range fr.xticks {
		if t.label != "" {
			x := f.x(fr, t.value)
			c.stroke([]pt{{x, fr.top}, {x, fr.bottom}}, false, lineStyle{color: gridColor, width: gridWidth})
		}
	}
	for _, t := range fr.yticks {
		if t.label != "" {
			y := f.y(fr, t.value)
			c.stroke([]pt{{fr.left, y}, {fr.right, y}}, false, lineStyle{color: gridColor, width: gridWidth})
		}
	}
	axis := lineStyle{color: black, width: axisWidth}
	ax, ay := fr.left-axisPad, fr.bottom+axisPad // the axes' lines
	c.stroke([]pt{{ax, ay}, {fr.right, ay}}, false, axis)
	c.stroke([]pt{{ax, fr.top}, {ax, ay}}, false, axis)
	labelsH := 0.0
	for _, t := range fr.xticks {
		x, l := f.x(fr, t.value), tickLen/2.0
		if t.label != "" {
			l = tickLen
			labelsH = math.Max(labelsH, f.labelHeight(t.label))
		}
		c.stroke([]pt{{x, ay}, {x, ay + l}}, false, axis)
	}
	base := ay + tickLen + gap + labelsH
	for _, t := range fr.xticks {
		if t.label != "" {
			c.text(pt{f.x(fr, t.value), base}, f.labelRuns(t.label), black, anchorMiddle, false)
		}
	}
	for _, t := range fr.yticks {
		y, l := f.y(fr, t.value), tickLen/2.0
		if t.label != "" {
			l = tickLen
			// the label's digits centred on the tick
			c.text(pt{ax - tickLen - gap, y + 0.35*f.sizes.tick}, f.labelRuns(t.label), black, anchorEnd, false)
		}
		c.stroke([]pt{{ax - l, y}, {ax, y}}, false, axis)
	}
	xname := base + descent(f.sizes.tick) + gap + ascent(f.sizes.label)
	c.text(pt{(fr.left + fr.right) / 2, xname}, []textRun{{s: f.xlabel, size: f.sizes.label}}, black, anchorMiddle, false)
	yname := fr.left - axisPad - tickLen - gap
	for _, t := range fr.yticks {
		if t.label != "" {
			yname = math.Min(yname, fr.left-axisPad-tickLen-gap-runsWidth(f.labelRuns(t.label)))
		}
	}
	c.text(pt{yname - gap - descent(f.sizes.label), (fr.top + fr.bottom) / 2}, []textRun{{s: f.ylabel, size: f.sizes.label}}, black, anchorMiddle, true)
}

// drawLegend draws the legend's box and its entries: each entry's sample
// (its band, line and marker) and its text.
func (f *Figure) drawLegend(c canvas) {
	b := f.box
	if b.place == LegendNone {
		return
	}
	box := rect(pt{b.x, b.y}, pt{b.x + b.w, b.y + b.h})
	c.fill(box, white)
	c.stroke(box, true, lineStyle{color: legendRim, width: 0.4})
	line := f.legendRowHeight()
	space := width(" ", f.sizes.legend)
	for i, e := range f.legend {
		x := b.x + legendPad + b.left[i]
		y := b.y + legendPad + b.top[i]
		mid := y + line/2
		if e.band {
			fill, edge := e.line.color, e.line.color
			fill.A, edge.A = bandFillAlpha, bandEdgeAlpha
			r := rect(pt{x, mid - line*0.3}, pt{x + legendThumb, mid + line*0.3})
			c.fill(r, fill)
			c.stroke(r, true, lineStyle{color: edge, width: bandEdgeWidth})
		}
		c.stroke([]pt{{x, mid}, {x + legendThumb, mid}}, false, e.line)
		if e.glyph >= 0 {
			drawGlyph(c, pt{x + legendThumb/2, mid}, e.glyph, e.line.color)
		}
		for k, t := range b.texts[i] {
			base := y + float64(k)*line + 0.5 + ascent(f.sizes.legend)
			c.text(pt{x + legendThumb + space, base}, []textRun{{s: t, size: f.sizes.legend}}, black, anchorStart, false)
		}
	}
}
