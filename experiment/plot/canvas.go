package plot

import (
	"image/color"
	"math"
)

// pt is a point of the figure: in points (1/72 inch) from its top left
// corner, y growing downwards.
type pt struct{ x, y float64 }

// lineStyle is how a line is stroked: its colour, its width in points,
// and its dash pattern in points (lengths on and off in turn, from the
// line's start; none for a solid line). Joins are round, ends square-cut.
type lineStyle struct {
	color  color.NRGBA
	width  float64
	dashes []float64
}

// anchor says which point of a line of text its position gives.
type anchor int

const (
	anchorStart anchor = iota
	anchorMiddle
	anchorEnd
)

// fraction is how far along the text the anchor lies.
func (a anchor) fraction() float64 { return float64(a) / 2 }

// textRun is a piece of a line of text in a size of its own (points),
// its baseline raised by rise points above the line's.
type textRun struct {
	s          string
	size, rise float64
}

// canvas is what a figure is drawn on: one backend per file format (SVG,
// PNG, PDF), all measuring text alike (font.go).
type canvas interface {
	// stroke draws a polyline (closed: back to its first point).
	stroke(pts []pt, closed bool, st lineStyle)
	// fill fills a polygon.
	fill(pts []pt, c color.NRGBA)
	// text writes a line of runs on the baseline through at, rightwards
	// from it or, up, upwards (turned 90° anticlockwise); anchor says
	// whether at is the line's start, middle or end.
	text(at pt, runs []textRun, c color.NRGBA, a anchor, up bool)
}

// dash cuts a polyline into the pieces a dash pattern draws (the whole
// line, closed if asked, when there is no pattern).
func dash(pts []pt, closed bool, dashes []float64) [][]pt {
	if closed && len(pts) > 0 {
		pts = append(pts[:len(pts):len(pts)], pts[0])
	}
	if len(pts) < 2 {
		return nil
	}
	if len(dashes) == 0 {
		return [][]pt{pts}
	}
	var out [][]pt
	k, left, on := 0, dashes[0], true
	cur := []pt{pts[0]}
	for s := 1; s < len(pts); s++ {
		a, b := pts[s-1], pts[s]
		seg := math.Hypot(b.x-a.x, b.y-a.y)
		pos := 0.0
		for seg-pos > left {
			pos += left
			p := pt{a.x + (b.x-a.x)*pos/seg, a.y + (b.y-a.y)*pos/seg}
			if on {
				out = append(out, append(cur, p))
				cur = nil
			} else {
				cur = []pt{p}
			}
			on = !on
			k = (k + 1) % len(dashes)
			left = dashes[k]
		}
		left -= seg - pos
		if on {
			cur = append(cur, b)
		}
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

// circle is a polygon close to the circle of radius r around c, with
// enough sides to look round at a scale of px pixels per point.
func circle(c pt, r, px float64) []pt {
	n := int(math.Ceil(2 * math.Pi * r * px / 1.5))
	n = max(8, min(n, 96))
	out := make([]pt, n)
	for i := range out {
		a := 2 * math.Pi * float64(i) / float64(n)
		out[i] = pt{c.x + r*math.Cos(a), c.y + r*math.Sin(a)}
	}
	return out
}

// rect is the rectangle from a to b as a polygon.
func rect(a, b pt) []pt { return []pt{a, {b.x, a.y}, b, {a.x, b.y}} }

// drawGlyph draws a data point's marker at p in colour c: a filled
// shape, or (glyphRing and after) the same shape hollow, white inside so
// that the line does not run through it.
func drawGlyph(cv canvas, p pt, glyph int, c color.NRGBA) {
	r := glyphRadius
	var shape []pt
	switch glyph % 4 {
	case glyphCircle:
		shape = circle(p, r, 4)
	case glyphSquare:
		s := r * 0.88
		shape = rect(pt{p.x - s, p.y - s}, pt{p.x + s, p.y + s})
	case glyphTriangle:
		s := r * 1.25
		shape = []pt{{p.x, p.y - s}, {p.x + s*math.Sqrt(3)/2, p.y + s/2}, {p.x - s*math.Sqrt(3)/2, p.y + s/2}}
		if glyph == glyphTriangleDown {
			for i := range shape {
				shape[i].y = 2*p.y - shape[i].y
			}
		}
	default: // a diamond
		s := r * 1.2
		shape = []pt{{p.x, p.y - s}, {p.x + s, p.y}, {p.x, p.y + s}, {p.x - s, p.y}}
	}
	if glyph < glyphRing {
		cv.fill(shape, c)
		return
	}
	cv.fill(shape, color.NRGBA{R: 255, G: 255, B: 255, A: 255})
	cv.stroke(shape, true, lineStyle{color: c, width: 0.8})
}
