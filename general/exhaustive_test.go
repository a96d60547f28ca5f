package general_test

import (
	"testing"

	"github.com/electkit/elect/check"
	"github.com/electkit/elect/scenario"
)

// holdsInEverySchedule runs the exhaustive checker on opts and fails the
// test unless no execution violates the election's properties or a
// declared bound.
func holdsInEverySchedule(t *testing.T, opts check.Options) {
	t.Helper()
	r, err := check.Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Failure(); err != nil {
		t.Fatal(err)
	}
}

// TestYoYoHoldsInEverySchedule explores every ID assignment, every
// non-empty set of starters and every delivery order of non-FIFO links (a
// bag per link) on 4-node rings, lines and stars: the minimum is always
// elected, the set-up always costs exactly 2|E|, and the VALUE bound holds.
func TestYoYoHoldsInEverySchedule(t *testing.T) {
	for _, topo := range []string{"ring", "line", "star"} {
		t.Run(topo, func(t *testing.T) {
			holdsInEverySchedule(t, check.Options{
				Spec: scenario.Spec{Algorithm: "yoyo", N: 4, Topology: topo, Seed: 1},
				IDs:  "all", Delivery: "bag", Initiators: "subsets",
			})
		})
	}
}

// TestHyperElectHoldsInEverySchedule: every ID assignment, set of starters
// and non-FIFO delivery order on the 4-node hypercube.
func TestHyperElectHoldsInEverySchedule(t *testing.T) {
	holdsInEverySchedule(t, check.Options{
		Spec: scenario.Spec{Algorithm: "hyperelect", N: 4, Seed: 1},
		IDs:  "all", Delivery: "bag", Initiators: "subsets",
	})
}

// TestPetersonMeshHoldsInEverySchedule: every ID assignment (up to
// rotation) and every FIFO delivery order on the 4-ring, which is the 2x2
// grid (four corners): a single leader known to all, and each declared
// count, exact or bounded, in every execution.
func TestPetersonMeshHoldsInEverySchedule(t *testing.T) {
	holdsInEverySchedule(t, check.Options{
		Spec: scenario.Spec{Algorithm: "peterson-mesh", N: 4, Topology: "ring", Seed: 1},
		IDs:  "all", Delivery: "fifo",
	})
}
