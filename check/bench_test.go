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
// with one worker and with one per core, with the known moves' shortcut
// (moves.go) and without.
func BenchmarkCheck(b *testing.B) {
	for _, c := range []struct {
		alg string
		n   int
	}{{"lcr", 6}, {"hs", 4}, {"chang-roberts", 5}} {
		for _, v := range []struct {
			workers int
			moves   bool
		}{{1, true}, {runtime.GOMAXPROCS(0), true}, {1, false}} {
			workers := v.workers
			b.Run(fmt.Sprintf("%s/n=%d/workers=%d/known-moves=%t", c.alg, c.n, workers, v.moves), func(b *testing.B) {
				defer func(was bool) { useKnownMoves = was }(useKnownMoves)
				useKnownMoves = v.moves
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
