package general_test

import (
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/topology"
)

// TestHyperElectElectsTheMinimumWithinItsCount: random IDs, every delivery
// model, all or some starters: the minimum is elected and known to all, the
// announcement costs exactly n-1, and the MATCHes stay within the
// write-up's count (every declared bound is checked).
func TestHyperElectElectsTheMinimumWithinItsCount(t *testing.T) {
	for _, n := range []int{1, 2, 8, 64, 1024} {
		g, err := topology.Hypercube(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []election.Delivery{election.FIFO, election.Random, election.NewestFirst} {
			for seed := uint64(1); seed <= 3; seed++ {
				idList := arrangedIDs(t, "random", n, seed)
				cfg := election.Config{Algorithm: general.HyperElect, Graph: g, IDs: idList, Delivery: d, Seed: seed, Announce: true}
				if seed == 2 && n > 2 {
					cfg.Wake = []election.Wake{{Node: n - 1}, {Node: 1, At: 2}}
				}
				if res := run(t, cfg); !res.AllKnowLeader {
					t.Fatalf("n=%d %v seed %d: not every node knows the leader", n, d, seed)
				}
			}
		}
	}
}

// TestHyperElectIncreasingIDsSendsOneHopMatches: with node i holding ID i,
// the duellist of every subcube is its lowest-numbered node, and the MATCH
// of stage i crosses dimension i-1 to exactly the other subcube's lowest
// node (or from it to this one), which is that subcube's duellist: no
// MATCH is ever forwarded. Each of the 2^(k-i+1) duellists of stage i sends
// one: 2^k + 2^(k-1) + ... + 2 = 2(n-1) MATCH messages.
func TestHyperElectIncreasingIDsSendsOneHopMatches(t *testing.T) {
	for _, n := range []int{2, 16, 1024} {
		g, err := topology.Hypercube(n)
		if err != nil {
			t.Fatal(err)
		}
		res := runArranged(t, general.HyperElect, g, "increasing", election.FIFO)
		if got := res.MessagesByType["MATCH"]; got != int64(2*(n-1)) {
			t.Errorf("n=%d: %d MATCH messages, want 2(n-1) = %d", n, got, 2*(n-1))
		}
	}
}
