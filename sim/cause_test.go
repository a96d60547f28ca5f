package sim_test

import (
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// TestCauseIsTheFaultOnThePath: the report's cause of a failed run is the
// first fault on the promised leader's path (docs/faults.md, "What the
// report says"), not the first fault of the run. LCR on the FIFO ring of
// IDs 0..n-1 (node i sends to node i+1): at time 0 every node sends its
// ID (messages 1..n, in node order); the IDs below the maximum are
// swallowed one hop on, and the maximum (node n-1's, message n) goes
// round, forwarded by node 0 at time 1 as message n+1, node 1 at time 2
// as message n+2, and so on. Each schedule puts a decoy first: a fault
// that hits a message the ring swallows anyway, or a node before the
// maximum reaches it; the cause must be the later fault on the path, on
// both engines.
func TestCauseIsTheFaultOnThePath(t *testing.T) {
	for _, c := range []struct {
		n       int
		spec    string
		outcome election.Outcome
		cause   string
	}{
		// Message 1 (ID 0, swallowed by node 1) lost first; the
		// maximum's second hop, message 4, lost after.
		{3, "loss:msg=1;loss:msg=4", election.NoLeader,
			"on the path of node 2 (ID 2): message 4 (election j=2) from node 0 to node 1 at time 1, lost"},
		// Node 2 crashes at time 1, before the maximum (node 3's ID)
		// reaches it: off the path, since message 5, the maximum's
		// second hop, is lost at time 1 and never gets there.
		{4, "crash:node=2@t=1;loss:msg=5", election.NoLeader,
			"on the path of node 3 (ID 3): message 5 (election j=3) from node 0 to node 1 at time 1, lost"},
		// A loss off the path, then node 1 crashes at time 2, when the
		// maximum's message 4 reaches it: the crash swallowed it.
		{3, "loss:msg=1;crash:node=1@t=2", election.NoLeader,
			"on the path of node 2 (ID 2): node 1 (ID 1) crashed at time 2, and a message sent on the path (election j=2) reached it at time 2"},
		// The promised leader itself crashes, after its second step (the
		// ID 1 it swallows at time 1).
		{3, "loss:msg=1;crash:node=2@step=2", election.NoLeader,
			"on the path of node 2 (ID 2): node 2 (ID 2) crashed at time 1"},
		// A duplicate off the path first.
		{3, "dup:msg=1;loss:msg=4", election.NoLeader,
			"on the path of node 2 (ID 2): message 4 (election j=2) from node 0 to node 1 at time 1, lost"},
		// No leader is an absence: the loss on the path is the cause
		// although a delay on the path (message 3, the maximum's first
		// hop) came first.
		{3, "delay:msg=3,d=1;loss:msg=5", election.NoLeader,
			"on the path of node 2 (ID 2): message 5 (election j=2) from node 1 to node 2 at time 3, lost"},
		// Elected, but late (time 4 > n = 3): the delay on the path, not
		// the earlier one of a message swallowed anyway.
		{3, "delay:msg=1,d=1;delay:msg=4,d=1", election.OutcomeElected,
			"on the path of node 2 (ID 2): message 4 (election j=2) from node 0 to node 1 at time 1, delayed by 1"},
		// No fault on the path: the run did not fail, and the cause is
		// the run's first fault.
		{3, "loss:msg=2", election.OutcomeElected,
			"first fault: message 2 (election j=1) from node 1 to node 2 at time 0, lost"},
	} {
		s, err := faults.Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]elect.ID, c.n)
		for i := range ids {
			ids[i] = elect.ID(i)
		}
		cfg := election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(c.n), IDs: ids, Delivery: election.FIFO, Faults: s}
		for name, run := range map[string]func(election.Config) (*election.Result, error){"sim": sim.Run, "reference": reference.Run} {
			res, err := run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != c.outcome || res.Faults.Cause != c.cause {
				t.Errorf("%s, n = %d, %s: %s, cause\n%q, want\n%q", name, c.n, c.spec, res.Outcome, res.Faults.Cause, c.cause)
			}
		}
	}
}
