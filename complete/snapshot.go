package complete

import "github.com/electkit/elect"

// The complete-graph nodes implement elect.Snapshotter: Clone copies them
// (their queues, vassals and moved links deeply), AppendState writes each
// field in declaration order, a slice as its length and then its elements
// (elect.AppendList).

func appendPort(b []byte, q elect.Port) []byte { return elect.AppendInt(b, int64(q)) }

func appendMove(b []byte, m agMove) []byte { return elect.AppendInts(b, int64(m.pos), int64(m.link)) }

// Clone implements elect.Snapshotter.
func (p *allToAllNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *allToAllNode) AppendState(b []byte) []byte {
	return elect.AppendInts(b, int64(p.id), int64(p.max), int64(p.heard), int64(p.degree))
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
	b = elect.AppendInts(b, int64(p.id), int64(p.degree), int64(p.level), int64(p.start),
		int64(p.ownerLevel), int64(p.ownerID), int64(p.father), int64(p.potentialFather))
	b = elect.AppendList(b, p.moved, appendMove)
	b = elect.AppendList(b, p.queue, appendArrival)
	b = elect.AppendInt(b, int64(p.counter))
	b = elect.AppendUint(b, uint64(p.status))
	b = elect.AppendBool(b, p.leader)
	b = elect.AppendUint(b, uint64(p.order))
	return elect.AppendUint(b, uint64(p.variant))
}

func appendArrival(b []byte, a agArrival) []byte {
	return elect.AppendInts(b, int64(a.from), int64(a.level), int64(a.id))
}
