package view

import (
	"errors"
	"fmt"
	"io"

	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/trace"
)

// MaxBytes is the largest trace the viewer holds in memory: what it reads
// from a pipe, and what the exports (Page, ShiViz, SVG) read. A trace file
// served from disk in windows is not held, and may be as large as package
// trace allows.
const MaxBytes = 4 << 30

// MemoryLimits are the limits of a trace the viewer holds in memory.
var MemoryLimits = bounded.Limits{What: "a trace the viewer holds in memory", MaxBytes: MaxBytes, MaxLine: trace.MaxLine}

// TooManyEventsError is ReadTrace's refusal of a trace with more events
// than its limit, made as soon as the event past the limit is read.
type TooManyEventsError struct{ Limit int }

func (e *TooManyEventsError) Error() string {
	return fmt.Sprintf("view: the trace has more than %d events", e.Limit)
}

// ReadTrace reads a version 2 trace from r (name names it in errors),
// parsing each line with package trace before it reads the next, so that
// anything but a trace (a pipe of random bytes, an endless number) is
// refused at its first bad line, after at most a line's limit of it. It
// returns the trace's lines as they were parsed, one per line (what Page
// and NewHandler take), and, when events is set, the events (for ShiViz
// and SVG). maxEvents > 0 refuses a trace of more events, at the first
// event past it (a *TooManyEventsError). At most MaxBytes are read.
func ReadTrace(r io.Reader, name string, maxEvents int, events bool) ([]byte, *trace.Trace, error) {
	return readTrace(r, name, maxEvents, true, events)
}

// readTrace is ReadTrace keeping the lines when lines is set.
func readTrace(r io.Reader, name string, maxEvents int, lines, events bool) ([]byte, *trace.Trace, error) {
	// The trace reader holds lines to their limit; this, the whole.
	limited := bounded.NewReader(r, name, bounded.Limits{What: MemoryLimits.What, MaxBytes: MemoryLimits.MaxBytes})
	rd, err := trace.NewNamedReader(limited, name)
	if err != nil {
		return nil, nil, fmt.Errorf("view: %w", err)
	}
	if rd.Version() < 2 {
		return nil, nil, errors.New("view: this is a version 1 trace (no header line); it still replays with 'elect run --replay', but the viewer needs the network and IDs of version 2: run again with --trace")
	}
	var data []byte
	if lines {
		data = append(append(data, rd.Text()...), '\n')
	}
	t := &trace.Trace{Header: rd.Header(), Version: rd.Version()}
	for k := 0; ; k++ {
		ev, err := rd.Next()
		if err == io.EOF {
			return data, t, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("view: %w", err)
		}
		if maxEvents > 0 && k >= maxEvents {
			return nil, nil, &TooManyEventsError{Limit: maxEvents}
		}
		if ev.Ev == "truncated" {
			t.Truncated = true
		}
		if events {
			t.Events = append(t.Events, ev)
		}
		if lines {
			data = append(append(data, rd.Text()...), '\n')
		}
	}
}
