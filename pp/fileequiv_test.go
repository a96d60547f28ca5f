package pp_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/ppfile"
	"github.com/electkit/elect/pp/protocols"
)

// Protocols read from a file against the built-in ones (issue 20): the
// file versions of Angluin's protocol and of the epidemic
// (examples/protocols) compile to tables that every engine runs, and their
// runs must have the law of the built-in Go protocols.
//
//   - On the agent array the runs are identical step by step for every
//     seed: the same pairs, the same transitions (the file's initial
//     configuration puts the infected agent last, where the built-in
//     epidemic has its maximum ID, and the two-way epidemic is exactly
//     the spread of the maximum).
//   - On the batched and null-skipping engines the stopping time of the
//     file version is compared with the built-in protocol's on the agent
//     array by the two tests of equiv_test.go (Welch's z on the means and
//     a chi-square on 40 quantile bins, each at alpha = 1e-3), with the
//     same numbers of trials: T = 3000 in CI, 10^5 with ELECT_PP_EQUIV=1.

func loadExample(t *testing.T, name string) *ppfile.File {
	t.Helper()
	f, err := ppfile.Load("../examples/protocols/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// fileStop runs the file protocol on engine e and returns the step at which
// its goal held.
func fileStop(f *ppfile.File, n int) statistic {
	return func(e pp.Engine, seed uint64, _ func(l, n int64) int64) float64 {
		r, err := ppfile.Simulate(f, n, seed, pp.Options{Engine: e})
		if err != nil {
			panic(err)
		}
		if !r.Outcome.Succeeded() {
			panic(string(r.Outcome) + " " + r.Violation)
		}
		return float64(r.Interactions)
	}
}

// TestFileProtocolsIdenticalOnAgentArray: same seed, same run.
func TestFileProtocolsIdenticalOnAgentArray(t *testing.T) {
	ang, epi := loadExample(t, "angluin.yaml"), loadExample(t, "epidemic.json")
	for seed := uint64(1); seed <= 40; seed++ {
		for _, n := range []int{2, 3, 50, 300} {
			want := pp.Run(protocols.NewAngluin(n), n, seed, pp.Options{})
			got, err := ppfile.Simulate(ang, n, seed, pp.Options{Engine: pp.AgentArray})
			if err != nil || got.Interactions != want.Interactions || got.Outcome != pp.Elected || got.Leaders != 1 {
				t.Fatalf("angluin n=%d seed %d: file %d steps (%s), built-in %d", n, seed, got.Interactions, got.Outcome, want.Interactions)
			}
			want = pp.Run(protocols.NewEpidemic(n, "prose"), n, seed, pp.Options{})
			got, err = ppfile.Simulate(epi, n, seed, pp.Options{Engine: pp.AgentArray})
			if err != nil || got.Interactions != want.Interactions || got.Outcome != pp.GoalReached {
				t.Fatalf("epidemic n=%d seed %d: file %d steps (%s), built-in %d", n, seed, got.Interactions, got.Outcome, want.Interactions)
			}
		}
	}
}

// TestFileProtocolsEquivalentToBuiltIn: see the design above.
func TestFileProtocolsEquivalentToBuiltIn(t *testing.T) {
	T := equivTrials()
	ang, epi := loadExample(t, "angluin.yaml"), loadExample(t, "epidemic.json")
	for _, c := range []struct {
		name      string
		builtIn   statistic
		file      statistic
		wantMean  float64 // exact expectation of the stopping step
		wantSteps string
	}{
		// (n-1)^2 steps in expectation (seed 004, Table 1; n(n-1)/(k(k-1))
		// per meeting of two of k leaders).
		{"angluin n=40", stopSteps[uint8](func() *protocols.Angluin { return protocols.NewAngluin(40) }, 40, pp.Options{}), fileStop(ang, 40), 39 * 39, "(n-1)^2"},
		// Two-way epidemic from one agent: with k infected, a step infects
		// with probability 2k(n-k)/(n(n-1)): sum_k n(n-1)/(2k(n-k)) =
		// (n-1) H(n-1) steps (seed 000, Theorem 1).
		{"epidemic n=24", stopSteps[uint32](func() *protocols.Epidemic { return protocols.NewEpidemic(24, "prose") }, 24, pp.Options{}), fileStop(epi, 24), 23 * harmonic(23), "(n-1) H(n-1)"},
	} {
		ref := sampleStat(c.builtIn, pp.AgentArray, T, 1, nil)
		for k, e := range []pp.Engine{pp.Batched, pp.NullSkipping} {
			got := sampleStat(c.file, e, T, uint64(3000+k), nil)
			checkSameLaw(t, fmt.Sprintf("%s: file on %s vs built-in on agent-array", c.name, e), T, ref, got)
			// And its mean against the exact expectation, within 4 SE.
			m, v := meanVar(got)
			if se := math.Sqrt(v / float64(T)); math.Abs(m-c.wantMean) > 4*se {
				t.Errorf("%s on %s: mean %.1f steps, %s = %.1f (SE %.1f)", c.name, e, m, c.wantSteps, c.wantMean, se)
			}
		}
	}
}

func harmonic(k int) float64 {
	h := 0.0
	for i := 1; i <= k; i++ {
		h += 1 / float64(i)
	}
	return h
}

// TestStatesSeenCountsStatesReached (issue 21): on the count engines
// states_seen counted every state that a computed transition discovered,
// and null-skipping computes the transitions of every pair of live states,
// reached or not. Here one agent starts in S and the others in B; S and
// then A spread; the rule S,S -> C,C needs two agents in S, which never
// happens, so C is never reached. Every engine must report three states.
func TestStatesSeenCountsStatesReached(t *testing.T) {
	f, err := ppfile.Parse("s.yaml", []byte(`name: lone
states: [S, A, B, C]
initial: {S: 1, B: rest}
rules:
  - [S, S, C, C]      # needs two agents in S: never happens
  - [S, B, S, A]
  - [A, B, A, A]
output: {S: yes, A: yes, B: no, C: no}
stop: {consensus: yes}
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []pp.Engine{pp.AgentArray, pp.Batched, pp.NullSkipping, pp.Auto} {
		for seed := uint64(1); seed <= 5; seed++ {
			r, err := ppfile.Simulate(f, 5000, seed, pp.Options{Engine: e, TrackStates: true})
			if err != nil || r.Outcome != pp.GoalReached || r.StatesSeen != 3 {
				t.Errorf("%s seed %d: %s, states_seen %d; want goal-reached and 3 (S, A, B)", e, seed, r.Outcome, r.StatesSeen)
			}
		}
	}
	// In distribution: the number of distinct states the epidemic's run
	// meets (IDs with and without the leader bit) is random; the count
	// engines must give it the agent array's law (tests of equiv_test.go),
	// including when the last batch is cut at the goal's step.
	T := equivTrials() / 3
	st := func(e pp.Engine, seed uint64, _ func(l, n int64) int64) float64 {
		r, err := pp.Simulate(protocols.NewEpidemic(24, "prose"), 24, seed, pp.Options{Engine: e, TrackStates: true})
		if err != nil {
			panic(err)
		}
		return float64(r.StatesSeen)
	}
	checkCountEngines(t, "epidemic n=24 states_seen", st, T, 5000, []pp.Engine{pp.Batched, pp.NullSkipping})
}

// twoCounters counts, in each agent, its interactions as initiator (a) and
// as responder (b), each capped at 7; the goal is the first agent with
// a = 3. Its runs meet many distinct (a, b) states, so many states are
// first reached in the batch that holds the goal's step, some of them
// after that step: the batched engine must not count those.
type twoCounters struct{}

func (twoCounters) Spec() pp.Spec {
	return pp.Spec{Name: "two-counters", Goal: pp.GoalCount, Target: 1, StateSpace: 64, DefaultMaxSteps: math.MaxInt64}
}
func (twoCounters) Init(int) uint8 { return 0 }
func (twoCounters) Census(n int64) []pp.StateCount[uint8] {
	return []pp.StateCount[uint8]{{State: 0, Count: n}}
}
func (twoCounters) Interact(x, y *uint8) pp.Delta {
	var d pp.Delta
	if a := *x & 7; a < 7 {
		*x++
		if a+1 == 3 {
			d.Goal = 1
		}
	}
	if b := *y >> 3; b < 7 {
		*y += 8
	}
	return d
}
func (twoCounters) IsLeader(uint8) bool  { return false }
func (twoCounters) InGoal(s uint8) bool  { return s&7 >= 3 }
func (twoCounters) Index(s uint8) uint64 { return uint64(s) }

// TestStatesSeenExcludesStatesAfterTheStop: states_seen of two-counters
// at n = 400 has the agent array's law on the count engines.
// Without the retraction of the states first reached after the stop, the
// batched engine's mean is 0.2 sd too high (z = 4.4 at T = 1000).
func TestStatesSeenExcludesStatesAfterTheStop(t *testing.T) {
	T := equivTrials()
	st := func(e pp.Engine, seed uint64, _ func(l, n int64) int64) float64 {
		r, err := pp.Simulate(twoCounters{}, 400, seed, pp.Options{Engine: e, TrackStates: true})
		if err != nil || r.Outcome != pp.NoLeader {
			panic(fmt.Sprint(err, r.Outcome))
		}
		return float64(r.StatesSeen)
	}
	checkCountEngines(t, "two-counters n=400 states_seen", st, T, 6000, []pp.Engine{pp.Batched, pp.NullSkipping})
}
