// Package bareloop holds the simulator's yardsticks: LCR and
// Hirschberg-Sinclair on a ring under unit delays (every message sent at
// time t arrives at t+1, in sending order), written as plain loops over two
// arrays, one of nodes and one of messages, with none of the simulator's
// work: no Node or Env interface, no monitor, no counters per type or per
// node, no event limit, no trace. They send exactly the messages the
// simulator sends for the same ring under fifo delivery (the tests check
// the counts and the leader against package sim), so the time they take is
// what the machine needs for the algorithm's message pattern, and the gap
// between a whole `elect run` and a whole `bareloop` process is the
// simulator's own cost. Command bareloop runs them.
package bareloop

import "github.com/electkit/elect"

// Result is what a bare loop reports: the messages sent and the index of
// the node elected (-1: none).
type Result struct {
	Messages int64
	Leader   int
}

// lcrNode is an LCR node: its ID and the largest ID it has seen.
type lcrNode struct{ id, maxID elect.ID }

// lcrMsg is an LCR election message: its receiver and the ID it carries.
type lcrMsg struct {
	to int32
	j  elect.ID
}

// LCR runs Le Lann-Chang-Roberts on the unidirectional ring of ids (node i
// sends to node i+1), every node starting at time 0 in index order, as the
// simulator does under fifo delivery: node i sends its ID; a node receiving
// j becomes the leader if j is its ID, and forwards j if j exceeds the
// largest ID it has seen.
func LCR(ids []elect.ID) Result {
	n := int32(len(ids))
	nodes := make([]lcrNode, n)
	due := make([]lcrMsg, 0, n)
	next := make([]lcrMsg, 0, n)
	for i := range n {
		nodes[i] = lcrNode{ids[i], ids[i]}
		to := i + 1
		if to == n {
			to = 0
		}
		due = append(due, lcrMsg{to, ids[i]})
	}
	r := Result{Messages: int64(n), Leader: -1}
	for len(due) > 0 {
		for _, m := range due {
			p := &nodes[m.to]
			if m.j == p.id {
				r.Leader = int(m.to)
			}
			if m.j > p.maxID {
				p.maxID = m.j
				to := m.to + 1
				if to == n {
					to = 0
				}
				next = append(next, lcrMsg{to, m.j})
			}
		}
		r.Messages += int64(len(next))
		due, next = next, due[:0]
	}
	return r
}

// hsNode is a Hirschberg-Sinclair node.
type hsNode struct {
	id      elect.ID
	phase   int32 // the phase it probes in
	replied int32 // the phase of the one reply it has had so far; -1: none
	elected bool
}

// hsMsg is a Hirschberg-Sinclair message: its receiver, the port it
// arrives on, whether it is a reply (else an election probe), the ID it
// carries, the phase k and (probes) the hops d travelled.
type hsMsg struct {
	to    int32
	port  elect.Port
	reply bool
	j     elect.ID
	k, d  int32
}

// hsRing routes the messages of HS: a send on port Left goes to node i+1
// and arrives on its Right port, a send on Right to node i-1, on its Left.
type hsRing struct {
	n    int32
	next []hsMsg
}

func (r *hsRing) send(from int32, p elect.Port, m hsMsg) {
	if p == elect.Left {
		m.to, m.port = from+1, elect.Right
		if m.to == r.n {
			m.to = 0
		}
	} else {
		m.to, m.port = from-1, elect.Left
		if m.to < 0 {
			m.to = r.n - 1
		}
	}
	r.next = append(r.next, m)
}

// probe starts node i's current phase: ELECTION<id, phase, 1> both ways.
func (r *hsRing) probe(i int32, p *hsNode) {
	p.replied = -1
	m := hsMsg{j: p.id, k: p.phase, d: 1}
	r.send(i, elect.Left, m)
	r.send(i, elect.Right, m)
}

// HS runs Hirschberg-Sinclair on the bidirectional ring of ids, every node
// starting at time 0 in index order, as the simulator does under fifo
// delivery (the rules are package ring's HS: a probe travels 2^k hops
// while it meets smaller IDs, the last node replies, a node with both
// replies starts phase k+1, a node whose probe comes back is elected).
func HS(ids []elect.ID) Result {
	n := int32(len(ids))
	nodes := make([]hsNode, n)
	ring := hsRing{n: n, next: make([]hsMsg, 0, 2*n)}
	for i := range n {
		nodes[i] = hsNode{id: ids[i]}
		ring.probe(i, &nodes[i])
	}
	due := make([]hsMsg, 0, 2*n)
	r := Result{Leader: -1}
	for len(ring.next) > 0 {
		r.Messages += int64(len(ring.next))
		due, ring.next = ring.next, due[:0]
		for _, m := range due {
			i, p := m.to, &nodes[m.to]
			switch {
			case m.reply && m.j != p.id:
				ring.send(i, m.port.Opposite(), m)
			case m.reply && p.replied == m.k:
				p.phase = m.k + 1
				ring.probe(i, p)
			case m.reply:
				p.replied = m.k
			case m.j > p.id && m.d < 1<<m.k:
				m.d++
				ring.send(i, m.port.Opposite(), m)
			case m.j > p.id:
				ring.send(i, m.port, hsMsg{reply: true, j: m.j, k: m.k})
			case m.j == p.id && !p.elected:
				p.elected = true
				r.Leader = int(i)
			}
		}
	}
	return r
}
