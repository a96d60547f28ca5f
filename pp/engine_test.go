package pp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/protocols"
)

// TestRunStopsAtTheExactStep: angluin's run stops at the step at which one
// leader remains; rerunning the same seed with one step less must end by the
// step limit with two leaders.
func TestRunStopsAtTheExactStep(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := pp.Run(protocols.NewAngluin(50), 50, seed, pp.Options{})
		if r.Outcome != pp.Elected || r.OneLeaderStep != r.Interactions {
			t.Fatalf("seed %d: %+v", seed, r)
		}
		short := pp.Run(protocols.NewAngluin(50), 50, seed, pp.Options{MaxSteps: r.Interactions - 1})
		if short.Outcome != pp.StepLimit || short.Leaders != 2 || short.Interactions != r.Interactions-1 {
			t.Fatalf("seed %d: one step earlier: %+v", seed, short)
		}
	}
}

// TestRunIsDeterministic: same protocol, n, scheduler and seed give the same
// result, byte for byte.
func TestRunIsDeterministic(t *testing.T) {
	for _, e := range protocols.Catalog {
		for _, s := range []pp.Scheduler{pp.Ordered, pp.Symmetric, pp.WithRepeats} {
			c := protocols.Config{N: 300, Seed: 99, Options: pp.Options{Scheduler: s, TrackStates: true}}
			a, err1 := e.Run(c)
			b, err2 := e.Run(c)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if string(ja) != string(jb) {
				t.Errorf("%s/%v: two runs differ:\n%s\n%s", e.Name, s, ja, jb)
			}
		}
	}
}

// broken is a protocol that breaks the leader promise on purpose: it turns
// followers back into leaders, so the monitor must report a violation.
type broken struct{ lie bool }

func (b *broken) Spec() pp.Spec {
	return pp.Spec{Name: "broken", Goal: pp.GoalOneLeader, Monotone: true, DefaultMaxSteps: 1e6}
}
func (b *broken) Init(i int) uint8 { return 1 }
func (b *broken) Interact(x, y *uint8) pp.Delta {
	switch {
	case *x == 1 && *y == 1:
		*y = 0
		return pp.Delta{Leaders: -1}
	case *x == 0 && *y == 0:
		*y = 1
		if b.lie {
			return pp.Delta{}
		}
		return pp.Delta{Leaders: 1}
	}
	return pp.Delta{}
}
func (b *broken) IsLeader(s uint8) bool { return s == 1 }
func (b *broken) InGoal(uint8) bool     { return false }
func (b *broken) Index(s uint8) uint64  { return uint64(s) }

func TestMonitorReportsIncreaseOfLeaders(t *testing.T) {
	r := pp.Run(&broken{}, 100, 3, pp.Options{})
	if r.Outcome != pp.Violation || !strings.HasPrefix(r.Violation, "leaders-increased") {
		t.Fatalf("got %s %q", r.Outcome, r.Violation)
	}
}

func TestEngineCatchesWrongCounters(t *testing.T) {
	r := pp.Run(&broken{lie: true}, 100, 3, pp.Options{MaxSteps: 2000})
	if r.Outcome != pp.Violation || !strings.HasPrefix(r.Violation, "counter-mismatch") {
		t.Fatalf("got %s %q", r.Outcome, r.Violation)
	}
}

func TestDetailsKeepTheirOrder(t *testing.T) {
	d := pp.Details{{"z", 1}, {"a", "x"}, {"m", true}}
	b, err := json.Marshal(d)
	if err != nil || string(b) != `{"z":1,"a":"x","m":true}` {
		t.Fatalf("%s %v", b, err)
	}
}
