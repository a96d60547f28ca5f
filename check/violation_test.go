package check

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
)

// TestReportCarriesTheTypedViolation: the report's property and text are
// those of its typed violation, whose step is the counterexample's length
// and whose nodes are those the last step involved; the step that breaks
// the property carries it too; the JSON report has the name and the text
// it always had.
func TestReportCarriesTheTypedViolation(t *testing.T) {
	cat, err := catalog.Default().With(firstComer, pingPong)
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, Options{Spec: scenario.Spec{Catalog: cat, Algorithm: "first-comer", N: 3}, IDs: "all", Delivery: "fifo"})
	v := r.Broken
	if v.Property != election.PropMultipleLeaders && v.Property != election.PropNoLeader {
		t.Fatalf("first-comer: %+v", v)
	}
	steps := r.Steps()
	if r.Property != v.Property.String() || r.Violation != v.String() || v.Step != int64(len(steps)) || v.Step == 0 {
		t.Errorf("report %q %q, violation %+v, %d steps", r.Property, r.Violation, v, len(steps))
	}
	if v.Property == election.PropMultipleLeaders {
		last := steps[len(steps)-1]
		if last.Broken.Property != v.Property || last.Violation != v.String() || !slices.Equal(v.Nodes, []int32{int32(last.Node)}) {
			t.Errorf("the last step %+v, the violation %+v", last, v)
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"property":"` + v.Property.String() + `","violation":` + mustJSON(t, r.Violation); !strings.Contains(string(b), want) {
		t.Errorf("the JSON report lacks %s:\n%s", want, b)
	}

	r = run(t, Options{Spec: scenario.Spec{Catalog: cat, Algorithm: "ping-pong", N: 3}, IDs: "all", Delivery: "fifo"})
	if r.Broken.Property != election.PropNonTermination || r.Property != "non-termination" || r.Broken.Step != int64(len(r.Steps())) {
		t.Errorf("ping-pong: %+v, %d steps", r.Broken, len(r.Steps()))
	}
}

// TestSynchronousViolationIsTheMonitors: a synchronous check reruns the
// simulator, and reports the property its monitor found, by name (seed
// 003's literal wake-up elects the wrong node: wrong-leader).
func TestSynchronousViolationIsTheMonitors(t *testing.T) {
	r := run(t, Options{Spec: scenario.Spec{Algorithm: "slow-fast", N: 3, Params: map[string]string{"wake": "literal"}}, IDs: "all", Delivery: "sync", Initiators: "times"})
	if r.Broken.Property != election.PropWrongLeader || r.Property != "wrong-leader" || !strings.HasPrefix(r.Violation, "wrong-leader: node ") {
		t.Errorf("slow-fast --wake literal: %q %q %+v", r.Property, r.Violation, r.Broken)
	}
}

// TestRunViolation: how a synchronous run's end reads as a property.
func TestRunViolation(t *testing.T) {
	broken := election.NewViolation(election.PropBadTimer, "node 1 set a timer but cannot receive one", 1)
	cases := []struct {
		r    election.Result
		want string
	}{
		{election.Result{Outcome: election.OutcomeElected, Leaders: 1}, ""},
		{election.Result{Outcome: election.MemoryLimit, Leaders: 1}, ""},
		{election.Result{Outcome: election.NoLeader}, "no-leader: the run ended with 0 leaders"},
		{election.Result{Outcome: election.MultipleLeaders, Leaders: 2}, "multiple-leaders: the run ended with 2 leaders"},
		{election.Result{Outcome: election.Symmetric, Leaders: 4}, "multiple-leaders: the run stayed symmetric: the run ended with 4 leaders"},
		{election.Result{Outcome: election.Symmetric}, "no-leader: the run stayed symmetric: the run ended with 0 leaders"},
		{election.Result{Outcome: election.StepLimit}, "non-termination: the run did not end within 500 events"},
		{election.Result{Outcome: election.OutcomeViolation, Violation: broken.String(), Broken: broken}, broken.String()},
	}
	for _, c := range cases {
		got := ""
		if v := runViolation(&c.r, 500); v != nil {
			got = v.String()
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.r.Outcome, got, c.want)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
