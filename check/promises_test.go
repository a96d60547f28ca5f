package check

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
)

// The tests of issue 31: `elect check` keeps every promise it prints.

// replayedProperty is the property a replayed run reports broken: its
// violation's name, or its outcome (multiple-leaders, no-leader, ...).
func replayedProperty(res *election.Result) string {
	if res.Outcome == election.OutcomeViolation {
		name, _, _ := strings.Cut(res.Violation, ":")
		return name
	}
	return string(res.Outcome)
}

// replayCounterexample writes r's counterexample and replays it on the
// reference engine with the configuration the check had (spec, with the
// violating IDs and initiators, and random delivery for a bag execution,
// where a line names the message it takes).
func replayCounterexample(t *testing.T, r *Report, spec scenario.Spec, delivery string) *election.Result {
	t.Helper()
	var trace bytes.Buffer
	ok, err := r.WriteCounterexample(&trace)
	if err != nil || !ok {
		t.Fatalf("no counterexample written: %v", err)
	}
	spec.IDs = IDsFlag(r.ViolationIDs)
	spec.Delivery = "fifo"
	if delivery == "bag" {
		spec.Delivery = "random"
	}
	if r.ViolationWake != nil {
		var parts []string
		for i, w := range r.ViolationWake {
			if w >= 0 {
				parts = append(parts, strconv.Itoa(i)+"@"+strconv.FormatInt(w, 10))
			}
		}
		spec.Initiators = "nodes:" + strings.Join(parts, ",")
	}
	cfg, err := scenario.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	res, err := reference.Replay(*cfg, &trace)
	if err != nil {
		t.Fatalf("the counterexample does not replay: %v\n%s", err, trace.String())
	}
	return res
}

// TestForcedViolationsReplayToTheSameProperty (issue 31: "elect check
// chang-roberts --n 3 --ids 1,1,1 --force --counterexample cr.jsonl, then
// replay"): every asynchronous algorithm of the catalog, forced off its
// model at n = 3 (equal IDs; bag delivery where it needs FIFO; every set
// of initiators where it needs all to wake), with and without --announce,
// writes for each violation a counterexample that `elect run --replay`
// replays, whole (no message left in flight: the step that breaks the
// property keeps the rest of its handler's effects), to the same
// property.
func TestForcedViolationsReplayToTheSameProperty(t *testing.T) {
	violations := 0
	for _, alg := range catalog.Default().All() {
		if !alg.Model.Async {
			continue
		}
		for _, announce := range []bool{false, true} {
			if announce && alg.Model.Announce != elect.OptionalAnnounce {
				continue
			}
			type forced struct{ ids, delivery, initiators string }
			cases := []forced{{"1,1,1", "fifo", "all"}, {"all", "bag", "all"}, {"1,1,1", "bag", "all"}, {"1,2,1", "fifo", "all"}}
			if alg.Model.WakeUp == elect.AllAtOnce {
				cases = append(cases, forced{"all", "fifo", "subsets"})
			}
			for _, c := range cases {
				spec := scenario.Spec{Algorithm: alg.Name, N: 3, Force: true, Announce: announce, Seed: 1}
				r, err := Run(Options{Spec: spec, IDs: c.ids, Delivery: c.delivery, Initiators: c.initiators, MaxStates: 5000})
				if err != nil {
					continue // a configuration the checker cannot take (a topology of its own, ...)
				}
				if r.Verdict != "violation" {
					continue
				}
				violations++
				res := replayCounterexample(t, r, spec, c.delivery)
				if got := replayedProperty(res); got != r.Property {
					t.Errorf("%s %+v announce=%t: the check says %s, the replay %s (%s)", alg.Name, c, announce, r.Violation, got, res.Violation)
				}
			}
		}
	}
	if violations < 20 {
		t.Errorf("only %d forced violations found", violations)
	}
	t.Logf("%d counterexamples replayed to their property", violations)
}

