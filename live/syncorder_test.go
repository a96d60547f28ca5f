package live_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/live"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// TestSyncRunsAreTheSimulatorsToTheEvent: a synchronous run on goroutines
// takes the events of a round in the simulator's order of an instant
// (wake-ups, late messages, messages in the order sent, timers in the
// order set), so its record is the simulator's trace line for line, and
// the event limit falls where the simulator's does: the same events (the
// limit itself, where the round barrier used to finish the round and
// count past it: bully under loss:k=1 ran 1,000,001 events against 10^6
// and counted one ANSWER more), messages by type, time and outcome. Every
// synchronous algorithm of the catalog, under faults that hit messages
// (loss, duplicates, delays) and crash a node after a step, with event
// limits that cut rounds in the middle.
func TestSyncRunsAreTheSimulatorsToTheEvent(t *testing.T) {
	cases := []struct {
		alg, topology string
		n             int
		announce      bool
	}{
		{"bully", "", 8, false}, {"bully", "", 13, false}, {"ring-skip", "", 9, false}, {"time-slice", "", 7, false},
		{"slow-fast", "", 6, false}, {"flood-max", "grid:3x4", 12, false}, {"lcr", "", 9, true}, {"hs", "", 10, true},
	}
	faults := []string{"", "loss:k=1", "dup:p=0.2;delay:p=0.2,d=2", "crash:node=3@step=2;loss:p=0.05"}
	limits := []int64{7, 40, 111, 5000} // 5000: most runs end first
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	cut := 0
	for _, c := range cases {
		for _, spec := range faults {
			for _, seed := range seeds {
				for _, limit := range limits {
					name := fmt.Sprintf("%s/n=%d/%q/seed=%d/max-events=%d", c.alg, c.n, spec, seed, limit)
					cfg, err := scenario.Build(scenario.Spec{Algorithm: c.alg, N: c.n, Topology: c.topology, Seed: seed, Faults: spec, Delivery: "sync", Announce: c.announce, Force: true, MaxEvents: limit})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					var simTrace, liveTrace bytes.Buffer
					sc := *cfg
					sc.Trace = &simTrace
					want, err := sim.Run(sc)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					lc := *cfg
					lc.Trace = &liveTrace
					var got *election.Result
					if cfg.Faults != nil {
						got, err = runPlanned(lc)
					} else {
						got, err = live.Run(lc)
					}
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if want.Outcome == election.StepLimit {
						cut++
					}
					if g, w := syncSummary(got), syncSummary(want); g != w {
						t.Errorf("%s:\ngoroutines %s\nsimulator  %s", name, g, w)
						continue
					}
					if g, w := afterHeader(liveTrace.String()), afterHeader(simTrace.String()); g != w {
						t.Errorf("%s: the goroutines' record is not the simulator's trace:\n%s", name, firstDifference(g, w))
					}
				}
			}
		}
	}
	if cut < 50 {
		t.Errorf("the event limit cut %d runs: too few to say anything", cut)
	}
}

// syncSummary is what a synchronous run must have as in the simulator.
func syncSummary(r *election.Result) string {
	s := fmt.Sprintf("%s leader %d events %d messages %v time %g violation %q", r.Outcome, r.LeaderID, r.Events, r.MessagesByType, r.Time, r.Violation)
	if f := r.Faults; f != nil {
		s += fmt.Sprintf("; lost %d dup %d delayed %d crashed %v cause %s verdict %s", f.Lost, f.Duplicated, f.Delayed, f.Crashed, f.Cause, f.Verdict)
	}
	return s
}

// afterHeader is a trace without its header line (which names the runtime).
func afterHeader(trace string) string {
	_, rest, _ := strings.Cut(trace, "\n")
	return rest
}

// firstDifference names the first line where two traces differ.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for k := range max(len(g), len(w)) {
		var a, b string
		if k < len(g) {
			a = g[k]
		}
		if k < len(w) {
			b = w[k]
		}
		if a != b {
			return fmt.Sprintf("line %d:\ngoroutines %s\nsimulator  %s", k+2, a, b)
		}
	}
	return ""
}
