package ring_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/check"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/scenario"
)

// dkrDeliveries are the FIFO deliveries Dolev-Klawe-Rodeh runs under.
var dkrDeliveries = []election.Delivery{election.Sync, election.FIFO, election.RandomFIFO}

// TestDKRIncreasingAndDecreasingRingsSendThreeN: on the increasing ring
// [0 1 .. n-1] (messages go from node i to node i+1) only node 0 survives
// phase 0 (its left is n-1, which beats 0 and leftleft n-2); on the
// decreasing ring only node 1 (left n-1 beats n-2 and leftleft 0). Phase 1
// has a single active process, whose (1, n-1) comes back to it: 2n + n
// messages, m1 = 2n, m2 = n, for every n >= 2 (Dolev, Klawe and Rodeh's
// phase rule). With n = 1 the first (1, id) comes back at once: 1 message.
// Times are rounds (sync, all at 0): phase 0 ends at 2, and the single
// active process's message goes round in n more.
func TestDKRIncreasingAndDecreasingRingsSendThreeN(t *testing.T) {
	for _, arrangement := range []string{"increasing", "decreasing"} {
		for _, n := range []int{1, 2, 3, 4, 5, 16, 17, 100, 1000} {
			for _, d := range dkrDeliveries {
				t.Run(fmt.Sprintf("%s/n=%d/%s", arrangement, n, d), func(t *testing.T) {
					res := nlRun(t, election.Config{Algorithm: ring.DolevKlaweRodeh, IDs: nlIDs(t, arrangement, n, 1), Delivery: d, Seed: 3})
					m1, m2 := int64(2*n), int64(n)
					wantLeader := 0
					if n == 1 {
						m1, m2 = 1, 0
					} else if arrangement == "decreasing" {
						wantLeader = 1
					}
					if res.MessagesByType["m1"] != m1 || res.MessagesByType["m2"] != m2 {
						t.Errorf("m1 %d, m2 %d; want %d, %d", res.MessagesByType["m1"], res.MessagesByType["m2"], m1, m2)
					}
					if res.LeaderIndex != wantLeader {
						t.Errorf("leader node %d, want %d", res.LeaderIndex, wantLeader)
					}
					if d == election.Sync && n > 1 && res.Time != float64(2+n) {
						t.Errorf("time %v rounds, want 2 + n = %d", res.Time, 2+n)
					}
				})
			}
		}
	}
}

// TestDKRBitReversalReachesTheBound: the bit-reversal ring of 2^k halves
// the active processes in every phase, k+1 phases: 2n*k + n messages, the
// declared bound 2n*floor(lg n) + n exactly.
func TestDKRBitReversalReachesTheBound(t *testing.T) {
	for _, n := range []int{4, 8, 64, 1024} {
		res := nlRun(t, election.Config{Algorithm: ring.DolevKlaweRodeh, IDs: nlIDs(t, "bit-reversal", n, 1), Delivery: election.FIFO})
		want := int64(2*n*nlFloorLog2(n) + n)
		if got := res.MessagesByType["m1"] + res.MessagesByType["m2"]; got != want {
			t.Errorf("n=%d: %d messages, want the bound %d", n, got, want)
		}
	}
}

// TestDKROnRandomRingsIsPetersonMinusTheLastPhasesHalf: on every ring DKR's
// simple algorithm keeps the same values phase by phase as seed 001's
// Algorithm 5.2 (the same test: left > leftleft and left > max), and ends
// one message per link earlier: its count is Peterson's minus n. The
// property holds under every FIFO delivery, with random initiator sets and
// wake-up times, and with the announcement (n leader messages); m1 - m2 = n.
func TestDKROnRandomRingsIsPetersonMinusTheLastPhasesHalf(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	for _, n := range nlSizes {
		for s := range 4 {
			idList := nlIDs(t, "random", n, uint64(31*n+s))
			pet := nlRun(t, election.Config{Algorithm: ring.Peterson, IDs: idList, Delivery: election.FIFO, Params: elect.Params{"variant": "tagged"}})
			want := pet.MessagesByType["probe"] - int64(n)
			for _, d := range dkrDeliveries {
				cfg := election.Config{Algorithm: ring.DolevKlaweRodeh, IDs: idList, Delivery: d, Wake: nlRandomWake(rng, n, 3),
					Seed: uint64(s), Announce: s%2 == 1}
				res := nlRun(t, cfg)
				m1, m2 := res.MessagesByType["m1"], res.MessagesByType["m2"]
				if m1+m2 != want || m1-m2 != int64(n) {
					t.Fatalf("%s: m1 %d + m2 %d, want %d (peterson's %d - n) with m1 - m2 = n", nlDescribe(cfg, res), m1, m2, want, want+int64(n))
				}
			}
		}
	}
}

// TestDKRStateSeesState drives one process through a phase by hand.
func TestDKRStateSeesState(t *testing.T) {
	sent := driveDistinct(t, ring.DolevKlaweRodeh.New(elect.NodeInfo{ID: 5}), []handStep{
		{"", elect.Left, elect.Message{Type: 0, ID: 9}},
		{"", elect.Left, elect.Message{Type: 1, ID: 3}},
		{"", elect.Left, elect.Message{Type: 0, ID: 4}},
		{"", elect.Left, elect.Message{Type: 1, ID: 11}},
	})
	// Sent: (1,5), (2,9), (1,9) [adopted 9], (2,4); then relay.
	if got := typeIDs(sent); got != "[0:5 1:9 0:9 1:4]" {
		t.Errorf("sent %v", got)
	}
}

