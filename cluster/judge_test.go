package cluster

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
)

// TestJudgeReportsABrokenPropertyAsTheMonitorDoes: a node whose own code
// broke a property (here a panic) says so in its line, typed; the judge
// hands it to the monitor, so the record is a violation of that property
// with the simulator's text, not a lost node, although its peers lost
// their links to it. Lines with losses only are the outcome fault.
func TestJudgeReportsABrokenPropertyAsTheMonitorDoes(t *testing.T) {
	n := 4
	_, d := initCluster(t, scenario.Spec{Algorithm: "lcr", N: n, Seed: 1})
	panicked := election.NewViolation(election.PropPanic, election.PanicMessage(2, "boom"), 2)
	lines := func(broken bool) []*NodeResult {
		res := make([]*NodeResult, n)
		for i := range n {
			res[i] = &NodeResult{Leader: -1, Lost: 2, Fault: "lost the link to node 2 before the election ended: it closed the connection"}
		}
		res[2] = &NodeResult{Leader: -1, Lost: -1, Fault: "cannot listen on x: busy"}
		if broken {
			res[2] = &NodeResult{Leader: -1, Lost: -1, Fault: panicked.String(), Property: panicked.Property, Detail: panicked.Detail}
		}
		// Through the line's JSON, as 'cluster up' reads it.
		for i, l := range res {
			b, err := json.Marshal(l)
			if err != nil {
				t.Fatal(err)
			}
			res[i] = &NodeResult{}
			if err := json.Unmarshal(b, res[i]); err != nil {
				t.Fatal(err)
			}
		}
		return res
	}
	rec, err := Judge(d, nil, lines(true), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Outcome != election.OutcomeViolation || rec.Violation != "panic: node 2 panicked: boom" ||
		rec.Broken.Property != election.PropPanic || !slices.Equal(rec.Broken.Nodes, []int32{2}) {
		t.Errorf("a node that panicked: %s %q %+v", rec.Outcome, rec.Violation, rec.Broken)
	}
	rec, err = Judge(d, nil, lines(false), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Outcome != election.OutcomeFault || rec.Broken.Found() {
		t.Errorf("nodes lost only: %s %q %+v", rec.Outcome, rec.Violation, rec.Broken)
	}
	// Issue 43: the port in use was named third, after two of its
	// consequences; the cause comes first.
	if want := "node 2: cannot listen on x: busy; node 0: lost the link to node 2"; !strings.HasPrefix(rec.Violation, want) {
		t.Errorf("violation %q; want it to begin with %q", rec.Violation, want)
	}
}
