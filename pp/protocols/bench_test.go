package protocols

import (
	"fmt"
	"testing"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/ppfile"
)

// benchSim measures the agent-array engine's cost per interaction for one
// protocol: set-up (allocating and initialising the n agents) is excluded,
// and when a run reaches its goal before b.N interactions a fresh run (next
// seed) continues the count. Reported metric: ns/interaction.
func benchSim[S comparable, P pp.Protocol[S]](b *testing.B, n int, newP func() P) {
	if n >= 1<<26 && testing.Short() {
		b.Skip("n = 2^26 skipped under -short")
	}
	total := int64(b.N)
	var done int64
	seed := uint64(1)
	b.ResetTimer()
	b.StopTimer()
	for done < total {
		sim := pp.NewSim[S](newP(), n, seed, pp.Options{MaxSteps: 1 << 62})
		b.StartTimer()
		sim.Advance(total - done)
		b.StopTimer()
		done += sim.Steps()
		seed++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(total), "ns/interaction")
}

var benchSizes = []int{1 << 10, 1 << 20, 1 << 26}

func sizeName(n int) string {
	for k := 0; k < 63; k++ {
		if 1<<k == n {
			return fmt.Sprintf("n=2^%d", k)
		}
	}
	return fmt.Sprintf("n=%d", n)
}

// BenchmarkAgentArrayAngluin: angluin (1 byte per agent).
func BenchmarkAgentArrayAngluin(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			benchSim[uint8](b, n, func() *Angluin { return NewAngluin(n) })
		})
	}
}

// BenchmarkAgentArrayEpidemic: seed 000 Algorithm 2 (4 bytes per agent).
func BenchmarkAgentArrayEpidemic(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			benchSim[uint32](b, n, func() *Epidemic { return NewEpidemic(n, "prose") })
		})
	}
}

// BenchmarkAgentArrayPLL: seed 004 P_LL with m = ceil(lg n) (4 bytes per agent).
func BenchmarkAgentArrayPLL(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			benchSim[uint32](b, n, func() *PLL { p, _ := NewPLL(n, 0, false, "prose"); return p })
		})
	}
}

// BenchmarkAgentArrayFileVsBuiltIn: angluin read from a file
// (examples/protocols/angluin.yaml: a table lookup per interaction) against
// the built-in Go protocol on the agent array at n = 2^20.
func BenchmarkAgentArrayFileVsBuiltIn(b *testing.B) {
	const n = 1 << 20
	b.Run("protocol=angluin/impl=builtin", func(b *testing.B) {
		benchSim[uint8](b, n, func() *Angluin { return NewAngluin(n) })
	})
	b.Run("protocol=angluin/impl=file", func(b *testing.B) {
		f, err := ppfile.Load("../../examples/protocols/angluin.yaml")
		if err != nil {
			b.Fatal(err)
		}
		benchSim[uint8](b, n, func() *ppfile.Protocol[uint8] { p, _ := ppfile.New[uint8](f, n); return p })
	})
}
