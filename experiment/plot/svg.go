package plot

import (
	"image/color"
	"io"

	"github.com/electkit/elect/internal/svg"
)

// svgFonts is the SVG's font list: Liberation Sans, which the figure was
// measured with, then the fonts with the same widths (Arial, Helvetica),
// then any sans-serif, so that a reader without them still sees every
// label (issue 35: a lone "Liberation Serif" left exponents overlapping
// their labels).
const svgFonts = "'Liberation Sans', Arial, Helvetica, sans-serif"

// svgCanvas draws with internal/svg: one path per stroke or fill, one text
// element per line of text (its runs as tspans), coordinates in points,
// the document's size in points so that it prints at the figure's size.
type svgCanvas struct {
	w *svg.Writer
}

func newSVG(out io.Writer, w, h float64) *svgCanvas {
	return &svgCanvas{w: svg.New(out, w, h, "pt", "font-family", svgFonts)}
}

// end ends the document.
func (c *svgCanvas) end() error { return c.w.End() }

func pathOf(pts []pt, closed bool) string {
	var p svg.Path
	for i, q := range pts {
		if i == 0 {
			p.MoveTo(q.x, q.y)
		} else {
			p.LineTo(q.x, q.y)
		}
	}
	if closed {
		p.Close()
	}
	return p.String()
}

func (c *svgCanvas) stroke(pts []pt, closed bool, st lineStyle) {
	if len(pts) < 2 {
		return
	}
	c.w.Elem("path", "d", pathOf(pts, closed), "fill", "none", "stroke", svg.Hex(st.color), "stroke-width", svg.Num(st.width),
		"stroke-linejoin", "round", "stroke-opacity", svg.Opacity(st.color), "stroke-dasharray", svg.Nums(st.dashes))
	c.w.Newline()
}

func (c *svgCanvas) fill(pts []pt, col color.NRGBA) {
	if len(pts) < 3 {
		return
	}
	c.w.Elem("path", "d", pathOf(pts, true), "fill", svg.Hex(col), "fill-opacity", svg.Opacity(col))
	c.w.Newline()
}

// text writes the runs as one text element, so that the anchor holds for
// the whole line in whatever font the reader has; a run in another size
// or raised is a tspan, shifted back down after it.
func (c *svgCanvas) text(at pt, runs []textRun, col color.NRGBA, a anchor, up bool) {
	if len(runs) == 0 {
		return
	}
	anchorName := ""
	switch a {
	case anchorMiddle:
		anchorName = "middle"
	case anchorEnd:
		anchorName = "end"
	}
	rotate := ""
	if up {
		rotate = "rotate(-90 " + svg.Num(at.x) + " " + svg.Num(at.y) + ")"
	}
	c.w.Open("text", "x", svg.Num(at.x), "y", svg.Num(at.y), "font-size", svg.Num(runs[0].size), "fill", svg.Hex(col),
		"fill-opacity", svg.Opacity(col), "text-anchor", anchorName, "transform", rotate, "xml:space", "preserve")
	rise := 0.0
	for _, r := range runs {
		if r.rise == rise && r.size == runs[0].size {
			c.w.Text(r.s)
			continue
		}
		dy := ""
		if r.rise != rise {
			dy = svg.Num(rise - r.rise)
		}
		rise = r.rise
		c.w.TextElem("tspan", r.s, "font-size", svg.Num(r.size), "dy", dy)
	}
	c.w.Close()
	c.w.Newline()
}
