package sim_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

func faultyLCR(t *testing.T, alg *elect.Algorithm, n int, spec string) *election.Result {
	t.Helper()
	s, err := faults.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]elect.ID, n)
	for i := range ids {
		ids[i] = elect.ID(i)
	}
	res, err := sim.Run(election.Config{Algorithm: alg, Graph: topology.NewRing(n), IDs: ids, Delivery: election.FIFO, Faults: s})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestLCRLosesItsLeaderToOneLoss: LCR (seed 001, Algorithm 5.1) assumes
// reliable links. On the ring of IDs 0, 1, 2 (clockwise, FIFO) it sends 5
// messages: 0 and 1 travel one hop each and are swallowed, 2 travels all
// round. Losing message 1 or 2 changes nothing; losing 3, 4 or 5 (the
// maximum's journey) leaves no leader. It does not declare loss tolerated,
// so the failure is expected (verdict expected-failure), and the report's
// cause is the lost message. The shortest counterexample is n = 1, whose
// only message (to itself) lost leaves no leader after one event.
func TestLCRLosesItsLeaderToOneLoss(t *testing.T) {
	for m, dies := range map[int]bool{1: false, 2: false, 3: true, 4: true, 5: true, 6: false} {
		res := faultyLCR(t, ring.LCR, 3, "loss:msg="+strconv.Itoa(m))
		if dies != (res.Outcome == election.NoLeader) {
			t.Errorf("message %d lost: outcome %s", m, res.Outcome)
		}
		want := map[bool]string{true: election.VerdictExpected, false: election.VerdictSurvived}[dies]
		if m == 6 {
			want = election.VerdictNone // there are only 5 messages
		}
		if res.Faults.Verdict != want {
			t.Errorf("message %d lost: verdict %s, want %s", m, res.Faults.Verdict, want)
		}
		if dies && !strings.Contains(res.Faults.Cause, "message "+strconv.Itoa(m)+" (election j=") {
			t.Errorf("message %d lost: cause %q", m, res.Faults.Cause)
		}
	}
	res := faultyLCR(t, ring.LCR, 1, "loss:msg=1")
	if res.Outcome != election.NoLeader || res.Events != 1 || res.Faults.Verdict != election.VerdictExpected {
		t.Errorf("n = 1, its message lost: %s after %d events, verdict %s", res.Outcome, res.Events, res.Faults.Verdict)
	}
}

// TestClaimedToleranceThatFailsIsAViolation: an algorithm that declares
// it tolerates loss and loses its leader to one lost message has its
// outcome turned into a violation that names the fault; the same failure
// of the real LCR, which declares nothing, is an expected failure.
func TestClaimedToleranceThatFailsIsAViolation(t *testing.T) {
	boast := *ring.LCR
	boast.Model.Tolerates = elect.FaultLoss
	res := faultyLCR(t, &boast, 3, "loss:msg=3")
	if res.Outcome != election.OutcomeViolation || res.Faults.Verdict != election.VerdictViolated ||
		!strings.HasPrefix(res.Violation, "fault-tolerance: no-leader under loss, which lcr declares it tolerates (on the path of node 2 (ID 2): message 3") {
		t.Fatalf("%s: %q, verdict %s", res.Outcome, res.Violation, res.Faults.Verdict)
	}
	// A crash it does not tolerate, beside the loss it does: expected.
	res = faultyLCR(t, &boast, 3, "loss:msg=3;crash:node=0@t=0")
	if res.Outcome != election.NoLeader || res.Faults.Verdict != election.VerdictExpected {
		t.Fatalf("loss and crash: %s, verdict %s", res.Outcome, res.Faults.Verdict)
	}
}

// TestNoFaultNoReport: a run without Config.Faults has no fault report,
// and one whose schedule hits nothing says so.
func TestNoFaultNoReport(t *testing.T) {
	res, err := sim.Run(election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(4), IDs: []elect.ID{3, 1, 2, 0}, Delivery: election.FIFO})
	if err != nil || res.Faults != nil {
		t.Fatalf("%v, %+v", err, res.Faults)
	}
	res = faultyLCR(t, ring.LCR, 4, "loss:msg=1000")
	if res.Outcome != election.OutcomeElected || res.Faults.Verdict != election.VerdictNone || res.Faults.Injected != "none" {
		t.Fatalf("%s, %+v", res.Outcome, *res.Faults)
	}
}
