package ring

import (
	"fmt"

	"github.com/electkit/elect"
)

// StagesWithFeedback is the election of E. Korach, D. Rotem and N. Santoro
// with feedback ("stages with feedback"; Korach, Rotem and Santoro,
// "Distributed election in a circle without a global sense of
// orientation", Int. J. Computer Mathematics 16, 1984) on a bidirectional
// ring with FIFO links; it uses no orientation (only "the other port").
// Every node starts as a candidate; a stage:
//
//   - every candidate sends (E, i) on both ports; passive nodes pass E
//     messages on;
//   - a candidate with the values vl, vr of its two nearest candidates
//     computes y = max(i, vl, vr); if y > i it sends the feedback (A, y)
//     back towards the candidate holding y (both ways when the two
//     neighbours are one candidate, as with two candidates left) and is
//     defeated; passive nodes pass A messages on, and the one they are
//     addressed to takes them;
//   - a candidate that got (A, i) from both sides starts the next stage; one
//     that gets an E message of the next stage on a side without feedback
//     has been passed over by that neighbour and is defeated;
//   - a candidate whose own (E, i) comes back on both ports is the only one
//     left: it is elected; with --announce it sends (T, i) round the ring.
//
// A survivor beats its two nearest candidates on each side (they gave it
// feedback because it is the largest they saw), so survivors are at least
// three candidates apart: of c >= 3 candidates at most floor(c/3) survive,
// and the maximum always does (elect.ElectsMax). A stage costs 2n E
// messages and at most n feedbacks (one per gap between neighbouring
// candidates: two neighbours cannot both be the larger), the last stage 2n
// E messages: at most 3n*S + 2n with S <= ceil(log3 n) stages before the
// last, the papers' 3n log3 n + O(n) ~ 1.89 n lg n.
//
// The rules follow a course summary of the algorithm (docs/breadth.md: the
// paper was not available to the search tools); two readings are ours and
// commented where they are made: a candidate that sends feedback is
// defeated at once (the summary keeps it waiting until the next stage's E
// message arrives, which it then passes on: the same messages), and the
// two-candidate tie above. Messages carry no stage: with FIFO links a
// second E message from the same side can only be of the next stage, and a
// candidate keeps it until it gets there.
var StagesWithFeedback = &elect.Algorithm{
	Name:   "stages-with-feedback",
	Title:  "Korach-Rotem-Santoro stages with feedback (bidirectional)",
	Source: "Korach, Rotem and Santoro 1984, stages with feedback",
	Summary: "Candidates send their ID both ways; each candidate sends a feedback to the larger of its two nearest " +
		"candidates if that beats its own ID; a candidate with feedback from both sides survives, one in three at most.",
	Model: elect.Model{
		Topology: elect.BiRing, Sync: true, Async: true, FIFO: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMax, Announce: elect.OptionalAnnounce,
	},
	Growth: elect.Growth{Messages: "n lg n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "E", Fields: []string{"i"}},
		{Name: "A", Fields: []string{"y"}},
		{Name: "T", Fields: []string{"i"}},
	},
	Bounds: []elect.Bound{
		{Name: "election messages", Quantity: elect.Messages, Types: []string{"E", "A"}, Relation: elect.AtMost,
			Formula: "3n*S(n) + 2n, S(n) the stages before the last (c -> max(1, floor(c/3)) from n; <= ceil(log3 n))",
			Source:  "Korach, Rotem and Santoro 1984 (3n log3 n + O(n)); the constant derived in ring/krs.go",
			Value:   func(c elect.BoundContext) float64 { return float64(c.N) * float64(3*krsStages(c.N)+2) }},
		{Name: "E messages", Quantity: elect.Messages, Types: []string{"E"}, Relation: elect.AtMost,
			Formula: "2n(S(n)+1)", Source: "each link carries one E each way per stage",
			Value: func(c elect.BoundContext) float64 { return 2 * float64(c.N) * float64(krsStages(c.N)+1) }},
		{Name: "E messages", Quantity: elect.Messages, Types: []string{"E"}, Relation: elect.AtLeast,
			Formula: "4n (2n if n = 1)", Source: "with n >= 2 candidates the first stage is not the last",
			Value: boundTwoRounds},
		announcementBound("T", "the termination message goes round the ring"),
	},
	New:  krsNodes.New,
	Init: krsNodes.Init,
}

var krsNodes = elect.NodesOf(func(p *krsNode, info elect.NodeInfo) {
	*p = krsNode{id: info.ID, announce: info.Announce}
})

// krsStages is S(n): the stages with two or more candidates in the worst
// case, c -> max(1, floor(c/3)) from c = n until one is left.
func krsStages(n int) int {
	s := 0
	for c := n; c >= 2; s++ {
		c = max(1, c/3)
	}
	return s
}

// Message types of StagesWithFeedback, in the order of its Messages.
const (
	krsE elect.MsgType = iota
	krsA
	krsT
)

