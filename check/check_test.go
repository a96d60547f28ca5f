package check

import (
	"testing"

	"github.com/electkit/elect/scenario"
)

func run(t *testing.T, opt Options) *Report {
	t.Helper()
	r, err := Run(opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func extreme(r *Report, q string) Extreme {
	for _, e := range r.Extremes {
		if e.Quantity == q {
			return e
		}
	}
	return Extreme{}
}

// TestLCRExtremes: over every ID assignment of a unidirectional ring of n
// nodes and every schedule, LCR sends at most n(n+1)/2 election messages
// (IDs decreasing along the ring) and at least 2n-1 (increasing): seed 001,
// section 5.2.1. The counts do not depend on the schedule.
func TestLCRExtremes(t *testing.T) {
	for n := 2; n <= 5; n++ {
		r := run(t, Options{Spec: scenario.Spec{Algorithm: "lcr", N: n}, IDs: "all", Delivery: "fifo"})
		e := extreme(r, "election")
		if r.Verdict != "ok" || e.Max != int64(n*(n+1)/2) || e.Min != int64(2*n-1) {
			t.Errorf("n=%d: %s %s; election messages %d..%d, want %d..%d", n, r.Verdict, r.Violation, e.Min, e.Max, 2*n-1, n*(n+1)/2)
		}
		for _, b := range r.Bounds {
			if !b.Holds {
				t.Errorf("n=%d: bound %s fails: %v vs %v", n, b.Name, b.Worst, b.Bound)
			}
		}
		t.Logf("n=%d: %d configurations, %d states, %d transitions", n, r.Configurations, r.States, r.Transitions)
	}
}
