package claims

import (
	"context"
	"testing"

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
