package pp_test

import "github.com/electkit/elect/pp"

// classClimb is a test protocol with partner classes (pp.PartnerClasser)
// and many states, so that the count engines' epochs match it class by
// class: a state is a class k < 4 and a value v < 32 (128 states); the
// initiator adds its partner's class plus one to its value, the responder
// twice the initiator's class plus one, and an agent whose value wraps
// climbs one class (class 3 keeps it). The goal is n/2 agents in class 3.
type classClimb struct{ n int64 }

func (p classClimb) Spec() pp.Spec {
	return pp.Spec{Name: "class-climb", Goal: pp.GoalCount, Target: p.n / 2, StateSpace: 128, DefaultMaxSteps: 1000 * p.n}
}
func (classClimb) Init(int) uint8 { return 0 }
func (classClimb) Census(n int64) []pp.StateCount[uint8] {
	return []pp.StateCount[uint8]{{State: 0, Count: n}}
}
func (classClimb) IsLeader(uint8) bool         { return false }
func (classClimb) InGoal(s uint8) bool         { return s>>5 == 3 }
func (classClimb) Index(s uint8) uint64        { return uint64(s) }
func (classClimb) PartnerClass(s uint8) uint64 { return uint64(s >> 5) }

func (classClimb) Interact(a, b *uint8) pp.Delta {
	ka, kb := *a>>5, *b>>5
	climb := func(k, v uint8) uint8 {
		if v >= 32 {
			v -= 32
			k = min(k+1, 3)
		}
		return k<<5 | v
	}
	x, y := climb(ka, *a&31+kb+1), climb(kb, *b&31+2*ka+1)
	var d pp.Delta
	d.Goal = int32(b2i(x>>5 == 3) + b2i(y>>5 == 3) - b2i(ka == 3) - b2i(kb == 3))
	*a, *b = x, y
	return d
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
