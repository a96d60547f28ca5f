package protocols

import (
	"testing"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/ppfile"
)

// Benchmarks of the count-based engines, in ns per interaction and
// interactions per second, next to the published figures (see the report in
// the commit history and BenchmarkCount* names):
//
//   - Berenbrink et al. (ESA 2020): about 0.2 ns/interaction at n = 2^30 with
//     8 states (C++, batched);
//   - ppsim (Doty and Severson): approximate majority to parallel time 10 at
//     n = 10^9 in about 0.7 s (about 0.07 ns/interaction).
//
// Each benchmark iteration advances one run by a fixed number of
// interactions (b.N is the number of chunks), so set-up is amortised.

func benchCount[S comparable, P pp.Protocol[S]](b *testing.B, n int64, mode pp.Engine, chunk int64, newP func() P) {
	seed := uint64(1)
	start := func() *pp.CountSim[S, P] {
		sim, err := pp.NewCountSim[S](newP(), n, seed, pp.Options{MaxSteps: 1 << 62}, mode)
		if err != nil {
			b.Fatal(err)
		}
		seed++
		return sim
	}
	sim := start()
	b.ResetTimer()
	var total int64
	for range b.N {
		before := sim.Steps()
		stopped := sim.Advance(chunk)
		total += sim.Steps() - before
		if stopped { // reached its goal: continue with a fresh run
			b.StopTimer()
			sim = start()
			b.StartTimer()
		}
	}
	ns := float64(b.Elapsed().Nanoseconds())
	b.ReportMetric(ns/float64(total), "ns/interaction")
	b.ReportMetric(float64(total)/ns*1e9, "interactions/s")
}

var countBenchSizes = []int64{1 << 20, 1 << 30, 1 << 40}

func chunkFor(n int64) int64 { return max(n/64, 1<<24) }

// BenchmarkCountBatchedCounter8: the 8-state counter (every pair non-null).
func BenchmarkCountBatchedCounter8(b *testing.B) {
	for _, n := range countBenchSizes {
		b.Run(sizeName(int(n)), func(b *testing.B) {
			benchCount[uint32](b, n, pp.Batched, chunkFor(n), func() *Counter { return &Counter{K: 8, Spread: true} })
		})
	}
}

// BenchmarkCountBatchedCounter128: the 128-state counter.
func BenchmarkCountBatchedCounter128(b *testing.B) {
	for _, n := range countBenchSizes {
		b.Run(sizeName(int(n)), func(b *testing.B) {
			benchCount[uint32](b, n, pp.Batched, chunkFor(n), func() *Counter { return &Counter{K: 128, Spread: true} })
		})
	}
}

// BenchmarkCountBatchedPLL: P_LL from its initial configuration.
func BenchmarkCountBatchedPLL(b *testing.B) {
	for _, n := range countBenchSizes {
		b.Run(sizeName(int(n)), func(b *testing.B) {
			benchCount[uint32](b, n, pp.Batched, chunkFor(n), func() *PLL { p, _ := NewPLL(int(n), 0, false, "prose"); return p })
		})
	}
}

// BenchmarkCountApproxMajority: approximate majority (3 states, 60% A) to
// parallel time 10 at n = 10^9, the ppsim figure (about 0.7 s); one op is
// one whole run (hybrid engine).
func BenchmarkCountApproxMajority(b *testing.B) {
	const n = 1_000_000_000
	var total int64
	for i := range b.N {
		sim, err := pp.NewCountSim[uint8](NewApproxMajority(n, n*6/10), n, uint64(i+1), pp.Options{MaxSteps: 10 * n}, pp.Hybrid)
		if err != nil {
			b.Fatal(err)
		}
		sim.Advance(10 * n)
		total += sim.Steps()
	}
	ns := float64(b.Elapsed().Nanoseconds())
	b.ReportMetric(ns/float64(total), "ns/interaction")
	b.ReportMetric(float64(total)/ns*1e9, "interactions/s")
}

// BenchmarkCountAngluinToOneLeader: angluin at n = 10^6 to one leader (about
// 10^12 interactions; target under 10 s); one op is one whole run (auto
// engine choice: the hybrid).
func BenchmarkCountAngluinToOneLeader(b *testing.B) {
	const n = 1_000_000
	var total int64
	for i := range b.N {
		r, err := pp.Simulate(NewAngluin(n), n, uint64(i+1), pp.Options{Engine: pp.Auto})
		if err != nil || r.Outcome != pp.Elected {
			b.Fatal(err, r.Outcome)
		}
		total += r.Interactions
	}
	ns := float64(b.Elapsed().Nanoseconds())
	b.ReportMetric(ns/float64(total), "ns/interaction")
	b.ReportMetric(float64(total)/ns*1e9, "interactions/s")
}

// BenchmarkCountBatchedFileVsBuiltIn: a protocol read from a file
// (examples/protocols) against the built-in Go protocol, on the batched
// engine at n = 2^30 (issue 20 asks for the file within 1.5x): angluin
// from its initial configuration, and approximate majority (60% A) with a
// fresh run whenever one reaches consensus. The file's transition function
// is a table lookup, called once per state pair (the engine caches
// transitions), so the two should run at the same speed; compare with
// benchstat.
func BenchmarkCountBatchedFileVsBuiltIn(b *testing.B) {
	const n = 1 << 30
	load := func(b *testing.B, name string) *ppfile.File {
		f, err := ppfile.Load("../../examples/protocols/" + name)
		if err != nil {
			b.Fatal(err)
		}
		return f
	}
	b.Run("protocol=angluin/impl=builtin", func(b *testing.B) {
		benchCount[uint8](b, n, pp.Batched, chunkFor(n), func() *Angluin { return NewAngluin(n) })
	})
	b.Run("protocol=angluin/impl=file", func(b *testing.B) {
		f := load(b, "angluin.yaml")
		benchCount[uint8](b, n, pp.Batched, chunkFor(n), func() *ppfile.Protocol[uint8] { p, _ := ppfile.New[uint8](f, n); return p })
	})
	b.Run("protocol=approx-majority/impl=builtin", func(b *testing.B) {
		benchCount[uint8](b, n, pp.Batched, chunkFor(n), func() *ApproxMajority { return NewApproxMajority(n, n*6/10) })
	})
	b.Run("protocol=approx-majority/impl=file", func(b *testing.B) {
		f := load(b, "approx-majority.yaml")
		benchCount[uint8](b, n, pp.Batched, chunkFor(n), func() *ppfile.Protocol[uint8] { p, _ := ppfile.New[uint8](f, n); return p })
	})
}
