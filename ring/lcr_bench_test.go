package ring_test

import (
	"fmt"
	"testing"

	"elect"
	"elect/ids"
	"elect/ring"
	"elect/sim"
	"elect/topology"
)

// BenchmarkLCR measures simulator throughput on LCR: random rings (about
// n*H_n messages) and the decreasing ring (n(n+1)/2, the worst case), under
// unit-delay FIFO, synchronous and random delivery.
func BenchmarkLCR(b *testing.B) {
	for _, arrangement := range []string{"random", "decreasing"} {
		for _, n := range []int{1_000, 10_000, 100_000} {
			if arrangement == "decreasing" && n > 10_000 && testing.Short() {
				continue
			}
			for _, d := range []sim.Delivery{sim.FIFO, sim.Sync, sim.Random} {
				name := fmt.Sprintf("ids=%s/n=%d/delivery=%s", arrangement, n, d)
				b.Run(name, func(b *testing.B) { benchRun(b, ring.LCR, arrangement, n, d) })
			}
		}
	}
}

// benchRun runs alg once per iteration and reports message deliveries per
// second and messages per run.
func benchRun(b *testing.B, alg *elect.Algorithm, arrangement string, n int, d sim.Delivery) {
	spec, err := ids.Parse(arrangement)
	if err != nil {
		b.Fatal(err)
	}
	idList, err := spec.Generate(n, sim.Stream(1, "ids", 0))
	if err != nil {
		b.Fatal(err)
	}
	cfg := sim.Config{Algorithm: alg, Graph: topology.NewRing(n), IDs: idList, Delivery: d, Seed: 1}
	var msgs int64
	b.ResetTimer()
	for b.Loop() {
		res, err := sim.Run(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if res.Outcome != sim.OutcomeElected {
			b.Fatalf("outcome %s", res.Outcome)
		}
		msgs += res.Messages
	}
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(msgs)/float64(b.N), "msgs/op")
}
