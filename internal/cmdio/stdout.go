package cmdio

import (
	"io"
	"sync"
)

// Stdout is a command's standard output that remembers its first write
// error: commands print with fmt.Fprintf and do not look at every
// result, and the error still decides the exit status (Err).
type Stdout struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// NewStdout wraps w.
func NewStdout(w io.Writer) *Stdout { return &Stdout{w: w} }

// Write writes p to the wrapped writer; after a failure it writes nothing
// more and returns the first error.
func (s *Stdout) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// Err is the first write error, or nil.
func (s *Stdout) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}
