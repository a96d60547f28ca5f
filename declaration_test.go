package elect_test

import (
	"fmt"
	"testing"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/scenario"
)

// TestRandomizedIsDeclaredTruly checks Model.Randomized against the runs of
// every catalog algorithm: on a ring (or complete graph) of 16 nodes with
// fixed IDs (decreasing), every node initiating and the algorithm's own
// deterministic delivery (sync, or FIFO with unit delays), the seed can
// only reach the nodes through Env.Rand. So a deterministic algorithm gives
// the same run for seeds 1..8, and a randomized one (with its default
// parameters) a different run for at least one of them.
func TestRandomizedIsDeclaredTruly(t *testing.T) {
	for _, alg := range catalog.All() {
		runs := map[string]bool{}
		for seed := uint64(1); seed <= 8; seed++ {
			rec, err := scenario.Run(scenario.Spec{Algorithm: alg.Name, N: 16, IDs: "decreasing", Seed: seed})
			if err != nil {
				t.Fatalf("%s seed %d: %v", alg.Name, seed, err)
			}
			if rec.Delivery != "sync" && rec.Delivery != "fifo" {
				t.Fatalf("%s runs with %s delivery by default, which draws from the seed", alg.Name, rec.Delivery)
			}
			runs[fmt.Sprintf("%s leader %d, %d messages %v, %d bits, time %g, %d events, at most %d per node",
				rec.Outcome, rec.LeaderIndex, rec.Messages, rec.MessagesByType, rec.Bits, rec.Time, rec.Events, rec.MaxNodeMessages)] = true
		}
		switch {
		case alg.Model.Randomized && len(runs) == 1:
			t.Errorf("%s is declared randomized, but seeds 1..8 gave the same run", alg.Name)
		case !alg.Model.Randomized && len(runs) > 1:
			t.Errorf("%s is declared deterministic, but seeds 1..8 gave %d different runs", alg.Name, len(runs))
		}
	}
}
