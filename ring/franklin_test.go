package ring_test

import (
	"math/rand/v2"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// TestFranklinSmallRingsExactCounts works Franklin's rounds (CACM 25(5),
// 1982) out by hand. An active node survives a round iff its ID beats both
// nearest active neighbours; each round costs exactly 2n probes (one each way
// on every link), whatever the delivery. Times are rounds (sync, all start
// at 0).
//
//   - n=1, [0]: both probes come straight back: 2 probes, elected at round 1.
//   - n=2, [0 1]: round 0: 4 probes, node 1 survives; round 1: its probes go
//     round (2 hops each): 4 more, 8 in all; elected at round 1+2 = 3.
//   - n=3, [0 1 2]: round 0: 6, only node 2 survives; round 1: 6; 12 in all,
//     rounds 1+3 = 4.
//   - n=4, [0 1 2 3]: only node 3 survives round 0: 16 probes, rounds 1+4 = 5.
//   - n=4, bit-reversal [0 2 1 3]: round 0 leaves the local maxima 2 (node 1)
//     and 3 (node 3), 2 hops apart; round 1 (2 rounds) leaves node 3; round
//     2 (4 rounds): 3 rounds, 24 probes = 2n*floor(lg n)+2n, within
//     2n*floor(lg n)+3n = 28; rounds 1+2+4 = 7.
func TestFranklinSmallRingsExactCounts(t *testing.T) {
	checkProbeRings(t, election.Config{Algorithm: ring.Franklin, Seed: 11}, []probeRing{
		{[]elect.ID{0}, 2, 0, 1},
		{[]elect.ID{0, 1}, 8, 1, 3},
		{[]elect.ID{0, 1, 2}, 12, 2, 4},
		{[]elect.ID{0, 1, 2, 3}, 16, 3, 5},
		{[]elect.ID{0, 2, 1, 3}, 24, 3, 7},
	})
}

// TestFranklinElectsMaxOnRandomRings is the property test: random rings,
// every delivery model (round tags make non-FIFO channels safe), random
// initiator sets and wake-up times: exactly one leader, the maximum, every
// declared bound (2n*floor(lg n)+3n messages, 2n*floor(lg n)+2n probes),
// and 2n probes per round, as many as in the all-start FIFO run.
func TestFranklinElectsMaxOnRandomRings(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	for _, n := range nlSizes {
		for s := range nlSeeds() {
			idList := nlIDs(t, "random", n, uint64(31*n+s))
			ref := nlRun(t, election.Config{Algorithm: ring.Franklin, IDs: idList, Delivery: election.FIFO})
			probes := ref.MessagesByType["probe"]
			if probes%int64(2*n) != 0 || probes/int64(2*n) > int64(nlFloorLog2(n)+1) {
				t.Fatalf("n=%d ids %v: %d probes is not 2n times at most floor(lg n)+1 rounds", n, idList, probes)
			}
			for _, d := range nlDeliveries {
				cfg := election.Config{Algorithm: ring.Franklin, IDs: idList, Delivery: d, Wake: nlRandomWake(rng, n, 3),
					Seed: uint64(s), Announce: s%2 == 0}
				res := nlRun(t, cfg)
				if res.MessagesByType["probe"] != probes {
					t.Fatalf("%s: %d probes, %d in the all-start fifo run", nlDescribe(cfg, res), res.MessagesByType["probe"], probes)
				}
			}
		}
	}
}

// TestFranklinBoundTwoNFloorLgNPlusThreeN checks Franklin's bound with the
// announcement on the stressing arrangements. On the bit-reversal ring of
// size 2^k the odd nodes hold the IDs >= n/2 and beat both even neighbours,
// and the survivors' IDs are again a bit-reversal arrangement of half the
// size, so every round halves the active nodes exactly: all floor(lg n)+1
// rounds are used and the probes reach 2n*floor(lg n)+2n.
func TestFranklinBoundTwoNFloorLgNPlusThreeN(t *testing.T) {
	for _, arrangement := range []string{"increasing", "decreasing", "bit-reversal", "random"} {
		for _, n := range []int{4, 64, 512, 4096} {
			res := nlRun(t, election.Config{Algorithm: ring.Franklin, IDs: nlIDs(t, arrangement, n, 4), Delivery: election.FIFO, Announce: true})
			lg := nlFloorLog2(n)
			if bound := int64(2*n*lg + 3*n); res.Messages > bound {
				t.Errorf("%s n=%d: %d messages > %d", arrangement, n, res.Messages, bound)
			}
			if arrangement == "bit-reversal" {
				if want := int64(2*n*lg + 2*n); res.MessagesByType["probe"] != want {
					t.Errorf("bit-reversal n=%d: %d probes, want %d (every round halves the active nodes)", n, res.MessagesByType["probe"], want)
				}
			}
		}
	}
}

// TestFranklinAnonymousRingStaysSymmetric: with equal IDs every node gets
// its "own" ID back in round 1 and elects itself; the engine reports the
// symmetric outcome (seed 001 §5.1).
func TestFranklinAnonymousRingStaysSymmetric(t *testing.T) {
	for _, alg := range []string{"franklin", "peterson"} {
		cfg, err := scenario.Build(scenario.Spec{Algorithm: alg, N: 6, IDs: "anonymous", Timing: "sync", Force: true})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(*cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != election.Symmetric {
			t.Errorf("%s: outcome %s, want symmetric", alg, res.Outcome)
		}
	}
}

// TestFranklinStateSeesState drives one node by hand through a round,
// a buffered probe of the next round, and becoming passive.
func TestFranklinStateSeesState(t *testing.T) {
	driveDistinct(t, ring.Franklin.New(elect.NodeInfo{ID: 5}), []handStep{
		{"round-0 probe from the left", elect.Left, elect.Message{ID: 3, A: 0}},
		{"round-1 probe from the left, kept", elect.Left, elect.Message{ID: 4, A: 1}},
		{"round-0 probe from the right: survives to round 1", elect.Right, elect.Message{ID: 2, A: 0}},
		{"round-1 probe from the right, larger: passive", elect.Right, elect.Message{ID: 9, A: 1}},
	})
}
