package general

import "github.com/electkit/elect"

// The general-graph nodes implement elect.Snapshotter: Clone copies them
// (echo's list of children deeply), AppendState writes each field in
// declaration order.

// Clone implements elect.Snapshotter.
func (p *echoNode) Clone() elect.Node {
	c := *p
	c.children = append([]elect.Port(nil), p.children...)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *echoNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendInt(b, int64(p.wave))
	b = elect.AppendInt(b, int64(p.father))
	b = elect.AppendInt(b, int64(p.degree))
	b = elect.AppendInt(b, int64(p.received))
	b = elect.AppendUint(b, uint64(len(p.children)))
	for _, c := range p.children {
		b = elect.AppendInt(b, int64(c))
	}
	return b
}

// Clone implements elect.Snapshotter.
func (p *floodNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *floodNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendInt(b, int64(p.maxUID))
	b = elect.AppendInt(b, p.diam)
	b = elect.AppendInt(b, int64(p.degree))
	b = elect.AppendBool(b, p.onChange)
	return elect.AppendBool(b, p.grew)
}

// Clone implements elect.Snapshotter. The weights are copied too, although
// nodes only read them, so that a clone shares nothing with its original.
func (p *ghsNode) Clone() elect.Node {
	c := *p
	c.weights = append([]elect.Weight(nil), p.weights...)
	c.edges = append([]ghsEdge(nil), p.edges...)
	c.deferred = append([]ghsDeferred(nil), p.deferred...)
	c.byWeight = append([]elect.Port(nil), p.byWeight...)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *ghsNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendUint(b, uint64(len(p.weights)))
	for _, w := range p.weights {
		b = elect.AppendInt(b, int64(w))
	}
	b = elect.AppendUint(b, uint64(len(p.edges)))
	for _, e := range p.edges {
		b = elect.AppendUint(b, uint64(e))
	}
	b = elect.AppendUint(b, uint64(p.state))
	b = elect.AppendInt(b, p.level)
	b = elect.AppendInt(b, int64(p.name))
	b = elect.AppendInt(b, int64(p.inBranch))
	b = elect.AppendInt(b, int64(p.bestEdge))
	b = elect.AppendInt(b, int64(p.bestWt))
	b = elect.AppendInt(b, int64(p.testEdge))
	b = elect.AppendInt(b, p.findCount)
	b = elect.AppendBool(b, p.halted)
	b = elect.AppendUint(b, uint64(len(p.deferred)))
	for _, d := range p.deferred {
		b = elect.AppendInt(b, int64(d.from))
		b = elect.AppendUint(b, uint64(d.msg.Type))
		b = elect.AppendInt(b, int64(d.msg.ID))
		b = elect.AppendInt(b, d.msg.A)
		b = elect.AppendInt(b, d.msg.B)
	}
	b = elect.AppendUint(b, uint64(len(p.byWeight)))
	for _, q := range p.byWeight {
		b = elect.AppendInt(b, int64(q))
	}
	return elect.AppendInt(b, p.basicFrom)
}
