package plot

import (
	"sync"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The figures' type is Liberation Sans (SIL Open Font License 1.1, which
// allows embedding it, subset, in documents), whose advance widths are
// Arial's and Helvetica's: the layout is measured with its metrics, the
// PNG drawn with its outlines, the PDF embeds the subset of it that the
// figure uses (pdffont.go) and the SVG names it first (then Arial and
// Helvetica, its metric twins, and the generic sans-serif), so that the
// text keeps the widths the figure was laid out with in every format. It
// has Latin, Greek and Cyrillic and the common mathematical signs (≤, ≥,
// ≠, −, ×, ∞, √, ∑), not the ceiling brackets.
//
// The font is parsed on the first measure, never at start-up: every elect
// command links this package, few draw a figure.
var sans struct {
	once sync.Once
	font *sfnt.Font
	err  error
	// ascent and descent, in ems.
	ascent, descent float64
}

// typeface returns the parsed font.
func typeface() (*sfnt.Font, error) {
	sans.once.Do(func() {
		f, err := opentype.Parse(liberationsansregular.TTF)
		if err != nil {
			sans.err = err
			return
		}
		upem := int(f.UnitsPerEm())
		m, err := f.Metrics(nil, fixed.I(upem), font.HintingNone)
		if err != nil {
			sans.err = err
			return
		}
		sans.font = f
		sans.ascent = float64(m.Ascent) / 64 / float64(upem)
		sans.descent = float64(m.Descent) / 64 / float64(upem)
	})
	return sans.font, sans.err
}

// mustTypeface is typeface for the drawing code, which runs after Make
// has parsed the font (and returned its error, if any).
func mustTypeface() *sfnt.Font {
	f, err := typeface()
	if err != nil {
		panic("plot: the figures' font did not parse: " + err.Error())
	}
	return f
}

// ascent and descent are the font's, in points at size points.
func ascent(size float64) float64  { mustTypeface(); return sans.ascent * size }
func descent(size float64) float64 { mustTypeface(); return sans.descent * size }

// glyphIndex is a rune's glyph in the font, 0 (the missing glyph) for a
// rune the font lacks.
func glyphIndex(b *sfnt.Buffer, r rune) sfnt.GlyphIndex {
	g, err := mustTypeface().GlyphIndex(b, r)
	if err != nil {
		return 0
	}
	return g
}

// hasGlyph says whether the font draws a rune (a space has a glyph too).
func hasGlyph(r rune) bool {
	var b sfnt.Buffer
	return glyphIndex(&b, r) != 0
}

// advance is a rune's advance width in ems (the missing glyph's for a
// rune the font lacks). Kerning is not applied, in any format.
func advance(b *sfnt.Buffer, r rune) float64 {
	return glyphAdvance(b, glyphIndex(b, r))
}

// glyphAdvance is a glyph's advance width in ems.
func glyphAdvance(b *sfnt.Buffer, g sfnt.GlyphIndex) float64 {
	f := mustTypeface()
	upem := int(f.UnitsPerEm())
	a, err := f.GlyphAdvance(b, g, fixed.I(upem), font.HintingNone)
	if err != nil {
		return 0
	}
	return float64(a) / 64 / float64(upem)
}

// width is the width of s in points at size points.
func width(s string, size float64) float64 {
	var b sfnt.Buffer
	w := 0.0
	for _, r := range s {
		w += advance(&b, r)
	}
	return w * size
}

// runsWidth is the width of a line of runs.
func runsWidth(runs []textRun) float64 {
	w := 0.0
	for _, r := range runs {
		w += width(r.s, r.size)
	}
	return w
}
