package ring_test

import (
	"math/rand/v2"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
)

// TestKRSMonotoneRingsSendFiveNMinusOne: on the increasing ring [0 .. n-1]
// every node but n-1 has a larger neighbour and sends one feedback to the
// largest value it saw: nodes 1..n-2 to their neighbour i+1, node 0 to
// n-1 (its other neighbour) - n-1 feedbacks of one link each; only n-1 gets
// two and survives; stage 1 is its E messages round the ring both ways.
// 2n + (n-1) + 2n = 5n-1 for n >= 3, and the same on the decreasing ring
// (its mirror image); with n = 2 the smaller node sends its feedback both
// ways (both neighbours are the larger node): 4 + 2 + 4 = 10 (Korach,
// Rotem and Santoro's rules, derived).
func TestKRSMonotoneRingsSendFiveNMinusOne(t *testing.T) {
	for _, arrangement := range []string{"increasing", "decreasing"} {
		for _, n := range []int{2, 3, 4, 5, 9, 64, 1000} {
			for _, d := range dkrDeliveries {
				res := nlRun(t, election.Config{Algorithm: ring.StagesWithFeedback, IDs: nlIDs(t, arrangement, n, 1), Delivery: d, Announce: true})
				e, a := res.MessagesByType["E"], res.MessagesByType["A"]
				wantA := int64(n - 1)
				if n == 2 {
					wantA = 2
				}
				if e != int64(4*n) || a != wantA || res.MessagesByType["T"] != int64(n) {
					t.Errorf("%s n=%d %s: E %d, A %d, T %d; want 4n = %d, %d, n", arrangement, n, d, e, a, res.MessagesByType["T"], 4*n, wantA)
				}
			}
		}
	}
}

// TestKRSAtMostOneThirdSurvive: with FIFO links the E messages of stage k
// are 2n times the number of stages, and the stages are at most S(n)+1,
// S(n) the iterations of c -> max(1, floor(c/3)) from n: every run on
// random rings (all deliveries, random initiators and wake-up times) sends
// a multiple of 2n E messages, at most 2n(S(n)+1), the same number under
// every schedule, and at most n feedbacks per stage before the last.
func TestKRSAtMostOneThirdSurvive(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 3))
	for _, n := range nlSizes {
		for s := range 4 {
			idList := nlIDs(t, "random", n, uint64(53*n+s))
			ref := nlRun(t, election.Config{Algorithm: ring.StagesWithFeedback, IDs: idList, Delivery: election.FIFO})
			e := ref.MessagesByType["E"]
			stages := e / int64(2*n)
			if e%int64(2*n) != 0 || stages > int64(krsStagesForTest(n)+1) || ref.MessagesByType["A"] > int64(n)*(stages-1) {
				t.Fatalf("n=%d ids %v: E %d, A %d: not 2n per stage, at most S(n)+1 = %d stages, n feedbacks per stage",
					n, idList, e, ref.MessagesByType["A"], krsStagesForTest(n)+1)
			}
			for _, d := range dkrDeliveries {
				cfg := election.Config{Algorithm: ring.StagesWithFeedback, IDs: idList, Delivery: d, Wake: nlRandomWake(rng, n, 3),
					Seed: uint64(s), Announce: s%2 == 1}
				res := nlRun(t, cfg)
				if res.MessagesByType["E"] != e || res.MessagesByType["A"] != ref.MessagesByType["A"] {
					t.Fatalf("%s: E %d A %d; the all-start fifo run sent E %d A %d", nlDescribe(cfg, res),
						res.MessagesByType["E"], res.MessagesByType["A"], e, ref.MessagesByType["A"])
				}
			}
		}
	}
}

// krsStagesForTest is S(n), computed independently of the declaration.
func krsStagesForTest(n int) int {
	s := 0
	for n >= 2 {
		if n < 6 {
			n = 1
		} else {
			n /= 3
		}
		s++
	}
	return s
}

// TestKRSStateSeesState drives one candidate through a stage by hand: the
// two E messages (it is the largest), an early E of the next stage, the two
// feedbacks, then the next stage starts with the kept message.
func TestKRSStateSeesState(t *testing.T) {
	sent := driveDistinct(t, ring.StagesWithFeedback.New(elect.NodeInfo{ID: 7}), []handStep{
		{"", elect.Left, elect.Message{Type: 0, ID: 3}},
		{"", elect.Right, elect.Message{Type: 0, ID: 5}},
		{"", elect.Left, elect.Message{Type: 1, ID: 7}},
		{"", elect.Left, elect.Message{Type: 0, ID: 9}},
		{"", elect.Right, elect.Message{Type: 1, ID: 7}},
	})
	// (E,7) both ways at the start and again for stage 1; no feedback sent.
	if got := typeIDs(sent); got != "[0:7 0:7 0:7 0:7]" {
		t.Errorf("sent %v", got)
	}
}
