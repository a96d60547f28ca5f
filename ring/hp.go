package ring

import (
	"github.com/electkit/elect"
)

// HighamPrzytycka is algorithm ELECT of L. Higham and T. Przytycka, "A
// simple, efficient algorithm for maximum finding on rings", Information
// Processing Letters 58(6):319-324, 1996 (conference version WDAG 1993),
// on a unidirectional ring with FIFO links. Envelopes (label, round,
// counter) travel clockwise; each processor remembers the last envelope it
// sent, (last.label, last.round). Round 1 is odd. An envelope (a, i) that
// arrives at a processor:
//
//   - if (a, i) = (last.label, last.round), it has come back unchallenged:
//     the processor is elected;
//   - odd i: if i = last.round it is destroyed when a > last.label and
//     promoted when a < last.label (the smaller of two neighbouring
//     envelopes goes on); it is also promoted when its counter is 0
//     ("promotion by distance": it has travelled F(i+2) links);
//   - even i: if i = last.round it is destroyed when a < last.label (the
//     larger goes on); it is promoted when last.round = i-1 and a >
//     last.label ("promotion by witness": the processor that stopped the
//     round i-1 envelope it saw will promote a anyway);
//   - otherwise it is forwarded.
//
// Promotion sets the round to i+1 and the counter to F(i+3) (F(1) = F(2) =
// 1); every send decrements the counter and records the envelope as last.
// Even rounds thus keep local maxima and odd rounds local minima of the
// envelopes alive, as the paper's BASIC algorithm, whose eliminations ELECT
// keeps while promoting earlier.
//
// We follow the rules as the paper's lemmas state them (round 1 odd,
// elimination of the larger envelope in odd rounds and of the smaller in
// even rounds, counter F(i+2) in odd round i, the witness of an even round
// holding a smaller label of the round before); the paper itself was not
// available to the search tools, only two course summaries of it
// (docs/breadth.md). One case the rules leave open: an envelope of an even
// round that meets an envelope of its own round with a smaller label (by
// the lemmas a witness has promoted it before; it never arose in our
// sweeps nor in every schedule of n <= 6); we promote it, as BASIC does.
//
// The elected processor is the last host of the surviving envelope; its
// label is some ID, in general neither the largest nor the smallest
// (elect.ElectsAny). A processor woken by an envelope starts first (sends
// its own (id, 1)), which is the same as a late start. With --announce the
// leader sends a "leader" message round the ring (n more).
//
// Messages: in every round the envelopes cross disjoint stretches of the
// ring (at most n per round), and round 1 costs exactly n. The paper's
// Theorem: fewer than 1.271 n lg n + O(n). The checked bound is the
// paper's proof with its O(n) kept (hpBound).
var HighamPrzytycka = &elect.Algorithm{
	Name:   "higham-przytycka",
	Title:  "Higham-Przytycka ELECT (unidirectional)",
	Source: "Higham and Przytycka, IPL 1996, algorithm ELECT",
	Summary: "Envelopes alternate rounds that keep local minima (odd) and local maxima (even) of the labels alive; " +
		"odd-round envelopes are promoted after F(i+2) links, even-round ones by a witness of the round before.",
	Model: elect.Model{
		Topology: elect.UniRing, Sync: true, Async: true, FIFO: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsAny, Announce: elect.OptionalAnnounce,
	},
	Growth: elect.Growth{Messages: "n lg n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "envelope", Fields: []string{"label", "round", "counter"}},
		{Name: "leader", Fields: []string{"j"}},
	},
	Bounds: []elect.Bound{
		{Name: "envelope messages", Quantity: elect.Messages, Types: []string{"envelope"}, Relation: elect.AtMost,
			Formula: "n + sum over even i <= i*+1 of n(2 - F(i)/F(i+3)), i* the least odd i with 2F(i) > n (< 1.271 n lg n + O(n))",
			Source:  "Higham and Przytycka 1996, the message theorem's block bound with its O(n) terms",
			Value:   func(c elect.BoundContext) float64 { return hpBound(c.N) }},
		{Name: "envelope messages", Quantity: elect.Messages, Types: []string{"envelope"}, Relation: elect.AtLeast,
			Formula: "n", Source: "every envelope crosses one link in round 1",
			Value: boundN},
		announcementBound("leader", "announcement round the ring"),
	},
	New:  hpNodes.New,
	Init: hpNodes.Init,
}

