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

// benchRun runs alg once per iteration on the given arrangement.
func benchRun(b *testing.B, alg *elect.Algorithm, arrangement string, n int, d sim.Delivery) {
	spec, err := ids.Parse(arrangement)
	if err != nil {
		b.Fatal(err)
	}
	idList, err := spec.Generate(n, sim.Stream(1, "ids", 0))
	if err != nil {
		b.Fatal(err)
	}
	benchSim(b, sim.Config{Algorithm: alg, Graph: topology.NewRing(n), IDs: idList, Delivery: d, Seed: 1}, false)
}

// benchSim runs cfg once per iteration (with seed 1, 2, ... when newSeeds)
// and reports message deliveries per second of wall time and messages per
// run; every run must elect.
func benchSim(b *testing.B, cfg sim.Config, newSeeds bool) {
	var msgs int64
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if newSeeds {
			cfg.Seed = uint64(i + 1)
		}
		res, err := sim.Run(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if res.Outcome != sim.OutcomeElected {
			b.Fatalf("outcome %s %s", res.Outcome, res.Violation)
		}
		msgs += res.Messages
	}
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(msgs)/float64(b.N), "msgs/op")
}
