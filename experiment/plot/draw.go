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
	gridColor = color.NRGBA{R: 225, G: 225, B: 225, A: 255}
	legendBG  = color.NRGBA{R: 245, G: 245, B: 245, A: 255}
	legendRim = color.NRGBA{R: 170, G: 170, B: 170, A: 255}
)

// The frame's measures, in points.
const (
	margin    = 6   // around the figure
	tickLen   = 7   // a labelled tick; minor ticks are half as long
	axisWidth = 1   // the axes' lines and ticks
	axisPad   = 6   // between the data and the axes, so no glyph sits on one
	gridWidth = 0.6 // the grid's lines
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

// frame is where the plot's parts go, in points.
type frame struct {
	left, right, top, bottom float64 // the data's rectangle
	xticks, yticks           []tick
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

// titleBottom is where the title's last line ends.
func (f *Figure) titleBottom() float64 {
	if len(f.title) == 1 && f.title[0] == "" {
		return margin
	}
	return margin + float64(len(f.title))*(ascent(titleSize)+descent(titleSize)) + 8
}

// layout places the data's rectangle: below the title, right of the y
// label and tick labels, above the x tick labels and label, with room on
// the right for the last x tick label.
func (f *Figure) layout() frame {
	fr := frame{xticks: logTicks(f.xlo, f.xhi), yticks: logTicks(f.ylo, f.yhi)}
	labelsW, labelsH, lastHalf := 0.0, 0.0, 0.0
	for _, t := range fr.yticks {
		if t.label != "" {
			labelsW = math.Max(labelsW, runsWidth(labelRuns(t.label, tickSize)))
		}
	}
	for _, t := range fr.xticks {
		if t.label != "" {
			labelsH = math.Max(labelsH, labelHeight(t.label, tickSize))
			if t.value >= f.xhi/1.5 {
				lastHalf = runsWidth(labelRuns(t.label, tickSize)) / 2
			}
		}
	}
	fr.left = margin + ascent(labelSize) + descent(labelSize) + 8 + labelsW + 3 + tickLen + axisPad
	fr.right = f.width - math.Max(12, lastHalf+margin)
	fr.top = f.titleBottom() + 8
	fr.bottom = f.height - margin - ascent(labelSize) - descent(labelSize) - 4 - descent(tickSize) - labelsH - 3 - tickLen - axisPad
	return fr
}

// draw draws the figure: the plot at the top, the legend below it.
func (f *Figure) draw(c canvas) {
	w, h := f.Size()
	c.fill(rect(pt{0, 0}, pt{w, h}), white)
	y := float64(margin)
	for _, line := range f.title {
		y += ascent(titleSize)
		if line != "" {
			c.text(pt{w / 2, y}, []textRun{{s: line, size: titleSize}}, black, anchorMiddle, false)
		}
		y += descent(titleSize)
	}
	fr := f.layout()
	f.drawAxes(c, fr)
	for _, sr := range f.series {
		if sr.band() {
			poly := f.pts(fr, sr.lo)
			for j := len(sr.hi) - 1; j >= 0; j-- {
				poly = append(poly, pt{f.x(fr, sr.hi[j].x), f.y(fr, sr.hi[j].y)})
			}
			bandFill, bandEdge := sr.color, sr.color
			bandFill.A, bandEdge.A = 70, 160
			c.fill(poly, bandFill)
			c.stroke(poly, true, lineStyle{color: bandEdge, width: bandEdgeWidth})
		}
	}
	for _, r := range f.refs {
		c.stroke(f.pts(fr, r.pts), false, r.style)
	}
	for _, sr := range f.series {
		pts := f.pts(fr, sr.mean)
		c.stroke(pts, false, sr.style())
		for _, p := range pts {
			drawGlyph(c, p, sr.glyph, sr.color)
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
	c.stroke([]pt{{fr.left, ay}, {fr.right, ay}}, false, axis)
	c.stroke([]pt{{ax, fr.top}, {ax, fr.bottom}}, false, axis)
	labelsH := 0.0
	for _, t := range fr.xticks {
		x, l := f.x(fr, t.value), tickLen/2.0
		if t.label != "" {
			l = tickLen
			labelsH = math.Max(labelsH, labelHeight(t.label, tickSize))
		}
		c.stroke([]pt{{x, ay}, {x, ay + l}}, false, axis)
	}
	base := ay + tickLen + 3 + labelsH
	for _, t := range fr.xticks {
		if t.label != "" {
			c.text(pt{f.x(fr, t.value), base}, labelRuns(t.label, tickSize), black, anchorMiddle, false)
		}
	}
	for _, t := range fr.yticks {
		y, l := f.y(fr, t.value), tickLen/2.0
		if t.label != "" {
			l = tickLen
			// the label's digits centred on the tick
			c.text(pt{ax - tickLen - 3, y + 0.35*tickSize}, labelRuns(t.label, tickSize), black, anchorEnd, false)
		}
		c.stroke([]pt{{ax - l, y}, {ax, y}}, false, axis)
	}
	xname := base + descent(tickSize) + 4 + ascent(labelSize)
	c.text(pt{(fr.left + fr.right) / 2, xname}, []textRun{{s: "n", size: labelSize}}, black, anchorMiddle, false)
	c.text(pt{margin + ascent(labelSize), (fr.top + fr.bottom) / 2}, []textRun{{s: f.ylabel, size: labelSize}}, black, anchorMiddle, true)
}

// The legend's layout, in points.
const (
	legendPad   = 8  // inside the box
	legendGap   = 18 // between columns
	legendThumb = 34 // an entry's sample of its line
)

// legendRowHeight is the height of a line of the legend.
func legendRowHeight() float64 { return ascent(legendSize) + descent(legendSize) + 4 }

// legendLayout places the legend's entries in width: the headers first,
// each across the width (wrapped), then the other entries in as many
// columns of one line each as fit (filled down each column, each column
// as wide as its widest entry), or else in one column, each entry wrapped
// to the width. It returns the entries' lines, the left of each entry and
// its top (from the top left of the box's inside), and the height of the
// entries.
func (f *Figure) legendLayout(w float64) (texts [][]string, left, top []float64, height float64) {
	line := legendRowHeight()
	avail := w - 2*legendPad
	n := len(f.legend)
	texts, left, top = make([][]string, n), make([]float64, n), make([]float64, n)
	y := 0.0
	var rest []int
	var widths []float64
	space := width(" ", legendSize)
	for i, e := range f.legend {
		if e.line != nil {
			rest = append(rest, i)
			widths = append(widths, legendThumb+space+width(e.label, legendSize))
			continue
		}
		texts[i] = wrap(e.label, legendSize, avail)
		top[i] = y
		y += float64(len(texts[i])) * line
	}
	if y > 0 && len(rest) > 0 {
		y += 3 // between the headers and the entries
	}
	for cols := len(rest); cols >= 1; cols-- {
		rows := (len(rest) + cols - 1) / cols
		if cols > 1 && (cols-1)*rows >= len(rest) {
			continue // as many rows with a column fewer
		}
		colLeft := make([]float64, cols+1)
		for c := range cols {
			widest := 0.0
			for k := c * rows; k < min(len(rest), (c+1)*rows); k++ {
				widest = math.Max(widest, widths[k])
			}
			colLeft[c+1] = colLeft[c] + widest + legendGap
		}
		if colLeft[cols]-legendGap > avail {
			continue
		}
		for k, i := range rest {
			texts[i] = []string{f.legend[i].label}
			left[i] = colLeft[k/rows]
			top[i] = y + float64(k%rows)*line
		}
		return texts, left, top, y + float64(rows)*line
	}
	for _, i := range rest {
		texts[i] = wrap(f.legend[i].label, legendSize, avail-legendThumb-space)
		top[i] = y
		y += float64(len(texts[i])) * line
	}
	return texts, left, top, y
}

// legendHeight is the height of the legend box and the space around it.
func (f *Figure) legendHeight() float64 {
	if len(f.legend) == 0 {
		return 0
	}
	_, _, _, h := f.legendLayout(f.width - 8)
	return h + 2*legendPad + 6
}

// drawLegend draws the legend's box below the plot and its entries: a
// header's lines across the box; an entry's sample (its band, line and
// glyph) and its text in its column.
func (f *Figure) drawLegend(c canvas) {
	lh := f.legendHeight()
	if lh == 0 {
		return
	}
	box := rect(pt{4, f.height + 2}, pt{f.width - 4, f.height + lh - 4})
	c.fill(box, legendBG)
	c.stroke(box, true, lineStyle{color: legendRim, width: 0.75})
	texts, left, top, _ := f.legendLayout(f.width - 8)
	line := legendRowHeight()
	space := width(" ", legendSize)
	for i, e := range f.legend {
		x := 4 + legendPad + left[i]
		y := f.height + 2 + legendPad + top[i]
		tx := x
		if e.line != nil {
			tx = x + legendThumb + space
			mid := y + line/2
			if e.band {
				fill, edge := e.line.color, e.line.color
				fill.A, edge.A = 70, 160
				r := rect(pt{x, y + 2}, pt{x + legendThumb, y + line - 2})
				c.fill(r, fill)
				c.stroke(r, true, lineStyle{color: edge, width: bandEdgeWidth})
			}
			c.stroke([]pt{{x, mid}, {x + legendThumb, mid}}, false, *e.line)
			if e.glyph >= 0 {
				drawGlyph(c, pt{x + legendThumb/2, mid}, e.glyph, e.line.color)
			}
		}
		for k, t := range texts[i] {
			base := y + float64(k)*line + 2 + ascent(legendSize)
			c.text(pt{tx, base}, []textRun{{s: t, size: legendSize}}, black, anchorStart, false)
		}
	}
}
