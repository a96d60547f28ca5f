package ring_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/check"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// TestCheckerCatchesEveryMutant: for every ring algorithm, the exhaustive
// checker passes the algorithm on every ring of 4 and catches its mutant
// (ring.Mutants: one bug each) with the same options, either breaking a
// property or a declared bound; and the execution it reports replays to
// the same failure (the trace on the reference engine; synchronous runs,
// whose only choices are the IDs, in the simulator with those IDs).
// Randomized algorithms are checked with their seeds fixed: a seed of the
// first twenty that reaches the bug must exist (with n = 4 and one random
// bit, most do).
func TestCheckerCatchesEveryMutant(t *testing.T) {
	for _, m := range ring.Mutants {
		t.Run(m.Of.Name, func(t *testing.T) {
			mutant := m.Algorithm()
			cat, err := catalog.Default().With(mutant)
			if err != nil {
				t.Fatal(err)
			}
			delivery := "fifo"
			if !m.Of.Model.Async {
				delivery = "sync"
			}
			seeds := []uint64{1}
			if m.Of.Model.Randomized {
				seeds = nil
				for s := range uint64(20) {
					seeds = append(seeds, s+1)
				}
			}
			spec := func(alg string, seed uint64) scenario.Spec {
				return scenario.Spec{Catalog: cat, Algorithm: alg, N: 4, Params: m.Params, Seed: seed}
			}
			opt := func(alg string, seed uint64) check.Options {
				return check.Options{Spec: spec(alg, seed), IDs: "all", Delivery: delivery}
			}
			good := mustCheck(t, opt(m.Of.Name, seeds[0]))
			if good.Verdict != "ok" || failing(good) != nil {
				t.Fatalf("the algorithm itself: %s %s, bounds %+v", good.Verdict, good.Violation, good.Bounds)
			}
			for _, seed := range seeds {
				r := mustCheck(t, opt(mutant.Name, seed))
				switch b := failing(r); {
				case r.Verdict == "violation":
					t.Logf("seed %d: %s: %s", seed, m.Bug, r.Violation)
					replayViolation(t, r, spec(mutant.Name, seed), delivery)
					return
				case b != nil:
					t.Logf("seed %d: %s: bound %s fails (%g against %g)", seed, m.Bug, b.Name, b.Worst, b.Bound)
					replayBound(t, r, *b, spec(mutant.Name, seed), delivery)
					return
				case r.Verdict != "ok":
					t.Fatalf("seed %d: verdict %s", seed, r.Verdict)
				}
			}
			t.Errorf("the checker did not catch the mutant that %s", m.Bug)
		})
	}
}

func mustCheck(t *testing.T, opt check.Options) *check.Report {
	t.Helper()
	r, err := check.Run(opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// failing is the first declared bound the report finds broken.
func failing(r *check.Report) *check.BoundVerdict {
	for i := range r.Bounds {
		if !r.Bounds[i].Holds {
			return &r.Bounds[i]
		}
	}
	return nil
}

// replayViolation replays the counterexample of r and requires it to end
// without a single correct leader.
func replayViolation(t *testing.T, r *check.Report, s scenario.Spec, delivery string) {
	t.Helper()
	s.IDs = check.IDsFlag(r.ViolationIDs)
	res := replay(t, s, delivery, func(buf *bytes.Buffer) (bool, error) { return r.WriteCounterexample(buf) })
	if res.Outcome == election.OutcomeElected && res.Violation == "" {
		t.Errorf("the counterexample (IDs %s) replays to a correct election", s.IDs)
	}
	t.Logf("replayed: %s %s", res.Outcome, res.Violation)
}

// replayBound replays the execution that reaches the extreme bound b
// speaks of, and requires the run's own check of b to fail.
func replayBound(t *testing.T, r *check.Report, b check.BoundVerdict, s scenario.Spec, delivery string) {
	t.Helper()
	q, largest := extremeOf(r, b)
	e := r.Extremes[q]
	ids := e.MinIDs
	if largest {
		ids = e.MaxIDs
	}
	s.IDs = check.IDsFlag(ids)
	res := replay(t, s, delivery, func(buf *bytes.Buffer) (bool, error) { return r.WriteExtreme(buf, q, largest) })
	i := slices.IndexFunc(res.Checks, func(c election.Check) bool { return !c.Holds })
	if i < 0 {
		t.Fatalf("the extreme execution (IDs %s) replays with every bound holding: %+v", s.IDs, res.Checks)
	}
	t.Logf("replayed: %s %s %g, measured %g", res.Checks[i].Name, res.Checks[i].Relation, res.Checks[i].Expected, res.Checks[i].Actual)
}

// extremeOf is the quantity (an index of Extremes) whose extreme breaks b,
// and whether it is the largest value.
func extremeOf(r *check.Report, b check.BoundVerdict) (int, bool) {
	for q, e := range r.Extremes {
		if e.Quantity == "time" && float64(e.Max) == b.Worst || float64(e.Max) == b.Worst && b.Relation != elect.AtLeast.String() {
			return q, true
		}
		if float64(e.Min) == b.Worst && b.Relation == elect.AtLeast.String() {
			return q, false
		}
	}
	return len(r.Extremes) - 2, true // the total number of messages
}

// replay runs the execution write gives on the reference engine, or, for
// synchronous runs (no choices but the IDs), the simulator on those IDs.
func replay(t *testing.T, s scenario.Spec, delivery string, write func(*bytes.Buffer) (bool, error)) *election.Result {
	t.Helper()
	s.Delivery = delivery
	cfg, err := scenario.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	var trace bytes.Buffer
	ok, err := write(&trace)
	if err != nil {
		t.Fatal(err)
	}
	var res *election.Result
	if ok {
		res, err = reference.Replay(*cfg, &trace)
	} else {
		res, err = sim.Run(*cfg)
	}
	if err != nil {
		t.Fatal(err)
	}
	return res
}
