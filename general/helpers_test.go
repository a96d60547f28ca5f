package general

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// The helpers of the package's internal tests (the external ones, package
// general_test, have theirs in general_test.go).

// arrangedIDs returns n IDs in an arrangement of package ids ("random",
// "increasing", ...), drawn from seed.
func arrangedIDs(t *testing.T, arrangement string, n int, seed uint64) []elect.ID {
	t.Helper()
	spec, err := ids.Parse(arrangement)
	if err != nil {
		t.Fatal(err)
	}
	idList, err := spec.Generate(n, rand.New(rand.NewPCG(seed, 22)))
	if err != nil {
		t.Fatal(err)
	}
	return idList
}

// runElects runs cfg and fails the test, naming the run what, unless it
// elected one leader and every check held.
func runElects(t *testing.T, what string, cfg sim.Config) *sim.Result {
	t.Helper()
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != sim.OutcomeElected || res.Leaders != 1 {
		t.Fatalf("%s: outcome %s (%s)", what, res.Outcome, res.Violation)
	}
	for _, c := range res.Checks {
		if !c.Holds {
			t.Fatalf("%s: check %q failed: %v %s %v", what, c.Name, c.Actual, c.Relation, c.Expected)
		}
	}
	return res
}

// runArranged runs alg once on g with IDs in the arrangement given (FIFO or
// as given, seed 1, announcing), as runElects does.
func runArranged(t *testing.T, alg *elect.Algorithm, g *topology.Graph, arrangement string, d sim.Delivery) *sim.Result {
	t.Helper()
	return runElects(t, fmt.Sprintf("%s on %s, ids %s", alg.Name, g.Name, arrangement),
		sim.Config{Algorithm: alg, Graph: g, IDs: arrangedIDs(t, arrangement, g.N, 1), Delivery: d, Seed: 1, Announce: true, MaxEvents: 1 << 30})
}
