package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/image/font/sfnt"
)

// pdfCanvas writes a one-page PDF 1.4 document by hand, in the same bytes
// for the same figure (no dates, no identifiers). Text is set in the
// standard Helvetica, which every PDF reader has and whose widths are
// Liberation Sans's, in WinAnsiEncoding with a few codes WinAnsi leaves
// unused given to Helvetica's glyphs for −, ≤, ≥ and ≠ (pdfDifferences);
// the font's widths are written from Liberation Sans, the metrics the
// figure was laid out with. Translucent colours use the graphics state's
// alpha (/ca, /CA), which PDF 1.4 introduced.
type pdfCanvas struct {
	w, h    float64
	content bytes.Buffer
	alphas  []uint8 // the alpha values used, each an ExtGState
}

func newPDF(w, h float64) *pdfCanvas { return &pdfCanvas{w: w, h: h} }

// pdfDifferences gives codes WinAnsiEncoding leaves unused to glyphs of
// Helvetica's character set beyond it.
var pdfDifferences = []struct {
	code  byte
	r     rune
	glyph string
}{
	{0x81, '−', "minus"},
	{0x8d, '≤', "lessequal"},
	{0x8f, '≥', "greaterequal"},
	{0x90, '≠', "notequal"},
}

// winAnsiHigh is WinAnsiEncoding's 0x80..0x9f (0: unused); 0xa0..0xff are
// Latin-1's, 0x20..0x7e ASCII's.
var winAnsiHigh = [32]rune{
	0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
	0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
}

// pdfRune is the character a code of the figure's font stands for (0 for
// none).
func pdfRune(code byte) rune {
	for _, d := range pdfDifferences {
		if d.code == code {
			return d.r
		}
	}
	switch {
	case code >= 0x20 && code < 0x7f, code >= 0xa0:
		return rune(code)
	case code >= 0x80 && code < 0xa0:
		return winAnsiHigh[code-0x80]
	}
	return 0
}

// pdfCode is a character's code in the figure's font; a character the
// font cannot show is written "?".
func pdfCode(r rune) byte {
	switch {
	case r >= 0x20 && r < 0x7f, r >= 0xa0 && r <= 0xff:
		return byte(r)
	}
	for _, d := range pdfDifferences {
		if d.r == r {
			return d.code
		}
	}
	if i := slices.Index(winAnsiHigh[:], r); i >= 0 && r != 0 {
		return byte(0x80 + i)
	}
	return '?'
}

// pdfString writes s as a PDF literal string in the figure's font's codes.
func pdfString(s string) string {
	var b strings.Builder
	b.WriteByte('(')
	for _, r := range s {
		c := pdfCode(r)
		switch {
		case c == '(' || c == ')' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(')')
	return b.String()
}

func pdfColor(c color.NRGBA) string {
	f := func(v uint8) string { return strconv.FormatFloat(float64(v)/255, 'f', 3, 64) }
	return f(c.R) + " " + f(c.G) + " " + f(c.B)
}

// begin saves the graphics state and sets the colour's alpha.
func (c *pdfCanvas) begin(a uint8) {
	c.content.WriteString("q\n")
	if a != 255 {
		if !slices.Contains(c.alphas, a) {
			c.alphas = append(c.alphas, a)
		}
		fmt.Fprintf(&c.content, "/A%d gs\n", a)
	}
}

// path writes the polyline's operators, in PDF's coordinates (y up).
func (c *pdfCanvas) path(pts []pt, closed bool) {
	for i, p := range pts {
		op := "l"
		if i == 0 {
			op = "m"
		}
		fmt.Fprintf(&c.content, "%s %s %s\n", num(p.x), num(c.h-p.y), op)
	}
	if closed {
		c.content.WriteString("h\n")
	}
}

func (c *pdfCanvas) stroke(pts []pt, closed bool, st lineStyle) {
	if len(pts) < 2 {
		return
	}
	c.begin(st.color.A)
	fmt.Fprintf(&c.content, "%s RG %s w 1 j 0 J\n", pdfColor(st.color), num(st.width))
	if len(st.dashes) > 0 {
		ds := make([]string, len(st.dashes))
		for i, d := range st.dashes {
			ds[i] = num(d)
		}
		fmt.Fprintf(&c.content, "[%s] 0 d\n", strings.Join(ds, " "))
	}
	c.path(pts, closed)
	c.content.WriteString("S\nQ\n")
}

func (c *pdfCanvas) fill(pts []pt, col color.NRGBA) {
	if len(pts) < 3 {
		return
	}
	c.begin(col.A)
	fmt.Fprintf(&c.content, "%s rg\n", pdfColor(col))
	c.path(pts, true)
	c.content.WriteString("f\nQ\n")
}

func (c *pdfCanvas) text(at pt, runs []textRun, col color.NRGBA, a anchor, up bool) {
	along := runsWidth(runs) * a.fraction()
	x, y := at.x-along, c.h-at.y
	matrix := fmt.Sprintf("1 0 0 1 %s %s", num(x), num(y))
	if up {
		x, y = at.x, c.h-at.y-along
		matrix = fmt.Sprintf("0 1 -1 0 %s %s", num(x), num(y))
	}
	c.begin(col.A)
	fmt.Fprintf(&c.content, "%s rg\nBT\n%s Tm\n", pdfColor(col), matrix)
	for _, r := range runs {
		fmt.Fprintf(&c.content, "/F1 %s Tf %s Ts %s Tj\n", num(r.size), num(r.rise), pdfString(r.s))
	}
	c.content.WriteString("ET\nQ\n")
}

// bytes returns the document: catalog, page tree, page, content stream,
// font, then the cross-reference table.
func (c *pdfCanvas) bytes() []byte {
	var res strings.Builder
	res.WriteString("/Font << /F1 5 0 R >>")
	if len(c.alphas) > 0 {
		res.WriteString(" /ExtGState <<")
		for _, a := range c.alphas {
			v := strconv.FormatFloat(float64(a)/255, 'f', 3, 64)
			fmt.Fprintf(&res, " /A%d << /Type /ExtGState /ca %s /CA %s >>", a, v, v)
		}
		res.WriteString(" >>")
	}
	var diffs, widths strings.Builder
	for _, d := range pdfDifferences {
		fmt.Fprintf(&diffs, " %d /%s", d.code, d.glyph)
	}
	var buf sfnt.Buffer
	for code := 32; code <= 255; code++ {
		w := 0.0
		if r := pdfRune(byte(code)); r != 0 {
			w = advance(&buf, r) * 1000
		}
		if code > 32 {
			widths.WriteByte(' ')
		}
		widths.WriteString(strconv.Itoa(int(math.Round(w))))
	}
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s %s] /Resources << %s >> /Contents 4 0 R >>", num(c.w), num(c.h), res.String()),
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", c.content.Len(), c.content.String()),
		fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [%s] >> /FirstChar 32 /LastChar 255 /Widths [%s] >>",
			strings.TrimSpace(diffs.String()), widths.String()),
	}
	var out bytes.Buffer
	out.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&out, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return out.Bytes()
}
