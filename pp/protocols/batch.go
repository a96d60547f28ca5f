package protocols

import "elect/pp"

// The InteractUntil methods below implement pp.Batcher: the same loop for
// each protocol, so that the transition function is called directly (and
// inlined where small) rather than once per interaction through the generic
// engine.

// InteractUntil implements pp.Batcher.
func (p *Angluin) InteractUntil(s []uint8, pairs []pp.Pair) (int, pp.Delta) {
	for i, pr := range pairs {
		if pr.U == pr.V {
			continue
		}
		if d := p.Interact(&s[pr.U], &s[pr.V]); d != (pp.Delta{}) {
			return i, d
		}
	}
	return len(pairs), pp.Delta{}
}

// InteractUntil implements pp.Batcher.
func (p *Epidemic) InteractUntil(s []uint32, pairs []pp.Pair) (int, pp.Delta) {
	for i, pr := range pairs {
		if pr.U == pr.V {
			continue
		}
		if d := p.Interact(&s[pr.U], &s[pr.V]); d != (pp.Delta{}) {
			return i, d
		}
	}
	return len(pairs), pp.Delta{}
}

// InteractUntil implements pp.Batcher.
func (p *PLL) InteractUntil(s []uint32, pairs []pp.Pair) (int, pp.Delta) {
	for i, pr := range pairs {
		if pr.U == pr.V {
			continue
		}
		if d := p.Interact(&s[pr.U], &s[pr.V]); d != (pp.Delta{}) {
			return i, d
		}
	}
	return len(pairs), pp.Delta{}
}
