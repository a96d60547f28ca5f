package ring

import (
	"github.com/electkit/elect"
)

// ItaiRodeh is the Itai-Rodeh randomized election algorithm for anonymous
// unidirectional rings of known size n with FIFO channels. It is beyond the
// seeds: A. Itai and M. Rodeh, "Symmetry breaking in distributive networks",
// FOCS 1981 (journal version: Information and Computation 88(1), 1990); we
// follow its presentation with messages (id, round, hop, bit) in W. Fokkink,
// Distributed Algorithms: An Intuitive Approach (MIT Press), section 9.1,
// and W. Fokkink and J. Pang, "Variations on Itai-Rodeh leader election for
// anonymous rings", J.UCS 12(8), 2006. The rules:
//
//   - an initiator is active in round 0: it draws id uniformly from 1..n and
//     sends (id, 0, 1, true) clockwise; a node woken by a message is passive;
//   - a passive node forwards (i, r, h, b) as (i, r, h+1, b);
//   - an active node in round r_p with id id_p that receives (i, r, h, b):
//     if h = n the message is its own, back after n hops: with b = true no
//     other active node drew its id and it is elected; with b = false it
//     starts round r_p+1 with a fresh id; otherwise it compares (r, i) with
//     (r_p, id_p) lexicographically: if larger it turns passive and
//     forwards the message; if smaller it purges it; if equal (another
//     active node drew the same id) it forwards (i, r, h+1, false).
//
// Exactly one node is elected, with probability 1: in each round the active
// nodes holding the largest id survive, and a round ends with one of them
// (then elected) or all of them starting a new round. The algorithm's own
// node IDs are ignored (the ring is anonymous); nodes that turn passive
// decide not-elected. Message size: one message type (no tag), the id and
// the hop counter in ceil(lg(n+1)) bits each, the round number in
// itaiRodehRoundBits bits, and 1 bit.
var ItaiRodeh = &elect.Algorithm{
	Name:   "itai-rodeh",
	Title:  "Itai-Rodeh (randomized, anonymous ring of known size)",
	Source: "Itai and Rodeh 1981/1990; Fokkink, Distributed Algorithms: An Intuitive Approach, §9.1 (beyond the seeds)",
	Summary: "Active nodes draw random ids in 1..n and run Chang-Roberts on (round, id), a hop counter detecting " +
		"the return after n hops and a bit telling whether another node drew the same id; ties start a new round.",
	Model: elect.Model{
		Topology: elect.UniRing, Sync: true, Async: true, FIFO: true, KnowsN: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsAny, Announce: elect.NoAnnounce,
		Randomized: true,
	},
	Growth: elect.Growth{Messages: "n lg n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "probe", Fields: []string{"id", "round", "hop*2+bit"}, Bits: itaiRodehBits},
	},
	Bounds: []elect.Bound{
		{Name: "messages", Quantity: elect.Messages, Relation: elect.AtLeast,
			Formula: "n", Source: "the winner's last message travels n hops",
			Value: boundN},
		{Name: "time", Quantity: elect.Time, Relation: elect.AtLeast,
			Formula: "n (synchronous)", Source: "the winner's last message travels n hops, one per round",
			Value:   boundN,
			Applies: func(c elect.BoundContext) bool { return c.Sync }},
	},
	DrawRange: func(n int, _ elect.Params) int { return n }, // ids uniform in 1..n
	New:       itaiRodehNodes.New,
	Init:      itaiRodehNodes.Init,
}

var itaiRodehNodes = elect.NodesOf(itaiRodehInit)

func itaiRodehInit(p *itaiRodehNode, info elect.NodeInfo) {
	*p = itaiRodehNode{n: int64(info.N)}
}

// itaiRodehRoundBits is the width counted for the round number. Rounds are
// unbounded, but a round with k >= 2 active nodes ends the election with
// the probability that the largest of k draws from 1..n is unique, at least
// 1/2 (k = n = 2 is the worst case), so 32 bits fail with probability below
// 2^-(2^32); a run would also need more than 2^32*n messages to get there.
const itaiRodehRoundBits = 32

// itaiRodehBits is the size of a message (id, round, hop, bit).
func itaiRodehBits(c elect.BitContext) int {
	counter := elect.CeilLog2(c.N + 1)
	return counter + itaiRodehRoundBits + counter + 1
}

// Message slots: ID holds id, A the round, B the hop counter and the bit
// packed as hop*2 + bit (a Message has three payload slots).
const itaiRodehProbe elect.MsgType = 0

func itaiRodehMessage(id int64, round, hop int64, unique bool) elect.Message {
	m := elect.Message{Type: itaiRodehProbe, ID: elect.ID(id), A: round, B: hop * 2}
	if unique {
		m.B++
	}
	return m
}

type itaiRodehNode struct {
	n       int64
	woken   bool
	active  bool
	elected bool
	round   int64
	id      int64 // the random id of the current round
}

// Wake: an initiator is active in round 0; a node woken by a message is
// passive and has lost.
func (p *itaiRodehNode) Wake(env elect.Env, spontaneous bool) {
	p.woken = true
	if !spontaneous {
		env.Decide(elect.NotElected)
		return
	}
	p.active = true
	p.startRound(env, 0)
}

// startRound draws a fresh id and sends it around.
func (p *itaiRodehNode) startRound(env elect.Env, round int64) {
	p.round = round
	p.id = 1 + env.Rand().Int64N(p.n)
	env.Send(elect.Left, itaiRodehMessage(p.id, p.round, 1, true))
}

func (p *itaiRodehNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	i, r, h, unique := int64(m.ID), m.A, m.B/2, m.B%2 == 1
	switch {
	case p.elected:
		// Only stale messages of earlier rounds can still come by.
	case !p.active:
		env.Send(elect.Left, itaiRodehMessage(i, r, h+1, unique))
	case h == p.n:
		p.handleOwn(env, unique)
	case r > p.round || (r == p.round && i > p.id):
		p.becomePassive(env)
		env.Send(elect.Left, itaiRodehMessage(i, r, h+1, unique))
	case r == p.round && i == p.id:
		env.Send(elect.Left, itaiRodehMessage(i, r, h+1, false))
	default:
		// (r, i) < (round, id): purge.
	}
}

// handleOwn is the node's own message back after n hops.
func (p *itaiRodehNode) handleOwn(env elect.Env, unique bool) {
	if unique {
		p.elected = true
		env.Decide(elect.Elected)
		return
	}
	p.startRound(env, p.round+1)
}

func (p *itaiRodehNode) becomePassive(env elect.Env) {
	p.active = false
	env.Decide(elect.NotElected)
}
