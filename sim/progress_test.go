package sim_test

import (
	"reflect"
	"testing"

	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// TestProgressDoesNotChangeTheRun: a run told to report its progress every
// sim.ProgressEvents events gives the same result under every delivery
// model, and the reports climb to the result's counts.
func TestProgressDoesNotChangeTheRun(t *testing.T) {
	// HS on 10^5 nodes: about 5 million events, a few reports; the three
	// delivery models run the engine's three loops.
	const n = 100_000
	for _, d := range []sim.Delivery{sim.FIFO, sim.Random, sim.NewestFirst} {
		cfg := sim.Config{Algorithm: ring.HS, Graph: topology.NewRing(n), IDs: shuffled(n, 5), Delivery: d, Seed: 5}
		plain, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var reports []sim.Progress
		cfg.Progress = func(p sim.Progress) bool { reports = append(reports, p); return true }
		reported, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(plain, reported) {
			t.Errorf("%s: the runs differ:\n%+v\n%+v", d, plain, reported)
		}
		if want := int((plain.Events - 1) / sim.ProgressEvents); len(reports) != want {
			t.Errorf("%s: %d reports over %d events, want %d", d, len(reports), plain.Events, want)
		}
		for i, p := range reports {
			if p.Events != int64(i+1)*sim.ProgressEvents || p.Messages > plain.Messages {
				t.Errorf("%s: report %d: %+v", d, i, p)
			}
		}
	}
}

// TestProgressStopsTheRun: a report that returns false stops the run there,
// with outcome stopped and the counts of that event.
func TestProgressStopsTheRun(t *testing.T) {
	cfg := sim.Config{Algorithm: ring.HS, Graph: topology.NewRing(100_000), IDs: shuffled(100_000, 5), Delivery: sim.FIFO, Seed: 5,
		Progress: func(p sim.Progress) bool { return false }}
	r, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != sim.Stopped || r.Events != sim.ProgressEvents || r.Leaders != 0 {
		t.Errorf("outcome %s after %d events with %d leaders; want stopped after %d", r.Outcome, r.Events, r.Leaders, sim.ProgressEvents)
	}
}
