package complete

import "github.com/electkit/elect"

// RingSkip is the ring election that skips crashed successors, as the
// distributed-systems textbooks give it (Tanenbaum and van Steen, "a ring
// algorithm": a process that finds its successor down skips over it to the
// next member along the ring, and so on until a running process is found),
// with LCR's rule for what travels (seed 001, Algorithm 5.1: every node
// sends its ID, forwards larger IDs, swallows smaller ones, and is elected
// when its own comes back) in place of the textbook's growing list. The
// ring is the cycle of a complete graph with a sense of direction
// (complete:chordal: port p leads p+1 steps clockwise), so a node can reach
// any successor directly. The model is synchronous, and the failure
// detector is the round-trip timeout it makes perfect: every ELECTION and
// LEADER is acknowledged at once, and a send without an ACK two rounds later
// went to a crashed node.
//
// The rules, for a node i:
//
//   - On waking (spontaneously or by a message): send ELECTION(id, epoch 0,
//     hops) to the successor, and set a restart timer of 3n+2 rounds.
//   - Sending to the successor: on the port of the first successor not yet
//     found crashed; hops counts the positions the message has advanced
//     (skipped ones included). Upon ACK: the send is done. Two rounds
//     without it: that successor has crashed; the node skips to the next
//     one and sends again. With every other node crashed, the node is
//     alone and elected.
//   - Upon ELECTION(j, e, h): ACK it. A decided node, or one in a later
//     epoch, swallows it. A later epoch e is adopted: the node sends its
//     own ID again in e. Then: j = id (h = n) elects the node, which sends
//     LEADER(id); h >= n with j != id means j's node has crashed after
//     sending it (it would have taken it back at h = n): the node drops it
//     and opens the next epoch, sending its own ID; j > id is forwarded;
//     j < id is swallowed.
//   - Upon LEADER(j, h): ACK it; the leader's own LEADER back home (or one
//     whose leader crashed, h >= n) ends there; otherwise decide not-elected
//     with leader j and forward it.
//   - A decided node swallows every ELECTION, and answers its sender (h
//     positions back) with a direct LEADER(leader, direct): a node still
//     electing after the LEADER that should have told it was lost with a
//     crashed node learns the leader this way, and does not forward it.
//   - The restart timer, if the node is still undecided and in the same
//     epoch: a circulation was lost with a node that crashed while its send
//     waited for an ACK; open the next epoch. (A circulation takes at most
//     n rounds plus 2 per skipped node: 3n in all.)
//
// Why one leader: a node is elected when its ID went once round all nodes
// up, each of them smaller (a larger one up would have swallowed it); a
// later election of a smaller ID must pass the leader's position after the
// leader's LEADER did (sends are atomic with the step that makes them, and
// a message keeps behind those sent before it on the same stretch, retries
// included), and decided nodes swallow every ELECTION. A leader may crash
// once elected: if its LEADER had reached a node up, that node and those
// after it know it and swallow every later ELECTION; if the LEADER was
// still waiting for an ACK from a crashed successor, it is lost with the
// leader, no node up ever learns of it, and the restart elects the largest
// ID up, which the monitor counts as the survivors' one leader.
//
// Counts without faults (derived; checked in every run, n >= 2): ELECTION
// as LCR, between 2n-1 (the maximum's n hops and one hop each of the
// others, IDs increasing clockwise) and n(n+1)/2 (decreasing); LEADER n
// (n-1 others and the hop home); one ACK for each of them; time 2n+1
// rounds with every node awake at round 0 (the maximum's ELECTION back at
// n, its LEADER home at 2n, the last ACK at 2n+1). No direct LEADER is
// sent: every other ELECTION has been swallowed before the maximum's comes
// home. A lone node (n = 1) is elected at once and sends nothing.
var RingSkip = &elect.Algorithm{
	Name:   "ring-skip",
	Title:  "Ring election skipping crashed successors",
	Source: "Tanenbaum and van Steen 6.5.1; seed 001 §5.2.1, Algorithm 5.1",
	Summary: "LCR on the ring of a complete graph with a sense of direction: a send that is not acknowledged " +
		"within a round trip skips the crashed successor; an ID whose node crashed is dropped when it has " +
		"gone round, and the election starts over in a new epoch. Survives crash-stop failures.",
	Model: elect.Model{
		Topology: elect.Complete, Sync: true, UniqueIDs: true, KnowsN: true, SenseOfDirection: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMax, Announce: elect.AlwaysAnnounce,
		Tolerates: elect.FaultCrash,
	},
	Growth: elect.Growth{Messages: "n H_n", MessagesByIDs: map[string]string{"decreasing": "n^2"}, Time: "n"},
	Messages: []elect.MessageType{
		{Name: "ELECTION", Fields: []string{"j", "epoch", "hops"}},
		{Name: "LEADER", Fields: []string{"j", "hops", "direct"}},
		{Name: "ACK", Fields: []string{"j", "a", "type"}},
	},
	// Its nodes send to their successor only (and LEADER, once, to every
	// node), each message acknowledged the round after, each send with a
	// timer for its acknowledgement beside a node's restart timer: the
	// memory estimate counts six messages a node in flight (an ELECTION
	// and its ACK, and the timers the simulator holds as long; measured:
	// 740-840 bytes a node at the peak of runs of 2*10^4 and 10^5 nodes),
	// not one per link of the complete graph.
	InFlight: func(c elect.BoundContext) float64 { return 6 * float64(c.N) },
	Bounds: []elect.Bound{
		{Name: "ELECTION messages", Quantity: elect.Messages, Types: []string{"ELECTION"}, Relation: elect.AtMost,
			Formula: "n(n+1)/2", Source: "seed 001 §5.2.1.1 (LCR's worst case); complete/ringskip.go",
			Value:   func(c elect.BoundContext) float64 { return float64(c.N) * float64(c.N+1) / 2 },
			Applies: noFaults},
		{Name: "LEADER messages", Quantity: elect.Messages, Types: []string{"LEADER"}, Relation: elect.Exactly,
			Formula: "n (0 if n = 1)", Source: "complete/ringskip.go: n-1 others and the hop home; a lone node sends nothing",
			Value: func(c elect.BoundContext) float64 {
				if c.N == 1 {
					return 0
				}
				return float64(c.N)
			},
			Applies: noFaults},
		{Name: "time", Quantity: elect.Time, Relation: elect.Exactly,
			Formula: "2n+1", Source: "complete/ringskip.go: ELECTION round in n, LEADER home at 2n, its ACK at 2n+1",
			Value:   func(c elect.BoundContext) float64 { return float64(2*c.N + 1) },
			Applies: func(c elect.BoundContext) bool { return c.Faults == 0 && c.AllAtZero && c.N >= 2 }},
	},
	New:  ringSkipNodes.New,
	Init: ringSkipNodes.Init,
}

