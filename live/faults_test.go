package live_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faultplan/resolve"
	"github.com/electkit/elect/live"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// faultCases are runs whose outcome does not depend on the interleaving:
// LCR (every node initiates on FIFO links; a node's one incoming link fixes
// the order of its inputs, so each node's k-th message is the same on every
// runtime) and the synchronous bully and ring-skip behind the round
// barrier, under fault schedules that hit messages by number, at random,
// by partition, and crash nodes after a step or at a time. A synchronous
// node takes its inputs of a round in the simulator's sending order on
// goroutines too (TestSyncRunsAreTheSimulatorsToTheEvent), so a crash after
// any step falls alike.
var faultCases = []struct {
	alg    string
	n      int
	faults string
	ids    string // "": random
}{
	{"lcr", 8, "loss:msg=3", ""},
	{"lcr", 8, "loss:msg=5", ""},
	{"lcr", 8, "loss:k=2", ""},
	{"lcr", 8, "dup:msg=5;loss:msg=12", ""},
	{"lcr", 8, "loss:p=0.1", ""},
	{"lcr", 8, "dup:p=0.2", ""},
	// A late message may be overtaken, on goroutines as in the
	// simulator (delay_test.go).
	{"lcr", 8, "delay:msg=2,d=3", "increasing"},
	{"lcr", 8, "partition:0-3|4-7@1-3", ""},
	{"lcr", 8, "crash:node=4@step=1", ""},
	{"lcr", 8, "crash:node=2@step=2;loss:msg=9", ""},
	{"lcr", 12, "crash:k=2", ""},
	{"bully", 8, "crash:node=7@step=1", ""},
	{"bully", 8, "crash:node=3@step=2;crash:node=5@step=1", ""},
	{"bully", 8, "crash:k=3,by=3", ""},
	{"bully", 8, "crash:node=3@t=2;loss:msg=4", ""},
	{"ring-skip", 8, "crash:node=7@step=1", ""},
	{"ring-skip", 8, "crash:k=2", ""},
	{"ring-skip", 8, "crash:node=2@step=1;dup:msg=6;delay:msg=9,d=2", ""},
}

// faultSummary is what must agree between runtimes: the outcome, the
// leader, the counts, and the fault report. A runtime with real timing
// reports its faults in the order they happened there, so the crashed
// nodes are compared as a set, and the cause (the first fault) when only
// one fault happened, and no crash was timed (a crash's time is then the
// node's own clock, its causal depth at its last step). The verdict is
// compared always: a late message lengthens the causal depth as it does
// the simulator's time (faults.go), so a time bound it breaks there
// breaks on goroutines too.
func faultSummary(r *election.Result, exact bool) string {
	f := r.Faults
	if f == nil {
		return fmt.Sprintf("%s leader %d messages %d, no fault report", r.Outcome, r.LeaderID, r.Messages)
	}
	crashed := slices.Sorted(slices.Values(f.Crashed))
	cause, verdict := "", f.Verdict
	if exact || f.Lost+f.Duplicated+f.Delayed+int64(len(f.Crashed)) == 1 {
		cause = f.Cause
	}
	return fmt.Sprintf("%s leader %d messages %d; injected %s lost %d dup %d delayed %d crashed %v undecided %d verdict %s; %s",
		r.Outcome, r.LeaderID, r.Messages, f.Injected, f.Lost, f.Duplicated, f.Delayed, crashed, f.Undecided, verdict, cause)
}

// noCause is a summary without its cause.
func noCause(s string) string { return s[:strings.LastIndex(s, ";")] }

// timedCrash reports whether a specification crashes a node at a time.
func timedCrash(spec string) bool {
	for c := range strings.SplitSeq(spec, ";") {
		if strings.HasPrefix(c, "crash:") && !strings.Contains(c, "@step=") {
			return true
		}
	}
	return false
}

