package ring_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// BenchmarkLCR measures simulator throughput on LCR: random rings (about
// n*H_n messages) and the decreasing ring (n(n+1)/2, the worst case), under
// unit-delay FIFO, synchronous and random delivery.
func BenchmarkLCR(b *testing.B) {
	for _, arrangement := range []string{"random", "decreasing"} {
		for _, n := range []int{1_000, 10_000, 100_000} {
			if arrangement == "decreasing" && n > 10_000 && testing.Short() {
				continue
			}
			for _, d := range []election.Delivery{election.FIFO, election.Sync, election.Random} {
				name := fmt.Sprintf("ids=%s/n=%d/delivery=%s", arrangement, n, d)
				b.Run(name, func(b *testing.B) { benchRun(b, ring.LCR, arrangement, n, d, nil) })
			}
		}
	}
}

// benchRun runs alg with params once per iteration on the given arrangement
// (see benchSim).
func benchRun(b *testing.B, alg *elect.Algorithm, arrangement string, n int, d election.Delivery, params elect.Params) {
	benchSim(b, election.Config{Algorithm: alg, Graph: topology.NewRing(n), IDs: nlIDs(b, arrangement, n, 1), Delivery: d, Seed: 1,
		Params: params}, false)
}

// benchSim runs cfg once per iteration (with seed 1, 2, ... when newSeeds)
// and reports message deliveries per second of wall time and messages per
// run; every run must elect.
func benchSim(b *testing.B, cfg election.Config, newSeeds bool) {
	var msgs int64
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if newSeeds {
			cfg.Seed = uint64(i + 1)
		}
		res, err := sim.Run(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if res.Outcome != election.OutcomeElected {
			b.Fatalf("outcome %s %s", res.Outcome, res.Violation)
		}
		msgs += res.Messages
	}
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(msgs)/float64(b.N), "msgs/op")
}

// BenchmarkLCRBareLoop is a yardstick, not a runtime: LCR's messages on the
// rings of BenchmarkLCR's random arrangement under unit delays, handled by a
// plain loop over two arrays (a node: its ID and the largest ID it has seen;
// a message: its receiver and the ID it carries), with none of the
// simulator's work: no Node or Env interface, status words, monitor,
// counters per type and per node, or event limit. It sends the same messages
// (TestLCRBareLoopMatchesEngine), so its rate is what this machine allows for
// LCR's message pattern, and the gap to BenchmarkLCR is the simulator's own
// per-message cost.
func BenchmarkLCRBareLoop(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("ids=random/n=%d", n), func(b *testing.B) {
			idList := nlIDs(b, "random", n, 1)
			nodes := make([]bareLCRNode, n)
			var loop bareLCRLists
			maxID := slices.Max(idList)
			var msgs int64
			for b.Loop() {
				m, leader := loop.run(nodes, idList)
				if idList[leader] != maxID {
					b.Fatalf("node %d elected, not the maximum", leader)
				}
				msgs += m
			}
			b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
			b.ReportMetric(float64(msgs)/float64(b.N), "msgs/op")
		})
	}
}

// TestLCRBareLoopMatchesEngine checks the yardstick: the bare loop sends as
// many messages as the simulator running LCR under FIFO delivery, and elects
// the same node.
func TestLCRBareLoopMatchesEngine(t *testing.T) {
	for _, c := range []struct {
		arrangement string
		n           int
	}{{"random", 1}, {"random", 2}, {"random", 1_000}, {"decreasing", 100}} {
		n, idList := c.n, nlIDs(t, c.arrangement, c.n, 1)
		res := nlRun(t, election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(n), IDs: idList, Delivery: election.FIFO, Seed: 1})
		var loop bareLCRLists
		msgs, leader := loop.run(make([]bareLCRNode, n), idList)
		if msgs != res.Messages || leader != res.LeaderIndex {
			t.Errorf("%s ring, n = %d: bare loop %d messages, leader %d; simulator %d, leader %d", c.arrangement, n, msgs, leader, res.Messages, res.LeaderIndex)
		}
	}
}

type bareLCRNode struct{ id, maxID elect.ID }

type bareLCRMsg struct {
	to int32
	j  elect.ID
}

// bareLCRLists are the messages due now and those due next, kept from one
// run to the next.
type bareLCRLists struct{ due, next []bareLCRMsg }

// run elects on the ring of IDs ids (node i sends to node i+1) and returns
// the number of messages and the leader's index.
func (l *bareLCRLists) run(nodes []bareLCRNode, ids []elect.ID) (msgs int64, leader int) {
	n := int32(len(nodes))
	due := l.due[:0]
	for i := range n {
		nodes[i] = bareLCRNode{ids[i], ids[i]}
		due = append(due, bareLCRMsg{(i + 1) % n, ids[i]})
	}
	msgs, leader = int64(n), -1
	next := l.next[:0]
	for len(due) > 0 {
		for _, m := range due {
			p := &nodes[m.to]
			if m.j == p.id {
				leader = int(m.to)
			}
			if m.j > p.maxID {
				p.maxID = m.j
				to := m.to + 1
				if to == n {
					to = 0
				}
				next = append(next, bareLCRMsg{to, m.j})
				msgs++
			}
		}
		due, next = next, due[:0]
	}
	l.due, l.next = due, next
	return msgs, leader
}
