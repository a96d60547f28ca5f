package plot

import (
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// superscripts typesets the axes' tick labels, written base^exponent
// ("10^9", "2×10^−1"): the exponent in the figure's own font, smaller and
// raised. Unicode superscript digits would be simpler, but the figures' font
// (Liberation Sans) has no glyph for the superscript 0, 9 and minus, so
// labels such as 10⁹ lost their exponent; gonum's LaTeX handler cannot
// typeset a superscript either. Labels without "^" are drawn as text.Plain
// draws them.
type superscripts struct{ text.Plain }

const (
	supScale = 0.7  // the exponent's size, relative to the label's
	supRaise = 0.42 // how far its baseline is raised, in the label's size
)

func splitExponent(txt string) (base, exp string) {
	base, exp, _ = strings.Cut(txt, "^")
	return base, exp
}

func smaller(f font.Font) font.Font {
	f.Size *= supScale
	return f
}

// Box is the label's box: the base's, widened by the exponent and, if the
// raised exponent reaches higher, heightened to its top.
func (h superscripts) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	base, exp := splitExponent(txt)
	width, height, depth = h.Plain.Box(base, fnt)
	if exp == "" {
		return width, height, depth
	}
	ew, eh, _ := h.Plain.Box(exp, smaller(fnt))
	return width + ew, max(height, supRaise*fnt.Size+eh), depth
}

// Draw places the label as text.Plain places a line (alignment included)
// and draws the exponent after the base. Tick labels are not rotated; a
// rotated label is drawn plainly.
func (h superscripts) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	base, exp := splitExponent(strings.TrimRight(txt, "\n"))
	if exp == "" || sty.Rotation != 0 || strings.Contains(txt, "\n") {
		h.Plain.Draw(c, txt, sty, pt)
		return
	}
	face := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	small := smaller(sty.Font)
	smallFace := h.Fonts.Lookup(small, small.Size)
	width, _, _ := h.Box(txt, sty.Font)
	c.SetColor(sty.Color)
	x := pt.X + vg.Length(sty.XAlign)*width
	y := pt.Y + sty.Height(txt)*vg.Length(sty.YAlign) - face.Extents().Ascent + sty.Font.Size
	c.FillString(face, vg.Point{X: x, Y: y}, base)
	c.FillString(smallFace, vg.Point{X: x + face.Width(base), Y: y + supRaise*sty.Font.Size}, exp)
}
