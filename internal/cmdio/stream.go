package cmdio

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
)

// Stream is a file of records, one line each, written where it will stay:
// each Write hands every line it completes to the operating system at
// once, in one write, and keeps a line that is not finished until its
// line break comes. A process killed at any moment, even by SIGKILL,
// leaves in the file every record whose write had returned; a kill during
// a write may leave that write's last line cut short (Linux stops a write
// between two pages for a fatal signal), nothing else. (A machine that
// loses power may lose what the operating system had not yet stored;
// Close syncs.)
type Stream struct {
	mu      sync.Mutex
	f       *os.File
	name    string
	tail    []byte // the bytes after the last line break, not yet written
	created bool   // this stream made the file
	wrote   bool   // a byte was written to it
	err     error
}

// CreateStream starts a new stream at path. It refuses, with an *Error,
// a path that holds a file with anything in it (elect never truncates a
// file it did not create; resume says how to continue one instead: "--resume FILE
// adds the missing runs"), and one that is not a regular file. An empty
// file is used as it is.
func CreateStream(path, resume string) (*Stream, error) {
	if path == "" {
		return nil, &Error{Msg: "no file name given"}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o666)
	if err == nil {
		return &Stream{f: f, name: path, created: true}, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, &Error{Msg: path + ": " + reason(err)}
	}
	info, serr := os.Stat(path)
	switch {
	case serr != nil:
		return nil, &Error{Msg: path + ": " + reason(serr)}
	case !info.Mode().IsRegular():
		return nil, &Error{Msg: path + ": is not a regular file; elect writes its records to regular files only"}
	case info.Size() > 0:
		hint := "remove it or name another file"
		if resume != "" {
			hint = resume + ", " + hint
		}
		return nil, &Error{Msg: path + ": exists; elect never replaces a file it is not continuing: " + hint}
	}
	return openAppend(path)
}

// ResumeStream continues the stream in the existing regular file path,
// whose first whole bytes are the records to keep: what follows them is a
// last line that a kill cut short (its caller found it; nothing else is
// ever cut), which is removed, and the new records are appended after
// them.
func ResumeStream(path string, whole int64) (*Stream, error) {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, &Error{Msg: path + ": " + reason(err)}
	case !info.Mode().IsRegular():
		return nil, &Error{Msg: path + ": is not a regular file; elect writes its records to regular files only"}
	case whole < 0 || whole > info.Size():
		return nil, &Error{Msg: fmt.Sprintf("%s: has %d bytes, not the %d its records were read from; was it changed meanwhile?", path, info.Size(), whole)}
	}
	s, err := openAppend(path)
	if err != nil {
		return nil, err
	}
	if whole < info.Size() {
		if err := s.f.Truncate(whole); err != nil {
			s.f.Close()
			return nil, &Error{Msg: path + ": cannot drop its cut last line: " + reason(err)}
		}
	}
	return s, nil
}

func openAppend(path string) (*Stream, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, &Error{Msg: path + ": " + reason(err)}
	}
	return &Stream{f: f, name: path}, nil
}

// Name is the stream's path, as given.
func (s *Stream) Name() string { return s.name }

// Write adds p to the stream; every line it completes is written at once.
// The first error is kept and returned by every later Write and by Close.
func (s *Stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return 0, s.err
	}
	end := bytes.LastIndexByte(p, '\n') + 1
	if end == 0 {
		s.tail = append(s.tail, p...)
		return len(p), nil
	}
	out := p[:end]
	if len(s.tail) > 0 {
		out = append(s.tail, p[:end]...)
	}
	if err := s.write(out); err != nil {
		return 0, err
	}
	s.tail = append(s.tail[:0], p[end:]...)
	return len(p), nil
}

func (s *Stream) write(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	if failHook != nil {
		if err := failHook(len(b)); err != nil {
			s.err = fmt.Errorf("writing %s: %s", s.name, err)
			return s.err
		}
	}
	if _, err := s.f.Write(b); err != nil {
		s.err = fmt.Errorf("writing %s: %s", s.name, reason(err))
		return s.err
	}
	s.wrote = true
	return nil
}

// Close writes a last line without its line break, if one is held, syncs
// the file and closes it; it returns the stream's first error.
func (s *Stream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return s.err
	}
	var err error
	if s.err == nil {
		err = s.write(s.tail)
	}
	s.tail = nil
	if serr := s.f.Sync(); err == nil && serr != nil {
		err = fmt.Errorf("writing %s: %s", s.name, reason(serr))
	}
	if cerr := s.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("writing %s: %s", s.name, reason(cerr))
	}
	s.f = nil
	if s.err == nil {
		s.err = err
	}
	return s.err
}

// Discard closes the stream after a failure; a file this stream created
// and never wrote to is removed (an error before the first record leaves
// no empty file behind), any other is kept with what it holds.
func (s *Stream) Discard() {
	s.mu.Lock()
	created, wrote, f := s.created, s.wrote, s.f
	s.f, s.tail = nil, nil
	s.mu.Unlock()
	if f == nil {
		return
	}
	f.Close()
	if created && !wrote {
		os.Remove(s.name)
	}
}

// reason is an operating system error without the operation and path
// that the messages already give.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// failHook, when set (FailWrites), decides whether a write of n bytes
// fails.
var failHook func(n int) error

// FailWrites makes every Stream's writes fail once bytes bytes have been
// written through all of them (bytes < 0: never), for tests that show what
// a failed write leaves; the returned function restores normal writing.
// Not safe for concurrent use with writes.
func FailWrites(bytes int64) (restore func()) {
	var mu sync.Mutex
	var written int64
	failHook = func(n int) error {
		mu.Lock()
		defer mu.Unlock()
		written += int64(n)
		if bytes >= 0 && written > bytes {
			return errors.New("no space left on device (injected by a test)")
		}
		return nil
	}
	return func() { failHook = nil }
}
