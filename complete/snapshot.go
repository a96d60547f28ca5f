package complete

import "github.com/electkit/elect"

// Both complete-graph nodes implement elect.Snapshotter: Clone copies them
// (Afek-Gafni's queue of held-back arrivals and its moved links deeply),
// AppendState writes each field in declaration order.

// Clone implements elect.Snapshotter.
func (p *allToAllNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *allToAllNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendInt(b, int64(p.max))
	b = elect.AppendInt(b, int64(p.heard))
	return elect.AppendInt(b, int64(p.degree))
}

// Clone implements elect.Snapshotter.
func (p *agNode) Clone() elect.Node {
	c := *p
	c.queue = append([]agArrival(nil), p.queue...)
	c.moved = append([]agMove(nil), p.moved...)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *agNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	for _, v := range [...]int64{int64(p.degree), int64(p.level), int64(p.start), int64(p.ownerLevel), int64(p.ownerID), int64(p.father), int64(p.potentialFather)} {
		b = elect.AppendInt(b, v)
	}
	b = elect.AppendUint(b, uint64(len(p.moved)))
	for _, m := range p.moved {
		b = elect.AppendInt(b, int64(m.pos))
		b = elect.AppendInt(b, int64(m.link))
	}
	b = elect.AppendUint(b, uint64(len(p.queue)))
	for _, a := range p.queue {
		b = elect.AppendInt(b, int64(a.from))
		b = elect.AppendInt(b, int64(a.level))
		b = elect.AppendInt(b, int64(a.id))
	}
	b = elect.AppendInt(b, int64(p.counter))
	b = elect.AppendUint(b, uint64(p.status))
	b = elect.AppendBool(b, p.leader)
	b = elect.AppendUint(b, uint64(p.order))
	return elect.AppendUint(b, uint64(p.variant))
}
