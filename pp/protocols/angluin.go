package protocols

import "github.com/electkit/elect/pp"

// Angluin is the constant-state leader election of Angluin, Aspnes, Diamadi,
// Fischer and Peralta (reference [1] of seed 000, [3] of seed 004; seed 004,
// Table 1, first row, and the "simple leader election" of BackUp, Line 57).
//
// Rules: every agent starts as a leader L; when two leaders meet, the
// responder becomes a follower F (L,L -> L,F); every other pair is unchanged.
// The number of leaders never increases and never reaches zero; the goal is
// exactly one leader, reached after (n-1)^2 steps in expectation under the
// ordered scheduler.
type Angluin struct{ n int }

// Angluin's two states.
const (
	angluinF uint8 = 0
	angluinL uint8 = 1
)

// NewAngluin returns the protocol for n agents.
func NewAngluin(n int) *Angluin { return &Angluin{n: n} }

// Spec describes the instance: goal one leader, monotone leaders, 2 states.
func (p *Angluin) Spec() pp.Spec {
	nn := int64(p.n)
	return pp.Spec{Name: "angluin", Goal: pp.GoalOneLeader, Monotone: true, StateSpace: 2, DefaultMaxSteps: 100*nn*nn + 1000}
}

// Init makes every agent a leader.
func (p *Angluin) Init(int) uint8 { return angluinL }

// Interact applies L,L -> L,F.
func (p *Angluin) Interact(a, b *uint8) pp.Delta {
	if *a&*b == angluinL {
		*b = angluinF
		return pp.Delta{Leaders: -1}
	}
	return pp.Delta{}
}

// IsLeader is the output function.
func (p *Angluin) IsLeader(s uint8) bool { return s == angluinL }

// Index is the state itself.
func (p *Angluin) Index(s uint8) uint64 { return uint64(s) }

// StateName names the two states for traces: L (leader) and F (follower).
func (p *Angluin) StateName(s uint8) (name, output string) {
	if s == angluinL {
		return "L", "L"
	}
	return "F", "F"
}
