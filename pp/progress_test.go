package pp_test

import (
	"encoding/json"
	"testing"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/protocols"
)

// TestProgressDoesNotChangeTheRun: a run that reports its progress in
// chunks gives the same result, byte for byte, as one that does not, on
// every engine; the reports climb to the result's interactions.
func TestProgressDoesNotChangeTheRun(t *testing.T) {
	defer pp.ReportAtEveryChance()()
	const n = 1 << 12
	for _, e := range []pp.Engine{pp.AgentArray, pp.Batched, pp.NullSkipping, pp.Hybrid} {
		opt := pp.Options{Engine: e}
		plain, err := pp.Simulate[uint8](protocols.NewAngluin(n), n, 7, opt)
		if err != nil {
			t.Fatal(err)
		}
		var reports []pp.Progress
		opt.Progress = func(p pp.Progress) bool { reports = append(reports, p); return true }
		reported, err := pp.Simulate[uint8](protocols.NewAngluin(n), n, 7, opt)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(plain)
		b, _ := json.Marshal(reported)
		if string(a) != string(b) {
			t.Errorf("%s: the runs differ:\n%s\n%s", e, a, b)
		}
		if len(reports) == 0 {
			t.Fatalf("%s: no progress reported over %d interactions", e, plain.Interactions)
		}
		for i, p := range reports {
			if p.Interactions <= 0 || p.Interactions >= plain.Interactions || i > 0 && p.Interactions <= reports[i-1].Interactions || p.Leaders < 2 {
				t.Fatalf("%s: report %d: %+v (run ended at %d)", e, i, p, plain.Interactions)
			}
		}
	}
}

// TestProgressStopsTheRun: a report that returns false stops the run there,
// with outcome stopped and the figures of that step.
func TestProgressStopsTheRun(t *testing.T) {
	defer pp.ReportAtEveryChance()()
	const n = 1 << 12
	for _, e := range []pp.Engine{pp.AgentArray, pp.Batched, pp.NullSkipping} {
		var at pp.Progress
		calls := 0
		r, err := pp.Simulate[uint8](protocols.NewAngluin(n), n, 3, pp.Options{Engine: e, Progress: func(p pp.Progress) bool {
			at, calls = p, calls+1
			return calls < 3
		}})
		if err != nil || r.Outcome != pp.Stopped || r.Interactions != at.Interactions || int64(r.Leaders) != at.Leaders || r.Leaders < 2 || calls != 3 {
			t.Errorf("%s: result %+v (%v), stopped at %+v after %d reports", e, r, err, at, calls)
		}
	}
}
