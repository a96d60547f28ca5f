package plot

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Legend placements (Spec.Legend).
const (
	LegendAuto        = "auto"
	LegendTopLeft     = "top-left"
	LegendTopRight    = "top-right"
	LegendBottomLeft  = "bottom-left"
	LegendBottomRight = "bottom-right"
	LegendBelow       = "below"
	LegendRight       = "right"
	LegendNone        = "none"
)

// Legends lists the legend placements: auto puts the legend in the first
// corner of the plot (top left, bottom right, top right, bottom left)
// where it hides no data, or below the plot when it would hide some in
// every corner.
var Legends = []string{LegendAuto, LegendTopLeft, LegendTopRight, LegendBottomLeft, LegendBottomRight, LegendBelow, LegendRight, LegendNone}

// corners are the placements inside the plot, in the order auto tries.
var corners = []string{LegendTopLeft, LegendBottomRight, LegendTopRight, LegendBottomLeft}

// parseLegend checks a legend placement ("" is auto).
func parseLegend(s string) (string, error) {
	if s == "" {
		return LegendAuto, nil
	}
	for _, l := range Legends {
		if s == l {
			return s, nil
		}
	}
	return "", fmt.Errorf("plot: legend %q: use %s", s, strings.Join(Legends, ", "))
}

// The frame's measures, in points.
const (
	margin    = 4   // around the figure
	tickLen   = 3.5 // a labelled tick; minor ticks are half as long
	axisWidth = 0.6 // the axes' lines and ticks
	axisPad   = 3   // between the data and the axes, so no marker sits on one
	gridWidth = 0.35
	gap       = 2.5 // between a label and what it labels
)

// The legend's measures, in points.
const (
	legendPad   = 3  // inside the box
	legendGap   = 8  // between columns
	legendThumb = 18 // an entry's sample of its line
	legendInset = 2  // between a legend inside the plot and the axes
)

// frame is where the plot's parts go, in points.
type frame struct {
	left, right, top, bottom float64 // the data's rectangle
	xticks, yticks           []tick
}

// legendBox is where the legend goes and how its entries are set: each
// entry's lines, and its left and top inside the box.
type legendBox struct {
	place      string
	x, y, w, h float64
	texts      [][]string
	left, top  []float64
}

// lineHeight is the height of a line of text at size points.
func lineHeight(size float64) float64 { return ascent(size) + descent(size) }

// headHeight is the height of the title and the subtitle above the plot.
func (f *Figure) headHeight() float64 {
	h := 0.0
	if len(f.title) > 0 {
		h += float64(len(f.title))*lineHeight(f.sizes.title) + gap
	}
	if len(f.subtitle) > 0 {
		h += float64(len(f.subtitle))*lineHeight(f.sizes.legend) + gap
	}
	return h
}

// plotFrame places the data's rectangle inside the area from (x0, y0) to
// (x1, y1): right of the y label and tick labels, above the x tick labels
// and label, with room on the right for the last x tick label.
func (f *Figure) plotFrame(x0, y0, x1, y1 float64) frame {
	fr := frame{xticks: logTicks(f.xlo, f.xhi), yticks: logTicks(f.ylo, f.yhi)}
	labelsW, labelsH, lastHalf := 0.0, 0.0, 0.0
	for _, t := range fr.yticks {
		if t.label != "" {
			labelsW = math.Max(labelsW, runsWidth(f.labelRuns(t.label)))
		}
	}
	for _, t := range fr.xticks {
		if t.label != "" {
			labelsH = math.Max(labelsH, f.labelHeight(t.label))
			if t.value >= f.xhi/1.5 {
				lastHalf = runsWidth(f.labelRuns(t.label)) / 2
			}
		}
	}
	fr.left = x0 + lineHeight(f.sizes.label) + gap + labelsW + gap + tickLen + axisPad
	fr.right = x1 - math.Max(4, lastHalf)
	// the top y tick label's upper half stands above the data
	fr.top = y0 + math.Max(4, f.labelHeight("10^0")/2)
	fr.bottom = y1 - lineHeight(f.sizes.label) - gap - descent(f.sizes.tick) - labelsH - gap - tickLen - axisPad
	xNeed := 0.0
	for _, t := range fr.xticks {
		if t.label != "" {
			xNeed = math.Max(xNeed, runsWidth(f.labelRuns(t.label))+f.sizes.tick/2)
		}
	}
	fr.xticks = thinLabels(fr.xticks, func(v float64) float64 { return f.x(fr, v) }, xNeed)
	fr.yticks = thinLabels(fr.yticks, func(v float64) float64 { return f.y(fr, v) }, f.labelHeight("10^0")+descent(f.sizes.tick)+1)
	return fr
}

