package election

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/electkit/elect/trace"
)

// TestViolationTextIsNameColonDetail: a violation's text is its property's
// name, ": ", and its detail, the form every output has always had; an
// algorithm's own check puts its own name first.
func TestViolationTextIsNameColonDetail(t *testing.T) {
	cases := []struct {
		v    Violation
		want string
	}{
		{NewViolation(PropMultipleLeaders, "node 2 (ID 3) is the second node elected", 2), "multiple-leaders: node 2 (ID 3) is the second node elected"},
		{NewViolation(PropNonTermination, "an execution returns to a state it has been in, and can go round for ever"), "non-termination: an execution returns to a state it has been in, and can go round for ever"},
		{NewViolation(PropPanic, PanicMessage(6, "boom"), 6), "panic: node 6 panicked: boom"},
		{(&OwnCheck{Owner: "p", Name: "wrong-declarer"}).Violation("an agent other than the maximum declared itself leader"), "wrong-declarer: an agent other than the maximum declared itself leader"},
		{Violation{}, ""},
	}
	for _, c := range cases {
		if got := c.v.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.v, got, c.want)
		}
	}
	if v := NewViolation(PropBadPort, "x", 4).AtStep(7); v.Step != 7 || len(v.Nodes) != 1 || v.Nodes[0] != 4 || !v.Found() {
		t.Errorf("AtStep: %+v", v)
	}
}

// TestOutcomesThatAreProperties: the outcomes no-leader and
// multiple-leaders are the properties of the same names, spelled once.
func TestOutcomesThatAreProperties(t *testing.T) {
	for _, o := range []Outcome{NoLeader, MultipleLeaders} {
		if p := o.Property(); p.String() != string(o) {
			t.Errorf("outcome %s: property %v", o, p)
		}
	}
	for _, o := range []Outcome{OutcomeElected, Symmetric, StepLimit, Stopped, OutcomeViolation, OutcomeFault, OutcomeGoalReached} {
		if p := o.Property(); p != PropNone {
			t.Errorf("outcome %s is property %v, want none", o, p)
		}
	}
}

// TestKinds: the properties that only the end of a run can break are the
// liveness ones.
func TestKinds(t *testing.T) {
	liveness := map[Property]bool{PropNoLeader: true, PropWrongLeaderID: true, PropNotInformed: true, PropDeadlockUndecided: true, PropNonTermination: true, PropFaultTolerance: true}
	for p := PropNone + 1; p < numProperties; p++ {
		if want := liveness[p]; (p.Kind() == Liveness) != want {
			t.Errorf("%s: kind %s", p, p.Kind())
		}
	}
}

// TestPropertyJSON: a Property field writes its name and reads it back;
// an unknown name is refused.
func TestPropertyJSON(t *testing.T) {
	type rec struct {
		P Property `json:"property,omitempty"`
	}
	for p := PropNone; p < numProperties; p++ {
		b, err := json.Marshal(rec{p})
		if err != nil {
			t.Fatal(err)
		}
		want := `{"property":"` + p.String() + `"}`
		if p == PropNone {
			want = `{}`
		}
		if string(b) != want {
			t.Errorf("%v: %s, want %s", p, b, want)
		}
		var back rec
		if err := json.Unmarshal(b, &back); err != nil || back.P != p {
			t.Errorf("%s read back as %v, %v", b, back.P, err)
		}
	}
	var r rec
	if err := json.Unmarshal([]byte(`{"property":"leader-eaten"}`), &r); err == nil || !strings.Contains(err.Error(), `"leader-eaten" is not a property`) {
		t.Errorf("an unknown property: %v", err)
	}
}

// TestTraceViolation: a trace's violation line reads as the violation the
// Tracer wrote.
func TestTraceViolation(t *testing.T) {
	v, err := TraceViolation(&trace.Event{Ev: "violation", Name: "decision-changed", Message: "node 1 changed its decision from elected to not-elected at time 3"})
	if err != nil || v.Property != PropDecisionChanged || v.String() != "decision-changed: node 1 changed its decision from elected to not-elected at time 3" {
		t.Errorf("%+v, %v", v, err)
	}
	for _, name := range []string{"", "violation", "algorithm-check", "Bad-Port"} {
		if _, err := TraceViolation(&trace.Event{Ev: "violation", Name: name}); err == nil {
			t.Errorf("%q read as a violation", name)
		}
	}
}

// FuzzPropertyText: reading any text as a property either fails or gives
// the property whose name it is, which writes the same text.
func FuzzPropertyText(f *testing.F) {
	for _, p := range Properties() {
		f.Add(p.Name)
	}
	f.Add("")
	f.Add("no-leader: x")
	f.Fuzz(func(t *testing.T, s string) {
		var p Property
		if err := p.UnmarshalText([]byte(s)); err != nil {
			return
		}
		b, _ := p.MarshalText()
		if string(b) != s {
			t.Fatalf("%q read as %v, written %q", s, p, b)
		}
		v, err := TraceViolation(&trace.Event{Ev: "violation", Name: s, Message: "m"})
		if err == nil && (v.Property != p || v.String() != s+": m") {
			t.Fatalf("%q: trace violation %+v", s, v)
		}
	})
}
