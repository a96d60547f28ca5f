// Package svg writes SVG documents: the one writer behind the figures of
// experiment/plot and the space-time diagrams of view, so that the
// document's frame, its numbers, its colours and its escaping are written
// one way. It knows elements, attributes and text; what to draw is the
// caller's.
//
// Attribute values (always in double quotes) and text are escaped as they
// are written (& < > ", and what XML cannot hold at all, control
// characters and invalid UTF-8, is dropped), so that a title or a message payload from a trace
// cannot break the document.
package svg

import (
	"bufio"
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Writer writes one SVG document to an io.Writer, buffered; End closes
// the document and reports the first write error.
type Writer struct {
	w    *bufio.Writer
	open []string // the elements opened and not yet closed
}

// New returns a Writer on w and writes the document's start: the svg
// element (no XML declaration: the document is UTF-8, XML's default), width and height in unit ("pt" for a
// figure measured in points, "" for pixels), a viewBox of the same size
// in user units, and the further attributes given as name, value pairs.
func New(w io.Writer, width, height float64, unit string, attrs ...string) *Writer {
	sw := &Writer{w: bufio.NewWriter(w)}
	all := append([]string{"xmlns", "http://www.w3.org/2000/svg",
		"width", Num(width) + unit, "height", Num(height) + unit,
		"viewBox", "0 0 " + Num(width) + " " + Num(height)}, attrs...)
	sw.Open("svg", all...)
	sw.Newline()
	return sw
}

// attrs writes name="value" pairs; a pair whose value is empty is left out.
func (w *Writer) attrs(pairs []string) {
	if len(pairs)%2 != 0 {
		panic("svg: attributes come in name, value pairs")
	}
	for i := 0; i < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			continue
		}
		w.w.WriteByte(' ')
		w.w.WriteString(pairs[i])
		w.w.WriteString(`="`)
		w.w.WriteString(escapeAttr(pairs[i+1]))
		w.w.WriteByte('"')
	}
}

// Elem writes an empty element: <name a="v" .../>.
func (w *Writer) Elem(name string, attrs ...string) {
	w.w.WriteByte('<')
	w.w.WriteString(name)
	w.attrs(attrs)
	w.w.WriteString("/>")
}

// Open starts an element that Close ends; what is written between is its
// content.
func (w *Writer) Open(name string, attrs ...string) {
	w.w.WriteByte('<')
	w.w.WriteString(name)
	w.attrs(attrs)
	w.w.WriteByte('>')
	w.open = append(w.open, name)
}

// Close ends the element opened last.
func (w *Writer) Close() {
	if len(w.open) == 0 {
		panic("svg: Close without Open")
	}
	name := w.open[len(w.open)-1]
	w.open = w.open[:len(w.open)-1]
	w.w.WriteString("</" + name + ">")
}

// Text writes character data, escaped.
func (w *Writer) Text(s string) { w.w.WriteString(Escape(s)) }

// TextElem writes an element holding text: <name ...>text</name>.
func (w *Writer) TextElem(name, text string, attrs ...string) {
	w.Open(name, attrs...)
	w.Text(text)
	w.Close()
}

// Title writes a title element, the tooltip of the element it is in.
func (w *Writer) Title(text string) { w.TextElem("title", text) }

// Newline ends a line of the document, to keep it readable.
func (w *Writer) Newline() { w.w.WriteByte('\n') }

// End closes every element still open (the svg element last), ends the
// document and flushes it, returning the first error met in writing.
func (w *Writer) End() error {
	for len(w.open) > 0 {
		w.Close()
		w.Newline()
	}
	return w.w.Flush()
}

// Num writes a coordinate to a hundredth of a unit, without trailing
// zeros ("12.5", "3", never "-0").
func Num(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		return "0"
	}
	return s
}

// Nums writes a list of numbers separated by spaces (a dash array).
func Nums(vs []float64) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = Num(v)
	}
	return strings.Join(out, " ")
}

// Hex writes a colour's red, green and blue as #rrggbb.
func Hex(c color.NRGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Opacity writes a colour's alpha as an opacity, "" for an opaque colour
// (so that the attribute is left out).
func Opacity(c color.NRGBA) string {
	if c.A == 255 {
		return ""
	}
	return strconv.FormatFloat(float64(c.A)/255, 'f', 3, 64)
}

// Path builds a path's d attribute in absolute coordinates.
type Path struct{ b strings.Builder }

// MoveTo starts a new subpath at (x, y).
func (p *Path) MoveTo(x, y float64) *Path {
	p.b.WriteString("M" + Num(x) + " " + Num(y))
	return p
}

// LineTo draws a line to (x, y).
func (p *Path) LineTo(x, y float64) *Path {
	p.b.WriteString("L" + Num(x) + " " + Num(y))
	return p
}

// Close closes the subpath.
func (p *Path) Close() *Path {
	p.b.WriteString("Z")
	return p
}

// Cross draws an x of side s whose top left corner is (x, y).
func (p *Path) Cross(x, y, s float64) *Path {
	return p.MoveTo(x, y).LineTo(x+s, y+s).MoveTo(x+s, y).LineTo(x, y+s)
}

// String is the d attribute's value.
func (p *Path) String() string { return p.b.String() }

// escapeAttr escapes an attribute's value as Escape does, and writes tab,
// newline and carriage return as character references, which XML keeps
// in an attribute (it reads them written as they are as spaces).
func escapeAttr(s string) string {
	if !strings.ContainsAny(s, "\t\n\r") {
		return Escape(s)
	}
	return strings.NewReplacer("\t", "&#9;", "\n", "&#10;", "\r", "&#13;").Replace(Escape(s))
}

// Escape escapes text for an XML attribute value or character data and
// drops what XML cannot hold (control characters but tab, newline and
// carriage return; U+FFFE and U+FFFF; invalid UTF-8).
func Escape(s string) string {
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
		case r == '"':
			b.WriteString("&#34;")
		case r == utf8.RuneError && n == 1, r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0xFFFE, r == 0xFFFF:
			// invalid UTF-8, or a character XML cannot hold: dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