// thinLabels keeps the tick labels that have room: at least need points
// between neighbours (pos places a value). When some have less, the
// labels at 2 and 5 times a power of ten go first (if two powers of ten
// remain), then every other power of ten, every third, and so on.
func thinLabels(ticks []tick, pos func(float64) float64, need float64) []tick {
	room := func(ts []tick) bool {
		last := math.NaN()
		for _, t := range ts {
			if t.label == "" {
				continue
			}
			p := pos(t.value)
			if !math.IsNaN(last) && math.Abs(p-last) < need {
				return false
			}
			last = p
		}
		return true
	}
	if room(ticks) {
		return ticks
	}
	var powers []int // the indices of the labelled powers of ten
	for i, t := range ticks {
		if t.label != "" && strings.HasPrefix(t.label, "10^") {
			powers = append(powers, i)
		}
	}
	if len(powers) < 2 {
		return ticks // a decade or less: the labels are what there is to read
	}
	for every := 1; every < len(powers); every++ {
		out := slices.Clone(ticks)
		for i := range out {
			out[i].label = ""
		}
		for k, i := range powers {
			if k%every == 0 {
				out[i].label = ticks[i].label
			}
		}
		if room(out) {
			return out
		}
	}
	out := slices.Clone(ticks)
	for i := range out {
		out[i].label = ""
	}
	out[powers[0]].label = ticks[powers[0]].label
	return out
}

// layout places the plot and the legend in the figure.
func (f *Figure) layout(place string) error {
	top := margin + f.headHeight()
	inner := func() frame { return f.plotFrame(margin, top, f.width-margin, f.height-margin) }
	f.box = legendBox{place: LegendNone}
	switch {
	case len(f.legend) == 0 || place == LegendNone:
		f.frame = inner()
	case place == LegendBelow:
		f.placeBelow(top)
	case place == LegendRight:
		b := f.legendLayout(0.45*f.width, false)
		b.place = LegendRight
		b.x, b.y = f.width-margin-b.w, top
		f.box = b
		f.frame = f.plotFrame(margin, top, b.x-gap, f.height-margin)
	default:
		f.frame = inner()
		tries := corners
		if place != LegendAuto {
			tries = []string{place}
		}
		best, bestHidden := legendBox{}, math.MaxInt
		for _, c := range tries {
			b, ok := f.inCorner(c)
			if !ok {
				continue
			}
			if hidden := f.hidden(b); hidden < bestHidden {
				best, bestHidden = b, hidden
			}
		}
		switch {
		case bestHidden == math.MaxInt && place != LegendAuto:
			return fmt.Errorf("plot: the legend does not fit in the plot's %s corner at this size; use --legend below or right, or a larger --size", place)
		case bestHidden == 0, place != LegendAuto:
			f.box = best
		default:
			f.placeBelow(top)
		}
	}
	fr := f.frame
	if fr.right-fr.left < 4*f.sizes.tick || fr.bottom-fr.top < 3*f.sizes.tick {
		return fmt.Errorf("plot: a %s x %s in figure leaves no room for the plot beside its labels and legend at %s pt type; make it larger, or the legend none",
			inches(f.width), inches(f.height), strconv.FormatFloat(f.sizes.tick, 'g', -1, 64))
	}
	return nil
}

func inches(pts float64) string { return strconv.FormatFloat(pts/72, 'g', 4, 64) }

// placeBelow puts the legend below the plot, across the figure, in as many
// columns as fit.
func (f *Figure) placeBelow(top float64) {
	b := f.legendLayout(f.width-2*margin, true)
	b.place = LegendBelow
	b.x, b.y = (f.width-b.w)/2, f.height-margin-b.h
	f.box = b
	f.frame = f.plotFrame(margin, top, f.width-margin, b.y-gap)
}