// TestFaultsAsInTheSimulator runs each case on the simulator and on
// goroutines (five seeds each): the same outcome, leader, counts and fault
// report; and the goroutine run's record replays on the reference engine
// to the same result.
func TestFaultsAsInTheSimulator(t *testing.T) {
	seeds := []uint64{1, 2, 3, 4, 5}
	if testing.Short() {
		seeds = seeds[:2]
	}
	hit := 0
	for _, c := range faultCases {
		for _, seed := range seeds {
			name := fmt.Sprintf("%s/n=%d/%s/seed=%d", c.alg, c.n, c.faults, seed)
			cfg, err := scenario.Build(scenario.Spec{Algorithm: c.alg, N: c.n, Seed: seed, Faults: c.faults, IDs: c.ids})
			if err != nil {
				t.Fatal(err)
			}
			want, err := sim.Run(*cfg)
			if err != nil {
				t.Fatal(err)
			}
			var rec bytes.Buffer
			lc := *cfg
			lc.Trace = &rec
			got, err := runPlanned(lc)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if g, w := faultSummary(got, false), faultSummary(want, false); g != w && (!timedCrash(c.faults) || noCause(g) != noCause(w)) {
				t.Errorf("%s:\ngoroutines %s\nsimulator  %s", name, g, w)
				continue
			}
			if want.Faults.Verdict != election.VerdictNone {
				hit++
			}
			// The record replays, without --faults: its lines say what
			// happened.
			rc := *cfg
			rc.Faults = nil
			again, err := reference.Replay(rc, bytes.NewReader(rec.Bytes()))
			if err != nil {
				t.Fatalf("%s: replaying the record: %v", name, err)
			}
			if g, w := faultSummary(again, true), faultSummary(got, true); g != w {
				t.Errorf("%s:\nreplay     %s\ngoroutines %s", name, g, w)
			}
		}
	}
	// The schedules must have hit something in most runs, or the test
	// says nothing.
	if total := len(faultCases) * len(seeds); hit < total*3/4 {
		t.Errorf("faults hit %d runs of %d", hit, total)
	}
}

// TestFaultRecordNamesTheFaults: a goroutine run's record names the lost,
// duplicated and delayed messages (with their numbers) and the crashed node,
// as the simulator's trace does.
func TestFaultRecordNamesTheFaults(t *testing.T) {
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "lcr", N: 8, Seed: 3, Faults: "loss:msg=3;dup:msg=5;delay:msg=6,d=2;crash:node=1@step=2"})
	if err != nil {
		t.Fatal(err)
	}
	lines := func(run func(election.Config) (*election.Result, error)) []string {
		var buf bytes.Buffer
		c := *cfg
		c.Trace = &buf
		if _, err := run(c); err != nil {
			t.Fatal(err)
		}
		var out []string
		for l := range strings.SplitSeq(buf.String(), "\n") {
			for _, ev := range []string{`"ev":"lose"`, `"ev":"dup"`, `"ev":"delay"`, `"ev":"crash"`} {
				if strings.Contains(l, ev) {
					out = append(out, l[strings.Index(l, `"ev"`):]) // without the time
				}
			}
		}
		slices.Sort(out)
		return out
	}
	got, want := lines(runPlanned), lines(sim.Run)
	if len(want) != 4 || !slices.Equal(got, want) {
		t.Errorf("goroutines' fault lines:\n%s\nsimulator's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestFaultPanicIsAViolation: a fault drives Dolev-Klawe-Rodeh off its
// model (a lost message leaves a node a message out of turn), and its code
// panics: on goroutines the run ends with the violation "panic", as in the
// simulator, instead of the process.
func TestFaultPanicIsAViolation(t *testing.T) {
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "dolev-klawe-rodeh", N: 8, Seed: 1, Faults: "loss:k=1"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := sim.Run(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runPlanned(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome != election.OutcomeViolation || got.Violation != want.Violation || !strings.HasPrefix(got.Violation, "panic: node 6 panicked") {
		t.Errorf("goroutines: %s %q; simulator: %s %q", got.Outcome, got.Violation, want.Outcome, want.Violation)
	}
}

// runPlanned runs cfg on goroutines as the places that start runs do: its
// fault schedule resolved first, and handed over.
func runPlanned(cfg election.Config) (*election.Result, error) {
	plan, err := resolve.Faults(cfg)
	if err != nil {
		return nil, err
	}
	return live.RunWith(cfg, live.Options{Plan: plan})
}

// TestFaultsNeedAResolvedPlan: the runtime resolves no schedule itself (it
// links no engine): a run with faults and no plan is refused, saying so,
// and a plan for another number of nodes too.
func TestFaultsNeedAResolvedPlan(t *testing.T) {
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "lcr", N: 8, Seed: 3, Faults: "loss:msg=3"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := live.Run(*cfg); err == nil || !strings.Contains(err.Error(), "no resolved plan") {
		t.Errorf("a run with faults and no plan: %v, want a refusal naming the missing plan", err)
	}
	other, err := scenario.Build(scenario.Spec{Algorithm: "lcr", N: 6, Seed: 3, Faults: "loss:msg=3"})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := resolve.Faults(*other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := live.RunWith(*cfg, live.Options{Plan: plan}); err == nil || !strings.Contains(err.Error(), "for 6 nodes, the run has 8") {
		t.Errorf("a plan for 6 nodes on 8: %v, want a refusal", err)
	}
}
