package ring

import (
	"fmt"
	"math"

	"github.com/electkit/elect"
)

// DolevKlaweRodeh is the basic unidirectional algorithm of D. Dolev, M.
// Klawe and M. Rodeh, "An O(n log n) unidirectional distributed algorithm for
// extrema finding in a circle", J. Algorithms 3(3):245-260, 1982 (its first,
// "simple" algorithm, the one the abstract bounds by 2n log n + O(n); found
// independently by Peterson, see ring/peterson.go). Messages go clockwise
// and channels are FIFO. Every process starts active with max = its ID:
//
//	active: send (1, max); wait for (1, left)
//	    if left = max: max is the maximum ID; this process is elected
//	    else: send (2, left); wait for (2, leftleft)
//	        if left > leftleft and left > max: max <- left (next phase)
//	        else: become relay
//	relay: pass every message on
//
// The difference from seed 001's Algorithm 5.2 (ring/peterson.go) is where
// the end is seen: an active process that gets its own max back in the
// first message of a phase is the only one left, so the last phase costs n
// messages, not 2n.
//
// Messages (derived, and checked exactly in the tests): in every phase with
// two or more active processes each link carries one (1, .) and one (2, .)
// message, 2n; the last phase carries n (1, .) messages. Two neighbouring
// active processes cannot both survive a phase, so at most floor(lg n)+1
// phases: at most 2n*floor(lg n) + n messages, the paper's 2n log n + O(n)
// with its constant. The (1, .) messages exceed the (2, .) ones by exactly n.
//
// --variant b is the paper's improved algorithm B (1.5n log n + O(n)),
// whose rules are in ring/dkrb.go. The paper's closing remark on Peterson's
// algorithm (1.356n log n + O(n)) is not here (docs/breadth.md).
//
// A process woken by a message starts active (a late start, as in
// Peterson's algorithm), so any set of initiators works. The elected process
// holds the maximum as max but need not own it (elect.ElectsAnyKnowsMax);
// with --announce it sends a "leader" message round the ring (n more).
var DolevKlaweRodeh = &elect.Algorithm{
	Name:   "dolev-klawe-rodeh",
	Title:  "Dolev-Klawe-Rodeh (unidirectional; basic algorithm, or algorithm B with --variant b)",
	Source: "Dolev, Klawe and Rodeh, J. Algorithms 1982, the simple algorithm and algorithm B",
	Summary: "Active processes send their max and relay their predecessor's once; a process keeps its predecessor's value " +
		"if it beats both its own and the one before; the process that gets its own max back first is elected.",
	Model: elect.Model{
		Topology: elect.UniRing, Sync: true, Async: true, FIFO: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsAnyKnowsMax, Announce: elect.OptionalAnnounce,
	},
	Growth: elect.Growth{Messages: "n lg n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "m1", Fields: []string{"left"}},
		{Name: "m2", Fields: []string{"leftleft"}},
		{Name: "leader", Fields: []string{"j"}},
		{Name: "M1", Fields: []string{"value", "phase", "counter"}},
		{Name: "M2", Fields: []string{"value"}},
	},
	Bounds: []elect.Bound{
		{Name: "election messages", Quantity: elect.Messages, Types: []string{"m1", "m2"}, Relation: elect.AtMost,
			Formula: "2n*floor(lg n) + n", Source: "Dolev, Klawe and Rodeh 1982 (2n log n + O(n)); the constant derived in ring/dkr.go",
			Value:   func(c elect.BoundContext) float64 { return float64(c.N) * float64(2*elect.FloorLog2(c.N)+1) },
			Applies: dkrBasic},
		{Name: "election messages", Quantity: elect.Messages, Types: []string{"m1", "m2"}, Relation: elect.AtLeast,
			Formula: "3n (n if n = 1)", Source: "with n >= 2 active processes the first phase is not the last: 2n, then n",
			Value: func(c elect.BoundContext) float64 {
				if c.N == 1 {
					return 1
				}
				return 3 * float64(c.N)
			},
			Applies: dkrBasic},
		announcementBound("leader", "announcement round the ring"),
		// When every process wakes at time 0: if every active process has
		// started phase k by T, each has both messages of the phase by T + n
		// (they cross the gap to the previous active process and the one
		// before it), and the last phase ends by T + n.
		{Name: "time", Quantity: elect.Time, Relation: elect.AtMost,
			Formula: "n(floor(lg n)+1) (+n with announcement)",
			Source: "a phase with two or more active processes takes at most n (a message crosses two gaps), the last one n; " +
				"at most floor(lg n)+1 phases",
			Value:   lgRoundsTime,
			Applies: func(c elect.BoundContext) bool { return dkrBasic(c) && c.AllAtZero && !c.CausalTime }},
		dkrBBound,
		dkrBLeast,
	},
	Params: []elect.Param{{
		Name: "variant", Default: "basic",
		Help:  "basic (the simple algorithm: m1 and m2 in every phase) or b (algorithm B: M1 with a hop counter, M2 only from a process that lost; ring/dkrb.go)",
		Check: checkDKRVariant,
	}},
	New:  dkrNodes.New,
	Init: dkrNodes.Init,
}

