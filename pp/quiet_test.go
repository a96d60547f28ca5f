package pp_test

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/protocols"
)

// quietClock is a test protocol whose runs are mostly quiet stretches
// (pp/quiet.go): followers count their interactions, whatever the partner
// and the role. With wrap set, a follower that reaches c becomes "wrapped"
// (the goal: the first wrap); otherwise counts go round modulo c and the
// run waits for the leaders (inert, each fixed) to eliminate each other
// (leader meets leader: the responder becomes a follower at count 0), the
// hot-inert pairs of a quiet stretch. The initial configuration has lead
// leaders, hot followers at count c-12 and warm ones at c-30, the rest at
// count 0. Both engines report "high", the followers at count >= hi in
// the final configuration, which depends on every agent's degree.
type quietClock struct {
	n, c, lead, hot, warm, hi int
	wrap                      bool
}

const (
	qcLeader  = 1 << 15
	qcWrapped = 1 << 14
)

func (p quietClock) Spec() pp.Spec {
	sp := pp.Spec{Name: "quiet-clock", Goal: pp.GoalOneLeader, Monotone: true, DefaultMaxSteps: 1 << 40}
	if p.wrap {
		sp.Goal, sp.Target, sp.Monotone, sp.NoElection = pp.GoalCount, 1, false, true
	}
	return sp
}

func (p quietClock) Init(i int) uint16 {
	switch {
	case i < p.lead:
		return qcLeader
	case i < p.lead+p.hot:
		return uint16(p.c - 12)
	case i < p.lead+p.hot+p.warm:
		return uint16(p.c - 30)
	}
	return 0
}

func (p quietClock) Census(n int64) []pp.StateCount[uint16] {
	return []pp.StateCount[uint16]{{State: qcLeader, Count: int64(p.lead)}, {State: uint16(p.c - 12), Count: int64(p.hot)},
		{State: uint16(p.c - 30), Count: int64(p.warm)}, {State: 0, Count: n - int64(p.lead+p.hot+p.warm)}}
}

func (quietClock) IsLeader(s uint16) bool { return s&qcLeader != 0 }
func (quietClock) InGoal(s uint16) bool   { return s&qcWrapped != 0 }

func (p quietClock) Interact(a, b *uint16) pp.Delta {
	var d pp.Delta
	if *a&qcLeader != 0 && *b&qcLeader != 0 {
		*b = 0
		d.Leaders = -1
		return d
	}
	for _, x := range []*uint16{a, b} {
		if *x&(qcLeader|qcWrapped) != 0 {
			continue
		}
		*x++
		if int(*x) == p.c {
			if p.wrap {
				*x = qcWrapped
				d.Goal++
			} else {
				*x = 0
			}
		}
	}
	return d
}

func (p quietClock) high(s uint16) bool { return s&(qcLeader|qcWrapped) == 0 && int(s) >= p.hi }

func (p quietClock) Finish(states []uint16, r *pp.Result) {
	var h int64
	for _, s := range states {
		if p.high(s) {
			h++
		}
	}
	r.Add("high", h)
}

func (p quietClock) FinishCounts(counts []pp.StateCount[uint16], r *pp.Result) {
	var h int64
	for _, sc := range counts {
		if p.high(sc.State) {
			h += sc.Count
		}
	}
	r.Add("high", h)
}

// quietStats runs one trial and returns its stopping step and a detail of
// the final configuration; quiet counts the count-engine runs that used
// quiet stretches.
func quietStats[S comparable, P pp.Protocol[S]](newP func() P, n int64, detail string, quiet *int) func(e pp.Engine, seed uint64) (float64, float64) {
	return func(e pp.Engine, seed uint64) (float64, float64) {
		var r pp.Result
		if e == pp.AgentArray {
			r = pp.Run[S](newP(), int(n), seed, pp.Options{})
		} else {
			s, err := pp.NewCountSim[S](newP(), n, seed, pp.Options{}, e)
			if err != nil {
				panic(err)
			}
			pp.SetQuietHotMax(s, n)
			s.Advance(math.MaxInt64)
			r = s.Result()
			if pp.QuietSteps(s) > 0 {
				*quiet++
			}
		}
		if !r.Outcome.Succeeded() {
			panic(fmt.Sprintf("%s: %s %s", r.Protocol, r.Outcome, r.Violation))
		}
		var d float64
		switch v := r.Details.Get(detail).(type) {
		case int64:
			d = float64(v)
		case int:
			d = float64(v)
		case uint8:
			d = float64(v)
		}
		return float64(r.Interactions), d
	}
}

