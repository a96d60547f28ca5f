package resolve

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faultplan"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// lcr is LCR on a ring of n with IDs 0..n-1 increasing: every node wakes
// at time 0 in index order, so message i+1 is node i's first (its ID to
// node i+1), and the only ID that goes round is n-1's.
func lcr(t *testing.T, n int, spec string) election.Config {
	t.Helper()
	s, err := faults.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]elect.ID, n)
	for i := range ids {
		ids[i] = elect.ID(i)
	}
	return election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(n), IDs: ids, Delivery: election.FIFO, Faults: s, Seed: 1}
}

// TestResolve: the plan names each hit message by sender and count, with
// its number in the simulator's order, and each crash by the steps before
// it, exactly.
func TestResolve(t *testing.T) {
	// n = 4, IDs increasing: messages 1..4 are the nodes' own IDs (node i
	// sends message i+1) at time 0; at time 1 only node 0 forwards (ID 3,
	// message 5, node 0's second), here late by 2, so that node 1 forwards
	// it at time 4 (message 6, node 1's second), here lost.
	p, err := Faults(lcr(t, 4, "loss:msg=6;dup:msg=3;delay:msg=5,d=2;crash:node=2@step=2"))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]faultplan.Send{
		{{K: 2, No: 5, Delay: 2}},
		{{K: 2, No: 6, Lost: elect.FaultLoss}},
		{{K: 1, No: 3, Dup: true}},
		nil,
	}
	for i := range 4 {
		if got := p.Hits(int32(i)); !slices.Equal(got, want[i]) {
			t.Errorf("node %d: %+v, want %+v", i, got, want[i])
		}
	}
	// Node 2's steps: its wake-up, then ID 1's delivery (swallowed): it
	// crashes right after.
	if c, ok := p.CrashOf(2); !ok || c.Steps != 2 || c.At != 1 {
		t.Errorf("node 2's crash: %+v %v, want after 2 steps, at time 1", c, ok)
	}
	if got := p.Crashes(); len(got) != 1 || p.Messages != 6 {
		t.Errorf("crashes %+v, messages %d; want node 2's alone, 6 messages", got, p.Messages)
	}
	if _, ok := p.CrashOf(0); ok {
		t.Error("node 0 crashes")
	}
	if p.Cut {
		t.Error("the resolving run was cut")
	}
}

// TestResolveTimedAndPartition: a crash at a time becomes the steps the
// node took before it, and a partition's window, in the simulator's time,
// the messages sent across it then.
func TestResolveTimedAndPartition(t *testing.T) {
	p, err := Faults(lcr(t, 6, "crash:node=2@t=1;partition:0-2|3-5@0-1"))
	if err != nil {
		t.Fatal(err)
	}
	// The expectation comes from the simulator's own trace, read with
	// nothing of this package: the messages lost there.
	var buf bytes.Buffer
	cfg := lcr(t, 6, "crash:node=2@t=1;partition:0-2|3-5@0-1")
	cfg.Trace = &buf
	if _, err := sim.Run(cfg); err != nil {
		t.Fatal(err)
	}
	lost := strings.Count(buf.String(), `"ev":"lose"`)
	hits := 0
	for i := range 6 {
		for _, s := range p.Hits(int32(i)) {
			if s.Lost != elect.FaultPartition {
				t.Errorf("node %d: %+v is not lost to the partition", i, s)
			}
			hits++
		}
	}
	if hits != lost || lost != 2 { // at time 0: node 2's ID to node 3, node 5's to node 0
		t.Errorf("%d messages lost in the plan, %d in the simulator's trace", hits, lost)
	}
	c, ok := p.CrashOf(2)
	if !ok || c.At != 1 || c.Steps != 1 {
		t.Errorf("node 2's crash: %+v %v, want at time 1 after its wake-up", c, ok)
	}
}

// FuzzRead: the reader of the resolving run's trace never panics, whatever
// it is given (it reads only the simulator's own lines, but must fail
// cleanly on anything else).
func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	cfg := election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(4), IDs: []elect.ID{0, 1, 2, 3}, Delivery: election.FIFO, Trace: &buf}
	cfg.Faults, _ = faults.Parse("loss:msg=7;dup:msg=3;delay:msg=5,d=2;crash:node=1@step=2")
	sim.Run(cfg)
	f.Add(buf.Bytes())
	f.Add([]byte(`{"t":0,"ev":"lose","from":0,"no":1}` + "\n"))
	f.Add([]byte(`{"ev":"send","from":-1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		read(bytes.NewReader(data), 4)
	})
}

// TestReadQuotesAtMost200Bytes: a line the reader cannot place is refused
// with its number and at most 200 bytes of it, however long it is.
func TestReadQuotesAtMost200Bytes(t *testing.T) {
	long := `{"t":0,"ev":"send","from":9,"pad":"` + strings.Repeat("x", 5000) + `"}`
	_, err := read(strings.NewReader(long+"\n"), 4)
	want := `line 1: no node in 0..3: ` + bounded.Quote([]byte(long))
	if err == nil || err.Error() != want || len(want) > 260 {
		t.Errorf("got %v, want %q", err, want)
	}
}
