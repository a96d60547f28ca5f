package protocols

import (
	"math"
	"testing"

	"elect/pp"
)

// countEngines are the count-based engines under test.
var countEngines = []pp.Engine{pp.Batched, pp.NullSkipping, pp.Hybrid}

func runCount[S comparable, P pp.Protocol[S]](t testing.TB, p P, n int64, seed uint64, opt pp.Options, e pp.Engine) pp.Result {
	t.Helper()
	r, err := pp.RunCount[S](p, n, seed, opt, e)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCountEnginesAngluinExpectedSteps: the exact expectation (n-1)^2 of
// TestAngluinExpectedStepsToOneLeaderIsNMinus1Squared (same derivation,
// same variance), for every count-based engine, within 4 standard errors.
func TestCountEnginesAngluinExpectedSteps(t *testing.T) {
	const n = 60
	var variance float64
	for k := 2; k <= n; k++ {
		_, v := geometricSteps(float64(k*(k-1)) / float64(n*(n-1)))
		variance += v
	}
	for _, e := range countEngines {
		var s sample
		for _, seed := range seeds(trials(t, 3000, 800)) {
			r := runCount[uint8](t, NewAngluin(n), n, seed, pp.Options{}, e)
			if r.Outcome != pp.Elected || r.Leaders != 1 || r.OneLeaderStep != r.Interactions {
				t.Fatalf("%s seed %d: %+v", e, seed, r)
			}
			s.add(float64(r.Interactions))
		}
		s.within(t, "angluin steps ("+string(e)+")", float64((n-1)*(n-1)), variance, 4)
	}
}

// TestCountEnginesEpidemicExpectedSteps: (n-1) H(n-1) steps until every agent
// holds the maximum (TestEpidemicExpectedStepsUntilAllHoldMax), on the count
// engines (epidemic numbers its agents: n distinct initial states).
func TestCountEnginesEpidemicExpectedSteps(t *testing.T) {
	const n = 100
	var variance float64
	for i := 1; i < n; i++ {
		_, v := geometricSteps(float64(2*i*(n-i)) / float64(n*(n-1)))
		variance += v
	}
	for _, e := range countEngines {
		var s sample
		for _, seed := range seeds(trials(t, 1500, 300)) {
			r := runCount[uint32](t, NewEpidemic(n, "prose"), n, seed, pp.Options{}, e)
			if r.Outcome != pp.Elected {
				t.Fatalf("%s seed %d: %+v", e, seed, r)
			}
			s.add(float64(r.Interactions))
		}
		s.within(t, "epidemic steps ("+string(e)+")", (n-1)*harmonic(n-1), variance, 4)
	}
}

var _ = math.Sqrt