// TestChangRobertsBoundMutantFailsTheVerdict (issue 31: "a Chang-Roberts
// mutant: FAIL 22 against 10 in the bounds list, verdict ok"): a
// declaration whose bound the algorithm breaks fails the check's verdict
// (bound-failed), with every property holding; Failure names the bound.
func TestChangRobertsBoundMutantFailsTheVerdict(t *testing.T) {
	cr, _ := catalog.Default().Lookup("chang-roberts")
	mutant := *cr
	mutant.Name = "chang-roberts-tight"
	mutant.Bounds = append([]elect.Bound(nil), cr.Bounds...)
	mutant.Bounds = append(mutant.Bounds, elect.Bound{
		Name: "ELECTION messages", Quantity: elect.Messages, Types: []string{"ELECTION"}, Relation: elect.AtMost, Formula: "2n",
		Value: func(c elect.BoundContext) float64 { return float64(2 * c.N) },
	})
	cat, err := catalog.Default().With(&mutant)
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, Options{Spec: scenario.Spec{Catalog: cat, Algorithm: mutant.Name, N: 4}, IDs: "all", Delivery: "fifo"})
	if r.Verdict != "bound-failed" || r.Violation != "" || r.Failure() == nil || !strings.Contains(r.Failure().Error(), "<= 2n") {
		t.Fatalf("verdict %s, failure %v, bounds %+v", r.Verdict, r.Failure(), r.Bounds)
	}
	b := r.Bounds[len(r.Bounds)-1]
	if b.Holds || b.Worst != 10 || b.Bound != 8 || len(b.WorstIDs) != 4 {
		t.Errorf("the broken bound: %+v, want 10 against 8 with its IDs", b)
	}
	if good := run(t, Options{Spec: scenario.Spec{Algorithm: "chang-roberts", N: 4}, IDs: "all", Delivery: "fifo"}); good.Verdict != "ok" {
		t.Errorf("chang-roberts itself: %s", good.Verdict)
	}
}

// TestHumbletReportIsValidJSON (issue 31: "elect check humblet --json fails
// with json: unsupported value: -Inf"): a bound whose value is 0 in some
// configuration leaves every tightness finite.
func TestHumbletReportIsValidJSON(t *testing.T) {
	r := run(t, Options{Spec: scenario.Spec{Algorithm: "humblet", N: 3, Seed: 1}, IDs: "all", Delivery: "fifo"})
	if _, err := json.Marshal(r); err != nil {
		t.Fatalf("%v: bounds %+v", err, r.Bounds)
	}
	for _, b := range r.Bounds {
		if math.IsInf(b.Tightest, 0) || math.IsNaN(b.Tightest) {
			t.Errorf("%s: tightness %v", b.Name, b.Tightest)
		}
	}
	if ratioOf(0, 0) != 1 || ratioOf(3, 0) != math.MaxFloat64 || ratioOf(3, 6) != 0.5 {
		t.Error("ratioOf")
	}
}

// TestDolevKlaweRodehBagPanicIsAViolation (issue 31: "a panic inside
// algorithm code (dolev-klawe-rodeh --delivery bag --force) kills the
// checker"): the panic is the verdict's violation, with a counterexample
// that ends at the panicking step and replays to the same panic.
func TestDolevKlaweRodehBagPanicIsAViolation(t *testing.T) {
	spec := scenario.Spec{Algorithm: "dolev-klawe-rodeh", N: 4, Force: true}
	r := run(t, Options{Spec: spec, IDs: "all", Delivery: "bag"})
	if r.Verdict != "violation" || r.Property != "panic" {
		t.Fatalf("verdict %s, %s", r.Verdict, r.Violation)
	}
	res := replayCounterexample(t, r, spec, "bag")
	if replayedProperty(res) != "panic" {
		t.Errorf("replayed: %s %s", res.Outcome, res.Violation)
	}
	steps := r.Steps()
	if len(steps) == 0 || !strings.HasPrefix(steps[len(steps)-1].Violation, "panic") {
		t.Errorf("the steps do not end with the panic: %+v", steps)
	}
}

// TestNoShortestSearchWithoutViolation (issue 31: "--max-states starts a
// pointless shortest-counterexample search when nothing was violated"): a
// search cut by the state limit is incomplete, with no violation and no
// breadth-first search after it (whose states would be counted).
func TestNoShortestSearchWithoutViolation(t *testing.T) {
	r := run(t, Options{Spec: scenario.Spec{Algorithm: "hs", N: 5}, IDs: "increasing", Delivery: "fifo", MaxStates: 1000, NoReduction: true})
	if r.Verdict != "incomplete" || r.Violation != "" || r.States != 1000 || r.counterexample != nil {
		t.Errorf("verdict %s, violation %q, %d states", r.Verdict, r.Violation, r.States)
	}
}

