package complete

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/topology"
)

// TestAllToAllThreeNodes: n = 3, IDs 5, 9, 2, all awake at time 0, unit
// delays. Seed 002: "Every node is a king at the start and he sends n - 1
// messages": each node sends ID on its 2 ports at time 0 (6 messages); at
// time 1 each has heard the 2 others and knows the maximum, 9: node 1 is
// elected, the others learn 9. No other message: n(n-1) = 6.
func TestAllToAllThreeNodes(t *testing.T) {
	cfg := election.Config{Algorithm: AllToAll, Graph: topology.NewComplete(3), IDs: []elect.ID{5, 9, 2}, Delivery: election.FIFO, Announce: true}
	res := runOK(t, cfg)
	if res.Messages != 6 || res.LeaderIndex != 1 || res.Time != 1 {
		t.Errorf("%d messages, leader node %d, time %v; want 6, node 1, 1", res.Messages, res.LeaderIndex, res.Time)
	}
}

// TestAllToAllSendsNTimesNMinus1ElectsMax: whatever the delivery (including
// synchronous rounds), the wake-up pattern and the IDs, every node sends its
// ID once on each of its n-1 links, so exactly n(n-1) messages, and the
// maximum is elected and known to all (seed 002, the naive algorithm).
func TestAllToAllSendsNTimesNMinus1ElectsMax(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 8, 13, 40} {
		for _, d := range []election.Delivery{election.Sync, election.FIFO, election.Random, election.RandomFIFO, election.NewestFirst} {
			for s := range 10 {
				rng := rand.New(rand.NewPCG(uint64(n), uint64(s)))
				ids := randomIDs(rng, n)
				cfg := election.Config{Algorithm: AllToAll, Graph: topology.NewComplete(n), IDs: ids, Delivery: d,
					Announce: true, Seed: uint64(s), Wake: randomWake(rng, n)}
				t.Run(fmt.Sprintf("n=%d/%s/seed=%d", n, d, s), func(t *testing.T) {
					res := runOK(t, cfg)
					if res.Messages != int64(n*(n-1)) || res.LeaderID != slices.Max(ids) {
						t.Errorf("%d messages, leader %d; want %d and %d", res.Messages, res.LeaderID, n*(n-1), slices.Max(ids))
					}
				})
			}
		}
	}
}

// TestAllToAllModel: complete graphs only, unique IDs; both timings.
func TestAllToAllModel(t *testing.T) {
	ring := election.Config{Algorithm: AllToAll, Graph: topology.NewRing(3), IDs: []elect.ID{1, 2, 3}, Delivery: election.FIFO}
	if ring.CheckModel() == nil {
		t.Error("all-to-all accepted a ring")
	}
	dup := election.Config{Algorithm: AllToAll, Graph: topology.NewComplete(3), IDs: []elect.ID{1, 3, 3}, Delivery: election.Sync}
	if dup.CheckModel() == nil {
		t.Error("all-to-all accepted duplicate IDs")
	}
	dup.IDs = []elect.ID{1, 3, 2}
	if err := dup.CheckModel(); err != nil {
		t.Errorf("synchronous run refused: %v", err)
	}
}
