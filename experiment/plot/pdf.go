package plot

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"golang.org/x/image/font/sfnt"
)

// pdfCanvas writes a one-page PDF 1.4 document by hand, in the same bytes
// for the same figure (no dates, no identifiers). Text is set in the
// figures' own font, Liberation Sans, embedded as a subset of the glyphs
// the figure uses (pdffont.go), each character written as its glyph's
// index (a Type0 font with Identity-H encoding), with the font's widths
// and a ToUnicode map so that readers can search and copy the text. Any
// character the font has is drawn, as in the PNG and the SVG. Translucent
// colours use the graphics state's alpha (/ca, /CA), which PDF 1.4
// introduced. Streams are compressed (FlateDecode).
type pdfCanvas struct {
	w, h    float64
	content bytes.Buffer
	alphas  []uint8 // the alpha values used, each an ExtGState
	buf     sfnt.Buffer
	// glyphs maps each glyph used to the character it was drawn for.
	glyphs map[uint16]rune
}

func newPDF(w, h float64) *pdfCanvas { return &pdfCanvas{w: w, h: h, glyphs: map[uint16]rune{}} }

// pdfFontName is the font's PostScript name.
const pdfFontName = "LiberationSans"

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

// num writes a coordinate to a hundredth of a point.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
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

// glyphString writes s as a hex string of its glyphs' indices, noting
// each glyph used.
func (c *pdfCanvas) glyphString(s string) string {
	var b strings.Builder
	b.WriteByte('<')
	for _, r := range s {
		g := uint16(glyphIndex(&c.buf, r))
		if _, ok := c.glyphs[g]; !ok {
			c.glyphs[g] = r
		}
		fmt.Fprintf(&b, "%04X", g)
	}
	b.WriteByte('>')
	return b.String()
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
		fmt.Fprintf(&c.content, "/F1 %s Tf %s Ts %s Tj\n", num(r.size), num(r.rise), c.glyphString(r.s))
	}
	c.content.WriteString("ET\nQ\n")
}

// deflate compresses a stream's data.
func deflate(data []byte) []byte {
	var b bytes.Buffer
	z := zlib.NewWriter(&b)
	z.Write(data)
	z.Close()
	return b.Bytes()
}

// stream is a compressed stream object with extra dictionary entries.
func stream(data []byte, extra string) string {
	z := deflate(data)
	return fmt.Sprintf("<< /Length %d /Filter /FlateDecode%s >>\nstream\n%s\nendstream", len(z), extra, z)
}

// toUnicode is the CMap from the glyphs used to their characters.
func (c *pdfCanvas) toUnicode(used []uint16) []byte {
	var b strings.Builder
	b.WriteString("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n" +
		"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n" +
		"/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n")
	for start := 0; start < len(used); start += 100 {
		chunk := used[start:min(len(used), start+100)]
		fmt.Fprintf(&b, "%d beginbfchar\n", len(chunk))
		for _, g := range chunk {
			fmt.Fprintf(&b, "<%04X> <", g)
			for _, u := range utf16.Encode([]rune{c.glyphs[g]}) {
				fmt.Fprintf(&b, "%04X", u)
			}
			b.WriteString(">\n")
		}
		b.WriteString("endbfchar\n")
	}
	b.WriteString("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n")
	return []byte(b.String())
}

// subsetTag is the six capital letters a subset font's name starts with
// (ISO 32000-1, 9.6.4), derived from the glyphs it holds so that the same
// figure gives the same bytes.
func subsetTag(used []uint16) string {
	h := fnv.New64a()
	for _, g := range used {
		binary.Write(h, binary.BigEndian, g)
	}
	v := h.Sum64()
	tag := make([]byte, 6)
	for i := range tag {
		tag[i] = byte('A' + v%26)
		v /= 26
	}
	return string(tag)
}

// fontMetrics are the font descriptor's numbers, in thousandths of an em.
func fontMetrics() (bbox [4]int, asc, desc, capHeight int, err error) {
	tables, err := readTables(liberationsansregular.TTF)
	if err != nil {
		return bbox, 0, 0, 0, err
	}
	head, hhea, os2 := tables["head"], tables["hhea"], tables["OS/2"]
	if len(head) < 54 || len(hhea) < 8 {
		return bbox, 0, 0, 0, fmt.Errorf("plot: the font's head or hhea table is cut short")
	}
	upem := float64(binary.BigEndian.Uint16(head[18:]))
	scale := func(v int16) int { return int(math.Round(float64(v) * 1000 / upem)) }
	for i := range bbox {
		bbox[i] = scale(int16(binary.BigEndian.Uint16(head[36+2*i:])))
	}
	asc, desc = scale(int16(binary.BigEndian.Uint16(hhea[4:]))), scale(int16(binary.BigEndian.Uint16(hhea[6:])))
	capHeight = asc
	if len(os2) >= 90 && binary.BigEndian.Uint16(os2) >= 2 {
		capHeight = scale(int16(binary.BigEndian.Uint16(os2[88:])))
	}
	return bbox, asc, desc, capHeight, nil
}

// bytes returns the document: catalog, page tree, page, content stream,
// the font (Type0, its CIDFontType2 descendant, descriptor, font file,
// ToUnicode map), then the cross-reference table.
func (c *pdfCanvas) bytes() ([]byte, error) {
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
	used := make([]uint16, 0, len(c.glyphs))
	for g := range c.glyphs {
		used = append(used, g)
	}
	slices.Sort(used)
	file, err := subsetTrueType(liberationsansregular.TTF, used)
	if err != nil {
		return nil, err
	}
	bbox, asc, desc, capHeight, err := fontMetrics()
	if err != nil {
		return nil, err
	}
	var widths strings.Builder
	for _, g := range used {
		fmt.Fprintf(&widths, " %d [%d]", g, int(math.Round(glyphAdvance(&c.buf, sfnt.GlyphIndex(g))*1000)))
	}
	name := subsetTag(used) + "+" + pdfFontName
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s %s] /Resources << %s >> /Contents 4 0 R >>", num(c.w), num(c.h), res.String()),
		stream(c.content.Bytes(), ""),
		fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /%s /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 9 0 R >>", name),
		fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /%s /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 7 0 R /CIDToGIDMap /Identity /DW 0 /W [%s ] >>",
			name, widths.String()),
		fmt.Sprintf("<< /Type /FontDescriptor /FontName /%s /Flags 32 /FontBBox [%d %d %d %d] /ItalicAngle 0 /Ascent %d /Descent %d /CapHeight %d /StemV 80 /FontFile2 8 0 R >>",
			name, bbox[0], bbox[1], bbox[2], bbox[3], asc, desc, capHeight),
		stream(file, fmt.Sprintf(" /Length1 %d", len(file))),
		stream(c.toUnicode(used), ""),
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
	return out.Bytes(), nil
}
