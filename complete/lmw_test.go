package complete

import (
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/topology"
)

// lmwConfig is a run of LMW on the chordal complete graph with the given IDs.
func lmwConfig(idList []elect.ID, d election.Delivery) election.Config {
	return election.Config{Algorithm: LMW, Graph: topology.NewChordalComplete(len(idList)), IDs: idList, Delivery: d, Announce: true}
}

// TestLMWDecreasingCycleSends2N follows the rules by hand with the IDs
// decreasing along the cycle (node 0 holds the maximum), FIFO unit delays
// and every node starting at time 0: at time 1 nodes 1..n-1 are beaten by
// their predecessors (n-1 passive nodes, last = 1) and node 0 answers node
// n-1's ELECTION; the answer then runs backwards through the passive nodes
// n-1, ..., 1 (n-1 forwards) and reaches node 0 with its own ID. So n + 1 +
// (n-1) = 2n ELECTION messages, the fewest any schedule gives for n <= 6
// ('elect check lmw --n 6').
func TestLMWDecreasingCycleSends2N(t *testing.T) {
	for _, n := range []int{2, 3, 5, 100, 1000} {
		res := runOK(t, lmwConfig(arrangedIDs(t, "decreasing", n, 1), election.FIFO))
		if got := res.MessagesByType["ELECTION"]; got != int64(2*n) {
			t.Errorf("n=%d: %d ELECTION messages, want 2n = %d", n, got, 2*n)
		}
	}
}

// TestLMWIncreasingCycleSends3NMinus1: IDs increasing along the cycle
// (node n-1 holds the maximum), FIFO, all at time 0. Time 1: nodes
// 1..n-1 answer their smaller predecessors (n-1 messages) and node 0 is
// beaten by node n-1. Time 2: nodes 0..n-2 are all passive; node 0 forwards
// node 1's answer to node n-1 (1 message), which answers node 1 (1
// message); that answer runs forwards through the passive nodes 1..n-2
// (n-2 messages) to node n-1. In all n + (n-1) + 2 + (n-2) = 3n-1.
func TestLMWIncreasingCycleSends3NMinus1(t *testing.T) {
	for _, n := range []int{3, 5, 100, 1000} {
		res := runOK(t, lmwConfig(arrangedIDs(t, "increasing", n, 1), election.FIFO))
		if got := res.MessagesByType["ELECTION"]; got != int64(3*n-1) {
			t.Errorf("n=%d: %d ELECTION messages, want 3n-1 = %d", n, got, 3*n-1)
		}
	}
}

// TestLMWElectsMaxWithinBound: on random IDs, under FIFO, random (non-FIFO)
// and newest-first delivery and with random initiators, LMW elects the
// maximum, announces it with exactly n-1 LEADER messages, and keeps within
// n-1 + phi^2 n ELECTION messages (runOK checks every declared bound).
func TestLMWElectsMaxWithinBound(t *testing.T) {
	for _, d := range []election.Delivery{election.FIFO, election.Random, election.NewestFirst} {
		for _, n := range []int{1, 2, 3, 7, 64, 500} {
			for seed := uint64(1); seed <= 5; seed++ {
				cfg := lmwConfig(arrangedIDs(t, "random", n, seed), d)
				cfg.Seed = seed
				if seed%2 == 0 && n > 1 {
					cfg.Wake = []election.Wake{{Node: int(seed) % n}}
				}
				res := runOK(t, cfg)
				if got := res.MessagesByType["LEADER"]; got != int64(n-1) {
					t.Fatalf("n=%d %v seed %d: %d LEADER messages, want n-1 = %d", n, d, seed, got, n-1)
				}
			}
		}
	}
}

// TestLMWRefusesUnlabelledCompleteGraph: without the chordal labels the
// ports name no distance, and the model check says so.
func TestLMWRefusesUnlabelledCompleteGraph(t *testing.T) {
	cfg := lmwConfig(arrangedIDs(t, "random", 5, 1), election.FIFO)
	cfg.Graph = topology.NewComplete(5)
	if err := cfg.CheckModel(); err == nil {
		t.Fatal("lmw accepted a complete graph without a sense of direction")
	}
}