// dkrB runs algorithm B (--variant b) on the arrangement.
func dkrB(t *testing.T, arrangement string, n int, d election.Delivery, announce bool) *election.Result {
	t.Helper()
	return nlRun(t, election.Config{Algorithm: ring.DolevKlaweRodeh, IDs: nlIDs(t, arrangement, n, 1), Delivery: d, Seed: 3,
		Announce: announce, Params: elect.Params{"variant": "b"}})
}

// TestDKRBMonotoneRings: algorithm B on the decreasing ring (node 0 holds
// the maximum): every other process is beaten by its predecessor's M1 and
// waits; node 0, beaten by nothing, sends the only M2, which makes node 1
// active in phase 1; node 1's M1 (counter 2) goes round to node 0: n + 1 +
// (n-1) messages, M1 = 2n-1, M2 = 1. On the increasing ring every process
// but node 0 beats its predecessor's M1 and sends M2, which the next
// process drops, except node n-1's, which wakes node 0 (waiting with n-1)
// into phase 1; its M1 goes round to node n-1: M1 = 2n-1, M2 = n-1. A
// unidirectional ring leaves no choice of order, so every delivery gives
// these counts.
func TestDKRBMonotoneRings(t *testing.T) {
	for _, n := range []int{2, 3, 5, 16, 100, 1000} {
		for _, d := range dkrDeliveries {
			res := dkrB(t, "decreasing", n, d, false)
			if res.MessagesByType["M1"] != int64(2*n-1) || res.MessagesByType["M2"] != 1 || res.LeaderIndex != 0 {
				t.Errorf("decreasing n=%d %v: M1 %d, M2 %d, leader %d; want 2n-1, 1, node 0", n, d, res.MessagesByType["M1"], res.MessagesByType["M2"], res.LeaderIndex)
			}
			res = dkrB(t, "increasing", n, d, true)
			if res.MessagesByType["M1"] != int64(2*n-1) || res.MessagesByType["M2"] != int64(n-1) || res.LeaderIndex != n-1 ||
				res.MessagesByType["leader"] != int64(n) {
				t.Errorf("increasing n=%d %v: %v, leader %d; want M1 2n-1, M2 n-1, leader n, node n-1", n, d, res.MessagesByType, res.LeaderIndex)
			}
		}
	}
}

// TestDKRBBitReversalSends1Point5NLgNPlusOne: on bit-reversal rings of 2^k
// processes algorithm B sends n lg n + 1 M1 and (n lg n)/2 M2 messages,
// 1.5n lg n + 1: the paper's leading term, reached (the basic algorithm
// sends 2n lg n + n on the same rings, TestDKRBitReversalReachesTheBound).
func TestDKRBBitReversalSends1Point5NLgNPlusOne(t *testing.T) {
	for _, n := range []int{2, 4, 8, 64, 1024} {
		res := dkrB(t, "bit-reversal", n, election.FIFO, false)
		k := int64(nlFloorLog2(n))
		if res.MessagesByType["M1"] != int64(n)*k+1 || res.MessagesByType["M2"] != int64(n)*k/2 {
			t.Errorf("n=%d: M1 %d, M2 %d; want n lg n + 1 = %d and n lg n / 2 = %d", n, res.MessagesByType["M1"], res.MessagesByType["M2"], int64(n)*k+1, int64(n)*k/2)
		}
	}
}

// TestDKRBElectsTheMaximumWithinBound: on random rings, under every FIFO
// delivery, with random initiators and wake-up times, algorithm B elects
// the process holding the maximum ID, within 1.5n lg n + n (nlRun checks
// every declared bound).
func TestDKRBElectsTheMaximumWithinBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 2))
	for _, n := range nlSizes {
		for s := range 4 {
			idList := nlIDs(t, "random", n, uint64(17*n+s))
			for _, d := range dkrDeliveries {
				cfg := election.Config{Algorithm: ring.DolevKlaweRodeh, IDs: idList, Delivery: d, Wake: nlRandomWake(rng, n, 3),
					Seed: uint64(s), Announce: s%2 == 1, Params: elect.Params{"variant": "b"}}
				res := nlRun(t, cfg)
				if idList[res.LeaderIndex] != slices.Max(idList) {
					t.Fatalf("%s: leader holds %d, not the maximum", nlDescribe(cfg, res), idList[res.LeaderIndex])
				}
			}
		}
	}
}

// TestDKRBHoldsInEverySchedule explores, on rings of 5 processes, every ID
// assignment, every non-empty set of initiators and every FIFO delivery
// order: algorithm B elects one leader in each and keeps within its bounds.
// Its worst case there is 17 messages (IDs 1,2,4,3,5), its best 2n = 10 (the
// decreasing ring).
func TestDKRBHoldsInEverySchedule(t *testing.T) {
	r, err := check.Run(check.Options{
		Spec: scenario.Spec{Algorithm: "dolev-klawe-rodeh", N: 5, Params: map[string]string{"variant": "b"}, Seed: 1},
		IDs:  "all", Delivery: "fifo", Initiators: "subsets",
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Failure(); err != nil {
		t.Fatal(err)
	}
	if got := r.MessagesMax["M1"] + r.MessagesMax["M2"]; r.MessagesMax["M1"] != 12 || r.MessagesMax["M2"] != 5 {
		t.Errorf("worst M1 %d, M2 %d (sum %d); want 12 and 5", r.MessagesMax["M1"], r.MessagesMax["M2"], got)
	}
}
