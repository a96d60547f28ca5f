package pp_test

import (
	"strings"
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/pp"
)

// TestViolationIsTyped: a monotone protocol whose leaders grow breaks
// election.PropLeadersIncreased at the step its text names, on the agent
// array and on the batched engine; an engine whose counters lie breaks
// PropCounterMismatch. The record's text is the typed value's.
func TestViolationIsTyped(t *testing.T) {
	for _, eng := range []pp.Engine{pp.AgentArray, pp.Batched} {
		r, err := pp.Simulate(&broken{}, 100, 3, pp.Options{Engine: eng})
		if err != nil {
			t.Fatal(err)
		}
		v := r.Broken
		if r.Engine != string(eng) {
			t.Fatalf("engine %s ran, not %s", r.Engine, eng)
		}
		if r.Outcome != pp.Violation || v.Property != election.PropLeadersIncreased || r.Violation != v.String() {
			t.Fatalf("%s: %s %q, %+v", eng, r.Outcome, r.Violation, v)
		}
		if v.Step < 1 || v.Step > r.Interactions || !strings.HasSuffix(r.Violation, " at step "+itoa(v.Step)) {
			t.Errorf("%s: step %d, %d interactions, %q", eng, v.Step, r.Interactions, r.Violation)
		}
	}
	r := pp.Run(&broken{lie: true}, 100, 3, pp.Options{MaxSteps: 2000})
	if r.Broken.Property != election.PropCounterMismatch || r.Violation != r.Broken.String() {
		t.Fatalf("got %s %q, %+v", r.Outcome, r.Violation, r.Broken)
	}
}

func itoa(x int64) string {
	if x == 0 {
		return "0"
	}
	var b []byte
	for ; x > 0; x /= 10 {
		b = append([]byte{byte('0' + x%10)}, b...)
	}
	return string(b)
}
