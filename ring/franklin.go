package ring

import (
	"fmt"

	"github.com/electkit/elect"
)

// Franklin is Franklin's algorithm for the bidirectional ring (W. R.
// Franklin, "On an improved algorithm for decentralized extrema finding in
// circular configurations of processors", CACM 25(5):336-337, 1982; beyond
// the seeds, it is the two-way algorithm that seed 001, section 5.2.3, sketches
// before Peterson's one-way simulation of it):
//
//   - every node starts active; in each round an active node sends its ID
//     both ways and waits for the IDs of its nearest active neighbours on both
//     sides;
//   - it stays active for the next round iff its ID is larger than both; else
//     it becomes passive, and a passive node relays every message onwards in
//     the direction it was going;
//   - a node that receives its own ID is the only active node left: it is
//     elected (its second copy, from the other side, changes nothing).
//
// Messages carry their round, and an active node keeps a probe of the next
// round until it gets there (the neighbour on that side cannot be further
// ahead: it needs this node's probe of that round), so channels need not be
// FIFO. A node woken by a message starts active in round 0, which is the same
// as a late start. With --announce the leader sends a "leader" message
// clockwise round the ring (n messages).
//
// Messages: in every round each link carries exactly one probe each way (the
// probes of consecutive active nodes cover the gap between them from both
// ends), 2n per round. Two neighbouring active nodes cannot both survive, so
// at most floor(c/2) of c >= 2 survive, and the round with a single active
// node (the last) has index at most floor(lg n): at most 2n*floor(lg n) + 2n
// probes, within Franklin's 2n*floor(lg n) + 3n even with the announcement.
var Franklin = &elect.Algorithm{
	Name:   "franklin",
	Title:  "Franklin (bidirectional)",
	Source: "Franklin, CACM 25(5), 1982 (beyond the seeds); the two-way algorithm of seed 001, section 5.2.3",
	Summary: "In each round every active node sends its ID both ways and stays active iff it beats both nearest " +
		"active neighbours; passive nodes relay; the node that gets its own ID back is elected.",
	Model: elect.Model{
		Topology: elect.BiRing, Sync: true, Async: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMax, Announce: elect.OptionalAnnounce,
	},
	Growth: elect.Growth{Messages: "n lg n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "probe", Fields: []string{"j", "round"}, Bits: franklinProbeBits},
		{Name: "leader", Fields: []string{"j"}},
	},
	Bounds: []elect.Bound{
		{Name: "messages", Quantity: elect.Messages, Relation: elect.AtMost,
			Formula: "2n*floor(lg n) + 3n", Source: "Franklin 1982 (with the announcement)",
			Value: func(c elect.BoundContext) float64 { return float64(c.N) * float64(2*elect.FloorLog2(c.N)+3) }},
		{Name: "probe messages", Quantity: elect.Messages, Types: []string{"probe"}, Relation: elect.AtMost,
			Formula: "2n*floor(lg n) + 2n", Source: "2 probes per link per round, at most floor(lg n)+1 rounds",
			Value: boundLgRounds},
		{Name: "probe messages", Quantity: elect.Messages, Types: []string{"probe"}, Relation: elect.AtLeast,
			Formula: "4n (2n if n = 1)", Source: "2n probes per round; with n >= 2 active nodes round 0 cannot be the last",
			Value: boundTwoRounds},
		announcementBound("leader", "announcement round the ring"),
		// When every node wakes at time 0: if every active node of round r
		// has entered it by T, each gets both neighbours' probes by T + n-1
		// while two or more are active; the last round takes n.
		{Name: "time", Quantity: elect.Time, Relation: elect.AtMost,
			Formula: "n(floor(lg n)+1) (+n with announcement)",
			Source:  "rounds with c >= 2 active nodes take at most n-1 (one gap), the last one n; at most floor(lg n)+1 rounds",
			Value:   lgRoundsTime,
			Applies: timedFromZero},
	},
	New:  franklinNodes.New,
	Init: franklinNodes.Init,
}

var franklinNodes = elect.NodesOf(franklinInit)

func franklinInit(p *franklinNode, info elect.NodeInfo) {
	*p = franklinNode{id: info.ID, active: true, announce: info.Announce}
}

// franklinProbeBits is the size of a probe: tag, ID and a round number
// below floor(lg n)+1.
func franklinProbeBits(c elect.BitContext) int {
	return elect.TagBits(c.Types) + c.IDBits + elect.CeilLog2(elect.FloorLog2(c.N)+1)
}

// Message types of Franklin, in the order of Franklin.Messages.
const (
	franklinProbe elect.MsgType = iota
	franklinLeader
)

// franklinSide is what an active node has received from one port.
type franklinSide struct {
	got, early  bool     // a probe of this round / of the next round is in
	id, earlyID elect.ID // their IDs
}

type franklinNode struct {
	id       elect.ID
	round    int32 // at most floor(lg n); 32 bits keep the node in one 64-byte cache line
	active   bool
	elected  bool
	announce bool
	side     [2]franklinSide // by the port the probes arrived on
}

func (p *franklinNode) Wake(env elect.Env, spontaneous bool) {
	// Initiator or not, the node starts active in round 0.
	p.sendProbes(env)
}

func (p *franklinNode) sendProbes(env elect.Env) {
	m := elect.Message{Type: franklinProbe, ID: p.id, A: int64(p.round)}
	env.Send(elect.Left, m)
	env.Send(elect.Right, m)
}

func (p *franklinNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.Type == franklinLeader {
		p.handleLeader(env, m.ID)
		return
	}
	switch {
	case !p.active:
		env.Send(from.Opposite(), m) // relay
	case p.elected:
		// The second copy of the leader's own probe.
	case m.ID == p.id:
		p.becomeLeader(env)
	case m.A == int64(p.round):
		s := &p.side[from]
		s.got, s.id = true, m.ID
		p.maybeCompare(env)
	case m.A == int64(p.round)+1 && !p.side[from].early:
		s := &p.side[from]
		s.early, s.earlyID = true, m.ID
	default:
		panic(fmt.Sprintf("ring: franklin node in round %d got a probe of round %d on port %d", p.round, m.A, from))
	}
}

// maybeCompare ends the round once both neighbours' IDs are in: the node
// survives iff its ID beats both.
func (p *franklinNode) maybeCompare(env elect.Env) {
	for p.side[0].got && p.side[1].got {
		if p.id < p.side[0].id || p.id < p.side[1].id {
			p.becomePassive(env)
			return
		}
		p.round++
		for i := range p.side {
			s := &p.side[i]
			*s = franklinSide{got: s.early, id: s.earlyID}
		}
		p.sendProbes(env)
	}
}

// becomePassive turns the node into a relay; probes of the next round it had
// kept are addressed to active nodes further on, so it passes them on.
func (p *franklinNode) becomePassive(env elect.Env) {
	p.active = false
	for i := range p.side {
		if s := p.side[i]; s.early {
			from := elect.Port(i)
			env.Send(from.Opposite(), elect.Message{Type: franklinProbe, ID: s.earlyID, A: int64(p.round) + 1})
		}
	}
	p.side = [2]franklinSide{}
}

func (p *franklinNode) becomeLeader(env elect.Env) {
	p.elected = true
	env.Decide(elect.Elected)
	if p.announce {
		env.Send(elect.Left, elect.Message{Type: franklinLeader, ID: p.id})
	}
}

// handleLeader passes the announcement on until it is back at the leader.
func (p *franklinNode) handleLeader(env elect.Env, j elect.ID) {
	if j == p.id {
		return
	}
	passOnLeader(env, elect.Left, elect.Message{Type: franklinLeader, ID: j})
}
