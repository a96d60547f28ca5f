package bounded

import (
	"bufio"
	"bytes"
	"io"
)

// Lines reads an input a line at a time under its limits, so that its
// reader parses line 1 before line 2 is read: garbage is refused at its
// first line, after at most one line's limit of it has been read, and a
// pipe that never ends is refused at its size limit. Every reader of
// elect's line files (traces, sweep outputs, records, edge lists) reads
// through it.
//
// A run of NUL bytes that ends the input is the unwritten end that a
// killed writer left (MaxUnwritten): the input ends where it starts, and a
// line it follows without a line break is Cut.
//
// Its memory is one buffer of at most MaxLine bytes (plus 64 KiB).
type Lines struct {
	r     *bufio.Reader
	name  string
	l     Limits
	total int64
	line  int    // the number of the last line read
	long  []byte // the line being read, once it is longer than r's buffer
	raw   []byte // the last line read, with its line break
	text  []byte // the last line read, without its line break
	cut   bool   // the last line read ended at the end of the input, without a line break
	err   error  // the limit's or the input's error; io.EOF at the end
}

// lineBuffer is Lines's read buffer: most lines fit in it and are handed
// out without a copy.
const lineBuffer = 64 << 10

// NewLines returns a line reader of r under l; name is r's name in errors
// (l.MaxLine 0: no line limit but l.MaxBytes).
func NewLines(r io.Reader, name string, l Limits) *Lines {
	size := lineBuffer
	if l.MaxLine > 0 {
		size = min(size, max(16, l.MaxLine))
	}
	return &Lines{r: bufio.NewReaderSize(dropUnwritten(r, name, l.What), size), name: name, l: l}
}

// Scan reads the next line, which Bytes then returns; it returns false at
// the end of the input and when the input breaks a limit or fails to read
// (Err says which).
func (s *Lines) Scan() bool {
	if s.err != nil {
		return false
	}
	s.long = s.long[:0]
	for {
		chunk, err := s.r.ReadSlice('\n')
		s.total += int64(len(chunk))
		if s.total > s.l.MaxBytes {
			s.raw, s.text, s.err = nil, nil, s.l.SizeError(s.name)
			return false
		}
		if s.l.MaxLine > 0 && len(s.long)+len(chunk) > s.l.MaxLine {
			s.raw, s.text, s.err = nil, nil, s.l.LineError(s.name, s.line+1)
			return false
		}
		if err == bufio.ErrBufferFull {
			s.long = s.grow(len(chunk))
			s.long = append(s.long, chunk...)
			continue
		}
		if err != nil && err != io.EOF {
			s.raw, s.text, s.err = nil, nil, err
			return false
		}
		text := chunk
		if len(s.long) > 0 {
			s.long = s.grow(len(chunk))
			s.long = append(s.long, chunk...)
			text = s.long
		}
		if err == io.EOF {
			s.err = io.EOF
			if len(text) == 0 {
				s.raw, s.text = nil, nil
				return false
			}
		}
		s.line++
		s.cut = err == io.EOF
		s.raw = text
		text = bytes.TrimSuffix(text, []byte("\n"))
		s.text = bytes.TrimSuffix(text, []byte("\r"))
		return true
	}
}

// grow makes room for k more bytes of a long line, doubling its buffer up
// to the line limit (append's smaller steps above 256 bytes leave a dozen
// dead buffers behind on the way to a 16 MiB line, and an endless line of
// garbage peaked at 80 MB).
func (s *Lines) grow(k int) []byte {
	n := len(s.long) + k
	if n <= cap(s.long) {
		return s.long
	}
	size := max(2*cap(s.long), n, lineBuffer)
	if s.l.MaxLine > 0 {
		size = max(min(size, s.l.MaxLine), n)
	}
	return append(make([]byte, 0, size), s.long...)
}

// Bytes is the last line read, without its line break ("\n" or "\r\n");
// it is valid until the next Scan.
func (s *Lines) Bytes() []byte { return s.text }

// Raw is the last line read as it was, its line break included (none
// when Cut); it is valid until the next Scan.
func (s *Lines) Raw() []byte { return s.raw }

// Text is Bytes as a string.
func (s *Lines) Text() string { return string(s.text) }

// Line is the number of the last line read, from 1.
func (s *Lines) Line() int { return s.line }

// Cut reports whether the last line read had no line break: the input
// ended inside it (a writer killed while writing it, or a last line
// written without one).
func (s *Lines) Cut() bool { return s.cut }

// Read is the number of bytes read so far.
func (s *Lines) Read() int64 { return s.total }

// Err is why Scan returned false: nil at the end of the input, a limit's
// error (an *Error, which IsLimit reports), or the input's read error.
func (s *Lines) Err() error {
	if s.err == io.EOF {
		return nil
	}
	return s.err
}
