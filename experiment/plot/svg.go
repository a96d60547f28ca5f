package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"strconv"
	"strings"
	"unicode/utf8"
)

// svgFonts is the SVG's font list: Liberation Sans, which the figure was
// measured with, then the fonts with the same widths (Arial, Helvetica),
// then any sans-serif, so that a reader without them still sees every
// label (issue 35: a lone "Liberation Serif" left exponents overlapping
// their labels).
const svgFonts = "'Liberation Sans', Arial, Helvetica, sans-serif"

// svgCanvas writes an SVG document by hand: one path per stroke or fill,
// one text element per line of text (its runs as tspans), coordinates in
// points.
type svgCanvas struct {
	b bytes.Buffer
}

func newSVG(w, h float64) *svgCanvas {
	c := &svgCanvas{}
	fmt.Fprintf(&c.b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(&c.b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%spt\" height=\"%spt\" viewBox=\"0 0 %s %s\" font-family=\"%s\">\n",
		num(w), num(h), num(w), num(h), svgFonts)
	return c
}

// bytes ends the document and returns it.
func (c *svgCanvas) bytes() []byte {
	c.b.WriteString("</svg>\n")
	return c.b.Bytes()
}

// num writes a coordinate to a hundredth of a point.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

func hexColor(c color.NRGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func opacity(c color.NRGBA) string { return strconv.FormatFloat(float64(c.A)/255, 'f', 3, 64) }

func (c *svgCanvas) path(pts []pt, closed bool) {
	c.b.WriteString(`<path d="`)
	for i, p := range pts {
		if i == 0 {
			c.b.WriteString("M")
		} else {
			c.b.WriteString("L")
		}
		c.b.WriteString(num(p.x) + " " + num(p.y))
	}
	if closed {
		c.b.WriteString("Z")
	}
	c.b.WriteString(`"`)
}

func (c *svgCanvas) stroke(pts []pt, closed bool, st lineStyle) {
	if len(pts) < 2 {
		return
	}
	c.path(pts, closed)
	fmt.Fprintf(&c.b, ` fill="none" stroke="%s" stroke-width="%s" stroke-linejoin="round"`, hexColor(st.color), num(st.width))
	if st.color.A != 255 {
		fmt.Fprintf(&c.b, ` stroke-opacity="%s"`, opacity(st.color))
	}
	if len(st.dashes) > 0 {
		ds := make([]string, len(st.dashes))
		for i, d := range st.dashes {
			ds[i] = num(d)
		}
		fmt.Fprintf(&c.b, ` stroke-dasharray="%s"`, strings.Join(ds, " "))
	}
	c.b.WriteString("/>\n")
}

func (c *svgCanvas) fill(pts []pt, col color.NRGBA) {
	if len(pts) < 3 {
		return
	}
	c.path(pts, true)
	fmt.Fprintf(&c.b, ` fill="%s"`, hexColor(col))
	if col.A != 255 {
		fmt.Fprintf(&c.b, ` fill-opacity="%s"`, opacity(col))
	}
	c.b.WriteString("/>\n")
}

// text writes the runs as one text element, so that the anchor holds for
// the whole line in whatever font the reader has; a run in another size
// or raised is a tspan, shifted back down after it.
func (c *svgCanvas) text(at pt, runs []textRun, col color.NRGBA, a anchor, up bool) {
	if len(runs) == 0 {
		return
	}
	fmt.Fprintf(&c.b, `<text x="%s" y="%s" font-size="%s" fill="%s"`, num(at.x), num(at.y), num(runs[0].size), hexColor(col))
	if col.A != 255 {
		fmt.Fprintf(&c.b, ` fill-opacity="%s"`, opacity(col))
	}
	switch a {
	case anchorMiddle:
		c.b.WriteString(` text-anchor="middle"`)
	case anchorEnd:
		c.b.WriteString(` text-anchor="end"`)
	}
	if up {
		fmt.Fprintf(&c.b, ` transform="rotate(-90 %s %s)"`, num(at.x), num(at.y))
	}
	c.b.WriteString(` xml:space="preserve">`)
	rise := 0.0
	for _, r := range runs {
		if r.rise == rise && r.size == runs[0].size {
			c.b.WriteString(xmlText(r.s))
			continue
		}
		fmt.Fprintf(&c.b, `<tspan font-size="%s"`, num(r.size))
		if r.rise != rise {
			fmt.Fprintf(&c.b, ` dy="%s"`, num(rise-r.rise))
		}
		rise = r.rise
		c.b.WriteString(">" + xmlText(r.s) + "</tspan>")
	}
	c.b.WriteString("</text>\n")
}

// xmlText escapes text for an XML element's content, dropping what XML
// cannot hold (control characters, invalid UTF-8).
func xmlText(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == utf8.RuneError && n == 1, r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0xFFFE, r == 0xFFFF:
			// invalid UTF-8, or a character XML cannot hold: dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