var ringSkipNodes = elect.NodesOf(func(p *ringSkipNode, info elect.NodeInfo) {
	*p = ringSkipNode{id: info.ID, n: int64(info.N), leader: -1}
})

// Message types of RingSkip, in the order of RingSkip.Messages.
const (
	rsElection elect.MsgType = iota
	rsLeader
	rsAck
)

// A timer's tag: even, 2r, for the ACKs due at round r; odd, 2e+1, for the
// restart of epoch e.
func rsAckTag(round int64) int64     { return 2 * round }
func rsRestartTag(epoch int64) int64 { return 2*epoch + 1 }

// rsPending is a send waiting for its ACK.
type rsPending struct {
	m    elect.Message // as sent (hops counted to the port it went on)
	port elect.Port
	at   int64 // round sent
}

type ringSkipNode struct {
	id      elect.ID
	n       int64
	next    elect.Port // the port of the first successor not found crashed
	epoch   int64
	decided bool
	leader  elect.ID
	pending []rsPending
}

func (p *ringSkipNode) Wake(env elect.Env, spontaneous bool) {
	p.startEpoch(env, 0)
}

// startEpoch sends the node's own ID in epoch e and sets its restart timer.
func (p *ringSkipNode) startEpoch(env elect.Env, e int64) {
	p.epoch = e
	env.SetTimer(3*p.n+2, rsRestartTag(e))
	p.send(env, elect.Message{Type: rsElection, ID: p.id, A: e})
}

// send sends m to the first successor not found crashed, hops counting the
// positions it advances; with no successor left the node is alone.
func (p *ringSkipNode) send(env elect.Env, m elect.Message) {
	if int64(p.next) >= p.n-1 {
		p.becomeAlone(env)
		return
	}
	hops := &m.B
	if m.Type == rsLeader {
		hops = &m.A
	}
	*hops += int64(p.next) + 1
	env.Send(p.next, m)
	p.pending = append(p.pending, rsPending{m: m, port: p.next, at: env.Round()})
	env.SetTimer(2, rsAckTag(env.Round()+2))
}

