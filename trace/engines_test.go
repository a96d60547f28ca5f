package trace_test

import (
	"bytes"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/check"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/live"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/trace"
)

// TestEveryEngineWritesVersion2: the simulator, the reference engine, the
// goroutine runtime and the checker's extreme executions write the same
// format: a header naming the runtime, then for LCR on the decreasing ring
// of n nodes n(n+1)/2 sends and as many deliveries (seed 001 §5.2.1.1),
// one decision and a state line for every node. (The TCP runtime's merged
// trace is tested in cli, TestClusterTraceReplays.)
func TestEveryEngineWritesVersion2(t *testing.T) {
	const n = 5
	ids := make([]elect.ID, n)
	for i := range ids {
		ids[i] = elect.ID(n - i)
	}
	cfg := election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(n), IDs: ids, Delivery: election.FIFO}
	traces := map[string][]byte{}
	for name, run := range map[string]func(election.Config) (*election.Result, error){"sim": sim.Run, "reference": reference.Run, "live": live.Run} {
		var buf bytes.Buffer
		c := cfg
		c.Trace = &buf
		if _, err := run(c); err != nil {
			t.Fatal(name, err)
		}
		traces[name] = buf.Bytes()
	}
	r, err := check.Run(check.Options{Spec: scenario.Spec{Algorithm: "lcr", N: n}, IDs: "decreasing", Delivery: "fifo"})
	if err != nil {
		t.Fatal(err)
	}
	for q, e := range r.Extremes {
		if e.Quantity == "election" {
			var buf bytes.Buffer
			if ok, err := r.WriteExtreme(&buf, q, true); !ok || err != nil {
				t.Fatal("no extreme execution", err)
			}
			traces["check"] = buf.Bytes()
		}
	}
	for runtime, data := range traces {
		tr, err := trace.ReadAll(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", runtime, err)
		}
		if tr.Version != 2 || tr.Header.Runtime != runtime || tr.Header.N != n || tr.Header.Algorithm != "lcr" {
			t.Errorf("%s: header %+v", runtime, tr.Header)
			continue
		}
		count := map[string]int{}
		stated := map[int32]bool{}
		for _, ev := range tr.Events {
			count[ev.Ev]++
			if ev.Ev == "state" {
				stated[ev.Node] = true
			}
		}
		if count["send"] != n*(n+1)/2 || count["deliver"] != n*(n+1)/2 || count["decide"] != 1 || len(stated) != n {
			t.Errorf("%s: %v events, states of %d nodes; want %d sends and deliveries, 1 decision, %d nodes' states",
				runtime, count, len(stated), n*(n+1)/2, n)
		}
	}
}
