package election

import (
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/topology"
)

// keptWrites is a writer that keeps each write (as cmdio.Stream does),
// recording the writes it was given.
type keptWrites struct{ writes []string }

func (k *keptWrites) Write(p []byte) (int, error) {
	k.writes = append(k.writes, string(p))
	return len(p), nil
}
func (k *keptWrites) KeepsEachWrite() {}

// TestTracerWritesEachLineToAKeepingWriter: a Tracer does not buffer lines
// for a writer that keeps each write (a buffer of its own would hold what
// SIGKILL loses): each line reaches it as it is made, header first.
func TestTracerWritesEachLineToAKeepingWriter(t *testing.T) {
	cfg := &Config{Algorithm: &elect.Algorithm{Name: "x"}, Graph: topology.NewRing(3), IDs: []elect.ID{1, 2, 3}}
	var w keptWrites
	tr := NewTracer(&w, cfg, func() int64 { return 0 })
	tr.Wake(1, true)
	if len(w.writes) != 2 || !strings.HasPrefix(w.writes[0], `{"ev":"header"`) || w.writes[1] != "{\"t\":0,\"ev\":\"wake\",\"node\":1,\"spontaneous\":true}\n" {
		t.Fatalf("writes after one event: %q", w.writes)
	}
	tr.Crash(2)
	if len(w.writes) != 3 || w.writes[2] != "{\"t\":0,\"ev\":\"crash\",\"node\":2}\n" {
		t.Fatalf("writes after two events: %q", w.writes)
	}
	if err := tr.Flush(); err != nil || len(w.writes) != 3 {
		t.Fatalf("Flush: %v, %d writes", err, len(w.writes))
	}
}
