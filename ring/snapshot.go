package ring

import "github.com/electkit/elect"

// Every ring node implements elect.Snapshotter: Clone copies it (deeply,
// where it holds a slice), AppendState writes each of its fields in
// declaration order. The simulator's symmetry detection compares these
// encodings between the rounds of an anonymous synchronous run (seed 001,
// Lemma 5.1.1), and the reference engine's snapshots rely on Clone.

// Clone implements elect.Snapshotter.
func (p *lcrNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *lcrNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), int64(p.maxID))
	return appendBools(b, p.leader, p.announce)
}

// Clone implements elect.Snapshotter.
func (p *crNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *crNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendBool(b, p.participant)
	return elect.AppendInt(b, int64(p.leaderID))
}

// Clone implements elect.Snapshotter.
func (p *hsNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *hsNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), p.phase, p.replied)
	return appendBools(b, p.elected, p.announce)
}

// Clone implements elect.Snapshotter: the buffer of later probes is copied.
func (p *petersonNode) Clone() elect.Node {
	c := *p
	c.later = append([]elect.Message(nil), p.later...)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *petersonNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), int64(p.current), int64(p.id2), p.phase)
	b = appendBools(b, p.second, p.relay, p.elected, p.tagged, p.announce)
	b = elect.AppendUint(b, uint64(len(p.later)))
	for _, m := range p.later {
		b = appendMessage(b, m)
	}
	return b
}

// Clone implements elect.Snapshotter.
func (p *franklinNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *franklinNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), int64(p.round))
	b = appendBools(b, p.active, p.elected, p.announce)
	for _, s := range p.side {
		b = appendBools(b, s.got, s.early)
		b = elect.AppendInts(b, int64(s.id), int64(s.earlyID))
	}
	return b
}

// Clone implements elect.Snapshotter.
func (p *lcrRandomNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter: the key drawn is state.
func (p *lcrRandomNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendUint(b, uint64(p.bits))
	b = elect.AppendInts(b, p.key.r, int64(p.key.id), p.maxKey.r, int64(p.maxKey.id))
	return appendBools(b, p.leader, p.announce)
}

// Clone implements elect.Snapshotter.
func (p *timeSliceNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *timeSliceNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), p.n, int64(p.leaderID))
	return elect.AppendBool(b, p.elected)
}

// Clone implements elect.Snapshotter.
func (p *slowFastNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter: the message waiting in
// OUT_BUFFER and the timer generation are state.
func (p *slowFastNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = appendBools(b, p.literal, p.literalWake, p.woken, p.waking, p.active, p.elected)
	b = elect.AppendInt(b, int64(p.smaller))
	b = appendMessage(b, p.out)
	b = elect.AppendBool(b, p.pending)
	return elect.AppendInts(b, p.timeout, p.gen)
}

// Clone implements elect.Snapshotter.
func (p *itaiRodehNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter: the id drawn in the current
// round is state.
func (p *itaiRodehNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, p.n)
	b = appendBools(b, p.woken, p.active, p.elected)
	return elect.AppendInts(b, p.round, p.id)
}

// appendBools appends each of vs to a state encoding, in order, as
// elect.AppendBool does.
func appendBools(b []byte, vs ...bool) []byte {
	for _, v := range vs {
		b = elect.AppendBool(b, v)
	}
	return b
}

// appendMessage appends a message's four fields to a state encoding.
func appendMessage(b []byte, m elect.Message) []byte {
	b = elect.AppendUint(b, uint64(m.Type))
	return elect.AppendInts(b, int64(m.ID), m.A, m.B)
}

// Clone implements elect.Snapshotter.
func (p *dkrNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *dkrNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), int64(p.max), int64(p.left))
	b = appendBools(b, p.second, p.relay, p.elected, p.announce, p.b)
	b = elect.AppendInt(b, int64(p.phase))
	return elect.AppendUint(b, uint64(p.state))
}

// Clone implements elect.Snapshotter.
func (p *hpNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *hpNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), int64(p.lastLabel), p.lastRound)
	return appendBools(b, p.started, p.elected, p.announce)
}

// Clone implements elect.Snapshotter.
func (p *krsNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *krsNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = appendBools(b, p.started, p.passive, p.waiting, p.elected, p.announce)
	for _, s := range p.side {
		b = elect.AppendBool(b, s.got)
		b = elect.AppendInt(b, int64(s.v))
		b = elect.AppendBool(b, s.early)
		b = elect.AppendInt(b, int64(s.earlyV))
		b = elect.AppendBool(b, s.feedback)
	}
	return b
}

// Clone implements elect.Snapshotter.
func (p *probFranklinNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter: the identity drawn is state.
func (p *probFranklinNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.self), p.n, p.k)
	b = appendBools(b, p.started, p.active, p.elected)
	b = elect.AppendInts(b, p.bit, p.id)
	for _, s := range p.side {
		b = appendBools(b, s.got, s.early)
		b = elect.AppendInts(b, s.id, s.earlyID, s.earlyHop)
	}
	return b
}
