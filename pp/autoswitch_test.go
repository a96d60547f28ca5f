package pp_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/protocols"
)

// hybridStop is the stopping time of a run of the hybrid engine (auto's),
// optionally forced onto the agent array at step force; moved reports
// whether the run moved.
func hybridStop[S comparable, P pp.Protocol[S]](newP func() P, n, force int64, moved *int) statistic {
	return func(e pp.Engine, seed uint64, _ func(l, n int64) int64) float64 {
		if e == pp.AgentArray {
			return float64(pp.Run[S](newP(), int(n), seed, pp.Options{}).Interactions)
		}
		s, err := pp.NewCountSim[S](newP(), n, seed, pp.Options{}, pp.Hybrid)
		if err != nil {
			panic(err)
		}
		if force > 0 {
			pp.ForceArrayAt(s, force)
		}
		s.Advance(math.MaxInt64)
		r := s.Result()
		if r.Outcome != pp.Elected {
			panic(fmt.Sprintf("%s: %s %s", r.Protocol, r.Outcome, r.Violation))
		}
		if pp.UsedArray(s) {
			*moved++
		}
		return float64(r.Interactions)
	}
}

// checkSameMoments compares the means (Welch's z) and the variances (z of
// the difference of the sample variances, whose standard errors come from
// the samples' fourth central moments: Var(s^2) ~ (m4 - s^4) / T) of two
// samples, each at |z| <= zCrit (two-sided alpha = 1e-3).
func checkSameMoments(t *testing.T, what string, ref, got []float64) {
	t.Helper()
	checkSameLaw(t, what, len(ref), ref, got)
	va, sa := varSE(ref)
	vb, sb := varSE(got)
	z := (vb - va) / math.Sqrt(sa*sa+sb*sb)
	t.Logf("%s: variance ratio %.4f, z = %+.2f", what, vb/va, z)
	if math.Abs(z) > zCrit {
		t.Errorf("%s: the variances differ: %g against %g, z = %.2f", what, vb, va, z)
	}
}

// varSE returns the sample variance and its standard error.
func varSE(x []float64) (v, se float64) {
	m, v := meanVar(x)
	var m4 float64
	for _, a := range x {
		d := (a - m) * (a - m)
		m4 += d * d
	}
	m4 /= float64(len(x))
	return v, math.Sqrt(max(m4-v*v, 0) / float64(len(x)))
}

// TestAutoMoveToArrayEquivalent: a hybrid run moved onto the agent array
// in the middle (forced, at a step where the runs are under way) has the
// agent array's law of the stopping time: the move lays the agents out
// state by state, which changes nothing since the array's scheduler draws
// uniform positions (autoswitch.go). The forced step is the hybrid's first
// decision from that step on (every 1024 interactions at these n).
func TestAutoMoveToArrayEquivalent(t *testing.T) {
	T := equivTrials()
	cases := []struct {
		name string
		stat func(moved *int) statistic
	}{
		{"angluin n=40", func(m *int) statistic {
			return hybridStop[uint8](func() *protocols.Angluin { return protocols.NewAngluin(40) }, 40, 300, m)
		}},
		{"pll n=30", func(m *int) statistic {
			return hybridStop[uint32](func() *protocols.PLL { p, _ := protocols.NewPLL(30, 0, false, "prose"); return p }, 30, 200, m)
		}},
		{"pll-sym n=60", func(m *int) statistic {
			return hybridStop[uint32](func() *protocols.PLL { p, _ := protocols.NewPLL(60, 0, true, "prose"); return p }, 60, 300, m)
		}},
	}
	for _, c := range cases {
		moved := 0
		st := c.stat(&moved)
		ref := sampleStat(st, pp.AgentArray, T, 1, nil)
		got := sampleStat(st, pp.Hybrid, T, 3000, nil)
		t.Logf("%s: %d of %d hybrid runs moved onto the agent array", c.name, moved, T)
		if moved < T/2 {
			t.Errorf("%s: only %d of %d runs moved: the case does not test the move", c.name, moved, T)
		}
		checkSameMoments(t, c.name+", hybrid moved to agent-array vs agent-array", ref, got)
	}
}

// TestAutoCostDecisionsEquivalent: P_LL at n = 1000 on the hybrid engine
// with its cost decisions as they are (batches, null-skipping tried and
// left, the move onto the agent array once the clocks' states make the
// count engine dear) has the agent array's law of the stopping time.
func TestAutoCostDecisionsEquivalent(t *testing.T) {
	T := equivTrials() / 10
	moved := 0
	st := hybridStop[uint32](func() *protocols.PLL { p, _ := protocols.NewPLL(1000, 0, true, "prose"); return p }, 1000, 0, &moved)
	ref := sampleStat(st, pp.AgentArray, T, 1, nil)
	got := sampleStat(st, pp.Hybrid, T, 4000, nil)
	t.Logf("pll-sym n=1000: %d of %d hybrid runs moved onto the agent array", moved, T)
	checkSameMoments(t, "pll-sym n=1000, hybrid (auto's decisions) vs agent-array", ref, got)
}
