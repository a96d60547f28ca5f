package general_test

import (
	"math/rand/v2"
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/topology"
)

// yoyoRun runs YoYo on g (no announcement) and fails the test unless it
// elected one leader, every check held and every VALUE got one vote.
func yoyoRun(t *testing.T, g *topology.Graph, arrangement string, d election.Delivery, seed uint64) *election.Result {
	t.Helper()
	res := run(t, election.Config{Algorithm: general.YoYo, Graph: g, IDs: arrangedIDs(t, arrangement, g.N, seed), Delivery: d, Seed: seed, MaxEvents: 1 << 30})
	// Every VALUE is answered by exactly one vote (Santoro's -YO).
	if v, votes := res.MessagesByType["VALUE"], res.MessagesByType["YES"]+res.MessagesByType["NO"]; v != votes {
		t.Fatalf("%s, ids %s, %v, seed %d: %d VALUE messages but %d votes", g.Name, arrangement, d, seed, v, votes)
	}
	return res
}

// TestYoYoElectsTheMinimumEverywhere: on every generated topology, random
// IDs, FIFO, random and newest-first delivery: the minimum is elected,
// the set-up costs 2|E|, every VALUE gets one vote, and the VALUE bound
// holds.
func TestYoYoElectsTheMinimumEverywhere(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	graphs := []*topology.Graph{topology.NewRing(3), topology.NewRing(97), topology.NewComplete(40)}
	for _, mk := range []func() (*topology.Graph, error){
		func() (*topology.Graph, error) { return topology.Line(1) },
		func() (*topology.Graph, error) { return topology.Line(2) },
		func() (*topology.Graph, error) { return topology.Line(50) },
		func() (*topology.Graph, error) { return topology.Star(30) },
		func() (*topology.Graph, error) { return topology.Grid(9, 7) },
		func() (*topology.Graph, error) { return topology.Torus(6, 5) },
		func() (*topology.Graph, error) { return topology.Hypercube(64) },
		func() (*topology.Graph, error) { return topology.RandomTree(80, rng) },
		func() (*topology.Graph, error) { return topology.GNP(60, 0.1, rng) },
	} {
		g, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, g)
	}
	for _, g := range graphs {
		for _, d := range []election.Delivery{election.FIFO, election.Random, election.NewestFirst} {
			for seed := uint64(1); seed <= 4; seed++ {
				yoyoRun(t, g, "random", d, seed)
			}
		}
	}
}

// TestYoYoMonotoneLineTakesOneIteration: on a line whose IDs increase (or
// decrease) along it, node 0 (or n-1) is the only source and the links
// form one directed path: one YO- (n-1 VALUEs), and in the -YO the sink is
// a leaf and every node in turn is left a leaf, so the whole path is cut in
// that one iteration: exactly n-1 VALUE and n-1 YES messages, no NO.
func TestYoYoMonotoneLineTakesOneIteration(t *testing.T) {
	for _, n := range []int{2, 3, 10, 1000} {
		g, err := topology.Line(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, arr := range []string{"increasing", "decreasing"} {
			res := yoyoRun(t, g, arr, election.FIFO, 1)
			m := res.MessagesByType
			if m["VALUE"] != int64(n-1) || m["YES"] != int64(n-1) || m["NO"] != 0 {
				t.Errorf("line %d, ids %s: %v; want VALUE = YES = n-1 = %d and no NO", n, arr, m, n-1)
			}
		}
	}
}

// TestYoYoSingleSourceCompleteGraph: on a complete graph every link points
// from the smaller ID to the larger, so the minimum is the only source and
// every other node receives the minimum's value on each of its incoming
// links: every vote is YES, every node cuts all its incoming links but one
// as duplicates, the maximum is then a leaf and cuts the last one, and the
// cuts cascade up in the same -YO (each node in turn is left with one
// incoming link and none outgoing). One iteration: exactly |E| VALUE and |E|
// YES messages.
func TestYoYoSingleSourceCompleteGraph(t *testing.T) {
	for _, n := range []int{2, 5, 30} {
		res := yoyoRun(t, topology.NewComplete(n), "random", election.FIFO, 3)
		e := int64(n * (n - 1) / 2)
		if m := res.MessagesByType; m["VALUE"] != e || m["YES"] != e || m["NO"] != 0 {
			t.Errorf("complete %d: %v; want VALUE = YES = |E| = %d", n, m, e)
		}
	}
}

// TestYoYoRingOfOneElectsItself: the ring of one node is a self-loop, on
// which the node's ID comes back to it on both ports; the node cuts the
// link (a link to itself carries nothing) and, left without links, is
// elected, after the set-up's 2|E| = 2 ID messages and nothing else. (It
// used to take the loop for an outgoing link and wait forever for its own
// votes: no leader.)
func TestYoYoRingOfOneElectsItself(t *testing.T) {
	for _, d := range []election.Delivery{election.FIFO, election.Random, election.NewestFirst} {
		res := yoyoRun(t, topology.NewRing(1), "random", d, 1)
		if m := res.MessagesByType; m["ID"] != 2 || res.Messages != 2 {
			t.Errorf("%s: %v; want the 2 ID messages and nothing else", d, m)
		}
	}
}
