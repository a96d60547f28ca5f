package claims

import (
	"context"
	"math"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/experiment"
)

// TestMissingAlgorithmIsPending: a claim whose algorithm does not exist is
// reported pending, with no measurement.
func TestMissingAlgorithmIsPending(t *testing.T) {
	r := &Reproduction{Name: "x", Title: "x", Needs: []string{"no-such-algorithm", "pp:no-such-protocol"},
		run: func(context.Context, Env) (*Report, error) { t.Fatal("ran"); return nil, nil }}
	rep, err := r.Run(context.Background(), Env{Quick: true})
	if err != nil || len(rep.Rows) != 1 || rep.Rows[0].Verdict != Pending {
		t.Fatalf("%+v, %v", rep, err)
	}
}

// TestRulesCanFail: each rule fails on data that breaks it (no rule that
// cannot fail).
func TestRulesCanFail(t *testing.T) {
	rows := func(vals map[int][]float64) []experiment.Row {
		var out []experiment.Row
		for _, n := range []int{16, 32, 64, 128} {
			for _, v := range vals[n] {
				out = append(out, experiment.Row{Name: "a", N: n, Measures: map[string]float64{"m": v}})
			}
		}
		return out
	}
	sq := rows(map[int][]float64{16: {256, 257}, 32: {1024, 1025}, 64: {4096, 4097}, 128: {16384, 16385}})
	if exact("", "", sq, "m", "n^2", func(n int) float64 { return float64(n * n) }).Verdict != Fail {
		t.Error("exact passed on n^2+1")
	}
	if bound("", "", sq, "m", "n^2", func(n int) float64 { return float64(n * n) }).Verdict != Fail {
		t.Error("bound passed on n^2+1")
	}
	if stable("", "", sq, "m", "n lg n").Verdict != Fail {
		t.Error("n^2 data passed as O(n lg n)")
	}
	if stable("", "", sq, "m", "n^2").Verdict != Pass {
		t.Error("n^2 data failed as O(n^2)")
	}
	if meanWithin("", "", sq, "m", "n^2", func(n int) float64 { return float64(n*n) - 10 }, 4).Verdict != Fail {
		t.Error("mean 10 above the expectation passed with SE 0.7")
	}
	if rateAtLeast("", "", 90, 100, 0.99, 4, "").Verdict != Fail || rateAtMost("", "", 60, 100, 0.25, 4, "").Verdict != Fail {
		t.Error("rates far beyond 4 SE passed")
	}
}

// TestRegistryNamesAreUnique: names are unique and every reproduction
// names its source.
func TestRegistryNamesAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All() {
		if seen[r.Name] || r.Source == "" || len(r.Needs) == 0 {
			t.Errorf("reproduction %q: duplicate, or no source or needs", r.Name)
		}
		seen[r.Name] = true
	}
}

// TestIndependentSamplesCanFail: two ID arrangements run on the same seeds,
// or with the same means at every n, are not independent samples (issue
// 21: randomized LCR drew one sample three times).
func TestIndependentSamplesCanFail(t *testing.T) {
	row := func(ids string, seed uint64, v float64) experiment.Row {
		return experiment.Row{Name: "a", IDs: ids, N: 16, Seed: seed, Measures: map[string]float64{"m": v}}
	}
	orders := []string{"x", "y"}
	same := []experiment.Row{row("x", 1, 5), row("x", 2, 7), row("y", 1, 5), row("y", 2, 7)}
	if independentSamples("", "", same, orders, "m").Verdict != Fail {
		t.Error("a sample drawn twice on the same seeds passed")
	}
	apart := []experiment.Row{row("x", 1, 5), row("x", 2, 7), row("y", 11, 6), row("y", 12, 9)}
	if independentSamples("", "", apart, orders, "m").Verdict != Pass {
		t.Error("two samples on distinct seeds failed")
	}
}

// TestComparisonFloor: the floor sums n/(2(2k+1)) over the first n/8
// active rounds: 16/6 + 16/10 at n = 16, nothing below n = 8.
func TestComparisonFloor(t *testing.T) {
	if got, want := comparisonFloor(16), 16.0/6+16.0/10; math.Abs(got-want) > 1e-12 {
		t.Errorf("floor(16) = %v, want %v", got, want)
	}
	if comparisonFloor(4) != 0 {
		t.Error("floor(4) != 0")
	}
}

// TestSmallestOrderClass: on the bit-reversal ring of 8 nodes (IDs 0 4 2 6
// 1 5 3 7) the smallest order class of the segments of length 3 has 2
// members (a shift by 4 positions keeps the order: n/2^ceil(lg 3) = 2), and a ring in increasing order has one
// segment pattern that wraps (7 0 1) apart from the rest.
func TestSmallestOrderClass(t *testing.T) {
	rev := []elect.ID{0, 4, 2, 6, 1, 5, 3, 7}
	if got := smallestOrderClass(rev, 3); got != 2 {
		t.Errorf("bit-reversal n=8, l=3: smallest class %d, want 2", got)
	}
	inc := []elect.ID{0, 1, 2, 3, 4, 5, 6, 7}
	if got := smallestOrderClass(inc, 3); got != 1 {
		t.Errorf("increasing n=8, l=3: smallest class %d, want 1", got)
	}
}

// TestBurnsRecurrence: Burns' recurrence (seed 001 §5.4.1) gives T(2) = 1,
// T(4) = 1, T(8) = 2, T(16) = 6, and n lg n / 4 - 3n/4 + 2 at powers of two.
func TestBurnsRecurrence(t *testing.T) {
	for n, want := range map[int]int64{2: 1, 4: 1, 8: 2, 16: 6} {
		if burnsT(n) != want {
			t.Errorf("T(%d) = %d, want %d", n, burnsT(n), want)
		}
	}
	for lg := 1; lg <= 20; lg++ {
		n := 1 << lg
		if want := int64(n*lg/4 - 3*n/4 + 2); burnsT(n) != want {
			t.Errorf("T(%d) = %d, want %d", n, burnsT(n), want)
		}
	}
}
