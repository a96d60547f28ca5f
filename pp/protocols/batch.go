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

// InteractUntil implements pp.Batcher. The plain cases of Algorithm 2 (a
// follower adopts a larger value that is not the maximum; equal values other
// than the maximum) are written out here; every other interaction goes
// through Interact.
func (p *Epidemic) InteractUntil(s []uint32, pairs []pp.Pair) (int, pp.Delta) {
	top := p.max
	for i, pr := range pairs {
		if pr.U == pr.V {
			continue
		}
		a, b := &s[pr.U], &s[pr.V]
		x, y := *a, *b
		lx, ly := x&numValueMask, y&numValueMask
		switch {
		case lx > ly && y&numLeaderBit == 0 && lx != top:
			*b = lx
			continue
		case lx < ly && x&numLeaderBit == 0 && ly != top:
			*a = ly
			continue
		case lx == ly && lx != top && (x&numLeaderBit == 0 || !p.literal):
			continue
		}
		if d := p.Interact(a, b); d != (pp.Delta{}) {
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
