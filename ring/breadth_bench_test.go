package ring_test

import (
	"fmt"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/topology"
)

// BenchmarkBreadthRings measures simulator throughput (messages per second)
// and messages per run for the ring algorithms added for issue 22 on random
// rings (anonymous for probabilistic Franklin) of 10^3..10^5 nodes under
// unit-delay FIFO delivery, and random (non-FIFO) delivery for
// probabilistic Franklin, which allows it.
func BenchmarkBreadthRings(b *testing.B) {
	algs := []*elect.Algorithm{ring.DolevKlaweRodeh, ring.HighamPrzytycka, ring.StagesWithFeedback, ring.ProbabilisticFranklin}
	for _, alg := range algs {
		for _, n := range []int{1_000, 10_000, 100_000} {
			deliveries := []election.Delivery{election.FIFO}
			if !alg.Model.FIFO {
				deliveries = append(deliveries, election.Random)
			}
			for _, d := range deliveries {
				b.Run(fmt.Sprintf("%s/n=%d/delivery=%s", alg.Name, n, d), func(b *testing.B) {
					ids := nlIDs(b, "random", n, 1)
					if !alg.Model.UniqueIDs {
						ids = make([]elect.ID, n)
					}
					b.ReportAllocs()
					benchSim(b, election.Config{Algorithm: alg, Graph: topology.NewRing(n), IDs: ids, Delivery: d, Seed: 1,
						Params: elect.Params{"k": "n"}}, false)
				})
			}
		}
	}
}
