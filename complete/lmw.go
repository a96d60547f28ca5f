package complete

import (
	"math"

	"github.com/electkit/elect"
)

// LMW is the election of Loui, Matsushita and West for asynchronous complete
// networks with a sense of direction (Loui, Matsushita and West 1986). The
// links of every node are labelled by the distance they span along one
// Hamiltonian cycle that all nodes agree on (topology complete:chordal:
// port p spans p+1 steps forwards), so the complete graph contains a
// bidirectional ring that messages may shortcut. A message carries an ID
// and the distance, along the cycle, from its sender's position (the node
// it speaks for) to its receiver.
//
//   - On waking, an active node sends ELECTION(id, 1) to the node at
//     distance 1.
//   - Active node, upon ELECTION(j, d): if j > id it becomes passive and
//     remembers last <- d, the distance back to the node that beat it; if
//     j = id its own ID came round the whole cycle, every other node is
//     passive, and it is elected; if j < id it answers ELECTION(id, n-d) to
//     the node at distance n-d, the sender, which it beats.
//   - Passive node, upon ELECTION(j, d): it forwards the message to the
//     node at distance n-last (the node that made it passive), with the
//     distance from the message's origin to that node, d+n-last mod n, so
//     the passive stretch of the cycle is skipped.
//   - The leader announces itself: LEADER(id) on every link.
//
// The analysis (Loui, Matsushita and West, the phase recurrence n_p <=
// n_(p-2) - n_(p-1) on the number of active nodes) gives at most
// n-1 + phi^2 n ELECTION messages, phi the golden ratio: passive nodes
// send at most n-1 of them and active nodes at most phi^2 n. Models: any
// set of initiators (a node woken by a message first sends its own
// ELECTION, as if it had woken spontaneously just before); non-FIFO links
// are fine, since a node's reaction depends only on its state and the
// message. The maximum ID is elected, and every node learns it from LEADER.
//
// On the distance carried by a forwarded message the paper writes n -
// (last + d); the message's origin is d steps behind the forwarding node
// and the node at distance n-last ahead of it, so the origin is d + n -
// last steps behind the receiver. This follows the prose (the
// framework's write-up, text/1162498/clique_with_direction.tex, points out
// the same slip).
var LMW = &elect.Algorithm{
	Name:   "lmw",
	Title:  "Loui-Matsushita-West (complete network with a sense of direction)",
	Source: "Loui, Matsushita and West 1986, the algorithm and its analysis",
	Summary: "The chordal labels make the complete graph a ring with shortcuts: active nodes send their ID " +
		"along the cycle, the larger beats the smaller, and passive nodes forward past the passive stretch; " +
		"O(n) messages.",
	Model: elect.Model{
		Topology: elect.Complete, Async: true, UniqueIDs: true, SenseOfDirection: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMax, Announce: elect.AlwaysAnnounce,
	},
	// Time: about 2.6 lg n (13.4 at n = 32, 25.5 at 1024; random IDs, FIFO).
	Growth: elect.Growth{Messages: "n", Time: "lg n"},
	Messages: []elect.MessageType{
		{Name: "ELECTION", Fields: []string{"id", "dist"}},
		{Name: "LEADER", Fields: []string{"id"}},
	},
	Bounds: []elect.Bound{
		{Name: "ELECTION messages", Quantity: elect.Messages, Types: []string{"ELECTION"}, Relation: elect.AtMost,
			Formula: "n-1 + phi^2 n", Source: "Loui, Matsushita and West 1986, the message analysis (n-1 by passive nodes, < phi^2 n by active ones)",
			Value: func(c elect.BoundContext) float64 { return float64(c.N-1) + lmwPhi2*float64(c.N) }},
		{Name: "LEADER messages", Quantity: elect.Messages, Types: []string{"LEADER"}, Relation: elect.Exactly,
			Formula: "n-1", Source: "Loui, Matsushita and West 1986: the leader tells every other node",
			Value: func(c elect.BoundContext) float64 { return float64(c.N - 1) }},
	},
	// Its nodes send on few of their links at once (active nodes send
	// along the cycle, one message each, and the announcement goes once to
	// every node): the memory estimate counts a message a node in flight,
	// not its message bound (4.62n), nor one per link of the complete
	// graph.
	InFlight: func(c elect.BoundContext) float64 { return float64(c.N) },
	New:      lmwNodes.New,
	Init:     lmwNodes.Init,
}

// lmwPhi2 is phi^2 = phi + 1, phi the golden ratio.
var lmwPhi2 = (3 + math.Sqrt(5)) / 2

var lmwNodes = elect.NodesOf(func(p *lmwNode, info elect.NodeInfo) {
	*p = lmwNode{id: info.ID, n: int32(info.Degree) + 1}
})

// Message types of LMW, in the order of LMW.Messages. ELECTION carries the
// ID in ID and the distance in A.
const (
	lmwElection elect.MsgType = iota
	lmwLeader
)

type lmwNode struct {
	id      elect.ID
	n       int32 // the degree plus one
	passive bool
	last    int32 // passive: the distance back to the node that made it passive
}

// toDistance is the port that spans d steps forwards along the cycle.
func toDistance(d int32) elect.Port { return elect.Port(d - 1) }

func (p *lmwNode) Wake(env elect.Env, spontaneous bool) {
	if p.n == 1 {
		env.Decide(elect.Elected)
		return
	}
	env.Send(toDistance(1), elect.Message{Type: lmwElection, ID: p.id, A: 1})
}

func (p *lmwNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.Type == lmwLeader {
		env.SetLeader(m.ID)
		return
	}
	d := int32(m.A)
	if p.passive {
		back := p.n - p.last
		env.Send(toDistance(back), elect.Message{Type: lmwElection, ID: m.ID, A: int64((d + back) % p.n)})
		return
	}
	switch {
	case m.ID > p.id:
		p.passive, p.last = true, d
		env.Decide(elect.NotElected)
	case m.ID < p.id:
		env.Send(toDistance(p.n-d), elect.Message{Type: lmwElection, ID: p.id, A: int64(p.n - d)})
	default:
		env.Decide(elect.Elected)
		sendAll(env, p.n-1, elect.Message{Type: lmwLeader, ID: p.id})
	}
}

// Clone implements elect.Snapshotter.
func (p *lmwNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *lmwNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), int64(p.n))
	b = elect.AppendBool(b, p.passive)
	return elect.AppendInt(b, int64(p.last))
}