var dkrNodes = elect.NodesOf(func(p *dkrNode, info elect.NodeInfo) {
	*p = dkrNode{id: info.ID, max: info.ID, announce: info.Announce, b: info.Params.String("variant") == "b"}
})

// dkrBasic reports whether a run is of the basic algorithm.
func dkrBasic(c elect.BoundContext) bool { return c.Params.String("variant") != "b" }

func checkDKRVariant(v string) error {
	if v != "basic" && v != "b" {
		return fmt.Errorf("unknown variant %q; use basic or b", v)
	}
	return nil
}

// Message types of DolevKlaweRodeh, in the order of its Messages.
const (
	dkrM1 elect.MsgType = iota
	dkrM2
	dkrLeader
	dkrBM1
	dkrBM2
)

type dkrNode struct {
	id       elect.ID
	max      elect.ID
	left     elect.ID
	second   bool // waiting for (2, leftleft), not (1, left)
	relay    bool
	elected  bool
	announce bool
	b        bool   // --variant b (ring/dkrb.go)
	phase    int32  // b: the phase
	state    bState // b: active, waiting or passive
}

func (p *dkrNode) Wake(env elect.Env, spontaneous bool) {
	if p.b {
		p.sendBM1(env)
		return
	}
	// Initiator or not, the process starts active: send (1, max).
	env.Send(elect.Left, elect.Message{Type: dkrM1, ID: p.max})
}

func (p *dkrNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if p.b && m.Type != dkrLeader {
		p.receiveB(env, m)
		return
	}
	switch {
	case m.Type == dkrLeader:
		p.handleLeader(env, m.ID)
	case p.relay:
		env.Send(elect.Left, m)
	case p.elected:
		// Nothing else is addressed to the last active process.
	case m.Type == dkrM1 && !p.second:
		p.handleLeft(env, m.ID)
	case m.Type == dkrM2 && p.second:
		p.handleLeftLeft(env, m.ID)
	default:
		// With FIFO links an active process gets (1, .) and (2, .)
		// alternately, from the nearest active process before it.
		panic(fmt.Sprintf("ring: dolev-klawe-rodeh process got message type %d out of turn", m.Type))
	}
}

// handleLeft is "wait for (1, left)".
func (p *dkrNode) handleLeft(env elect.Env, left elect.ID) {
	if left == p.max {
		p.becomeLeader(env)
		return
	}
	p.left, p.second = left, true
	env.Send(elect.Left, elect.Message{Type: dkrM2, ID: left})
}

// handleLeftLeft is "wait for (2, leftleft)" and the phase's test.
func (p *dkrNode) handleLeftLeft(env elect.Env, leftleft elect.ID) {
	p.second = false
	if p.left > leftleft && p.left > p.max {
		p.max = p.left
		env.Send(elect.Left, elect.Message{Type: dkrM1, ID: p.max})
		return
	}
	p.relay = true
}

func (p *dkrNode) becomeLeader(env elect.Env) {
	p.elected = true
	claimLeadership(env, p.announce, elect.Message{Type: dkrLeader, ID: p.max})
}

// handleLeader passes the announcement on until it is back at the leader.
func (p *dkrNode) handleLeader(env elect.Env, j elect.ID) {
	if p.elected {
		return
	}
	passOnLeader(env, elect.Left, elect.Message{Type: dkrLeader, ID: j})
}

// The bounds of --variant b (ring/dkrb.go).
var (
	dkrBBound = elect.Bound{
		Name: "election messages (b)", Quantity: elect.Messages, Types: []string{"M1", "M2"}, Relation: elect.AtMost,
		Formula: "1.5n lg n + n",
		Source: "Dolev, Klawe and Rodeh 1982, algorithm B (1.5n log n + O(n)); the O(n) term's constant n is chosen here, " +
			"the paper's was not available (bit-reversal rings of 2^k reach 1.5n lg n + 1)",
		Value:   func(c elect.BoundContext) float64 { return 1.5*float64(c.N)*math.Log2(float64(c.N)) + float64(c.N) },
		Applies: func(c elect.BoundContext) bool { return !dkrBasic(c) },
	}
	dkrBLeast = elect.Bound{
		Name: "election messages (b, least)", Quantity: elect.Messages, Types: []string{"M1", "M2"}, Relation: elect.AtLeast,
		Formula: "n", Source: "the maximum's value goes round the ring",
		Value:   boundN,
		Applies: func(c elect.BoundContext) bool { return !dkrBasic(c) },
	}
)