// inCorner places the legend in a corner of the data's rectangle, its
// lines wrapped to 60% of the rectangle's width; false when it does not
// fit in 90% of the rectangle's height.
func (f *Figure) inCorner(corner string) (legendBox, bool) {
	fr := f.frame
	b := f.legendLayout(0.6*(fr.right-fr.left), false)
	if b.h > 0.9*(fr.bottom-fr.top) {
		return b, false
	}
	b.place = corner
	b.x, b.y = fr.left+legendInset, fr.top+legendInset
	if strings.HasSuffix(corner, "right") {
		b.x = fr.right - legendInset - b.w
	}
	if strings.HasPrefix(corner, "bottom") {
		b.y = fr.bottom - legendInset - b.h
	}
	return b, true
}

// hidden counts the points of the data, bands, bounds and theory curves,
// sampled every point along their lines, that the legend's box would
// cover.
func (f *Figure) hidden(b legendBox) int {
	count := 0
	in := func(p pt) bool { return p.x >= b.x-1 && p.x <= b.x+b.w+1 && p.y >= b.y-1 && p.y <= b.y+b.h+1 }
	line := func(data []xy) {
		pts := f.pts(f.frame, data)
		for i, p := range pts {
			if in(p) {
				count++
			}
			if i == 0 {
				continue
			}
			q := pts[i-1]
			steps := int(math.Hypot(p.x-q.x, p.y-q.y))
			for s := 1; s < steps; s++ {
				u := float64(s) / float64(steps)
				if in(pt{q.x + (p.x-q.x)*u, q.y + (p.y-q.y)*u}) {
					count++
				}
			}
		}
	}
	f.eachCurve(line)
	return count
}

// legendRowHeight is the height of a line of the legend.
func (f *Figure) legendRowHeight() float64 { return lineHeight(f.sizes.legend) + 1 }

// legendLayout sets the legend's entries in a box at most maxW wide: in
// one column, each entry's text wrapped to fit, or (columns) in as many
// columns as fit with no entry wrapped to more than two lines, filled
// down each column (so that the series come first, then the bounds and
// theory curves), each column as wide as its widest line. The box's place
// is the caller's.
func (f *Figure) legendLayout(maxW float64, columns bool) legendBox {
	size, line := f.sizes.legend, f.legendRowHeight()
	n := len(f.legend)
	space := width(" ", size)
	avail := maxW - 2*legendPad
	set := func(cols int, colW float64) (legendBox, bool) {
		b := legendBox{texts: make([][]string, n), left: make([]float64, n), top: make([]float64, n)}
		rows := (n + cols - 1) / cols
		x := 0.0
		for c := range cols {
			y, widest := 0.0, 0.0
			for i := c * rows; i < min(n, (c+1)*rows); i++ {
				b.texts[i] = wrap(f.legend[i].label, size, colW-legendThumb-space)
				if cols > 1 && len(b.texts[i]) > 2 {
					return b, false
				}
				b.left[i], b.top[i] = x, y
				y += float64(len(b.texts[i])) * line
				for _, t := range b.texts[i] {
					widest = math.Max(widest, legendThumb+space+width(t, size))
				}
			}
			b.h = math.Max(b.h, y)
			x += widest + legendGap
		}
		b.w, b.h = x-legendGap+2*legendPad, b.h+2*legendPad
		return b, b.w <= maxW+1e-9
	}
	// The lowest box wins; of boxes as low, the one with fewer lines
	// wrapped.
	best, bestLines := legendBox{}, 0
	for cols := min(n, 4); columns && cols > 1; cols-- {
		if (cols-1)*((n+cols-1)/cols) >= n {
			continue // as many rows with a column fewer
		}
		b, ok := set(cols, (avail-float64(cols-1)*legendGap)/float64(cols))
		lines := 0
		for _, t := range b.texts {
			lines += len(t)
		}
		if ok && (best.texts == nil || b.h < best.h-1e-9 || b.h < best.h+1e-9 && lines < bestLines) {
			best, bestLines = b, lines
		}
	}
	if best.texts != nil {
		return best
	}
	b, _ := set(1, avail)
	return b
}
