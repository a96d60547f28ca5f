package view_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/electkit/elect/trace"
	"github.com/electkit/elect/view"
)

// svgElem is an element of an SVG diagram read back: its name, its
// attributes, its text and its title (the tooltip of a group or shape).
type svgElem struct {
	name        string
	attr        map[string]string
	text, title string
	class       string // of the group it is in
}

// readSVG parses a diagram, failing the test when it is not well-formed
// XML, and returns its elements in document order.
func readSVG(t *testing.T, data []byte) []svgElem {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	var out []svgElem
	var stack []int // indices into out of the open elements
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := svgElem{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				e.attr[a.Name.Local] = a.Value
			}
			for _, i := range stack {
				if c := out[i].attr["class"]; c != "" {
					e.class = c
				}
			}
			out = append(out, e)
			stack = append(stack, len(out)-1)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			top := &out[stack[len(stack)-1]]
			if top.name == "title" && len(stack) > 1 {
				out[stack[len(stack)-2]].title += string(tok)
			} else {
				top.text += string(tok)
			}
		}
	}
	return out
}

// diagramOf draws a trace file of testdata with the options given.
func diagramOf(t *testing.T, name string, opts view.SVGOptions) []svgElem {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trace.ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := view.WriteSVG(&b, tr, opts); err != nil {
		t.Fatal(err)
	}
	return readSVG(t, b.Bytes())
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return v
}

// tickAt returns the abscissa of the axis's tick labelled label.
func tickAt(t *testing.T, elems []svgElem, label string) float64 {
	t.Helper()
	for _, e := range elems {
		if e.name == "text" && e.text == label && e.attr["text-anchor"] == "middle" && e.class == "" {
			return num(t, e.attr["x"])
		}
	}
	t.Fatalf("no tick labelled %q", label)
	return 0
}

// column returns the abscissa of the k-th event's column on the event
// axis, from the ticks #1 and the next one.
func column(t *testing.T, elems []svgElem, k int) float64 {
	t.Helper()
	first := tickAt(t, elems, "#1")
	for _, e := range elems {
		if e.name == "text" && strings.HasPrefix(e.text, "#") && e.text != "#1" && e.attr["text-anchor"] == "middle" && e.class == "" {
			a, err := strconv.Atoi(e.text[1:])
			if err != nil {
				t.Fatalf("tick %q", e.text)
			}
			return first + float64(k-1)*(num(t, e.attr["x"])-first)/float64(a-1)
		}
	}
	t.Fatal("no tick after #1")
	return 0
}

// TestSVGMarksACounterexamplesViolation (issue 44: 'view --svg' of a
// checker counterexample drew no violation, and had no event axis): the
// checker's LCR counterexample on IDs 1, 1, 1 (testdata/lcr3-equal-ids.jsonl,
// from 'elect check lcr --n 3 --ids 1,1,1 --force') is drawn on the event
// axis, as the page opens it; its second election, event #14 (the 15th
// line: the page's #e=14), is marked by one red band, named
// multiple-leaders, at the tick labelled #14, that event's column; the lanes name each node's
// index beside its ID, so the three IDs 1 are told apart. Peterson's
// no-leader counterexample is marked at its last event, #32.
func TestSVGMarksACounterexamplesViolation(t *testing.T) {
	for _, c := range []struct {
		file, kind, tick string
		lanes            []string
	}{
		{"lcr3-equal-ids.jsonl", "multiple-leaders", "#14", []string{"[0] ID 1", "[1] ID 1", "[2] ID 1"}},
		{"peterson4-noleader.jsonl", "no-leader", "#32", nil},
	} {
		elems := diagramOf(t, c.file, view.SVGOptions{})
		var marks []svgElem
		var lanes []string
		for _, e := range elems {
			if e.class == "violation" && e.name == "rect" {
				marks = append(marks, e)
			}
			if e.name == "text" && strings.Contains(e.text, "] ID ") {
				lanes = append(lanes, e.text)
			}
		}
		if len(marks) != 1 {
			t.Fatalf("%s: %d violation marks, want 1", c.file, len(marks))
		}
		var named bool
		for _, e := range elems {
			if e.class == "violation" && e.name == "text" && e.text == c.kind {
				named = true
			}
			if e.name == "g" && e.attr["class"] == "violation" && !strings.HasPrefix(e.title, "event "+c.tick+": "+c.kind+": ") {
				t.Errorf("%s: the violation's title %q, want event %s: %s: ...", c.file, e.title, c.tick, c.kind)
			}
		}
		if !named {
			t.Errorf("%s: the violation is not named %s", c.file, c.kind)
		}
		x := num(t, marks[0].attr["x"]) + num(t, marks[0].attr["width"])/2
		k, _ := strconv.Atoi(c.tick[1:])
		if at := column(t, elems, k); x < at-0.02 || x > at+0.02 {
			t.Errorf("%s: the violation is at x = %v, event %s's column at %v", c.file, x, c.tick, at)
		}
		if c.lanes != nil && strings.Join(lanes, "|") != strings.Join(c.lanes, "|") {
			t.Errorf("%s: lanes %q, want %q", c.file, lanes, c.lanes)
		}
	}
}

// TestSVGEventAxisCountsFromOne: on the event axis the first tick is #1,
// at the first event's column, and the k-th event's decision is drawn at
// the tick #k (LCR's counterexample: the first election is event #11, the
// third #17; every event has a column of its own); on the time axis the
// same trace has its time ticks and its end time instead; an unknown axis
// is refused.
func TestSVGEventAxisCountsFromOne(t *testing.T) {
	elems := diagramOf(t, "lcr3-equal-ids.jsonl", view.SVGOptions{Axis: view.AxisEvent})
	var decided []float64
	for _, e := range elems {
		if e.name == "circle" && strings.HasSuffix(e.title, "elected") {
			decided = append(decided, num(t, e.attr["cx"]))
		}
	}
	if len(decided) != 3 {
		t.Fatalf("%d decisions drawn, want 3", len(decided))
	}
	for i, k := range []int{11, 14, 17} {
		if want := column(t, elems, k); decided[i] < want-0.02 || decided[i] > want+0.02 {
			t.Errorf("decision %d at x = %v, want event #%d's column, %v", i, decided[i], k, want)
		}
	}
	if at, want := tickAt(t, elems, "#14"), column(t, elems, 14); at < want-0.02 || at > want+0.02 {
		t.Errorf("tick #14 at %v, want %v", at, want)
	}
	timed := diagramOf(t, "lcr3-equal-ids.jsonl", view.SVGOptions{Axis: view.AxisTime})
	var end bool
	for _, e := range timed {
		if strings.HasPrefix(e.text, "#") {
			t.Errorf("the time axis has an event tick %q", e.text)
		}
		end = end || e.text == "end: t = 1"
	}
	if !end {
		t.Error("the time axis does not say its end time")
	}
	tr, err := trace.ReadAll(strings.NewReader(mustRead(t, "testdata/lcr3-equal-ids.jsonl")))
	if err != nil {
		t.Fatal(err)
	}
	if err := view.WriteSVG(io.Discard, tr, view.SVGOptions{Axis: "steps"}); err == nil || !strings.Contains(err.Error(), `axis "steps": use time or event`) {
		t.Errorf("axis steps: %v", err)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
