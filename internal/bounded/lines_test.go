package bounded

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
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

// TestUnwrittenEndDropped: a run of NUL bytes that ends the input is the
// unwritten end a killed writer left (cmdio.Stream), not data: the input
// ends where it starts, a line it follows without a line break is Cut, and
// Read counts only the data; NUL bytes followed by anything else are data.
func TestUnwrittenEndDropped(t *testing.T) {
	nuls := func(n int) string { return strings.Repeat("\x00", n) }
	for _, c := range []struct {
		in    string
		lines []string
		cut   bool
		read  int64
	}{
		{"a\nb\n" + nuls(300000), []string{"a", "b"}, false, 4},
		{"a\nb\n", []string{"a", "b"}, false, 4},
		{"a\n{\"b\"" + nuls(70000), []string{"a", "{\"b\""}, true, 6},
		{nuls(5000), nil, false, 0},
		{"a\x00\x00b\n" + nuls(3), []string{"a\x00\x00b"}, false, 5},
		{"a\n" + nuls(100000) + "b\n", []string{"a", nuls(100000) + "b"}, false, 100004},
	} {
		// One byte at a time, and whole.
		for _, r := range []io.Reader{strings.NewReader(c.in), iotest.OneByteReader(strings.NewReader(c.in))} {
			sc := NewLines(r, "f", Limits{What: "a trace", MaxBytes: 1 << 30, MaxLine: 1 << 20})
			var got []string
			for sc.Scan() {
				got = append(got, sc.Text())
			}
			if sc.Err() != nil || !slices.Equal(got, c.lines) || sc.Cut() != c.cut || sc.Read() != c.read {
				t.Errorf("%.20q...: lines %.40q, cut %v, read %d, err %v; want %.40q, %v, %d", c.in, got, sc.Cut(), sc.Read(), sc.Err(), c.lines, c.cut, c.read)
			}
		}
	}
}

// FuzzUnwrittenEnd: through Lines, an input is read as itself without the
// run of NUL bytes that ends it.
func FuzzUnwrittenEnd(f *testing.F) {
	f.Add([]byte("a\nb\n\x00\x00"), 3)
	f.Add([]byte("\x00\x00x\x00"), 1)
	f.Fuzz(func(t *testing.T, in []byte, chunk int) {
		r := io.Reader(bytes.NewReader(in))
		if chunk%3 == 1 {
			r = iotest.OneByteReader(r)
		}
		sc := NewLines(r, "f", Limits{What: "a file", MaxBytes: 1 << 30})
		var got []byte
		for sc.Scan() {
			got = append(got, sc.Raw()...)
		}
		if sc.Err() != nil {
			t.Fatal(sc.Err())
		}
		if want := bytes.TrimRight(in, "\x00"); !bytes.Equal(got, want) {
			t.Fatalf("read %q, want %q", got, want)
		}
	})
}
