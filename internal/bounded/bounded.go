// Package bounded is how elect reads its inputs: under stated limits (a
// total size and a line length), a line at a time for the line files
// (Lines: traces, sweep outputs, records, edge lists), so that each reader
// parses a line before it reads the next, and with errors that quote at
// most MaxExcerpt bytes of what they read (Quote, Cut).
//
// An input past a limit is refused with an error that names the file, the
// line and the limit, never with Go's internal wording ("bufio.Scanner:
// token too long"); a file without line breaks (/dev/zero) is refused once
// its first line passes the line limit, and a pipe of garbage at its first
// line, not read until memory runs out.
package bounded

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Limits are what one kind of file may hold.
type Limits struct {
	What     string // what the file is, for messages: "a trace", "a sweep's output"
	MaxBytes int64  // the largest file
	MaxLine  int    // the longest line, its line break included
}

// Error is a file past a limit, or one that cannot be read.
type Error struct {
	Path string
	Msg  string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Size writes a byte count as the limits are stated: 16 MiB, 4 GiB.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// LineError is the error for line number line of path being longer than
// l.MaxLine.
func (l Limits) LineError(path string, line int) error {
	return &Error{Path: path, Msg: fmt.Sprintf("line %d is longer than %s, the longest line %s may have (is it %s?)", line, Size(int64(l.MaxLine)), l.What, l.What)}
}

// SizeError is the error for path being larger than l.MaxBytes.
func (l Limits) SizeError(path string) error {
	return &Error{Path: path, Msg: fmt.Sprintf("larger than %s, the most elect reads as %s", Size(l.MaxBytes), l.What)}
}

// ReadFile reads the file at path whole, refusing it as soon as it passes
// a limit: a regular file larger than l.MaxBytes before reading it, any
// file at the first line longer than l.MaxLine.
func ReadFile(path string, l Limits) ([]byte, error) {
	f, err := Open(path, l)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out bytes.Buffer
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		out.Grow(int(info.Size()))
	}
	if _, err := io.Copy(&out, NewReader(f, path, l)); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// Open opens the file at path for reading under l, refusing a regular
// file larger than l.MaxBytes before reading any of it (a pipe or a device
// is refused once it has passed the limit, by its reader).
func Open(path string, l Limits) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > l.MaxBytes {
		f.Close()
		return nil, l.SizeError(path)
	}
	return f, nil
}

// NewReader returns a reader of r that fails, with the error stating the
// limit, once more than l.MaxBytes bytes or a line longer than l.MaxLine
// have come through (l.MaxLine 0: no line limit). name is r's name in
// errors.
func NewReader(r io.Reader, name string, l Limits) io.Reader {
	return &reader{r: r, name: name, l: l, line: 1}
}

type reader struct {
	r       io.Reader
	name    string
	l       Limits
	total   int64
	line    int // the line being read, from 1
	lineLen int
	err     error
}

func (b *reader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	b.total += int64(n)
	if b.total > b.l.MaxBytes {
		b.err = b.l.SizeError(b.name)
		return 0, b.err
	}
	if b.l.MaxLine > 0 {
		chunk := p[:n]
		for {
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				b.lineLen += len(chunk)
				break
			}
			if b.lineLen+i+1 > b.l.MaxLine {
				b.lineLen += i + 1
				break
			}
			b.line++
			b.lineLen = 0
			chunk = chunk[i+1:]
		}
		if b.lineLen > b.l.MaxLine {
			b.err = b.l.LineError(b.name, b.line)
			return 0, b.err
		}
	}
	return n, err
}

// IsLimit reports whether err is a file refused by a limit (or one that
// could not be read), as opposed to an error of the file's contents.
func IsLimit(err error) bool {
	var e *Error
	return errors.As(err, &e) || errors.Is(err, fs.ErrNotExist)
}
