package pp_test

import (
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
			r := compare(ref, got)
			t.Logf("%s: file on %s vs built-in on agent-array (T=%d): mean shift %+.4f sd, z = %+.2f, chi2 = %.1f (df %d, p = %.3g)", c.name, e, T, r.effect, r.z, r.chi2, r.df, r.pChi)
			if math.Abs(r.z) > zCrit || r.pChi < alphaChi2 {
				t.Errorf("%s: the file protocol on %s differs from the built-in one: z = %.2f, chi-square p = %.3g", c.name, e, r.z, r.pChi)
			}
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
