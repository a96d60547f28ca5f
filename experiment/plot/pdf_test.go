package plot

import (
	"bytes"
	"encoding/xml"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

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
const awkwardTitle = `Figure (§3): messages ≤ n(n+1)/2 − 1, 95% bands; "quoted" & <back\slash> ×`

// pdfGlyphs are the glyph names the PDF's /Differences may use, and the
// characters they are.
var pdfGlyphs = map[string]rune{"minus": '−', "lessequal": '≤', "greaterequal": '≥', "notequal": '≠'}

// pdfText reads a PDF literal string's bytes (escapes undone) as the
// figure's font encodes them: WinAnsiEncoding (ASCII and, from 0xa0,
// Latin-1) changed by the font's /Differences.
func pdfText(t *testing.T, lit string, diffs map[byte]rune) string {
	var b strings.Builder
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		if c == '\\' {
			i++
			switch {
			case lit[i] >= '0' && lit[i] <= '7':
				v, err := strconv.ParseUint(lit[i:i+3], 8, 8)
				if err != nil {
					t.Fatalf("bad escape in %q", lit)
				}
				c = byte(v)
				i += 2
			default:
				c = lit[i]
			}
		}
		switch r, ok := diffs[c]; {
		case ok:
			b.WriteRune(r)
		case c >= 0x20 && c < 0x7f, c >= 0xa0:
			b.WriteRune(rune(c))
		default:
			t.Errorf("code %#x in %q is neither ASCII, Latin-1 nor in /Differences", c, lit)
		}
	}
	return b.String()
}

// TestPDFIsWellFormedAndSaysWhatItDraws: the PDF has its header, a
// cross-reference table whose every offset starts its object, a content
// stream of the length it declares, and its text strings, read with the
// font's encoding, are the title, tick labels (minus signs included),
// axis names and legend as drawn; the same figure gives the same bytes.
func TestPDFIsWellFormedAndSaysWhatItDraws(t *testing.T) {
	s := Spec{Title: awkwardTitle, Measure: "time", YLabel: "parallel time (s)", Rows: smallRows(), Curves: []string{"lg n"}}
	dir := t.TempDir()
	path := filepath.Join(dir, "fig.pdf")
	if err := Save(s, path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
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
	for obj := 1; obj < count; obj++ {
		e := lines[2+obj]
		if len(e)+1 != 20 || !strings.HasSuffix(e, " 00000 n ") {
			t.Fatalf("xref entry %q is not 20 bytes in use", e)
		}
		off, _ := strconv.Atoi(e[:10])
		if want := strconv.Itoa(obj) + " 0 obj\n"; !bytes.HasPrefix(data[off:], []byte(want)) {
			t.Errorf("object %d: offset %d points at %q", obj, off, data[off:min(off+12, len(data))])
		}
	}
	if !bytes.Contains(data, []byte("trailer\n<< /Size "+strconv.Itoa(count)+" /Root 1 0 R >>")) {
		t.Error("no trailer naming the catalog")
	}
	sm := regexp.MustCompile(`<< /Length (\d+) >>\nstream\n`).FindSubmatchIndex(data)
	if sm == nil {
		t.Fatal("no content stream")
	}
	length, _ := strconv.Atoi(string(data[sm[2]:sm[3]]))
	content := data[sm[1] : sm[1]+length]
	if !bytes.HasPrefix(data[sm[1]+length:], []byte("\nendstream")) {
		t.Errorf("the stream does not end at its declared length %d", length)
	}
	diffs := map[byte]rune{}
	dm := regexp.MustCompile(`/Differences \[([^\]]*)\]`).FindSubmatch(data)
	if dm == nil || !bytes.Contains(data, []byte("/BaseFont /Helvetica /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding")) {
		t.Fatal("the font is not Helvetica in WinAnsiEncoding with /Differences")
	}
	f := strings.Fields(string(dm[1]))
	for i := 0; i+1 < len(f); i += 2 {
		code, _ := strconv.Atoi(f[i])
		r, ok := pdfGlyphs[strings.TrimPrefix(f[i+1], "/")]
		if !ok {
			t.Fatalf("unexpected glyph %s", f[i+1])
		}
		diffs[byte(code)] = r
	}
	var got []string
	for _, tm := range regexp.MustCompile(`\(((?:\\.|[^\\)])*)\) Tj`).FindAllSubmatch(content, -1) {
		got = append(got, pdfText(t, string(tm[1]), diffs))
	}
	text := strings.Join(got, "|")
	for _, want := range []string{
		"Figure (§3): messages ≤ n(n+1)/2 − 1, 95% bands; \"quoted\" & <back\\slash> ×", // one line at 8 inches
		"5×10|−1", "10|0", "2×10|0", // y ticks: base, then the exponent
		"|n|", "|parallel time (s)|",
		"every curve: ids random", "|slow|", "theory: lg n",
	} {
		if !strings.Contains("|"+text+"|", want) {
			t.Errorf("the PDF's text %q lacks %q", text, want)
		}
	}
	again := filepath.Join(dir, "again.pdf")
	if err := Save(s, again); err != nil {
		t.Fatal(err)
	}
	if other, _ := os.ReadFile(again); !bytes.Equal(data, other) {
		t.Error("the same figure gave other bytes")
	}
}

// TestSVGIsWellFormedXML: the SVG parses as XML with characters that must
// be escaped in its title, and its text is the title as given.
func TestSVGIsWellFormedXML(t *testing.T) {
	s := Spec{Title: awkwardTitle, Measure: "time", Rows: smallRows()}
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
		"many bounds": {Title: "many bounds", Measure: "messages", Rows: manyBoundsRows(), Curves: []string{"n^2", "n H_n", "n lg n"}, Bounds: true},
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

// A title the PDF's font cannot show is refused before anything is
// written, naming the character; PNG and SVG take it.
func TestPDFRefusesWhatItsFontCannotShow(t *testing.T) {
	s := goldenSpec()
	s.Title = "Θ(n log n) messages, n ≤ 2×10^3"
	dir := t.TempDir()
	err := Save(s, filepath.Join(dir, "f.pdf"))
	if err == nil || !strings.Contains(err.Error(), `"Θ"`) || strings.Contains(err.Error(), `"≤"`) {
		t.Fatalf("Save .pdf with a Greek title: %v; want a refusal naming \"Θ\" alone", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "f.pdf")); !os.IsNotExist(err) {
		t.Fatalf("the refused PDF exists: %v", err)
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := Save(s, filepath.Join(dir, "f"+ext)); err != nil {
			t.Errorf("Save %s with a Greek title: %v", ext, err)
		}
	}
	s.Title = "messages, n ≤ 2×10^3 − 1"
	if err := Save(s, filepath.Join(dir, "g.pdf")); err != nil {
		t.Errorf("Save .pdf with the symbols it has: %v", err)
	}
}
