package bounded

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// want says whether data breaks the limits: a line (its line break
// included) longer than MaxLine, or more than MaxBytes in all.
func breaks(data []byte, l Limits) bool {
	if int64(len(data)) > l.MaxBytes {
		return true
	}
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(line) > l.MaxLine {
			return true
		}
	}
	return false
}

func FuzzReader(f *testing.F) {
	f.Add([]byte("ab\ncd\n"), 3, 10)
	f.Add([]byte("abc"), 3, 10)
	f.Add([]byte("abcd\n"), 4, 10)
	f.Add([]byte("a\nb\nc\nd\n"), 2, 7)
	f.Fuzz(func(t *testing.T, data []byte, maxLine, maxBytes int) {
		if maxLine < 1 || maxLine > 1<<16 || maxBytes < 0 || maxBytes > 1<<20 {
			return
		}
		l := Limits{What: "a test file", MaxBytes: int64(maxBytes), MaxLine: maxLine}
		// iotest-style reads of 1..7 bytes, so that lines cross reads.
		got, err := io.ReadAll(NewReader(&chunky{data: data}, "f", l))
		if breaks(data, l) {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%q under %+v: err %v, want a limit's error", data, l, err)
			}
			sc := NewLines(&chunky{data: data}, "f", l)
			for sc.Scan() {
				if len(sc.Raw()) > l.MaxLine {
					t.Fatalf("%q under %+v: a line of %d bytes", data, l, len(sc.Raw()))
				}
			}
			if !errors.As(sc.Err(), &e) {
				t.Fatalf("%q under %+v: lines err %v, want a limit's error", data, l, sc.Err())
			}
			return
		}
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%q under %+v: got %q, %v", data, l, got, err)
		}
		sc := NewLines(&chunky{data: data}, "f", l)
		var lines []string
		var raw []byte
		for sc.Scan() {
			lines = append(lines, sc.Text())
			raw = append(raw, sc.Raw()...)
			if sc.Line() != len(lines) || sc.Cut() != !bytes.HasSuffix(sc.Raw(), []byte("\n")) {
				t.Fatalf("%q: line %d reported as %d, cut %v, raw %q", data, len(lines), sc.Line(), sc.Cut(), sc.Raw())
			}
		}
		if sc.Err() != nil {
			t.Fatalf("lines: %v", sc.Err())
		}
		if !bytes.Equal(raw, data) || sc.Read() != int64(len(data)) {
			t.Fatalf("%q under %+v: the raw lines %q do not make the input", data, l, raw)
		}
		if want := strings.TrimSuffix(string(data), "\n"); !bytes.ContainsRune(data, '\r') && strings.Join(lines, "\n") != want {
			t.Fatalf("%q under %+v: the lines %q do not make the input", data, l, lines)
		}
	})
}

// chunky reads a few bytes at a time.
type chunky struct {
	data []byte
	k    int
}

func (c *chunky) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	c.k = c.k%7 + 1
	n := copy(p[:min(len(p), c.k)], c.data)
	c.data = c.data[n:]
	return n, nil
}

// The reproduction: 'elect view /dev/zero' read 12.7 GB. A file
// without line breaks is refused at its first line's limit, stated.
func TestDevZeroRefusedAtTheLineLimit(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	l := Limits{What: "a trace", MaxBytes: 1 << 30, MaxLine: 1 << 20}
	_, err := ReadFile("/dev/zero", l)
	if err == nil || err.Error() != "/dev/zero: line 1 is longer than 1 MiB, the longest line a trace may have (is it a trace?)" {
		t.Fatalf("err = %v", err)
	}
	// Through Lines, NUL bytes may be a killed writer's unwritten end
	// (unwritten.go): they are refused once there are more of them than a
	// writer leaves.
	counted := &countingReader{r: zeros{}}
	sc := NewLines(counted, "zeros", l)
	for sc.Scan() {
		t.Fatalf("a line of %d bytes", len(sc.Bytes()))
	}
	if err := sc.Err(); err == nil || err.Error() != "zeros: holds a run of more than 16 MiB of NUL bytes: this is not a trace" {
		t.Fatalf("lines err = %v", err)
	}
	if counted.n > MaxUnwritten+lineBuffer {
		t.Fatalf("read %d bytes of an endless run of NUL bytes before refusing it", counted.n)
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestLargeRegularFileRefusedBeforeReading(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x\n"), 600), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path, Limits{What: "a sweep's output", MaxBytes: 1 << 10, MaxLine: 100})
	if err == nil || !strings.HasSuffix(err.Error(), "big: larger than 1 KiB, the most elect reads as a sweep's output") {
		t.Fatalf("err = %v", err)
	}
}
