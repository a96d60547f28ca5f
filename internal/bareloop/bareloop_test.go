package bareloop

import (
	"fmt"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

func arrange(t testing.TB, arrangement string, n int, seed uint64) []elect.ID {
	t.Helper()
	out, err := ids.Arrange(arrangement, n, election.Stream(seed, "ids", 0))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBareLoopsSendWhatTheSimulatorSends checks the yardsticks: on the same
// rings, each bare loop sends exactly as many messages as the simulator
// running the algorithm under fifo delivery (under random delays for
// LCRRandom, with the same seed), and elects the same node; so does
// Contract, which runs the catalog's own nodes.
func TestBareLoopsSendWhatTheSimulatorSends(t *testing.T) {
	loops := []struct {
		alg      *elect.Algorithm
		delivery election.Delivery
		loop     func([]elect.ID, uint64) Result
	}{
		{ring.LCR, election.FIFO, func(ids []elect.ID, _ uint64) Result { return LCR(ids) }},
		{ring.HS, election.FIFO, func(ids []elect.ID, _ uint64) Result { return HS(ids) }},
		{ring.LCR, election.Random, LCRRandom},
		{ring.LCR, election.FIFO, func(ids []elect.ID, _ uint64) Result { return Contract(ring.LCR, ids) }},
		{ring.HS, election.FIFO, func(ids []elect.ID, _ uint64) Result { return Contract(ring.HS, ids) }},
	}
	for k, l := range loops {
		for _, arrangement := range []string{"random", "decreasing", "increasing", "bit-reversal"} {
			for _, n := range []int{1, 2, 3, 7, 64, 1000, 4096} {
				for seed := uint64(1); seed <= 3; seed++ {
					if arrangement == "bit-reversal" && n&(n-1) != 0 {
						continue
					}
					t.Run(fmt.Sprintf("%d-%s-%s/%s/n=%d/seed=%d", k, l.alg.Name, l.delivery, arrangement, n, seed), func(t *testing.T) {
						idList := arrange(t, arrangement, n, seed)
						res, err := sim.Run(election.Config{Algorithm: l.alg, Graph: topology.NewRing(n), IDs: idList,
							Delivery: l.delivery, Seed: seed})
						if err != nil {
							t.Fatal(err)
						}
						if res.Outcome != election.OutcomeElected {
							t.Fatalf("simulator: outcome %s", res.Outcome)
						}
						got := l.loop(idList, seed)
						if got.Messages != res.Messages || got.Leader != res.LeaderIndex {
							t.Errorf("bare loop: %d messages, leader %d; simulator: %d, leader %d",
								got.Messages, got.Leader, res.Messages, res.LeaderIndex)
						}
					})
				}
			}
		}
	}
}

// TestLCRDecreasingRingSendsNTimesNPlus1Over2 pins the LCR loop's count on
// its worst case, n(n+1)/2 (seed 001, section 5.2.1.1), and the HS loop's
// on the smallest rings, worked by hand: n = 1, the node's two probes come
// straight back to it; n = 2 (IDs 3, 8), 3's two probes die at 8, 8's
// phase-0 probes are answered by 3 (4 messages), and its phase-1 probes pass
// 3 and come back to it (4 more): 10.
func TestLCRDecreasingRingSendsNTimesNPlus1Over2(t *testing.T) {
	for _, n := range []int{1, 10, 1000} {
		if got, want := LCR(arrange(t, "decreasing", n, 1)).Messages, int64(n*(n+1)/2); got != want {
			t.Errorf("n = %d: %d messages, want %d", n, got, want)
		}
	}
	if got := HS([]elect.ID{5}); got.Messages != 2 || got.Leader != 0 {
		t.Errorf("HS, n = 1: %+v, want 2 messages, leader 0", got)
	}
	if got := HS([]elect.ID{3, 8}); got.Messages != 10 || got.Leader != 1 {
		t.Errorf("HS, n = 2: %+v, want 10 messages, leader 1", got)
	}
}

// BenchmarkBareLoop reports the yardsticks' rates, set-up included.
func BenchmarkBareLoop(b *testing.B) {
	for _, c := range []struct {
		name        string
		loop        func([]elect.ID) Result
		arrangement string
		n           int
	}{
		{"lcr", LCR, "random", 1_000_000}, {"lcr", LCR, "decreasing", 10_000}, {"hs", HS, "random", 1_000_000},
		{"lcr-random", func(ids []elect.ID) Result { return LCRRandom(ids, 1) }, "random", 100_000},
		{"lcr-random", func(ids []elect.ID) Result { return LCRRandom(ids, 1) }, "random", 1_000_000},
		{"lcr-contract", func(ids []elect.ID) Result { return Contract(ring.LCR, ids) }, "decreasing", 10_000},
	} {
		b.Run(fmt.Sprintf("%s/ids=%s/n=%d", c.name, c.arrangement, c.n), func(b *testing.B) {
			idList := arrange(b, c.arrangement, c.n, 1)
			var msgs int64
			for b.Loop() {
				msgs += c.loop(idList).Messages
			}
			b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}
