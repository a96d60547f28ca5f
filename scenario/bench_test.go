//go:build unix

package scenario

import (
	"syscall"
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/sim"
)

// BenchmarkMillionRing is the yardstick of a whole 'elect run lcr --n
// 1000000' and 'elect run hs --n 1000000' (seed 1, random IDs, FIFO): "build"
// is scenario.Build of their configuration, "engine" sim.Run of it, built
// once outside the timing: the engine's own time, which the whole process
// should stay within 1.3 times of (docs/performance.md). cpu-ns/op is the
// process's CPU time (user and system, every thread) per run, which a busy
// machine does not inflate as it does the wall time of ns/op.
func BenchmarkMillionRing(b *testing.B) {
	for _, alg := range []string{"lcr", "hs"} {
		s := Spec{Algorithm: alg, N: 1_000_000, IDs: "random", Seed: 1, MaxEvents: election.DefaultMaxEvents}
		b.Run(alg+"/build", func(b *testing.B) {
			for b.Loop() {
				if _, err := Build(s); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(alg+"/engine", func(b *testing.B) {
			cfg, err := Build(s)
			if err != nil {
				b.Fatal(err)
			}
			var msgs int64
			cpu := cpuTime()
			for b.Loop() {
				res, err := sim.Run(*cfg)
				if err != nil || res.Outcome != election.OutcomeElected {
					b.Fatalf("%v %v", err, res)
				}
				msgs += res.Messages
			}
			b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
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
