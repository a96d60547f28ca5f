package complete

import (
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/topology"
)

func humbletConfig(idList []elect.ID, d election.Delivery, order, variant string) election.Config {
	return election.Config{Algorithm: Humblet, Graph: topology.NewComplete(len(idList)), IDs: idList, Delivery: d,
		Announce: true, Params: elect.Params{"order": order, "variant": variant}}
}

// TestHumbletLoneStarterSendsTwoPerCapture: with one spontaneous starter
// (K = 1) every other node wakes on its TEST with size 0, loses to any
// candidate, and answers WINNER at once: 2 messages per capture, n-1
// captures under the paper's rule (2(n-1)), floor(n/2) under the majority
// rule, which then announces to the n-1 others.
func TestHumbletLoneStarterSendsTwoPerCapture(t *testing.T) {
	for _, order := range []string{"index", "shuffle"} {
		for _, n := range []int{2, 3, 10, 101} {
			for _, d := range []election.Delivery{election.FIFO, election.Random} {
				starter := n / 3
				cfg := humbletConfig(arrangedIDs(t, "random", n, uint64(n)), d, order, "all")
				cfg.Wake = []election.Wake{{Node: starter}}
				res := runOK(t, cfg)
				if res.LeaderIndex != starter || res.Messages != int64(2*(n-1)) {
					t.Errorf("%s n=%d %v: leader %d, %d messages; want the starter %d and 2(n-1) = %d", order, n, d, res.LeaderIndex, res.Messages, starter, 2*(n-1))
				}
				cfg.Params = elect.Params{"order": order, "variant": "majority"}
				res = runOK(t, cfg)
				if res.MessagesByType["TEST"] != int64(n/2) || res.MessagesByType["WINNER"] != int64(n/2) || res.MessagesByType["LEADER"] != int64(n-1) {
					t.Errorf("%s n=%d %v majority: %v; want TEST = WINNER = floor(n/2) = %d, LEADER = n-1", order, n, d, res.MessagesByType, n/2)
				}
			}
		}
	}
}

// TestHumbletElectsOneKnownLeaderWithinBound: random IDs, every delivery
// model, all or some starters, both orders and both stopping rules: one
// leader, known to every node, and the bound 4 sum min(K, floor(n/s)).
func TestHumbletElectsOneKnownLeaderWithinBound(t *testing.T) {
	for _, d := range []election.Delivery{election.FIFO, election.Random, election.NewestFirst} {
		for _, n := range []int{1, 2, 3, 8, 64, 300} {
			for seed := uint64(1); seed <= 4; seed++ {
				for _, variant := range []string{"all", "majority"} {
					order := "shuffle"
					if seed == 4 {
						order = "index"
					}
					cfg := humbletConfig(arrangedIDs(t, "random", n, seed), d, order, variant)
					cfg.Seed = seed
					if seed == 2 && n > 2 {
						cfg.Wake = []election.Wake{{Node: 0}, {Node: n - 1, At: 3}, {Node: n / 2, At: 1}}
					}
					runOK(t, cfg)
				}
			}
		}
	}
}