// TestLCRTwelveIsRefusedBeforeListing (issue 31: "lcr --n 11 and --n 12 run
// out of memory while listing ID assignments"): every assignment of 12 IDs
// (11! up to rotation) is counted, not listed, and refused by the memory
// guard with what to pass instead.
func TestLCRTwelveIsRefusedBeforeListing(t *testing.T) {
	_, err := Run(Options{Spec: scenario.Spec{Algorithm: "lcr", N: 12}, IDs: "all", Delivery: "fifo", MemLimit: 16 << 30, Workers: 2})
	if err == nil || !strings.Contains(err.Error(), "39,916,800 configurations") || !strings.Contains(err.Error(), "--ids LIST") {
		t.Fatalf("%v", err)
	}
	est, err := Estimated(Options{Spec: scenario.Spec{Algorithm: "chang-roberts", N: 5}, IDs: "all", Delivery: "fifo", Initiators: "subsets"})
	if err != nil || est.Configurations != 24*31 {
		t.Errorf("chang-roberts n = 5 with every subset: %+v %v, want 744 configurations", est, err)
	}
	cfgs := run(t, Options{Spec: scenario.Spec{Algorithm: "chang-roberts", N: 5}, IDs: "all", Delivery: "fifo", Initiators: "subsets"}).Configurations
	if cfgs != 744 {
		t.Errorf("listed %d configurations, counted 744", cfgs)
	}
	est, err = Estimated(Options{Spec: scenario.Spec{Algorithm: "slow-fast", N: 3}, IDs: "all", Delivery: "sync", Initiators: "times"})
	listed := run(t, Options{Spec: scenario.Spec{Algorithm: "slow-fast", N: 3}, IDs: "all", Delivery: "sync", Initiators: "times"}).Configurations
	if err != nil || est.Configurations != int64(listed) {
		t.Errorf("slow-fast n = 3, every wake-up round: counted %+v, listed %d", est, listed)
	}
}

// TestStopGivesIncomplete: closing Options.Stop ends a check early with the
// verdict incomplete, Interrupted, and the configurations that finished.
func TestStopGivesIncomplete(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	r := run(t, Options{Spec: scenario.Spec{Algorithm: "lcr", N: 5}, IDs: "all", Delivery: "fifo", Stop: stop})
	if r.Verdict != "incomplete" || !r.Interrupted || r.Finished != 0 || r.Bounds != nil {
		t.Errorf("verdict %s, interrupted %t, finished %d", r.Verdict, r.Interrupted, r.Finished)
	}
}

// TestDrawsReportCutApart (issue 31: "--draws JSON counts executions cut by
// the draw limit as ended: messages_max 8 where no ended run exceeds 6;
// time_min 0"): Itai-Rodeh at n = 3 with 4 draws ends with 5 or 6
// messages (5/9 of the mass), at time 3; the cut executions are reported
// apart, with the rest of the mass.
func TestDrawsReportCutApart(t *testing.T) {
	r := run(t, Options{Spec: scenario.Spec{Algorithm: "itai-rodeh", N: 3}, IDs: "increasing", Delivery: "fifo", Draws: -1, MaxDraws: 4, Trials: -1})
	if r.MessagesMax["total"] != 6 || r.MessagesMin["total"] != 5 || r.TimeMin != 3 || r.TimeMax != 3 {
		t.Errorf("extremes of the ended executions: %v..%v, time %d..%d", r.MessagesMin, r.MessagesMax, r.TimeMin, r.TimeMax)
	}
	p := r.Probabilities
	var cut uint64
	for _, m := range p.CutMessages {
		cut += m.Probability.Num * (p.Cut.Den / m.Probability.Den)
	}
	if len(p.CutMessages) == 0 || cut != p.Cut.Num {
		t.Errorf("cut %v, by messages %+v", p.Cut, p.CutMessages)
	}
}
