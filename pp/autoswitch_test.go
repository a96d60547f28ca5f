package pp_test

import (
	"encoding/json"
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

// smallAutoStat is a statistic of a run in auto's small-n mode (on the
// agent array, moving to null-skipping and back: autoswitch.go), checked
// every window interactions, with pingPong forcing a move at every chance;
// states selects the number of states met instead of the stopping time.
// moves counts the runs that left the array at least once.
func smallAutoStat[S comparable, P pp.Protocol[S]](newP func() P, n, window int64, pingPong, states bool, moves *int) statistic {
	opt := pp.Options{TrackStates: states}
	val := func(r pp.Result) float64 {
		if r.Outcome != pp.Elected {
			panic(fmt.Sprintf("%s: %s %s", r.Protocol, r.Outcome, r.Violation))
		}
		if states {
			return float64(r.StatesSeen)
		}
		return float64(r.Interactions)
	}
	return func(e pp.Engine, seed uint64, _ func(l, n int64) int64) float64 {
		if e == pp.AgentArray {
			return val(pp.Run[S](newP(), int(n), seed, opt))
		}
		s, err := pp.NewCountSim[S](newP(), n, seed, opt, pp.Hybrid)
		if err != nil {
			panic(err)
		}
		pp.StartOnArray(s, window, pingPong)
		s.Advance(math.MaxInt64)
		r := s.Result()
		if r.Engine != pp.EngineName {
			*moves++
		}
		return val(r)
	}
}

// TestAutoSmallNEquivalent: auto's small-n mode, which starts on the agent
// array and moves between it and null-skipping (probing the non-null
// fraction on the array, measuring its cost in null-skipping), has the
// agent array's law of the stopping time and of the number of states met
// (which the moves carry over: the array's record of states and the count
// engine's reached marks), with its own decisions (angluin) and with a move
// at every chance in both directions (P_LL, whose many states make the
// states met a sharp test of the bookkeeping).
func TestAutoSmallNEquivalent(t *testing.T) {
	T := equivTrials()
	angluin := func() *protocols.Angluin { return protocols.NewAngluin(40) }
	pll := func() *protocols.PLL { p, _ := protocols.NewPLL(30, 0, false, "prose"); return p }
	// In CI the P_LL cases take half the trials (the suite's time); the
	// full test (ELECT_PP_EQUIV=1) takes T = 10^5 for each.
	half := 1
	if T < 100000 {
		half = 2
	}
	cases := []struct {
		name string
		div  int
		stat func(moves *int) statistic
	}{
		{"angluin n=40, auto's decisions, steps", 1, func(m *int) statistic { return smallAutoStat[uint8](angluin, 40, 40, false, false, m) }},
		{"pll n=30, moves at every chance, steps", half, func(m *int) statistic { return smallAutoStat[uint32](pll, 30, 60, true, false, m) }},
		{"pll n=30, moves at every chance, states met", half, func(m *int) statistic { return smallAutoStat[uint32](pll, 30, 60, true, true, m) }},
	}
	for _, c := range cases {
		moves := 0
		st := c.stat(&moves)
		T := T / c.div
		ref := sampleStat(st, pp.AgentArray, T, 1, nil)
		got := sampleStat(st, pp.Hybrid, T, 5000, nil)
		t.Logf("%s: %d of %d runs left the agent array", c.name, moves, T)
		if moves < T/2 {
			t.Errorf("%s: only %d of %d runs left the array: the case does not test the moves", c.name, moves, T)
		}
		checkSameMoments(t, c.name+", small-n auto vs agent-array", ref, got)
	}
}

// TestAutoSmallNStaysIsRun: a small-n auto run that never leaves the
// agent array (P_LL: its clocks keep most pairs non-null) is Run's run,
// result and details included (the epoch steps only the agent array
// records), draw for draw.
func TestAutoSmallNStaysIsRun(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		p, _ := protocols.NewPLL(1000, 0, false, "prose")
		got, err := pp.Simulate[uint32](p, 1000, seed, pp.Options{Engine: pp.Auto, TrackStates: true})
		if err != nil {
			t.Fatal(err)
		}
		q, _ := protocols.NewPLL(1000, 0, false, "prose")
		want := pp.Run[uint32](q, 1000, seed, pp.Options{TrackStates: true})
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) || got.EventSteps != want.EventSteps {
			t.Errorf("seed %d: auto %s\nagent array %s", seed, g, w)
		}
		if got.Details.Get("epoch2_step") == nil {
			t.Errorf("seed %d: no epoch details: %s", seed, g)
		}
	}
}

// TestAutoNumberedFewStates: a protocol that numbers its agents but starts
// them in few states (numbered-known: all alike but the largest ID) runs on
// the count engine under auto, where setting it up costs about half the
// agent array's; one whose agents start in n distinct states (the
// epidemic) stays on the agent array, as does any beyond MaxInitCalls.
func TestAutoNumberedFewStates(t *testing.T) {
	for _, c := range []struct {
		name string
		got  func() (pp.Engine, error)
		want pp.Engine
	}{
		{"numbered-known n=10^4", func() (pp.Engine, error) {
			return pp.ChooseEngine[uint32](protocols.NewNumberedKnown(10000), 10000, pp.Options{}, pp.Auto)
		}, pp.Hybrid},
		{"numbered-known n=10^8", func() (pp.Engine, error) {
			return pp.ChooseEngine[uint32](protocols.NewNumberedKnown(1e8), 1e8, pp.Options{}, pp.Auto)
		}, pp.AgentArray},
		{"epidemic n=10^4", func() (pp.Engine, error) {
			return pp.ChooseEngine[uint32](protocols.NewEpidemic(10000, "prose"), 10000, pp.Options{}, pp.Auto)
		}, pp.AgentArray},
	} {
		if e, err := c.got(); err != nil || e != c.want {
			t.Errorf("%s: auto chose %q (%v), want %q", c.name, e, err, c.want)
		}
	}
}
