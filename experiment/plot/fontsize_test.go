package plot

import (
	"bytes"
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// TestSmallestTextIsEightPointsAtOneColumn (issue 44: at 8 inches wide,
// a figure set in one column had its text shrunk to about 4 pt): a figure
// of one column, 3.5 in wide, measured three ways in each format at the
// size it is printed:
//   - what is drawn: the smallest run of text drawn on the canvas;
//   - the SVG: its width is "252pt" and its viewBox 252 units wide, so a
//     unit is a point, and its smallest font-size attribute is in points;
//   - the PDF: its MediaBox is 252 points wide, its text matrices do not
//     scale (no cm operator, Tm of 1 0 0 1 or 0 1 -1 0), so the smallest
//     size given to Tf is in points.
//
// Every one is at least MinFontSize (8 pt), whatever the font size asked
// for, and at the default font size (9 pt) the smallest text is exactly
// 8 pt: the legend and the tick labels' exponents.
func TestSmallestTextIsEightPointsAtOneColumn(t *testing.T) {
	dir := t.TempDir()
	for _, fs := range []float64{0, MinFontSize, 10} {
		for name, s := range map[string]Spec{
			"golden": goldenSpec(),
			"small":  {Title: "Θ(n) time", Measure: "time", Rows: smallRows(), Curves: []string{"lg n"}},
		} {
			s.Width, s.Height, s.FontSize = 0, 0, fs
			f, err := Make(s)
			if err != nil {
				t.Fatal(err)
			}
			var r recorder
			f.draw(&r)
			drawn := math.Inf(1)
			for _, tx := range r.texts {
				for _, run := range tx.runs {
					drawn = math.Min(drawn, run.size)
				}
			}
			svgPath, pdfPath := filepath.Join(dir, name+".svg"), filepath.Join(dir, name+".pdf")
			if err := Save(s, svgPath); err != nil {
				t.Fatal(err)
			}
			if err := Save(s, pdfPath); err != nil {
				t.Fatal(err)
			}
			inSVG, inPDF := smallestSVGText(t, svgPath), smallestPDFText(t, pdfPath)
			for what, v := range map[string]float64{"drawn": drawn, "SVG": inSVG, "PDF": inPDF} {
				if v < MinFontSize {
					t.Errorf("%s at font size %v: the smallest text (%s) is %v pt", name, fs, what, v)
				}
				if fs == 0 && v != MinFontSize {
					t.Errorf("%s at the default font size: the smallest text (%s) is %v pt, want exactly %d", name, what, v, MinFontSize)
				}
			}
		}
	}
}

// smallestSVGText is the smallest font size of an SVG figure in points,
// after checking that a unit of its viewBox is a point of its 3.5 in
// width.
func smallestSVGText(t *testing.T, path string) float64 {
	t.Helper()
	data, _ := os.ReadFile(path)
	d := xml.NewDecoder(bytes.NewReader(data))
	smallest := math.Inf(1)
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		for _, a := range se.Attr {
			switch {
			case se.Name.Local == "svg" && a.Name.Local == "width" && a.Value != "252pt":
				t.Fatalf("%s: width %q, want 252pt (3.5 in)", path, a.Value)
			case se.Name.Local == "svg" && a.Name.Local == "viewBox" && !regexp.MustCompile(`^0 0 252 `).MatchString(a.Value):
				t.Fatalf("%s: viewBox %q is not 252 units wide", path, a.Value)
			case a.Name.Local == "font-size":
				v, err := strconv.ParseFloat(a.Value, 64)
				if err != nil {
					t.Fatalf("%s: font-size %q", path, a.Value)
				}
				smallest = math.Min(smallest, v)
			}
		}
	}
	return smallest
}

// smallestPDFText is the smallest text size of a PDF figure in points,
// after checking that its page is 3.5 in wide and its text unscaled.
func smallestPDFText(t *testing.T, path string) float64 {
	t.Helper()
	data, _ := os.ReadFile(path)
	d := readPDF(t, data)
	if !bytes.Contains(d.objs[3], []byte("/MediaBox [0 0 252 ")) {
		t.Fatalf("%s: the page is not 252 pt wide: %q", path, d.objs[3])
	}
	content := d.stream(t, d.ref(t, 3, "/Contents"))
	if bytes.Contains(content, []byte(" cm\n")) {
		t.Fatalf("%s: the content scales its coordinates (cm)", path)
	}
	for _, m := range regexp.MustCompile(`\n(\S+ \S+ \S+ \S+) \S+ \S+ Tm\n`).FindAllSubmatch(content, -1) {
		if s := string(m[1]); s != "1 0 0 1" && s != "0 1 -1 0" {
			t.Fatalf("%s: a text matrix %q scales the text", path, s)
		}
	}
	smallest := math.Inf(1)
	for _, r := range readPDFText(t, d) {
		smallest = math.Min(smallest, r.size)
	}
	return smallest
}
