package general_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// The helpers the package's tests share (all but ghs_internal_test.go, which
// drives GHS nodes by hand, are in package general_test).

// topo is one topology of the property tests: a spec and a node count (0:
// the spec's own).
type topo struct {
	spec string
	n    int
}

// petersen writes the Petersen graph (10 nodes, 15 edges, diameter 2) as an
// edge-list file and returns its file: spec.
func petersen(t testing.TB) string {
	t.Helper()
	text := "nodes 10\n"
	for i := range 5 {
		text += fmt.Sprintf("%d %d\n%d %d\n%d %d\n", i, (i+1)%5, i, i+5, i+5, (i+2)%5+5)
	}
	path := filepath.Join(t.TempDir(), "petersen.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file:" + path
}

// topologies lists every topology kind at a small and a medium size.
func topologies(t testing.TB) []topo {
	return []topo{
		{"ring", 1}, {"ring", 2}, {"ring", 9}, {"ring", 64},
		{"complete", 2}, {"complete", 7}, {"complete", 40},
		{"line", 1}, {"line", 2}, {"line", 10}, {"line", 80},
		{"star", 8}, {"star", 64},
		{"grid:1x1", 0}, {"grid:3x4", 0}, {"grid:10x10", 0}, {"grid:1x20", 0},
		{"torus:3x3", 0}, {"torus:8x9", 0},
		{"hypercube", 1}, {"hypercube", 8}, {"hypercube", 64},
		{"tree", 10}, {"tree", 100},
		{"gnp:0.5", 10}, {"gnp:0.08", 100},
		{petersen(t), 0},
	}
}

// build makes the graph of tp (random ones from seed) and a random
// permutation of 0..n-1 as IDs.
func build(t testing.TB, tp topo, seed uint64) (*topology.Graph, []elect.ID) {
	t.Helper()
	g, err := topology.Parse(tp.spec, tp.n, election.Stream(seed, "topology", 0))
	if err != nil {
		t.Fatalf("%s on %d: %v", tp.spec, tp.n, err)
	}
	return g, permutedIDs(rand.New(rand.NewPCG(seed, 77)), g.N)
}

// permutedIDs is a random permutation of 0..n-1 as IDs.
func permutedIDs(rng *rand.Rand, n int) []elect.ID {
	ids := make([]elect.ID, n)
	for i, v := range rng.Perm(n) {
		ids[i] = elect.ID(v)
	}
	return ids
}

// run runs alg and fails the test unless it elected with every check held.
func run(t testing.TB, cfg election.Config) *election.Result {
	t.Helper()
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	what := fmt.Sprintf("%s on %s (n=%d), %s, seed %d, wake %v", cfg.Algorithm.Name, cfg.Graph.Name, cfg.Graph.N, cfg.Delivery, cfg.Seed, cfg.Wake)
	if res.Outcome != election.OutcomeElected {
		t.Fatalf("%s: outcome %s %s", what, res.Outcome, res.Violation)
	}
	for _, c := range res.Checks {
		if !c.Holds {
			t.Fatalf("%s: check %q failed: %v %s %v", what, c.Name, c.Actual, c.Relation, c.Expected)
		}
	}
	return res
}

// arrangedIDs returns n IDs in an arrangement of package ids ("random",
// "increasing", ...), drawn from seed.
func arrangedIDs(t testing.TB, arrangement string, n int, seed uint64) []elect.ID {
	t.Helper()
	out, err := ids.Arrange(arrangement, n, rand.New(rand.NewPCG(seed, 22)))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// runArranged runs alg once on g with IDs in the arrangement given (seed
// 1, announcing), as run does.
func runArranged(t testing.TB, alg *elect.Algorithm, g *topology.Graph, arrangement string, d election.Delivery) *election.Result {
	t.Helper()
	return run(t, election.Config{Algorithm: alg, Graph: g, IDs: arrangedIDs(t, arrangement, g.N, 1), Delivery: d, Seed: 1,
		Announce: true, MaxEvents: 1 << 30})
}

// argmax returns the index of the largest ID.
func argmax(ids []elect.ID) int {
	best := 0
	for i, id := range ids {
		if id > ids[best] {
			best = i
		}
	}
	return best
}

func count(res *election.Result, types ...string) int64 {
	var c int64
	for _, ty := range types {
		c += res.MessagesByType[ty]
	}
	return c
}