// becomeAlone elects the node when every other node has crashed.
func (p *ringSkipNode) becomeAlone(env elect.Env) {
	if p.decided {
		return
	}
	p.decided, p.leader = true, p.id
	p.pending = p.pending[:0]
	env.CancelTimers()
	env.Decide(elect.Elected)
}

func (p *ringSkipNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.Type == rsAck {
		p.acked(from, m)
		return
	}
	a := m.A
	if m.Type == rsLeader {
		a = m.B
	}
	env.Send(from, elect.Message{Type: rsAck, ID: m.ID, A: a, B: int64(m.Type)})
	if m.Type == rsLeader {
		if m.B == 1 {
			p.learnLeader(env, m.ID) // a direct answer: not forwarded
			return
		}
		p.handleLeader(env, m.ID, m.A)
		return
	}
	j, e, h := m.ID, m.A, m.B
	if p.decided {
		// A node still electing sent it (the LEADER that should have told
		// it was lost with a node that crashed): tell it, directly.
		if h < p.n && p.leader >= 0 {
			env.Send(elect.Port(p.n-h-1), elect.Message{Type: rsLeader, ID: p.leader, A: p.n, B: 1})
		}
		return
	}
	if e < p.epoch {
		return
	}
	if e > p.epoch {
		p.startEpoch(env, e)
	}
	switch {
	case j == p.id:
		p.decided, p.leader = true, p.id
		p.pending = p.pending[:0]
		env.CancelTimers()
		env.Decide(elect.Elected)
		p.send(env, elect.Message{Type: rsLeader, ID: p.id})
	case h >= p.n:
		p.startEpoch(env, p.epoch+1) // j's node crashed after sending it
	case j > p.id:
		p.send(env, elect.Message{Type: rsElection, ID: j, A: e, B: h})
	}
}

// handleLeader takes LEADER(j) that has advanced h positions.
func (p *ringSkipNode) handleLeader(env elect.Env, j elect.ID, h int64) {
	if j == p.id || h >= p.n || p.decided {
		return
	}
	p.learnLeader(env, j)
	p.send(env, elect.Message{Type: rsLeader, ID: j, A: h})
}

// learnLeader decides not-elected with leader j, unless decided already.
func (p *ringSkipNode) learnLeader(env elect.Env, j elect.ID) {
	if p.decided {
		return
	}
	p.decided, p.leader = true, j
	p.pending = p.pending[:0]
	env.CancelTimers()
	env.SetLeader(j)
	env.Decide(elect.NotElected)
}

// acked removes the send that m acknowledges (the oldest one on that port
// with that type and content).
func (p *ringSkipNode) acked(from elect.Port, m elect.Message) {
	for k, s := range p.pending {
		a := s.m.A
		if s.m.Type == rsLeader {
			a = s.m.B
		}
		if s.port == from && int64(s.m.Type) == m.B && s.m.ID == m.ID && a == m.A {
			p.pending = append(p.pending[:k], p.pending[k+1:]...)
			return
		}
	}
}

func (p *ringSkipNode) Timer(env elect.Env, tag int64) {
	if tag%2 == 1 {
		if !p.decided && tag == rsRestartTag(p.epoch) {
			p.startEpoch(env, p.epoch+1) // a circulation was lost
		}
		return
	}
	// The sends of round tag/2 - 2 still unacknowledged went to a crashed
	// node: skip it and send them again, in their order.
	due := env.Round() - 2
	var again []elect.Message
	kept := p.pending[:0]
	for _, s := range p.pending {
		if s.at == due {
			if s.port == p.next {
				p.next++
			}
			m := s.m
			if m.Type == rsLeader {
				m.A -= int64(s.port) + 1
			} else {
				m.B -= int64(s.port) + 1
			}
			again = append(again, m)
			continue
		}
		kept = append(kept, s)
	}
	p.pending = kept
	for _, m := range again {
		p.send(env, m)
	}
}

// Clone implements elect.Snapshotter.
func (p *ringSkipNode) Clone() elect.Node {
	c := *p
	c.pending = append([]rsPending(nil), p.pending...)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *ringSkipNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), p.n, int64(p.next), p.epoch, int64(p.leader))
	b = elect.AppendBool(b, p.decided)
	return elect.AppendList(b, p.pending, func(b []byte, s rsPending) []byte {
		return elect.AppendInts(b, int64(s.m.Type), int64(s.m.ID), s.m.A, s.m.B, int64(s.port), s.at)
	})
}
