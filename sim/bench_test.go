//go:build unix

package sim_test

import (
	"fmt"
	"syscall"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// BenchmarkEngine measures the simulator's paths on rings of 10^5 nodes
// with random IDs (seed 1): LCR and Hirschberg-Sinclair under unit delays
// (fifo), rounds (sync) and random delays, and LCR with every message
// duplicated (the faults' general path). It reports message deliveries
// per second of wall time and cpu-ns/op, the process's CPU time (user and
// system, every thread) per run, which a busy machine inflates less than
// the wall time of ns/op.
func BenchmarkEngine(b *testing.B) {
	const n = 100_000
	spec, err := ids.Parse("random")
	if err != nil {
		b.Fatal(err)
	}
	idList, err := spec.Generate(n, election.Stream(1, "ids", 0))
	if err != nil {
		b.Fatal(err)
	}
	g := topology.NewRing(n)
	for _, alg := range []*elect.Algorithm{ring.LCR, ring.HS} {
		for _, d := range []election.Delivery{election.FIFO, election.Sync, election.Random} {
			cfg := election.Config{Algorithm: alg, Graph: g, IDs: idList, Delivery: d, Seed: 1}
			b.Run(fmt.Sprintf("alg=%s/delivery=%s", alg.Name, d), func(b *testing.B) { benchEngine(b, cfg) })
		}
	}
	dup, err := faults.Parse("dup:p=0.01")
	if err != nil {
		b.Fatal(err)
	}
	cfg := election.Config{Algorithm: ring.LCR, Graph: g, IDs: idList, Delivery: election.FIFO, Seed: 1, Faults: dup}
	b.Run("alg=lcr/delivery=fifo/faults=dup", func(b *testing.B) { benchEngine(b, cfg) })
}

// benchEngine runs cfg once per iteration; every run must end as the
// first did.
func benchEngine(b *testing.B, cfg election.Config) {
	var msgs int64
	var first election.Outcome
	cpu := cpuTime()
	for b.Loop() {
		res, err := sim.Run(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if first == "" {
			first = res.Outcome
		}
		if res.Outcome != first {
			b.Fatalf("outcome %s, then %s", first, res.Outcome)
		}
		msgs += res.Messages
	}
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's CPU time so far, user and system, in
// nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
