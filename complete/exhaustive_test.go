package complete_test

import (
	"testing"

	"github.com/electkit/elect/check"
	"github.com/electkit/elect/scenario"
)

// TestNewCompleteAlgorithmsHoldInEverySchedule explores every ID assignment,
// every non-empty set of starters and every delivery order of non-FIFO
// links (a bag per link) on 4 nodes: no run violates the election's
// properties or a declared bound. The worst counts it finds are the exact
// worst cases of these small networks; LMW's 4(n-1) = 12 ELECTION messages
// is the IDs increasing along the cycle (the FIFO schedule of
// TestLMWIncreasingCycleSends3NMinus1 gives 3n-1 = 11 of them).
func TestNewCompleteAlgorithmsHoldInEverySchedule(t *testing.T) {
	for _, tc := range []struct {
		alg    string
		params map[string]string
		worst  map[string]int64
	}{
		{"lmw", nil, map[string]int64{"ELECTION": 12, "LEADER": 3}},
		{"humblet", map[string]string{"order": "index", "variant": "all"}, nil},
		{"humblet", map[string]string{"order": "index", "variant": "majority"}, map[string]int64{"LEADER": 3}},
	} {
		r, err := check.Run(check.Options{
			Spec: scenario.Spec{Algorithm: tc.alg, N: 4, Params: tc.params, Seed: 1},
			IDs:  "all", Delivery: "bag", Initiators: "subsets",
		})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != "ok" {
			t.Fatalf("%s %v: verdict %s: %s", tc.alg, tc.params, r.Verdict, r.Property)
		}
		for _, b := range r.Bounds {
			if !b.Holds {
				t.Errorf("%s %v: bound %s fails in some schedule", tc.alg, tc.params, b.Name)
			}
		}
		for typ, want := range tc.worst {
			if got := r.MessagesMax[typ]; got != want {
				t.Errorf("%s %v: worst %s count %d, want %d", tc.alg, tc.params, typ, got, want)
			}
		}
	}
}
