package ppfile_test

import (
	"os"
	"strings"
	"testing"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/ppfile"
)

// The example protocols of examples/protocols, each with the behaviour its
// source proves, on every engine.

func example(t *testing.T, name string, edit ...string) *ppfile.File {
	t.Helper()
	b, err := os.ReadFile("../../examples/protocols/" + name)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for i := 0; i+1 < len(edit); i += 2 {
		if !strings.Contains(text, edit[i]) {
			t.Fatalf("%s has no %q", name, edit[i])
		}
		text = strings.Replace(text, edit[i], edit[i+1], 1)
	}
	f, err := ppfile.Parse(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func outputs(r pp.Result) map[string]int64 {
	m := map[string]int64{}
	for _, d := range r.Details.Get("outputs").(pp.Details) {
		m[d.Key] = d.Value.(int64)
	}
	return m
}

var allEngines = []pp.Engine{pp.AgentArray, pp.Batched, pp.NullSkipping, pp.Auto}

// TestExampleAngluinEndsWithOneLeader: every run ends with exactly one
// agent outputting leader, monitored (no increase, never zero) at every
// step.
func TestExampleAngluinEndsWithOneLeader(t *testing.T) {
	f := example(t, "angluin.yaml")
	if !f.Monotone() {
		t.Fatal("L,L -> L,F is monotone")
	}
	for _, e := range allEngines {
		for seed := uint64(1); seed <= 5; seed++ {
			r, err := ppfile.Simulate(f, 2000, seed, pp.Options{Engine: e})
			if err != nil || r.Outcome != pp.Elected || r.Leaders != 1 || outputs(r)["leader"] != 1 || outputs(r)["follower"] != 1999 {
				t.Errorf("%s seed %d: %s, %d leaders, %v (%v)", e, seed, r.Outcome, r.Leaders, outputs(r), err)
			}
		}
	}
}

// TestExampleEpidemicInfectsAll: every run ends with every agent infected.
func TestExampleEpidemicInfectsAll(t *testing.T) {
	f := example(t, "epidemic.json")
	for _, e := range allEngines {
		for seed := uint64(1); seed <= 5; seed++ {
			r, err := ppfile.Simulate(f, 100000, seed, pp.Options{Engine: e})
			if err != nil || r.Outcome != pp.GoalReached || outputs(r)["infected"] != 100000 {
				t.Errorf("%s seed %d: %s, %v (%v)", e, seed, r.Outcome, outputs(r), err)
			}
		}
	}
}

// TestExampleApproximateMajorityPicksTheMajority: from 60% A at n = 10^5
// (a gap of 2 10^4, far above the sqrt(n log n) ~ 10^3 of Angluin, Aspnes
// and Eisenstat's Theorem 1) every run reaches consensus on A, in
// O(log n) parallel time (measured about 15 at n = 10^4; the bound
// checked is 10 ln n); from 40% A, consensus on B.
func TestExampleApproximateMajorityPicksTheMajority(t *testing.T) {
	const n = 100000
	for _, tc := range []struct {
		edit []string
		want string
	}{
		{nil, "A"},
		{[]string{"{A: 0.6, B: rest}", "{A: 0.4, B: rest}", "stop: {consensus: A}", "stop: {consensus: B}"}, "B"},
	} {
		f := example(t, "approx-majority.yaml", tc.edit...)
		for _, e := range allEngines {
			for seed := uint64(1); seed <= 5; seed++ {
				r, err := ppfile.Simulate(f, n, seed, pp.Options{Engine: e})
				if err != nil || r.Outcome != pp.GoalReached || outputs(r)[tc.want] != n || r.ParallelTime > 10*11.5 {
					t.Errorf("%s seed %d: %s at parallel time %.1f, %v (%v); want consensus on %s", e, seed, r.Outcome, r.ParallelTime, outputs(r), err, tc.want)
				}
			}
		}
	}
}

// TestExampleExactMajorityAlwaysPicksTheMajority: with a majority of one
// agent, every run ends with every agent holding the initial majority's
// opinion (the difference of strong A and strong B agents never changes,
// so the minority's consensus cannot be reached); the run that waits for
// the minority's consensus reaches its step limit instead.
func TestExampleExactMajorityAlwaysPicksTheMajority(t *testing.T) {
	for _, tc := range []struct {
		n      int
		init   string
		engine []pp.Engine
	}{
		{101, "{A.strong: 51, B.strong: 50}", []pp.Engine{pp.AgentArray}},
		{2000, "{A.strong: 1001, B.strong: 999}", []pp.Engine{pp.Batched, pp.NullSkipping}},
	} {
		for _, win := range []string{"A", "B"} {
			init := tc.init
			if win == "B" {
				init = strings.NewReplacer("A.", "B.", "B.", "A.").Replace(init)
			}
			f := example(t, "exact-majority.yaml", "{A.strong: 0.51, B.strong: rest}", init, "stop: {consensus: A}", "stop: {consensus: "+win+"}")
			for _, e := range tc.engine {
				for seed := uint64(1); seed <= 5; seed++ {
					r, err := ppfile.Simulate(f, tc.n, seed, pp.Options{Engine: e})
					if err != nil || r.Outcome != pp.GoalReached || outputs(r)[win] != int64(tc.n) {
						t.Errorf("n=%d majority %s, %s seed %d: %s, %v (%v)", tc.n, win, e, seed, r.Outcome, outputs(r), err)
					}
				}
			}
		}
	}
	// Waiting for the minority: never reached.
	f := example(t, "exact-majority.yaml", "{A.strong: 0.51, B.strong: rest}", "{A.strong: 51, B.strong: 50}", "stop: {consensus: A}", "stop: {consensus: B}")
	r, err := ppfile.Simulate(f, 101, 1, pp.Options{Engine: pp.AgentArray, MaxSteps: 2000000})
	if err != nil || r.Outcome != pp.StepLimit || outputs(r)["A"] != 101 {
		t.Errorf("waiting for the minority: %s, %v (%v)", r.Outcome, outputs(r), err)
	}
}
