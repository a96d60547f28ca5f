package complete

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/sim"
)

// BenchmarkAfekGafni measures whole runs of Afek-Gafni B (random IDs, every
// node an initiator, links in a random order per node) on complete graphs of 10^2,
// 10^3 and 10^4 nodes, under unit-delay FIFO and random delivery: messages
// per second of simulation, messages per run, and (as ns/op) the wall time
// of one run.
func BenchmarkAfekGafni(b *testing.B) {
	for _, n := range []int{100, 1_000, 10_000} {
		for _, d := range []election.Delivery{election.FIFO, election.Random} {
			b.Run(fmt.Sprintf("n=%d/delivery=%s", n, d), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(uint64(n), 1))
				cfg := agConfig(randomIDs(rng, n), d, "shuffle", "seed")
				cfg.Seed = 1
				benchRuns(b, cfg)
			})
		}
	}
}

// BenchmarkKMZ measures whole runs of Korach-Moran-Zaks (random IDs, every
// node starting, links in a random order per node) on complete graphs of
// 10^2, 10^3 and 10^4 nodes under unit-delay and random-delay FIFO links:
// messages per second of simulation and messages per run.
func BenchmarkKMZ(b *testing.B) {
	for _, n := range []int{100, 1_000, 10_000} {
		for _, d := range []election.Delivery{election.FIFO, election.RandomFIFO} {
			b.Run(fmt.Sprintf("n=%d/delivery=%s", n, d), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(uint64(n), 1))
				cfg := kmzConfig(randomIDs(rng, n), d, "shuffle")
				cfg.Seed = 1
				benchRuns(b, cfg)
			})
		}
	}
}

// benchRuns runs cfg b.N times, each to an election, and reports messages
// per second of simulation and per run.
func benchRuns(b *testing.B, cfg election.Config) {
	var msgs int64
	for b.Loop() {
		res, err := sim.Run(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if res.Outcome != election.OutcomeElected {
			b.Fatalf("outcome %s", res.Outcome)
		}
		msgs += res.Messages
	}
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(msgs)/float64(b.N), "msgs/op")
}
