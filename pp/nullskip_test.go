package pp_test

import (
	"fmt"
	"testing"

	"github.com/electkit/elect/pp"
)

// cycle is a benchmark protocol with q states that all stay populated: the
// states are 0..q-1 on a cycle. Sparse: only a pair (a, a+1) is non-null,
// and moves both agents one state on (a+1, a+2), so about 1/q of the pairs
// are non-null. Dense: every pair of distinct states is non-null and moves
// the initiator on. Both keep the total and spread the agents evenly, so
// over a benchmark no state dies and the q states stay present.
type cycle struct {
	q     uint16
	dense bool
}

func (p cycle) Spec() pp.Spec {
	return pp.Spec{Name: "cycle", Goal: pp.GoalCount, Target: 1 << 62, DefaultMaxSteps: 1 << 62}
}
func (p cycle) Init(i int) uint16    { return uint16(i % int(p.q)) }
func (p cycle) IsLeader(uint16) bool { return false }
func (p cycle) InGoal(uint16) bool   { return false }
func (p cycle) next(a uint16) uint16 { return (a + 1) % p.q }
func (p cycle) Census(n int64) []pp.StateCount[uint16] {
	out := make([]pp.StateCount[uint16], p.q)
	for i := range out {
		out[i] = pp.StateCount[uint16]{State: uint16(i), Count: n / int64(p.q)}
	}
	out[0].Count += n % int64(p.q)
	return out
}
func (p cycle) Interact(a, b *uint16) pp.Delta {
	switch {
	case p.dense && *a != *b:
		*a = p.next(*a)
	case !p.dense && *b == p.next(*a):
		*a, *b = *b, p.next(*b)
	}
	return pp.Delta{}
}

// BenchmarkNullSkipEvent measures the null-skipping engine's cost per
// non-null interaction against the number of states present (10, 100,
// 1000, 5000), with sparse (about 1/q of the pairs non-null) and dense
// (almost all) non-null pairs, at n = 2^30 so that no state empties during
// the benchmark. Reported: ns per non-null event (the setup, which fills
// the q x q non-null matrix once, is not timed).
func BenchmarkNullSkipEvent(b *testing.B) {
	for _, dense := range []bool{false, true} {
		for _, q := range []uint16{10, 100, 1000, 5000} {
			name := fmt.Sprintf("sparse/q=%d", q)
			if dense {
				name = fmt.Sprintf("dense/q=%d", q)
			}
			b.Run(name, func(b *testing.B) {
				p := cycle{q: q, dense: dense}
				s, err := pp.NewCountSim[uint16](p, 1<<30, 1, pp.Options{}, pp.NullSkipping)
				if err != nil {
					b.Fatal(err)
				}
				s.Advance(1) // the setup
				step := int64(q) * 4
				if dense {
					step = 4
				}
				ev0 := pp.NonNullEvents(s)
				b.ResetTimer()
				for pp.NonNullEvents(s)-ev0 < int64(b.N) {
					s.Advance(step)
				}
				b.StopTimer()
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(pp.NonNullEvents(s)-ev0), "ns/event")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}
