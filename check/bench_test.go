package check

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/electkit/elect/scenario"
)

// BenchmarkCheck explores every schedule and ID assignment of LCR on 6
// nodes (without the partial-order reduction: every interleaving), of HS
// on 4 and of Chang-Roberts on 5, and reports distinct states per second,
// with one worker and with one per core.
func BenchmarkCheck(b *testing.B) {
	for _, c := range []struct {
		alg string
		n   int
	}{{"lcr", 6}, {"hs", 4}, {"chang-roberts", 5}} {
		for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
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
				b.ReportMetric(float64(states)/float64(b.N), "states/op")
			})
		}
	}
}
