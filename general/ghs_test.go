package general_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/sim"
)

// TestGHSElectsEverywhere: on every topology kind (rings of at least three
// nodes: smaller ones have a self-loop or a double link, see
// TestGHSRefusesMultigraphs), under both FIFO delivery models and every
// initiator pattern, GHS elects one node, the larger-ID endpoint of its
// final core edge, informs every node and keeps every declared bound: at
// most 5n lg n + 2|E| messages of the paper's seven types, exactly n
// election messages (n >= 2), and, when all wake at time 0, time at most
// 5n lg n + n - 1 (GHS 1983, section 5).
func TestGHSElectsEverywhere(t *testing.T) {
	for _, tp := range topologies(t) {
		if tp.spec == "ring" && tp.n < 3 {
			continue
		}
		for seed := range uint64(3) {
			g, ids := build(t, tp, seed)
			rng := rand.New(rand.NewPCG(seed, 20))
			for name, wake := range wakePatterns(g.N, argmax(ids), rng) {
				for _, d := range []election.Delivery{election.FIFO, election.RandomFIFO} {
					res := run(t, election.Config{Algorithm: general.GHS, Graph: g, IDs: ids, Delivery: d, Wake: wake, Seed: seed})
					if g.N >= 2 && count(res, "Connect", "Initiate") < 2*int64(g.N-1) {
						t.Fatalf("%s n=%d %s %s: %d Connect+Initiate", tp.spec, g.N, name, d, count(res, "Connect", "Initiate"))
					}
				}
			}
		}
	}
}

// TestGHSRunsOnWeightedEdgeLists: an edge list with a weight column runs;
// one with two equal weights is refused, naming both edges.
func TestGHSRunsOnWeightedEdgeLists(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "w.txt")
	os.WriteFile(good, []byte("# a weighted square with a diagonal\n0 1 4.5\n1 2 -1\n2 3 7\n3 0 2e1\n0 2 0.25\n"), 0o644)
	code, out, errOut := command("run", "ghs", "--topology", "file:"+good)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	bad := filepath.Join(dir, "dup.txt")
	os.WriteFile(bad, []byte("0 1 3\n1 2 3\n"), 0o644)
	code, _, errOut = command("run", "ghs", "--topology", "file:"+bad)
	if code != 2 || errOut == "" {
		t.Fatalf("duplicate weights: exit %d, stderr %q; want 2 and a message", code, errOut)
	}
	t.Log(errOut)
}

// TestGHSRefusesMultigraphs: rings of one and two nodes have a self-loop or
// a double link, whose derived weights would tie; the run is refused.
func TestGHSRefusesMultigraphs(t *testing.T) {
	for _, n := range []string{"1", "2"} {
		if code, _, errOut := command("run", "ghs", "--topology", "ring", "--n", n); code != 2 || errOut == "" {
			t.Fatalf("ring of %s: exit %d, stderr %q; want 2 and a message", n, code, errOut)
		}
	}
}

// TestGHSNeedsFIFOLinks: forced onto links that reorder messages, GHS fails
// on some seeds (the paper assumes FIFO links: a Test can overtake the
// Initiate that would have made its answer Reject, for instance), and ends
// as an outcome, never a panic.
func TestGHSNeedsFIFOLinks(t *testing.T) {
	g, ids := build(t, topo{"gnp:0.3", 30}, 1)
	failed := 0
	for seed := range uint64(8) {
		res, err := sim.Run(election.Config{Algorithm: general.GHS, Graph: g, IDs: ids, Delivery: election.Random, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != election.OutcomeElected {
			failed++
		}
	}
	if failed == 0 {
		t.Fatal("every run on reordering links elected; the FIFO assumption shows nowhere")
	}
}
