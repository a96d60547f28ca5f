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
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendInt(b, int64(p.maxID))
	b = elect.AppendBool(b, p.leader)
	return elect.AppendBool(b, p.announce)
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
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendInt(b, p.phase)
	b = elect.AppendInt(b, p.replied)
	b = elect.AppendBool(b, p.elected)
	return elect.AppendBool(b, p.announce)
}

// Clone implements elect.Snapshotter: the buffer of later probes is copied.
func (p *petersonNode) Clone() elect.Node {
	c := *p
	c.later = append([]elect.Message(nil), p.later...)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *petersonNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendInt(b, int64(p.current))
	b = elect.AppendInt(b, int64(p.id2))
	b = elect.AppendInt(b, p.phase)
	for _, f := range [...]bool{p.second, p.relay, p.elected, p.tagged, p.announce} {
		b = elect.AppendBool(b, f)
	}
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
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendInt(b, int64(p.round))
	b = elect.AppendBool(b, p.active)
	b = elect.AppendBool(b, p.elected)
	b = elect.AppendBool(b, p.announce)
	for _, s := range p.side {
		b = elect.AppendBool(b, s.got)
		b = elect.AppendBool(b, s.early)
		b = elect.AppendInt(b, int64(s.id))
		b = elect.AppendInt(b, int64(s.earlyID))
	}
	return b
}

// Clone implements elect.Snapshotter.
func (p *lcrRandomNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter: the key drawn is state.
func (p *lcrRandomNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendUint(b, uint64(p.bits))
	b = elect.AppendInt(b, p.key.r)
	b = elect.AppendInt(b, int64(p.key.id))
	b = elect.AppendInt(b, p.maxKey.r)
	b = elect.AppendInt(b, int64(p.maxKey.id))
	b = elect.AppendBool(b, p.leader)
	return elect.AppendBool(b, p.announce)
}

// Clone implements elect.Snapshotter.
func (p *timeSliceNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *timeSliceNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendInt(b, p.n)
	b = elect.AppendInt(b, int64(p.leaderID))
	return elect.AppendBool(b, p.elected)
}

// Clone implements elect.Snapshotter.
func (p *slowFastNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter: the message waiting in
// OUT_BUFFER and the timer generation are state.
func (p *slowFastNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	for _, f := range [...]bool{p.literal, p.literalWake, p.woken, p.waking, p.active, p.elected} {
		b = elect.AppendBool(b, f)
	}
	b = elect.AppendInt(b, int64(p.smaller))
	b = appendMessage(b, p.out)
	b = elect.AppendBool(b, p.pending)
	b = elect.AppendInt(b, p.timeout)
	return elect.AppendInt(b, p.gen)
}

// Clone implements elect.Snapshotter.
func (p *itaiRodehNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter: the id drawn in the current
// round is state.
func (p *itaiRodehNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, p.n)
	for _, f := range [...]bool{p.woken, p.active, p.elected} {
		b = elect.AppendBool(b, f)
	}
	b = elect.AppendInt(b, p.round)
	return elect.AppendInt(b, p.id)
}

// appendMessage appends a message's four fields to a state encoding.
func appendMessage(b []byte, m elect.Message) []byte {
	b = elect.AppendUint(b, uint64(m.Type))
	b = elect.AppendInt(b, int64(m.ID))
	b = elect.AppendInt(b, m.A)
	return elect.AppendInt(b, m.B)
}

// Clone implements elect.Snapshotter.
func (p *dkrNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *dkrNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendInt(b, int64(p.max))
	b = elect.AppendInt(b, int64(p.left))
	for _, f := range [...]bool{p.second, p.relay, p.elected, p.announce, p.b} {
		b = elect.AppendBool(b, f)
	}
	b = elect.AppendInt(b, int64(p.phase))
	return elect.AppendUint(b, uint64(p.state))
}

// Clone implements elect.Snapshotter.
func (p *hpNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *hpNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendInt(b, int64(p.lastLabel))
	b = elect.AppendInt(b, p.lastRound)
	for _, f := range [...]bool{p.started, p.elected, p.announce} {
		b = elect.AppendBool(b, f)
	}
	return b
}

// Clone implements elect.Snapshotter.
func (p *krsNode) Clone() elect.Node { c := *p; return &c }

// AppendState implements elect.Snapshotter.
func (p *krsNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	for _, f := range [...]bool{p.started, p.passive, p.waiting, p.elected, p.announce} {
		b = elect.AppendBool(b, f)
	}
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
	b = elect.AppendInt(b, int64(p.self))
	b = elect.AppendInt(b, p.n)
	b = elect.AppendInt(b, p.k)
	for _, f := range [...]bool{p.started, p.active, p.elected} {
		b = elect.AppendBool(b, f)
	}
	b = elect.AppendInt(b, p.bit)
	b = elect.AppendInt(b, p.id)
	for _, s := range p.side {
		b = elect.AppendBool(b, s.got)
		b = elect.AppendBool(b, s.early)
		b = elect.AppendInt(b, s.id)
		b = elect.AppendInt(b, s.earlyID)
		b = elect.AppendInt(b, s.earlyHop)
	}
	return b
}
