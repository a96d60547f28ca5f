package protocols

import (
	"fmt"
	"testing"

	"github.com/electkit/elect/pp"
)

// TestEpidemicSummerMatchesInteract: at n = 5000 the engine sums the
// epidemic's Deltas (pp.Summer) while the leader count is above 1 + 2 x 256
// and the goal is far, then reports each change; the run, including the
// Theorem 2 and 3 counters, is identical to the per-interaction loop and to
// runs advanced in chunks that cut the batches elsewhere.
func TestEpidemicSummerMatchesInteract(t *testing.T) {
	const n = 5000
	for _, variant := range []string{"prose", "literal"} {
		for _, sched := range []pp.Scheduler{pp.Ordered, pp.Symmetric, pp.WithRepeats} {
			for seed := uint64(1); seed <= 3; seed++ {
				want := pp.Run(NewEpidemic(n, variant), n, seed, pp.Options{Scheduler: sched, NoBatch: true})
				got := pp.Run(NewEpidemic(n, variant), n, seed, pp.Options{Scheduler: sched})
				sim := pp.NewSim[uint32](NewEpidemic(n, variant), n, seed, pp.Options{Scheduler: sched})
				for !sim.Advance(977) && sim.Steps() < want.Interactions {
				}
				chunked := sim.Result()
				for name, r := range map[string]pp.Result{"batched": got, "chunked": chunked} {
					if fmt.Sprint(r) != fmt.Sprint(want) {
						t.Fatalf("%s %v seed %d %s: %+v, per interaction %+v", variant, sched, seed, name, r, want)
					}
				}
			}
		}
	}
}