// TestQuietStretchesEquivalent: runs whose long waits are simulated as
// quiet stretches (the degree process in multibatch epochs, hot agents in
// time order, the window's degrees mapped onto the cold states) have the
// agent array's law: the stopping step and an observable of the final
// configuration, compared by their means (Welch z), variances (z from the
// fourth moments) and shapes (chi-square), each at alpha = 1e-3
// (|z| <= 3.29), fixed seeds. The cases: the first wrap of a clock
// (followers leave the quiet states), leaders that eliminate each other
// while the clocks go round (hot-inert pairs), and P_LL at n = 1000,
// whose runs that wait a CountUp period spend most of it in quiet
// stretches (max_epoch: the epoch reached).
func TestQuietStretchesEquivalent(t *testing.T) {
	T := equivTrials()
	cases := []struct {
		name   string
		trials int
		stat   func(quiet *int) func(pp.Engine, uint64) (float64, float64)
		detail string
		waits  bool
	}{
		{"quiet-clock first wrap n=400 c=60", T / 3, func(q *int) func(pp.Engine, uint64) (float64, float64) {
			return quietStats[uint16](func() quietClock { return quietClock{n: 400, c: 60, hot: 3, warm: 5, hi: 15, wrap: true} }, 400, "high", q)
		}, "high", false},
		{"quiet-clock three leaders n=120 c=40", T / 3, func(q *int) func(pp.Engine, uint64) (float64, float64) {
			return quietStats[uint16](func() quietClock { return quietClock{n: 120, c: 40, lead: 3, hot: 2, warm: 4, hi: 20} }, 120, "high", q)
		}, "high", false},
		{"pll n=1000", pllTrials(T), func(q *int) func(pp.Engine, uint64) (float64, float64) {
			return quietStats[uint32](func() *protocols.PLL { p, _ := protocols.NewPLL(1000, 0, false, "prose"); return p }, 1000, "max_epoch", q)
		}, "max_epoch", true},
	}
	for _, c := range cases {
		quiet := 0
		st := c.stat(&quiet)
		var ref, got [2][]float64
		for i := range c.trials {
			a, b := st(pp.AgentArray, pp.TrialSeed(1, i))
			ref[0], ref[1] = append(ref[0], a), append(ref[1], b)
			a, b = st(pp.Batched, pp.TrialSeed(quietBase(), i))
			got[0], got[1] = append(got[0], a), append(got[1], b)
		}
		t.Logf("%s: %d of %d batched runs used quiet stretches", c.name, quiet, c.trials)
		if quiet < c.trials/5 {
			t.Errorf("%s: only %d of %d runs used quiet stretches: the case does not test them", c.name, quiet, c.trials)
		}
		checkSameMoments(t, c.name+", steps, batched with quiet stretches vs agent-array", ref[0], got[0])
		checkSameMoments(t, c.name+", "+c.detail+", batched with quiet stretches vs agent-array", ref[1], got[1])
		if c.waits {
			// The stopping steps of the runs that waited a CountUp period
			// (max_epoch >= 2), the part that quiet stretches simulate.
			var a, b []float64
			for i := range ref[0] {
				if ref[1][i] >= 2 {
					a = append(a, ref[0][i])
				}
				if got[1][i] >= 2 {
					b = append(b, got[0][i])
				}
			}
			checkSameMoments(t, c.name+", steps of the runs that reached epoch 2, batched with quiet stretches vs agent-array", a, b)
		}
	}
}

// pllTrials is the number of P_LL trials of TestQuietStretchesEquivalent:
// ELECT_PP_QUIET_PLL when set (a longer check), else T/30.
func pllTrials(T int) int {
	if v, err := strconv.Atoi(os.Getenv("ELECT_PP_QUIET_PLL")); err == nil && v > 0 {
		return v
	}
	return T / 30
}

// quietBase is the seed base of the batched samples (ELECT_PP_QUIET_BASE,
// default 5000), for reruns with other seeds.
func quietBase() uint64 {
	if v, err := strconv.ParseUint(os.Getenv("ELECT_PP_QUIET_BASE"), 10, 64); err == nil {
		return v
	}
	return 5000
}
