package cmdio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/electkit/elect/internal/bounded"
)

// Stream is a file of records, one line each, written where it will stay.
// Each Write copies every line it completes into the file's own pages,
// through a window of the file mapped into memory (a few MiB past the
// written end, the file extended to the window's end): the pages are the
// kernel's page cache, so a line is in the file as soon as Write returns,
// whatever ends the process next, SIGKILL and the out-of-memory killer
// included, at the cost of a memory copy, not of a system call. A line
// that is not finished is kept until its line break comes.
//
// A normal Close, a Discard, and the signal policy before it ends the
// process at once cut the file to the bytes written. After SIGKILL the
// file holds every line whose Write had returned, then perhaps the start
// of the line being copied, then NUL bytes up to the window's end (at
// most bounded.MaxUnwritten): the unwritten end, which every reader
// drops (internal/bounded) and ResumeStream cuts off. (A machine that
// loses power may lose what the operating system had not yet stored;
// Close syncs.) Where a file cannot be mapped (another system, a file
// system without mmap or fallocate), each Write hands its lines to the
// operating system in one write instead, with the same promise at the
// cost of a system call a write.
type Stream struct {
	mu      sync.Mutex
	f       *os.File
	name    string
	tail    []byte // the bytes after the last line break, not yet written
	created bool   // this stream made the file
	wrote   bool   // a byte was written to it
	err     error

	mapped  bool   // lines go through the mapped window, not write(2)
	window  []byte // the mapped window of the file
	winAt   int64  // the file offset of window[0]
	written int64  // the bytes of the file that are records
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
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if err == nil {
		return started(&Stream{f: f, name: path, created: true}), nil
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
	return openExisting(path, 0)
}

// ResumeStream continues the stream in the existing regular file path,
// whose first whole bytes are the records to keep: what follows them is a
// last line that a kill cut short, or the unwritten end of a window that
// a kill left (its caller found them; nothing else is ever cut), which is
// removed, and the new records are appended after them.
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
	return openExisting(path, whole)
}

// openExisting opens the regular file at path as a stream that continues
// after its first whole bytes, cutting off the rest.
func openExisting(path string, whole int64) (*Stream, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, &Error{Msg: path + ": " + reason(err)}
	}
	if info, err := f.Stat(); err == nil && info.Size() > whole {
		if err := f.Truncate(whole); err != nil {
			f.Close()
			return nil, &Error{Msg: path + ": cannot drop its cut last line: " + reason(err)}
		}
	}
	if _, err := f.Seek(whole, io.SeekStart); err != nil {
		f.Close()
		return nil, &Error{Msg: path + ": " + reason(err)}
	}
	return started(&Stream{f: f, name: path, written: whole}), nil
}

// started registers s for the signal policy (TrimStreams); its lines go
// through a mapped window where the system has them.
func started(s *Stream) *Stream {
	s.mapped = canMap
	streams.Lock()
	streams.open[s] = true
	streams.Unlock()
	return s
}

// streams is the streams open in this process, which the signal policy
// cuts to their written bytes before it ends the process at once.
var streams = struct {
	sync.Mutex
	open map[*Stream]bool
}{open: map[*Stream]bool{}}

// trimStreams cuts every open stream's file to the records written, and
// stops them (a later write fails, touching nothing), before the process
// ends at once.
func trimStreams() {
	streams.Lock()
	defer streams.Unlock()
	for s := range streams.open {
		s.mu.Lock()
		if s.f != nil && s.err == nil {
			s.trim()
			s.err = fmt.Errorf("writing %s: stopped, the process is ending", s.name)
		}
		s.mu.Unlock()
	}
}

func (s *Stream) closed() {
	streams.Lock()
	delete(streams.open, s)
	streams.Unlock()
}

// Name is the stream's path, as given.
func (s *Stream) Name() string { return s.name }

// KeepsEachWrite marks a writer that keeps each Write in the file as soon
// as it returns, without a system call: a writer of many small records
// (election.Tracer) gives it each record directly instead of buffering
// them, which SIGKILL would lose.
func (s *Stream) KeepsEachWrite() {}

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
	if s.f == nil {
		s.err = fmt.Errorf("writing %s: the stream is closed", s.name)
		return s.err
	}
	if failHook != nil {
		if err := failHook(len(b)); err != nil {
			s.err = fmt.Errorf("writing %s: %s", s.name, err)
			return s.err
		}
	}
	var err error
	if s.mapped {
		err = s.copyIn(b)
		if errors.Is(err, errNoMapping) && !s.wrote {
			// The file system cannot map the file: write(2) it is.
			s.mapped = false
			if err = s.f.Truncate(s.written); err == nil {
				_, err = s.f.Write(b)
			}
		}
	} else {
		_, err = s.f.Write(b)
	}
	if err != nil {
		s.err = fmt.Errorf("writing %s: %s", s.name, reason(err))
		return s.err
	}
	s.written += int64(len(b))
	s.wrote = true
	return nil
}

// copyIn copies b into the window at the written end, moving the window
// first when b does not fit in it.
func (s *Stream) copyIn(b []byte) error {
	at := s.written - s.winAt
	if s.window == nil || at+int64(len(b)) > int64(len(s.window)) {
		if err := s.move(len(b)); err != nil {
			return err
		}
		at = s.written - s.winAt
	}
	return copyMapped(s.window[at:], b)
}

// move maps the next window: from the page of the written end, long
// enough for n bytes, twice the last window (from 256 KiB up to
// bounded.MaxUnwritten), the file extended to its end.
func (s *Stream) move(n int) error {
	size := int64(minWindow)
	if s.window != nil {
		size = min(2*int64(len(s.window)), bounded.MaxUnwritten)
		if err := unmap(s.window); err != nil {
			s.window = nil
			return err
		}
		s.window = nil
	}
	page := int64(os.Getpagesize())
	at := s.written &^ (page - 1)
	size = max(size, (s.written-at+int64(n)+page-1)&^(page-1))
	if err := extend(s.f, at, size); err != nil {
		return err
	}
	w, err := mapWindow(s.f, at, size)
	if err != nil {
		return err
	}
	s.window, s.winAt = w, at
	return nil
}

// minWindow is a stream's first window: a small trace reserves no more.
const minWindow = 256 << 10

// trim unmaps s's window and cuts the file to what was written.
func (s *Stream) trim() error {
	var err error
	if s.window != nil {
		err = unmap(s.window)
		s.window = nil
	}
	if s.mapped {
		if terr := s.f.Truncate(s.written); err == nil {
			err = terr
		}
	}
	return err
}

// Close writes a last line without its line break, if one is held, cuts
// the file to the bytes written, syncs it and closes it; it returns the
// stream's first error.
func (s *Stream) Close() error {
	defer s.closed() // after the unlock: trimStreams locks streams, then s
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
	if terr := s.trim(); err == nil && terr != nil {
		err = fmt.Errorf("writing %s: %s", s.name, reason(terr))
	}
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
// no empty file behind), any other is kept with what it holds, cut to the
// bytes written.
func (s *Stream) Discard() {
	s.mu.Lock()
	created, wrote, f := s.created, s.wrote, s.f
	if f != nil {
		s.trim()
	}
	s.f, s.tail = nil, nil
	s.mu.Unlock()
	if f == nil {
		return
	}
	s.closed()
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
