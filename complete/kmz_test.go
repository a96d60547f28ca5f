package complete

import (
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/topology"
)

func kmzConfig(idList []elect.ID, d election.Delivery, order string) election.Config {
	return election.Config{Algorithm: KMZ, Graph: topology.NewComplete(len(idList)), IDs: idList, Delivery: d,
		Announce: true, Params: elect.Params{"order": order}}
}

// TestKMZElectsOneKnownLeaderWithinBounds: random IDs, both FIFO delivery
// models, all or some starters, both link orders: one leader, known to
// every node, and every declared bound (runOK checks them all).
func TestKMZElectsOneKnownLeaderWithinBounds(t *testing.T) {
	for _, d := range []election.Delivery{election.FIFO, election.RandomFIFO} {
		for _, n := range []int{1, 2, 3, 4, 8, 64, 300} {
			for seed := uint64(1); seed <= 6; seed++ {
				for _, order := range []string{"shuffle", "index"} {
					cfg := kmzConfig(arrangedIDs(t, "random", n, seed), d, order)
					cfg.Seed = seed
					if seed%3 == 2 && n > 2 {
						cfg.Wake = []election.Wake{{Node: 0}, {Node: n - 1, At: 3}, {Node: n / 2, At: 1}}
					}
					if seed%3 == 0 && n > 1 {
						cfg.Wake = []election.Wake{{Node: int(seed) % n}}
					}
					runOK(t, cfg)
				}
			}
		}
	}
}

// TestKMZMaxAtNodeZeroSends4NMinus1: with the largest ID at node 0 and the
// links taken in port order, every other king's first ASK goes to node 0,
// which ignores it; node 0 annexes the n-1 others one by one (ASK, ACCEPT,
// UPDATE each). 2(n-1) + (n-1) + (n-1) = 4(n-1) election messages, the
// least any run sends (complete/kmz.go), under every delivery and set of
// starters; then n-1 LEADER.
func TestKMZMaxAtNodeZeroSends4NMinus1(t *testing.T) {
	for _, d := range []election.Delivery{election.FIFO, election.RandomFIFO} {
		for _, n := range []int{2, 3, 10, 101, 1000} {
			for seed := uint64(1); seed <= 3; seed++ {
				cfg := kmzConfig(arrangedIDs(t, "decreasing", n, seed), d, "index")
				cfg.Seed = seed
				if seed == 2 {
					cfg.Wake = []election.Wake{{Node: n - 1}}
				}
				res := runOK(t, cfg)
				want := map[string]int64{"ASK": int64(2 * (n - 1)), "ACCEPT": int64(n - 1), "UPDATE": int64(n - 1), "YOUR_CITIZEN": 0, "LEADER": int64(n - 1)}
				for typ, w := range want {
					if got := res.MessagesByType[typ]; got != w {
						t.Errorf("n=%d %v seed %d: %d %s, want %d", n, d, seed, got, typ, w)
					}
				}
				if res.LeaderIndex != 0 {
					t.Errorf("n=%d %v seed %d: leader node %d, want node 0", n, d, seed, res.LeaderIndex)
				}
			}
		}
	}
}

// TestKMZTwoNodesSendFive: both kings ask each other; the smaller answers
// ACCEPT(0), the larger, at phase 0 too, goes to phase 1 and sends UPDATE,
// then LEADER: 2 + 1 + 1 + 1 messages.
func TestKMZTwoNodesSendFive(t *testing.T) {
	for _, order := range []string{"shuffle", "index"} {
		res := runOK(t, kmzConfig([]elect.ID{3, 8}, election.FIFO, order))
		if res.Messages != 5 || res.LeaderIndex != 1 {
			t.Errorf("%s: %d messages, leader node %d; want 5 and node 1", order, res.Messages, res.LeaderIndex)
		}
	}
}
