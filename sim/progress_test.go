package sim_test

import (
	"reflect"
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// TestProgressDoesNotChangeTheRun: a run told to report its progress every
// election.ProgressEvents events gives the same result under every delivery
// model, and the reports climb to the result's counts.
func TestProgressDoesNotChangeTheRun(t *testing.T) {
	// HS on 10^5 nodes: about 5 million events, a few reports; the three
	// delivery models run the engine's three loops.
	const n = 100_000
	for _, d := range []election.Delivery{election.FIFO, election.Random, election.NewestFirst} {
		cfg := election.Config{Algorithm: ring.HS, Graph: topology.NewRing(n), IDs: shuffled(n, 5), Delivery: d, Seed: 5}
		plain, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var reports []election.Progress
		cfg.Progress = func(p election.Progress) bool { reports = append(reports, p); return true }
		reported, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(plain, reported) {
			t.Errorf("%s: the runs differ:\n%+v\n%+v", d, plain, reported)
		}
		if want := int((plain.Events - 1) / election.ProgressEvents); len(reports) != want {
			t.Errorf("%s: %d reports over %d events, want %d", d, len(reports), plain.Events, want)
		}
		for i, p := range reports {
			if p.Events != int64(i+1)*election.ProgressEvents || p.Messages > plain.Messages {
				t.Errorf("%s: report %d: %+v", d, i, p)
			}
		}
	}
}

// TestProgressStopsTheRun: a report that returns false stops the run there,
// with outcome stopped and the counts of that event.
func TestProgressStopsTheRun(t *testing.T) {
	cfg := election.Config{Algorithm: ring.HS, Graph: topology.NewRing(100_000), IDs: shuffled(100_000, 5), Delivery: election.FIFO, Seed: 5,
		Progress: func(p election.Progress) bool { return false }}
	r, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != election.Stopped || r.Events != election.ProgressEvents || r.Leaders != 0 {
		t.Errorf("outcome %s after %d events with %d leaders; want stopped after %d", r.Outcome, r.Events, r.Leaders, election.ProgressEvents)
	}
}
