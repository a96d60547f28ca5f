package live_test

import (
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/topology"
)

// TestQueueLimitStopsDuplicates (issue 42): HS with every message
// duplicated stops at Config.MaxQueueBytes with outcome memory-limit on
// goroutines, asynchronous and synchronous.
func TestQueueLimitStopsDuplicates(t *testing.T) {
	spec, err := ids.Parse("random")
	if err != nil {
		t.Fatal(err)
	}
	idList, err := spec.Generate(1000, election.Stream(1, "ids", 0))
	if err != nil {
		t.Fatal(err)
	}
	dup, err := faults.Parse("dup:p=1")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []election.Delivery{election.FIFO, election.Sync} {
		cfg := election.Config{Algorithm: ring.HS, Graph: topology.NewRing(1000), IDs: idList, Delivery: d, Seed: 1,
			MaxQueueBytes: 1 << 20, MaxEvents: 1e8, Faults: dup}
		res, err := runPlanned(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != election.MemoryLimit || res.Faults.Verdict != election.VerdictCut {
			t.Errorf("%s: outcome %s, verdict %s; want memory-limit, cut-short", d, res.Outcome, res.Faults.Verdict)
		}
	}
}
