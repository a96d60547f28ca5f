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

// FinishCounts gives the count engines the details of Finish that do not
// depend on per-agent side effects: the parameters and the largest epoch
// reached (epochs never decrease, so it is the largest epoch of the final
// configuration). The steps at which epochs 2 and 3 began, and the leaders
// then, come from events, which only the agent array records; they are
// absent here.
func (p *PLL) FinishCounts(counts []pp.StateCount[uint32], r *pp.Result) {
	r.Add("m", p.m)
	r.Add("c_max", p.cmax)
	r.Add("variant", p.variant)
	var top uint8 = 1
	for _, sc := range counts {
		if sc.Count > 0 {
			top = max(top, unpack(sc.State).epoch)
		}
	}
	r.Add("max_epoch", top)
}

// FinishCounts records the parameters on the count engines (the Theorem 2
// and 3 counters are side effects of Interact, which the count engines call
// once per state pair, so they are absent here).
func (p *Epidemic) FinishCounts(_ []pp.StateCount[uint32], r *pp.Result) {
	r.Add("variant", variantName(p.literal))
	r.Add("max_id", p.n)
}

// FinishCounts records the leader's ID, as Finish.
func (p *NumberedKnown) FinishCounts(_ []pp.StateCount[uint32], r *pp.Result) {
	r.Add("leader_id", p.n)
}
