package runner

import (
	"strings"
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
)

// TestRunOnEveryEngine: the same spec on the simulator, the reference
// engine and goroutines (with a fault schedule, which Run resolves for the
// goroutine runtime) gives the same outcome, leader, counts and fault
// report; the record names the runtime that ran it.
func TestRunOnEveryEngine(t *testing.T) {
	spec := scenario.Spec{Algorithm: "lcr", N: 8, Seed: 3, Faults: "dup:msg=5;loss:msg=12"}
	var want *scenario.Record
	for _, runtime := range []string{"sim", "reference", "goroutines"} {
		s := spec
		s.Runtime = runtime
		rec, err := Run(s)
		if err != nil {
			t.Fatalf("%s: %v", runtime, err)
		}
		if wantRuntime := runtime; rec.Runtime != wantRuntime && (runtime != "sim" || rec.Runtime != "") {
			t.Errorf("%s: the record says runtime %q", runtime, rec.Runtime)
		}
		if rec.Faults != "dup:msg=5;loss:msg=12" || rec.Result.Faults == nil || rec.Result.Faults.Verdict == election.VerdictNone {
			t.Fatalf("%s: faults %q, report %+v: the schedule must hit", runtime, rec.Faults, rec.Result.Faults)
		}
		if want == nil {
			want = rec
			continue
		}
		f, w := rec.Result.Faults, want.Result.Faults
		if rec.Outcome != want.Outcome || rec.LeaderID != want.LeaderID || rec.Messages != want.Messages ||
			f.Lost != w.Lost || f.Duplicated != w.Duplicated || f.Verdict != w.Verdict {
			t.Errorf("%s: %s leader %d messages %d faults %+v; sim: %s leader %d messages %d faults %+v",
				runtime, rec.Outcome, rec.LeaderID, rec.Messages, f, want.Outcome, want.LeaderID, want.Messages, w)
		}
	}
}

// TestRunRefusesWhatItCannotRun: a goroutine run with a delivery model of
// the simulator only is refused before its schedule is resolved.
func TestRunRefusesWhatItCannotRun(t *testing.T) {
	_, err := Run(scenario.Spec{Algorithm: "lcr", N: 8, Seed: 3, Faults: "loss:msg=3", Delivery: "random", Runtime: "goroutines"})
	if err == nil || !strings.Contains(err.Error(), "exists only in the simulator") {
		t.Fatalf("a goroutine run under random delivery: %v, want a refusal", err)
	}
}