// krsSide is what a candidate has from one port in its current stage.
type krsSide struct {
	got      bool     // the E message of this stage is in
	v        elect.ID // its value
	early    bool     // an E message of the next stage is in (kept)
	earlyV   elect.ID
	feedback bool // (A, id) arrived from this side
}

type krsNode struct {
	id       elect.ID
	started  bool
	passive  bool
	waiting  bool // sent its stage's feedback decision, waits for (A, id) from both sides
	elected  bool
	announce bool
	side     [2]krsSide
}

func (p *krsNode) Wake(env elect.Env, spontaneous bool) {
	p.start(env)
}

func (p *krsNode) start(env elect.Env) {
	p.started = true
	p.sendE(env)
}

func (p *krsNode) sendE(env elect.Env) {
	m := elect.Message{Type: krsE, ID: p.id}
	env.Send(elect.Left, m)
	env.Send(elect.Right, m)
}

func (p *krsNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if !p.started {
		p.start(env) // woken by a message: a late start as a candidate
	}
	switch {
	case m.Type == krsT:
		p.handleT(env, from, m.ID)
	case p.passive:
		if m.Type == krsA && m.ID == p.id {
			return // feedback to a defeated candidate: no longer needed
		}
		env.Send(from.Opposite(), m)
	case p.elected:
		// The second copy of its own E message.
	case m.Type == krsA:
		if m.ID != p.id {
			panic(fmt.Sprintf("ring: stages-with-feedback candidate %d got feedback for %d", p.id, m.ID))
		}
		p.side[from].feedback = true
		p.maybeNextStage(env)
	case m.Type == krsE:
		p.handleE(env, from, m.ID)
	}
}

// handleE takes an E message on port from: this stage's if none came from
// that side yet, else the next stage's.
func (p *krsNode) handleE(env elect.Env, from elect.Port, v elect.ID) {
	s := &p.side[from]
	switch {
	case !s.got:
		s.got, s.v = true, v
		if !p.waiting {
			p.maybeDecide(env)
		}
	case p.waiting && !s.feedback:
		// The neighbour on this side passed the next stage's E message on
		// without a feedback first (FIFO): this candidate lost.
		p.becomePassive(env)
		env.Send(from.Opposite(), elect.Message{Type: krsE, ID: v})
	case !s.early:
		s.early, s.earlyV = true, v
	default:
		panic(fmt.Sprintf("ring: stages-with-feedback candidate %d got a third E message from port %d", p.id, from))
	}
}

// maybeDecide ends the E part of a stage once both neighbours' values are
// in.
func (p *krsNode) maybeDecide(env elect.Env) {
	l, r := p.side[elect.Left], p.side[elect.Right]
	if !l.got || !r.got {
		return
	}
	if l.v == p.id && r.v == p.id {
		p.becomeLeader(env)
		return
	}
	y := max(p.id, l.v, r.v)
	if y == p.id {
		if (l.early && !l.feedback) || (r.early && !r.feedback) {
			// A neighbour passed the next stage's E message on before
			// this candidate finished its stage, without a feedback
			// first (FIFO): it lost.
			p.becomePassive(env)
			return
		}
		p.waiting = true
		p.maybeNextStage(env)
		return
	}
	// Feedback to the candidate holding y, through the port its value came
	// in on; both ports when the two neighbours are the same candidate
	// (our reading of the two-candidate case, which the rule leaves open).
	for _, port := range [...]elect.Port{elect.Left, elect.Right} {
		if p.side[port].v == y {
			env.Send(port, elect.Message{Type: krsA, ID: y})
		}
	}
	// Defeated at once (our reading; the summary waits for the next
	// stage's E message and then passes it on, the same messages).
	p.becomePassive(env)
}

// maybeNextStage starts the next stage when both feedbacks are in.
func (p *krsNode) maybeNextStage(env elect.Env) {
	if !p.waiting || !p.side[0].feedback || !p.side[1].feedback {
		return
	}
	p.waiting = false
	for i := range p.side {
		s := &p.side[i]
		*s = krsSide{got: s.early, v: s.earlyV}
	}
	p.sendE(env)
	p.maybeDecide(env)
}

// becomePassive turns the candidate into a relay; E messages of the next
// stage it kept are addressed to candidates further on.
func (p *krsNode) becomePassive(env elect.Env) {
	p.passive, p.waiting = true, false
	for i := range p.side {
		if s := p.side[i]; s.early {
			env.Send(elect.Port(i).Opposite(), elect.Message{Type: krsE, ID: s.earlyV})
		}
	}
	p.side = [2]krsSide{}
}

func (p *krsNode) becomeLeader(env elect.Env) {
	p.elected = true
	claimLeadership(env, p.announce, elect.Message{Type: krsT, ID: p.id})
}

// handleT passes the termination message on, away from the port it came
// from, until it is back at the leader.
func (p *krsNode) handleT(env elect.Env, from elect.Port, j elect.ID) {
	if p.elected {
		return
	}
	passOnLeader(env, from.Opposite(), elect.Message{Type: krsT, ID: j})
}
