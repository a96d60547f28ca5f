package plot

import (
	"bytes"
	"compress/zlib"
	"encoding/xml"
	"image/color"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"golang.org/x/image/font/sfnt"

	"github.com/electkit/elect/experiment"
)

// smallRows are runs whose measure lies between 0.5 and 2.4, so that the
// y axis is labelled 5×10^−1, 10^0, 2×10^0: exponents with a minus sign.
func smallRows() []experiment.Row {
	var rows []experiment.Row
	for _, n := range []int{2, 4, 8} {
		for t := range 3 {
			rows = append(rows, experiment.Row{Kind: experiment.MessagePassing, Name: "slow", Config: "ids random", N: n, Seed: uint64(t),
				Measures: map[string]float64{"time": float64(n) / 4 * (1 + 0.1*float64(t))}})
		}
	}
	return rows
}

// awkwardTitle has every kind of character the figures draw, and those
// that SVG and PDF must escape.
const awkwardTitle = `Figure (§3): Θ(n) messages ≤ n(n+1)/2 − 1, α = 95% bands; "quoted" & <back\slash> ×`

// pdfDoc is a PDF read back for the tests: its objects by number, each
// found where the cross-reference table says.
type pdfDoc struct {
	data []byte
	objs map[int][]byte
}

// readPDF checks the PDF's header, its cross-reference table (every
// offset starts its object) and trailer, and reads its objects.
func readPDF(t *testing.T, data []byte) pdfDoc {
	t.Helper()
	if !bytes.HasPrefix(data, []byte("%PDF-1.4\n")) || !bytes.HasSuffix(data, []byte("%%EOF\n")) {
		t.Fatalf("no PDF 1.4 header or no %%%%EOF: %q...", data[:min(20, len(data))])
	}
	m := regexp.MustCompile(`startxref\n(\d+)\n%%EOF\n$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("no startxref")
	}
	xref, _ := strconv.Atoi(string(m[1]))
	if !bytes.HasPrefix(data[xref:], []byte("xref\n0 ")) {
		t.Fatalf("startxref %d does not point at the xref table", xref)
	}
	lines := strings.Split(string(data[xref:]), "\n")
	count, _ := strconv.Atoi(strings.Fields(lines[1])[1])
	if lines[2] != "0000000000 65535 f " {
		t.Errorf("first xref entry %q", lines[2])
	}
	d := pdfDoc{data: data, objs: map[int][]byte{}}
	for obj := 1; obj < count; obj++ {
		e := lines[2+obj]
		if len(e)+1 != 20 || !strings.HasSuffix(e, " 00000 n ") {
			t.Fatalf("xref entry %q is not 20 bytes in use", e)
		}
		off, _ := strconv.Atoi(e[:10])
		head := strconv.Itoa(obj) + " 0 obj\n"
		if !bytes.HasPrefix(data[off:], []byte(head)) {
			t.Fatalf("object %d: offset %d points at %q", obj, off, data[off:min(off+12, len(data))])
		}
		body := data[off+len(head):]
		end := bytes.Index(body, []byte("\nendobj\n"))
		if end < 0 {
			t.Fatalf("object %d has no endobj", obj)
		}
		d.objs[obj] = body[:end]
	}
	if !bytes.Contains(data, []byte("trailer\n<< /Size "+strconv.Itoa(count)+" /Root 1 0 R >>")) {
		t.Error("no trailer naming the catalog")
	}
	return d
}

// ref returns the object a dictionary entry of an object refers to
// ("/FontFile2 8 0 R").
func (d pdfDoc) ref(t *testing.T, obj int, key string) int {
	t.Helper()
	m := regexp.MustCompile(key + ` \[?(\d+) 0 R`).FindSubmatch(d.objs[obj])
	if m == nil {
		t.Fatalf("object %d has no %s: %q", obj, key, d.objs[obj][:min(200, len(d.objs[obj]))])
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// stream returns a stream object's data, inflated, after checking that
// it ends at its declared length.
func (d pdfDoc) stream(t *testing.T, obj int) []byte {
	t.Helper()
	o := d.objs[obj]
	m := regexp.MustCompile(`^<< /Length (\d+) /Filter /FlateDecode[^>]*>>\nstream\n`).FindSubmatch(o)
	if m == nil {
		t.Fatalf("object %d is not a compressed stream: %q", obj, o[:min(80, len(o))])
	}
	length, _ := strconv.Atoi(string(m[1]))
	start := len(m[0])
	if !bytes.Equal(o[start+length:], []byte("\nendstream")) {
		t.Fatalf("object %d: the stream does not end at its declared length %d", obj, length)
	}
	z, err := zlib.NewReader(bytes.NewReader(o[start : start+length]))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// pdfRun is a text-showing operator of a figure's PDF: its size and text.
type pdfRun struct {
	size float64
	text string
}

// readPDFText reads a figure's PDF text back, its glyphs turned into
// characters by the font's ToUnicode map.
func readPDFText(t *testing.T, d pdfDoc) []pdfRun {
	t.Helper()
	font := d.ref(t, 3, "/F1")
	cmap := string(d.stream(t, d.ref(t, font, "/ToUnicode")))
	chars := map[string]string{}
	for _, m := range regexp.MustCompile(`<([0-9A-F]{4})> <([0-9A-F]+)>`).FindAllStringSubmatch(cmap, -1) {
		var units []uint16
		for i := 0; i+4 <= len(m[2]); i += 4 {
			u, _ := strconv.ParseUint(m[2][i:i+4], 16, 16)
			units = append(units, uint16(u))
		}
		chars[m[1]] = string(utf16.Decode(units))
	}
	var runs []pdfRun
	content := d.stream(t, d.ref(t, 3, "/Contents"))
	for _, m := range regexp.MustCompile(`/F1 ([0-9.]+) Tf -?[0-9.]+ Ts <([0-9A-F]*)> Tj`).FindAllSubmatch(content, -1) {
		size, _ := strconv.ParseFloat(string(m[1]), 64)
		var b strings.Builder
		for i := 0; i+4 <= len(m[2]); i += 4 {
			c, ok := chars[string(m[2][i:i+4])]
			if !ok {
				t.Fatalf("glyph %s is not in the ToUnicode map", m[2][i:i+4])
			}
			b.WriteString(c)
		}
		runs = append(runs, pdfRun{size, b.String()})
	}
	return runs
}

// TestPDFIsWellFormedAndSaysWhatItDraws: the PDF has its header, a
// cross-reference table whose every offset starts its object, compressed
// streams of the lengths they declare; its text, read through the font's
// ToUnicode map, is the title (Greek letters and signs included), tick
// labels (minus signs included), axis names and legend as drawn; its font
// is Liberation Sans, embedded as a subset (a tagged name, a font file
// that parses, with outlines for the glyphs drawn and for no glyph that
// is not); the same figure gives the same bytes.
func TestPDFIsWellFormedAndSaysWhatItDraws(t *testing.T) {
	s := Spec{Title: awkwardTitle, Measure: "time", YLabel: "parallel time (s)", Rows: smallRows(), Curves: []string{"lg n"}, Width: 7, Height: 4}
	dir := t.TempDir()
	path := filepath.Join(dir, "fig.pdf")
	if err := Save(s, path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	d := readPDF(t, data)
	var got []string
	for _, r := range readPDFText(t, d) {
		got = append(got, r.text)
	}
	text := strings.Join(got, "|")
	for _, want := range []string{
		awkwardTitle,
		"5×10|−1", "10|0", "2×10|0", // y ticks: base, then the exponent
		"|n|", "|parallel time (s)|",
		"every curve: ids random", "|slow|", "theory: lg n",
	} {
		if !strings.Contains("|"+text+"|", want) {
			t.Errorf("the PDF's text %q lacks %q", text, want)
		}
	}
	font := d.ref(t, 3, "/F1")
	desc := d.ref(t, d.ref(t, font, "/DescendantFonts"), "/FontDescriptor")
	name := regexp.MustCompile(`/FontName /([A-Z]{6})\+LiberationSans `).FindSubmatch(d.objs[desc])
	if name == nil || !bytes.Contains(d.objs[font], []byte("/Subtype /Type0 /BaseFont /"+string(name[1])+"+LiberationSans /Encoding /Identity-H")) {
		t.Fatalf("the font is not a subset of Liberation Sans, Identity-H: %q, %q", d.objs[font], d.objs[desc])
	}
	file := d.stream(t, d.ref(t, desc, "/FontFile2"))
	sub, err := sfnt.Parse(file)
	if err != nil {
		t.Fatalf("the embedded font does not parse: %v", err)
	}
	tables, err := readTables(file)
	if err != nil {
		t.Fatal(err)
	}
	outlines, err := glyphData(tables)
	if err != nil {
		t.Fatal(err)
	}
	if sub.NumGlyphs() != mustTypeface().NumGlyphs() {
		t.Errorf("the subset has %d glyphs, the font %d: indices must be kept", sub.NumGlyphs(), mustTypeface().NumGlyphs())
	}
	var b sfnt.Buffer
	drawn := map[int]bool{0: true}
	for _, r := range text {
		drawn[int(glyphIndex(&b, r))] = true
	}
	for g, o := range outlines {
		if full := len(o) > 0; full && !drawn[g] {
			t.Errorf("glyph %d has an outline in the subset and is not drawn", g)
		}
	}
	for _, r := range "Θα×≤" {
		if g := glyphIndex(&b, r); len(outlines[g]) == 0 {
			t.Errorf("%q (glyph %d) is drawn and has no outline in the subset", r, g)
		}
	}
	if len(file) > len(liberationsansregular.TTF)/4 {
		t.Errorf("the subset is %d bytes, the whole font %d", len(file), len(liberationsansregular.TTF))
	}
	again := filepath.Join(dir, "again.pdf")
	if err := Save(s, again); err != nil {
		t.Fatal(err)
	}
	if other, _ := os.ReadFile(again); !bytes.Equal(data, other) {
		t.Error("the same figure gave other bytes")
	}
}

// TestPdffontsSeesTheFontEmbedded runs poppler's pdffonts on a figure:
// every font it lists is embedded (emb yes) as a subset (sub yes) with a
// ToUnicode map (uni yes). Without pdffonts it skips, unless
// ELECT_PDFFONTS_TESTS is set (.ci/run installs poppler-utils and sets it,
// so that CI runs it).
func TestPdffontsSeesTheFontEmbedded(t *testing.T) {
	bin, err := exec.LookPath("pdffonts")
	if err != nil {
		if os.Getenv("ELECT_PDFFONTS_TESTS") != "" {
			t.Fatal("ELECT_PDFFONTS_TESTS is set, but pdffonts (poppler-utils) is not installed")
		}
		t.Skip("pdffonts (poppler-utils) is not installed: set ELECT_PDFFONTS_TESTS=1 to make this a failure")
	}
	path := filepath.Join(t.TempDir(), "fig.pdf")
	s := goldenSpec()
	s.Title = "Θ(n log n) messages, α ≤ 2"
	if err := Save(s, path); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdffonts: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 3 {
		t.Fatalf("pdffonts lists no font:\n%s", out)
	}
	for _, l := range lines[2:] {
		f := strings.Fields(l)
		if len(f) < 7 || f[len(f)-5] != "yes" || f[len(f)-4] != "yes" || f[len(f)-3] != "yes" || !strings.HasSuffix(f[0], "+LiberationSans") {
			t.Errorf("pdffonts: %q: want a LiberationSans subset, emb yes, sub yes, uni yes", l)
		}
	}
}

// TestSVGIsWellFormedXML: the SVG parses as XML with characters that must
// be escaped in its title, and its text is the title as given.
func TestSVGIsWellFormedXML(t *testing.T) {
	s := Spec{Title: awkwardTitle, Measure: "time", Rows: smallRows(), Width: 7, Height: 4}
	path := filepath.Join(t.TempDir(), "fig.svg")
	if err := Save(s, path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	d := xml.NewDecoder(bytes.NewReader(data))
	var texts []string
	depth := 0
	var cur strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not XML: %v", err)
			}
			break
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local == "text" {
				depth++
				cur.Reset()
			}
		case xml.CharData:
			if depth > 0 {
				cur.Write(tok)
			}
		case xml.EndElement:
			if tok.Name.Local == "text" {
				depth--
				texts = append(texts, cur.String())
			}
		}
	}
	if !strings.Contains(strings.Join(texts, "|"), awkwardTitle) {
		t.Errorf("texts %q lack the title %q", texts, awkwardTitle)
	}
	if !strings.Contains(strings.Join(texts, "|"), "5×10−1") {
		t.Errorf("texts %q lack the tick label 5×10^−1", texts)
	}
}

// recorder is a canvas that keeps what is drawn, for layout tests.
type recorder struct {
	texts  []recordedText
	points []pt
}

type recordedText struct {
	at    pt
	runs  []textRun
	a     anchor
	up    bool
	width float64
}

func (r *recorder) stroke(pts []pt, closed bool, st lineStyle) { r.points = append(r.points, pts...) }
func (r *recorder) fill(pts []pt, c color.NRGBA)               { r.points = append(r.points, pts...) }
func (r *recorder) text(at pt, runs []textRun, c color.NRGBA, a anchor, up bool) {
	r.texts = append(r.texts, recordedText{at, runs, a, up, runsWidth(runs)})
}

// TestEverythingDrawnInsideTheFigure: every line, fill and line of text
// (its whole box, ascent to descent) lies within the figure, for the
// golden figure, twelve reference lines, a long title and small values.
func TestEverythingDrawnInsideTheFigure(t *testing.T) {
	long := goldenSpec()
	long.Title = strings.Repeat("a long title that names every colour it uses ", 4)
	for name, s := range map[string]Spec{
		"golden": goldenSpec(), "long title": long, "small": {Title: awkwardTitle, Measure: "time", Rows: smallRows(), Curves: []string{"lg n"}},
		"many bounds": manyBoundsSpec(),
	} {
		f, err := Make(s)
		if err != nil {
			t.Fatal(err)
		}
		w, h := f.Size()
		var r recorder
		f.draw(&r)
		for _, p := range r.points {
			if p.x < 0 || p.x > w || p.y < 0 || p.y > h {
				t.Errorf("%s: point %v outside %vx%v", name, p, w, h)
			}
		}
		for _, tx := range r.texts {
			asc, desc := 0.0, 0.0
			for _, run := range tx.runs {
				asc, desc = math.Max(asc, ascent(run.size)+run.rise), math.Max(desc, descent(run.size)-run.rise)
			}
			start := -tx.width * tx.a.fraction()
			x0, x1, y0, y1 := tx.at.x+start, tx.at.x+start+tx.width, tx.at.y-asc, tx.at.y+desc
			if tx.up {
				x0, x1, y0, y1 = tx.at.x-asc, tx.at.x+desc, tx.at.y-start-tx.width, tx.at.y-start
			}
			if x0 < 0 || x1 > w || y0 < 0 || y1 > h {
				t.Errorf("%s: text %q spans x %.1f..%.1f, y %.1f..%.1f, outside %vx%v", name, tx.runs[0].s, x0, x1, y0, y1, w, h)
			}
		}
	}
}

// TestEveryFormatDrawsWhatTheFontHas (issue 44: a PDF refused Θ): a title
// with Greek letters and signs the font has is written in every format; a
// character it lacks (the ceiling bracket) is refused in every format,
// naming it, before anything is written.
func TestEveryFormatDrawsWhatTheFontHas(t *testing.T) {
	s := goldenSpec()
	dir := t.TempDir()
	s.Title = "Θ(n log n) messages, α ≤ n ≥ 2×10^3 − 1"
	for _, ext := range []string{".png", ".svg", ".pdf"} {
		if err := Save(s, filepath.Join(dir, "f"+ext)); err != nil {
			t.Errorf("Save %s with a Greek title: %v", ext, err)
		}
	}
	s.Title = "messages ≤ 8n⌈lg n⌉"
	for _, ext := range []string{".png", ".svg", ".pdf"} {
		err := Save(s, filepath.Join(dir, "g"+ext))
		if err == nil || !strings.Contains(err.Error(), `"⌈", "⌉"`) {
			t.Errorf("Save %s with ceiling brackets: %v; want a refusal naming them", ext, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "g"+ext)); !os.IsNotExist(err) {
			t.Errorf("the refused %s exists: %v", ext, err)
		}
	}
}
