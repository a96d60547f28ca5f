package general

import "github.com/electkit/elect"

// The general-graph nodes implement elect.Snapshotter: Clone copies them
// (their slices deeply), AppendState writes each field in declaration
// order, a slice as its length and then its elements (elect.AppendList).

func appendPort(b []byte, q elect.Port) []byte { return elect.AppendInt(b, int64(q)) }

// Clone implements elect.Snapshotter.
func (p *echoNode) Clone() elect.Node {
	c := *p
	c.children = append([]elect.Port(nil), p.children...)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *echoNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), int64(p.wave), int64(p.father), int64(p.degree), int64(p.received))
	return elect.AppendList(b, p.children, appendPort)
}

// Clone implements elect.Snapshotter.
func (p *floodNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *floodNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), int64(p.maxUID), p.diam, int64(p.degree))
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
	b = elect.AppendList(b, p.weights, func(b []byte, w elect.Weight) []byte { return elect.AppendInt(b, int64(w)) })
	b = elect.AppendList(b, p.edges, func(b []byte, e ghsEdge) []byte { return elect.AppendUint(b, uint64(e)) })
	b = elect.AppendUint(b, uint64(p.state))
	b = elect.AppendInts(b, p.level, int64(p.name), int64(p.inBranch), int64(p.bestEdge), int64(p.bestWt),
		int64(p.testEdge), p.findCount)
	b = elect.AppendBool(b, p.halted)
	b = elect.AppendList(b, p.deferred, appendGHSDeferred)
	b = elect.AppendList(b, p.byWeight, appendPort)
	return elect.AppendInt(b, p.basicFrom)
}

func appendGHSDeferred(b []byte, d ghsDeferred) []byte {
	b = elect.AppendInt(b, int64(d.from))
	b = elect.AppendUint(b, uint64(d.msg.Type))
	return elect.AppendInts(b, int64(d.msg.ID), d.msg.A, d.msg.B)
}
