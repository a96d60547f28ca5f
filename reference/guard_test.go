package reference_test

import (
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/topology"
)

// TestQueueLimitStopsDuplicates (issue 42): HS with every message
// duplicated stops at Config.MaxQueueBytes with outcome memory-limit on
// the reference engine too; without duplicates, a run that fits is the
// run without a limit.
func TestQueueLimitStopsDuplicates(t *testing.T) {
	spec, err := ids.Parse("random")
	if err != nil {
		t.Fatal(err)
	}
	idList, err := spec.Generate(2000, election.Stream(1, "ids", 0))
	if err != nil {
		t.Fatal(err)
	}
	cfg := election.Config{Algorithm: ring.HS, Graph: topology.NewRing(2000), IDs: idList, Delivery: election.FIFO, Seed: 1,
		MaxQueueBytes: 1 << 20, MaxEvents: 1e8}
	free, err := reference.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if free.Outcome != election.OutcomeElected {
		t.Errorf("without faults: outcome %s", free.Outcome)
	}
	if cfg.Faults, err = faults.Parse("dup:p=1"); err != nil {
		t.Fatal(err)
	}
	res, err := reference.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != election.MemoryLimit || res.Faults.Verdict != election.VerdictCut {
		t.Errorf("dup:p=1: outcome %s, verdict %s; want memory-limit, cut-short", res.Outcome, res.Faults.Verdict)
	}
}
