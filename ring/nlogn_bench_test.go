package ring_test

import (
	"fmt"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
)

// BenchmarkNLogN measures simulator throughput (message deliveries per
// second) and wall time per run for HS, Peterson (tagged) and Franklin on
// random rings of 10^3..10^6 nodes under unit-delay FIFO, synchronous and
// random (non-FIFO) delivery. n = 10^6 is skipped with -short.
func BenchmarkNLogN(b *testing.B) {
	for _, alg := range []*elect.Algorithm{ring.HS, ring.Peterson, ring.Franklin} {
		for _, n := range []int{1_000, 10_000, 100_000, 1_000_000} {
			for _, d := range []election.Delivery{election.FIFO, election.Sync, election.Random} {
				name := fmt.Sprintf("%s/n=%d/delivery=%s", alg.Name, n, d)
				b.Run(name, func(b *testing.B) {
					if n > 100_000 && testing.Short() {
						b.Skip("n = 10^6 skipped with -short")
					}
					b.ReportAllocs()
					benchRun(b, alg, "random", n, d, elect.Params{"variant": "tagged"})
				})
			}
		}
	}
}
