package protocols

import "github.com/electkit/elect/pp"

// Census methods (pp.Census) of the anonymous protocols: every agent starts
// in the same state, so the count-based engines build the initial
// configuration without one Init call per agent and accept n up to
// pp.MaxCountN. Numbered protocols (epidemic, epidemic-term,
// numbered-known) have no census: their n initial states are distinct.

// Census: all n agents are leaders.
func (p *Angluin) Census(n int64) []pp.StateCount[uint8] {
	return []pp.StateCount[uint8]{{State: p.Init(0), Count: n}}
}

// Census: all n agents start in Init's state (leader, status X, epoch 1).
func (p *PLL) Census(n int64) []pp.StateCount[uint32] {
	return []pp.StateCount[uint32]{{State: p.Init(0), Count: n}}
}

// AgentArrayOnly keeps epidemic-term on the agent array: its outcome
// (correct or premature declaration) is judged from the protocol's own
// event bookkeeping in Interact, which transitions cached per state pair
// would not replay.
func (p *EpidemicTerm) AgentArrayOnly() string {
	return "its declaration is judged from per-interaction bookkeeping that the count engines' cached transitions would skip"
}
