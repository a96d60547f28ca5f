package svg

import (
	"bytes"
	"encoding/xml"
	"image/color"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestNum: coordinates to a hundredth, without trailing zeros or a
// negative zero.
func TestNum(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 12.5: "12.5", 3: "3", -0.001: "0", 1.239: "1.24", 100: "100", -2.5: "-2.5", 0.1: "0.1"} {
		if got := Num(v); got != want {
			t.Errorf("Num(%v) = %q, want %q", v, got, want)
		}
	}
	if got := Nums([]float64{4, 1.5}); got != "4 1.5" {
		t.Errorf("Nums = %q", got)
	}
	if Hex(color.NRGBA{R: 0, G: 114, B: 178, A: 255}) != "#0072b2" || Opacity(color.NRGBA{A: 255}) != "" || Opacity(color.NRGBA{A: 51}) != "0.200" {
		t.Error("Hex or Opacity")
	}
}

// TestDocument: a document's frame, an element with escaped attributes
// and text, an empty attribute left out, a path, and End closing what is
// still open.
func TestDocument(t *testing.T) {
	var b bytes.Buffer
	w := New(&b, 252, 187.2, "pt", "font-family", "'Liberation Sans', sans-serif")
	w.Open("g", "class", "x")
	w.TextElem("text", `a < b & "c"`, "x", "1", "fill-opacity", "", "title", `say "hi"`)
	w.Elem("path", "d", new(Path).MoveTo(0, 0).LineTo(1.5, 2).Close().String())
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	want := `<svg xmlns="http://www.w3.org/2000/svg" width="252pt" height="187.2pt" viewBox="0 0 252 187.2" font-family="'Liberation Sans', sans-serif">` + "\n" +
		`<g class="x"><text x="1" title="say &#34;hi&#34;">a &lt; b &amp; &#34;c&#34;</text><path d="M0 0L1.5 2Z"/></g>` + "\n</svg>\n"
	if b.String() != want {
		t.Errorf("document\n%s\nwant\n%s", b.String(), want)
	}
}

// FuzzEscape: any text, as an attribute's value and as an element's
// content, gives well-formed XML that reads back as the text without what
// XML cannot hold.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "a<b>&c", `"'`, "\x00\x01tab\there", "\xff\xfe", "Θ ≤ α", "\uFFFE\uFFFF", "]]>", "line\r\nbreak"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		w := New(&b, 10, 10, "")
		w.TextElem("text", s, "title", s)
		if err := w.End(); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(bytes.NewReader(b.Bytes()))
		var text, attr string
		in := false
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%q: not XML: %v\n%s", s, err, b.Bytes())
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				if tok.Name.Local == "text" {
					in = true
					for _, a := range tok.Attr {
						attr = a.Value // the title; none when s is empty
					}
				}
			case xml.EndElement:
				in = false
			case xml.CharData:
				if in {
					text += string(tok)
				}
			}
		}
		kept := strings.Map(func(r rune) rune {
			if r == utf8.RuneError || r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
				return -1
			}
			return r
		}, s)
		// XML reads the line ends of text as \n; an attribute's tabs and
		// line ends are written as references, which it keeps.
		norm := strings.ReplaceAll(strings.ReplaceAll(kept, "\r\n", "\n"), "\r", "\n")
		if text != norm {
			t.Errorf("%q: text reads back %q, want %q", s, text, norm)
		}
		if attr != kept {
			t.Errorf("%q: attribute reads back %q, want %q", s, attr, kept)
		}
	})
}
