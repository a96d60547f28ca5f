package view_test

import (
	"io"
	"strings"
	"testing"

	"github.com/electkit/elect/trace"
	"github.com/electkit/elect/view"
)

// TestShivizRefusesLongTraces: a trace of more than view.ShivizMaxEvents
// events gets one clear error before anything is written.
func TestShivizRefusesLongTraces(t *testing.T) {
	tr, err := trace.ReadAll(strings.NewReader(string(lcrTrace(t, 3))))
	if err != nil {
		t.Fatal(err)
	}
	for len(tr.Events) <= view.ShivizMaxEvents {
		tr.Events = append(tr.Events, tr.Events[0])
	}
	w := &countWriter{}
	err = view.ShiViz(w, tr)
	if err == nil || !strings.Contains(err.Error(), "a ShiViz log holds at most 100000") || w.n > 0 {
		t.Errorf("error %v after %d bytes", err, w.n)
	}
	if err := view.ShiViz(io.Discard, &trace.Trace{Header: tr.Header, Events: tr.Events[:10]}); err != nil {
		t.Errorf("10 events: %v", err)
	}
}

type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }
