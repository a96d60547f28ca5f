package protocols

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect/pp"
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
	variance := angluinStepsVariance(n)
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
	variance := epidemicStepsVariance(n, float64(n*(n-1)))
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

// TestBatchedExecutesExactlyTheInteractionsItReports: with the counter
// protocol (K = 0) every interaction adds one to exactly one agent's
// counter, so after a run of T reported interactions the counters of all
// agents sum to T exactly. Checked on the batched engine (and the hybrid)
// at several n and step limits, including limits that cut a batch, for many
// seeds; Advance is also called in odd-sized chunks.
func TestBatchedExecutesExactlyTheInteractionsItReports(t *testing.T) {
	for _, e := range []pp.Engine{pp.Batched, pp.Hybrid} {
		for _, n := range []int64{2, 3, 10, 1000, 1 << 16} {
			for seed := uint64(1); seed <= 5; seed++ {
				limit := int64(7*n + int64(seed)*13)
				sim, err := pp.NewCountSim[uint32](&Counter{}, n, seed, pp.Options{MaxSteps: limit}, e)
				if err != nil {
					t.Fatal(err)
				}
				for !sim.Stopped() && sim.Steps() < limit {
					sim.Advance(int64(seed)*97 + 1)
				}
				var sum, agents int64
				for _, sc := range sim.Counts() {
					sum += int64(sc.State) * sc.Count
					agents += sc.Count
				}
				r := sim.Result()
				if sim.Steps() != limit || r.Interactions != limit || sum != limit || agents != n {
					t.Fatalf("%s n=%d seed=%d: reported %d (result %d) interactions, counters sum to %d, %d agents", e, n, seed, sim.Steps(), r.Interactions, sum, agents)
				}
			}
		}
	}
}

// TestCountEnginesStopAtTheExactStep: a count engine stops at the step at
// which one leader remains, inside a batch when that is where it happens:
// the configuration it reports at that step (rebuilt from the batch's
// replay) holds exactly one leader, the counters agree with a recount (no
// counter-mismatch violation), and the stopping steps are spread over the
// positions inside batches rather than at batch ends (at n = 5000 a batch
// is ~44 interactions, so a stop rounded to batch ends would leave the
// result's one_leader_step equal to the step count only after a collision;
// the exact law of the stopping time is tested by
// TestCountEnginesAngluinExpectedSteps and the equivalence tests).
func TestCountEnginesStopAtTheExactStep(t *testing.T) {
	for _, e := range countEngines {
		for seed := uint64(1); seed <= 20; seed++ {
			sim, err := pp.NewCountSim[uint8](NewAngluin(5000), 5000, seed, pp.Options{}, e)
			if err != nil {
				t.Fatal(err)
			}
			sim.Advance(math.MaxInt64)
			r := sim.Result()
			var leaders, agents int64
			for _, sc := range sim.Counts() {
				agents += sc.Count
				if sc.State == angluinL {
					leaders += sc.Count
				}
			}
			if r.Outcome != pp.Elected || r.OneLeaderStep != r.Interactions || leaders != 1 || agents != 5000 {
				t.Fatalf("%s seed %d: %+v, configuration with %d leaders among %d agents", e, seed, r, leaders, agents)
			}
		}
	}
}

// TestCountEnginesHugeN: the count engines run anonymous protocols at
// n = 2^50 (no per-agent memory) and keep the counts consistent. From n
// leaders, a step is a meeting of two leaders with probability
// L(L-1)/(n(n-1)) >= (1 - T/n)^2, so in T << n steps almost every step
// eliminates one leader: the loss is within T(1 - (1 - T/n)^2) <= 2T^2/n of
// T (null-skipping, one event per non-null step, runs fewer steps).
func TestCountEnginesHugeN(t *testing.T) {
	const n = 1 << 50
	for _, e := range countEngines {
		steps := int64(1 << 40)
		if e == pp.NullSkipping {
			steps = 100000
		}
		r := runCount[uint8](t, NewAngluin(n), n, 1, pp.Options{MaxSteps: steps}, e)
		if r.Outcome != pp.StepLimit || r.Interactions != steps || r.Engine == "" {
			t.Fatalf("%s: %+v", e, r)
		}
		lost := float64(n - int64(r.Leaders))
		slack := 2*float64(steps)*float64(steps)/n + 10*math.Sqrt(float64(steps))
		if lost > float64(steps) || lost < float64(steps)-slack {
			t.Errorf("%s: %v leaders lost in %d steps (expected within %v below)", e, lost, steps, slack)
		}
	}
}

// TestCountEnginesReportProtocolDetails (issue 21): the count engines give a
// protocol's details too (they used to drop every detail of pll, epidemic
// and numbered-known): the same keys as the agent array with the same
// parameter values, except the figures that only the agent array can
// record (event steps and per-interaction side effects), listed here.
func TestCountEnginesReportProtocolDetails(t *testing.T) {
	agentOnly := map[string][]string{
		"pll":      {"epoch2_step", "epoch3_step", "leaders_leaving_epoch1", "leaders_leaving_epoch2", "backup_needed"},
		"pll-sym":  {"epoch2_step", "epoch3_step", "leaders_leaving_epoch1", "leaders_leaving_epoch2", "backup_needed"},
		"epidemic": {"leader_conversions", "leader_follower_meetings"},
	}
	for _, e := range Catalog {
		if e.Name == "epidemic-term" { // agent array only
			continue
		}
		c := Config{N: 1000, Seed: 3, Options: pp.Options{Engine: pp.AgentArray}}
		ref, err := e.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		c.Options.Engine = pp.Batched
		got, err := e.Run(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ref.Details {
			if slices.Contains(agentOnly[e.Name], d.Key) {
				if got.Details.Get(d.Key) != nil {
					t.Errorf("%s: %s on the batched engine, which cannot record it", e.Name, d.Key)
				}
				continue
			}
			v := got.Details.Get(d.Key)
			if v == nil {
				t.Errorf("%s: detail %s missing on the batched engine", e.Name, d.Key)
				continue
			}
			if d.Key != "max_epoch" && v != d.Value {
				t.Errorf("%s: %s = %v on the batched engine, %v on the agent array", e.Name, d.Key, v, d.Value)
			}
		}
		if strings.HasPrefix(e.Name, "pll") {
			if me := got.Details.Get("max_epoch").(uint8); me < 1 || me > 3 || got.Details.Get("m") != 10 {
				t.Errorf("%s: max_epoch %d, m %v", e.Name, me, got.Details.Get("m"))
			}
		}
	}
}