var hpNodes = elect.NodesOf(func(p *hpNode, info elect.NodeInfo) {
	*p = hpNode{id: info.ID, announce: info.Announce}
})

// fib returns F(i) with F(1) = F(2) = 1 (F(0) = 0); it saturates at 2^62,
// far beyond any ring.
func fib(i int64) int64 {
	a, b := int64(0), int64(1)
	for ; i > 0; i-- {
		a, b = b, a+b
		if a > 1<<62 {
			return 1 << 62
		}
	}
	return a
}

// hpBound is the message bound of the paper's proof with its
// O(n) terms: round 1 costs n; odd round i has hosts at least F(i) apart,
// so the first odd round i* with 2F(i*) > n has one envelope, which comes
// back by round i*+1; each block of an even round i and the odd round i+1
// after it costs at most 2n - n F(i)/F(i+3).
func hpBound(n int) float64 {
	istar := int64(1)
	for 2*fib(istar) <= int64(n) {
		istar += 2
	}
	total := float64(n)
	for i := int64(2); i <= istar+1; i += 2 {
		total += float64(n) * (2 - float64(fib(i))/float64(fib(i+3)))
	}
	return total
}

// Message types of HighamPrzytycka, in the order of its Messages.
const (
	hpEnvelope elect.MsgType = iota
	hpLeader
)

type hpNode struct {
	id        elect.ID
	lastLabel elect.ID
	lastRound int64
	started   bool
	elected   bool
	announce  bool
}

func (p *hpNode) Wake(env elect.Env, spontaneous bool) {
	p.start(env)
}

// start sends the processor's own envelope of round 1.
func (p *hpNode) start(env elect.Env) {
	p.started = true
	p.send(env, p.id, 1, fib(3))
}

// send decrements the counter, records the envelope as the last one sent
// and sends it clockwise.
func (p *hpNode) send(env elect.Env, label elect.ID, round, counter int64) {
	p.lastLabel, p.lastRound = label, round
	env.Send(elect.Left, elect.Message{Type: hpEnvelope, ID: label, A: round, B: counter - 1})
}

func (p *hpNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.Type == hpLeader {
		p.handleLeader(env, m.ID)
		return
	}
	if !p.started {
		p.start(env) // woken by this envelope: a late start
	}
	if p.elected {
		return // nothing else is alive
	}
	a, i, counter := m.ID, m.A, m.B
	same := i == p.lastRound
	switch {
	case same && a == p.lastLabel:
		p.becomeLeader(env)
	case i%2 == 1 && same && a > p.lastLabel, i%2 == 0 && same && a < p.lastLabel:
		// Destroyed: the neighbouring envelope of its round wins.
	case i%2 == 1 && (same || counter == 0):
		p.send(env, a, i+1, fib(i+3)) // smaller of the two, or by distance
	case i%2 == 0 && (same || p.lastRound == i-1 && a > p.lastLabel):
		p.send(env, a, i+1, fib(i+3)) // by witness (or BASIC's rule, see above)
	default:
		p.send(env, a, i, counter)
	}
}

func (p *hpNode) becomeLeader(env elect.Env) {
	p.elected = true
	claimLeadership(env, p.announce, elect.Message{Type: hpLeader, ID: p.id})
}

// handleLeader passes the announcement on until it is back at the leader.
func (p *hpNode) handleLeader(env elect.Env, j elect.ID) {
	if p.elected {
		return
	}
	passOnLeader(env, elect.Left, elect.Message{Type: hpLeader, ID: j})
}
