package check

import (
	"fmt"
	"testing"

	"github.com/electkit/elect/scenario"
)

// BenchmarkCheckSpeed is the checker's speed on the two checks issue 31
// measures: every schedule (no reduction) of every assignment of LCR at
// n = 7 (720 configurations, 320,627 states) and of HS at n = 6 (60
// configurations, 15,928,194 states), on one worker and on two, in
// distinct states per second. Run it with -benchtime 1x and compare
// builds with benchstat (docs/performance.md).
func BenchmarkCheckSpeed(b *testing.B) {
	for _, c := range []struct {
		alg string
		n   int
	}{{"lcr", 7}, {"hs", 6}} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/n=%d/workers=%d", c.alg, c.n, workers), func(b *testing.B) {
				var states int64
				for b.Loop() {
					r, err := Run(Options{Spec: scenario.Spec{Algorithm: c.alg, N: c.n}, IDs: "all", Delivery: "fifo", Workers: workers, NoReduction: true})
					if err != nil || r.Verdict != "ok" {
						b.Fatal(err, r.Verdict)
					}
					states += r.States
				}
				b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
			})
		}
	}
}
