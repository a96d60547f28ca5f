package check

import (
	"math"
	"testing"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/protocols"
)

func checkPopulation(t *testing.T, name string, n int, params map[string]string) *PopulationReport {
	t.Helper()
	e, ok := LookupPopulation(name)
	if !ok {
		t.Fatalf("no population protocol %s", name)
	}
	r, err := e.Run(PopulationOptions{Protocol: name, N: n, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAngluinConfigurationGraph: Angluin's protocol from n leaders has the
// configurations "k leaders" for k = n..1: the first (no follower yet) has
// only the step down, the others a null self-loop too, the last only the
// self-loop: 2n-2 transitions; one bottom component, {L:1 F:n-1}, reached
// with probability 1 along n-1 interactions.
func TestAngluinConfigurationGraph(t *testing.T) {
	for n := 2; n <= 10; n++ {
		r := checkPopulation(t, "angluin", n, nil)
		if r.Verdict != "ok" || r.Configurations != int64(n) || r.Transitions != int64(2*n-2) {
			t.Errorf("n = %d: %s, %d configurations, %d transitions (want ok, %d, %d)", n, r.Verdict, r.Configurations, r.Transitions, n, 2*n-2)
		}
		if len(r.Bottoms) != 1 || r.Bottoms[0].Leaders != 1 || math.Abs(r.CorrectProbability-1) > 1e-9 || len(r.Bottoms[0].Path) != n-1 {
			t.Errorf("n = %d: bottoms %+v, P(correct) = %g", n, r.Bottoms, r.CorrectProbability)
		}
	}
}

// TestEpidemicStabilises: every fair execution of the epidemic (seed 000,
// Algorithm 2) ends with every agent holding the maximum ID and exactly
// one leader, for n <= 6; its leaders never increase and never vanish.
func TestEpidemicStabilises(t *testing.T) {
	for n := 2; n <= 6; n++ {
		r := checkPopulation(t, "epidemic", n, nil)
		if r.Verdict != "ok" || len(r.Bottoms) != 1 || math.Abs(r.CorrectProbability-1) > 1e-9 {
			t.Errorf("n = %d: %s %s, bottoms %+v", n, r.Verdict, r.Violation, r.Bottoms)
		}
	}
}

// TestApproximateMajorityExactly: approximate majority (3 states) always
// reaches a consensus, but with few agents sometimes the minority's: two
// bottom components, all A and all B, so the check reports a violation.
// The exact probability of the correct one, computed over the graph, must
// agree with the simulator's rate over 4000 runs within 4 standard errors.
func TestApproximateMajorityExactly(t *testing.T) {
	const n, a = 10, 6
	r := checkPopulation(t, "approx-majority", n, map[string]string{"a": "6"})
	if r.Verdict != "violation" || len(r.Bottoms) != 2 {
		t.Fatalf("%s, bottoms %+v", r.Verdict, r.Bottoms)
	}
	for _, b := range r.Bottoms {
		if b.Configurations != 1 || b.Correct != (b.Goal == n) {
			t.Errorf("bottom %+v", b)
		}
	}
	p := r.CorrectProbability
	if p <= 0.5 || p >= 1 {
		t.Fatalf("P(all A) = %g from 6 A against 4 B", p)
	}
	const trials = 4000
	hits := 0
	for s := range uint64(trials) {
		res := pp.Run(protocols.NewApproxMajority(n, a), n, s+1, pp.Options{})
		if res.Outcome != pp.StepLimit {
			hits++
		}
	}
	rate := float64(hits) / trials
	se := math.Sqrt(p * (1 - p) / trials)
	if math.Abs(rate-p) > 4*se {
		t.Errorf("simulated rate %.4f, exact %.4f (4 standard errors: %.4f)", rate, p, 4*se)
	}
	t.Logf("P(all A) exactly %.6f over %d configurations; simulated %.4f ± %.4f", p, r.Configurations, rate, se)
}
