package protocols

import (
	"fmt"
	"reflect"
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

// epidemicWithTargets is the epidemic with tally targets (pp.Spec.
// TallyTargets) that its own Spec does not set: the eventual leader's
// third conversion and its second meeting with a follower.
type epidemicWithTargets struct{ *Epidemic }

func (p epidemicWithTargets) Spec() pp.Spec {
	s := p.Epidemic.Spec()
	s.TallyTargets[tallyConversion] = 3
	s.TallyTargets[tallyMeeting] = 2
	return s
}

// TestSummerStopsShortOfTallyTargets: the engine stops summing where a
// stretch could bring a tally to its target, so the step at which each
// target is reached is the same with the Summer as without it, and it is
// within the run when the tally got there.
func TestSummerStopsShortOfTallyTargets(t *testing.T) {
	const n = 5000
	reached := 0
	for _, sched := range []pp.Scheduler{pp.Ordered, pp.WithRepeats} {
		for seed := uint64(1); seed <= 4; seed++ {
			want := pp.Run(epidemicWithTargets{NewEpidemic(n, "prose")}, n, seed, pp.Options{Scheduler: sched, NoBatch: true})
			got := pp.Run(epidemicWithTargets{NewEpidemic(n, "prose")}, n, seed, pp.Options{Scheduler: sched})
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%v seed %d: summed %+v, per interaction %+v", sched, seed, got, want)
			}
			for b, target := range []int64{3, 2} {
				at := got.TallyReached[b]
				if (got.Tallies[b] >= target) != (at >= 0) || at > got.Interactions {
					t.Errorf("%v seed %d: tally %d is %d (target %d) but reached at step %d", sched, seed, b, got.Tallies[b], target, at)
				}
				if at >= 0 {
					reached++
				}
			}
		}
	}
	if reached < 8 {
		t.Errorf("only %d of 16 targets reached: the test would not see a Summer summing past one", reached)
	}
}

// TestProtocolValuesHoldNoRunState: a protocol value is the same after a run
// as before it, on the agent array with and without its batched loop: the
// counts of a run (leaders, goal, events, tallies) are the engine's, so one
// value can serve any number of runs.
func TestProtocolValuesHoldNoRunState(t *testing.T) {
	const n = 2000
	pll, _ := NewPLL(n, 0, false, "prose")
	pllSym, _ := NewPLL(n, 0, true, "prose")
	pllLiteral, _ := NewPLL(300, 0, false, "literal-epoch")
	for _, noBatch := range []bool{false, true} {
		opt := pp.Options{NoBatch: noBatch}
		unchanged(t, NewAngluin(n), n, opt)
		unchanged(t, NewEpidemic(n, "prose"), n, opt)
		unchanged(t, NewEpidemic(n, "literal"), n, opt)
		unchanged(t, NewEpidemicTerm(n, 4, 0, "prose"), n, opt)
		unchanged(t, NewEpidemicTerm(n, 4, 20, "literal"), n, opt)
		unchanged(t, pll, n, opt)
		unchanged(t, pllSym, n, opt)
		unchanged(t, pllLiteral, 300, opt)
		unchanged(t, NewApproxMajority(n, n/2+100), n, opt)
	}
}

// unchanged runs p and fails if the run changed the value p points at.
func unchanged[S comparable, P interface {
	pp.Protocol[S]
	*V
}, V any](t *testing.T, p P, n int, opt pp.Options) {
	t.Helper()
	before := *p
	r := pp.Run[S](p, n, 7, opt)
	if !reflect.DeepEqual(before, *p) {
		t.Errorf("%s (no batch %v): the run changed the protocol value: %+v, then %+v", r.Protocol, opt.NoBatch, before, *p)
	}
	if r.Interactions == 0 {
		t.Errorf("%s: no interaction", r.Protocol)
	}
}
