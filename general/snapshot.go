package general

import "github.com/electkit/elect"

// Both general-graph nodes implement elect.Snapshotter: Clone copies them
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
