package trace_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/trace"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
)

// TestFaultLinesRead: a run with every fault writes lose, dup, delay and
// crash lines after their send, which the reader takes, and the header
// names the specification.
func TestFaultLinesRead(t *testing.T) {
	const n = 6
	spec, err := faults.Parse("loss:msg=1;dup:msg=2;delay:msg=3,d=2;crash:node=5@step=2;partition:0|3@0-1")
	if err != nil {
		t.Fatal(err)
	}
	ids := []elect.ID{3, 6, 1, 5, 2, 4}
	var buf bytes.Buffer
	cfg := election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(n), IDs: ids, Delivery: election.FIFO, Faults: spec, Trace: &buf}
	if _, err := sim.Run(cfg); err != nil {
		t.Fatal(err)
	}
	tr, err := trace.ReadAll(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Header.Faults != spec.String() {
		t.Errorf("header faults %q, want %q", tr.Header.Faults, spec.String())
	}
	count := map[string]int{}
	for k, ev := range tr.Events {
		count[ev.Ev]++
		switch ev.Ev {
		case "lose", "dup", "delay":
			if prev := tr.Events[k-1]; prev.Ev != "send" || prev.From != ev.From || prev.To != ev.To {
				t.Errorf("event %d: %s not right after its send (%+v)", k, ev.Ev, prev)
			}
		}
		if ev.Ev == "delay" && ev.By != 2 || ev.Ev == "lose" && ev.Cause != "loss" {
			t.Errorf("event %d: %+v", k, ev)
		}
	}
	for _, ev := range []string{"lose", "dup", "delay", "crash"} {
		if count[ev] != 1 {
			t.Errorf("%d %s lines, want 1 (%v)", count[ev], ev, count)
		}
	}
	bad := strings.Replace(buf.String(), `"cause":"loss"`, `"cause":"rain"`, 1)
	if _, err := trace.ReadAll(strings.NewReader(bad)); err == nil {
		t.Errorf("a lose line with cause rain was read")
	}
}
