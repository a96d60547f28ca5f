package complete

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/sim"
)

// The helpers the package's tests share.

// runOK runs cfg and fails the test unless it elected exactly one leader,
// informed every node, and every declared bound held.
func runOK(t testing.TB, cfg election.Config) *election.Result {
	t.Helper()
	if cfg.MaxEvents == 0 {
		// Far above what any algorithm here needs (all-to-all's n(n-1)
		// messages are the most): reaching it means the run did not quiesce.
		n := int64(cfg.Graph.N)
		cfg.MaxEvents = 100*n*n + 1000
	}
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != election.OutcomeElected || res.Leaders != 1 || !res.AllKnowLeader {
		t.Fatalf("outcome %s (%s), %d leaders, all know leader %v", res.Outcome, res.Violation, res.Leaders, res.AllKnowLeader)
	}
	for _, c := range res.Checks {
		if !c.Holds {
			t.Fatalf("check %q failed: %v %s %v", c.Name, c.Actual, c.Relation, c.Expected)
		}
	}
	return res
}

// randomIDs returns n distinct IDs in random order.
func randomIDs(rng *rand.Rand, n int) []elect.ID {
	list := make([]elect.ID, n)
	for i, v := range rng.Perm(4 * n)[:n] {
		list[i] = elect.ID(v)
	}
	return list
}

// arrangedIDs returns n IDs in an arrangement of package ids ("random",
// "increasing", ...), drawn from seed.
func arrangedIDs(t *testing.T, spec string, n int, seed uint64) []elect.ID {
	t.Helper()
	out, err := ids.Arrange(spec, n, rand.New(rand.NewPCG(seed, 7)))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// randomWake returns nil (every node at time 0) or a random non-empty set of
// initiators with wake-up times 0..3.
func randomWake(rng *rand.Rand, n int) []election.Wake {
	if rng.IntN(3) == 0 {
		return nil
	}
	k := 1 + rng.IntN(n)
	perm := rng.Perm(n)[:k]
	slices.Sort(perm)
	wake := make([]election.Wake, k)
	for i, node := range perm {
		wake[i] = election.Wake{Node: node, At: int64(rng.IntN(4))}
	}
	return wake
}
