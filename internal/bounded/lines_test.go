package bounded

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestLinesHandsOutEachLineAsItIsRead(t *testing.T) {
	l := Limits{What: "a test file", MaxBytes: 1 << 20, MaxLine: 100}
	sc := NewLines(strings.NewReader("a\r\n\nbc\nlast"), "f", l)
	type got struct {
		text, raw string
		line      int
		cut       bool
	}
	var lines []got
	for sc.Scan() {
		lines = append(lines, got{sc.Text(), string(sc.Raw()), sc.Line(), sc.Cut()})
	}
	want := []got{{"a", "a\r\n", 1, false}, {"", "\n", 2, false}, {"bc", "bc\n", 3, false}, {"last", "last", 4, true}}
	if sc.Err() != nil || len(lines) != len(want) {
		t.Fatalf("lines %+v, err %v", lines, sc.Err())
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i+1, lines[i], want[i])
		}
	}
}

// stopAfter is a reader that fails once its caller reads past the first
// line: it shows that Lines hands out line 1 before it reads line 2.
type stopAfter struct {
	first string
	read  bool
}

func (s *stopAfter) Read(p []byte) (int, error) {
	if s.read {
		return 0, errors.New("read past line 1")
	}
	s.read = true
	return copy(p, s.first), nil
}

func TestLinesReadNoFurtherThanTheLineItHandsOut(t *testing.T) {
	sc := NewLines(&stopAfter{first: "line 1\n"}, "f", Limits{What: "a test file", MaxBytes: 100, MaxLine: 100})
	if !sc.Scan() || sc.Text() != "line 1" {
		t.Fatalf("line 1: %q, err %v", sc.Text(), sc.Err())
	}
	if sc.Scan() || sc.Err() == nil || sc.Err().Error() != "read past line 1" {
		t.Fatalf("line 2: err %v, want the reader's own", sc.Err())
	}
}

func TestLinesRefuseAnEndlessPipeAtTheSizeLimit(t *testing.T) {
	l := Limits{What: "a test file", MaxBytes: 1 << 20, MaxLine: 100}
	sc := NewLines(newlines{}, "pipe", l)
	n := 0
	for sc.Scan() {
		n++
	}
	var e *Error
	if !errors.As(sc.Err(), &e) || sc.Err().Error() != "pipe: larger than 1 MiB, the most elect reads as a test file" || n != 1<<20 {
		t.Fatalf("%d lines, err %v", n, sc.Err())
	}
}

type newlines struct{}

func (newlines) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '\n'
	}
	return len(p), nil
}

func TestLinesPassTheReadersError(t *testing.T) {
	sc := NewLines(io.MultiReader(strings.NewReader("a\nb"), errReader{}), "f", Limits{What: "x", MaxBytes: 100, MaxLine: 10})
	if !sc.Scan() || sc.Text() != "a" || sc.Scan() || sc.Err() == nil || sc.Err().Error() != "broken" {
		t.Fatalf("%q, err %v", sc.Text(), sc.Err())
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("broken") }
