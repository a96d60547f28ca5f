package check

import (
	"testing"

	"github.com/electkit/elect/scenario"
)

// BenchmarkCheck explores every schedule and assignment of HS on 4 nodes
// and of Chang-Roberts on 5, and reports states per second.
func BenchmarkCheck(b *testing.B) {
	for _, c := range []struct {
		alg string
		n   int
	}{{"lcr", 6}, {"hs", 4}, {"chang-roberts", 5}} {
		b.Run(c.alg, func(b *testing.B) {
			var states int64
			for b.Loop() {
				r, err := Run(Options{Spec: scenario.Spec{Algorithm: c.alg, N: c.n}, IDs: "all", Delivery: "fifo", Workers: 1, NoReduction: true})
				if err != nil || r.Verdict != "ok" {
					b.Fatal(err, r.Verdict)
				}
				states += r.States
			}
			b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
			b.ReportMetric(float64(states)/float64(b.N), "states/op")
		})
	}
}
