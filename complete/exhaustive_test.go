package complete_test

import (
	"testing"

	"github.com/electkit/elect/check"
	"github.com/electkit/elect/scenario"
)

// TestNewCompleteAlgorithmsHoldInEverySchedule explores every ID assignment,
// every non-empty set of starters and every delivery order of non-FIFO
// links (a bag per link; FIFO links for korach-moran-zaks, which needs
// them) on 4 nodes: no run violates the election's
// properties or a declared bound. The worst counts it finds are the exact
// worst cases of these small networks; LMW's 4(n-1) = 12 ELECTION messages
// is the IDs increasing along the cycle (the FIFO schedule of
// TestLMWIncreasingCycleSends3NMinus1 gives 3n-1 = 11 of them). Korach-Moran-Zaks
// with its links in port order never exceeds its least count 4(n-1) by more
// than one YOUR_CITIZEN.
func TestNewCompleteAlgorithmsHoldInEverySchedule(t *testing.T) {
	for _, tc := range []struct {
		alg      string
		params   map[string]string
		worst    map[string]int64
		delivery string // "" is a bag per link
	}{
		{"lmw", nil, map[string]int64{"ELECTION": 12, "LEADER": 3}, ""},
		{"korach-moran-zaks", map[string]string{"order": "index"}, map[string]int64{"ASK": 6, "ACCEPT": 3, "UPDATE": 3, "YOUR_CITIZEN": 1, "LEADER": 3}, "fifo"},
		{"humblet", map[string]string{"order": "index", "variant": "all"}, nil, ""},
		{"humblet", map[string]string{"order": "index", "variant": "majority"}, map[string]int64{"LEADER": 3}, ""},
	} {
		delivery := tc.delivery
		if delivery == "" {
			delivery = "bag"
		}
		r, err := check.Run(check.Options{
			Spec: scenario.Spec{Algorithm: tc.alg, N: 4, Params: tc.params, Seed: 1},
			IDs:  "all", Delivery: delivery, Initiators: "subsets",
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Failure(); err != nil {
			t.Fatalf("%v: %v", tc.params, err)
		}
		for typ, want := range tc.worst {
			if got := r.MessagesMax[typ]; got != want {
				t.Errorf("%s %v: worst %s count %d, want %d", tc.alg, tc.params, typ, got, want)
			}
		}
	}
}
