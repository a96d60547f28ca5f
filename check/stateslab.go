package check

import (
	"math/rand/v2"

	"github.com/electkit/elect"
)

// slab hands out copies of slices carved from large blocks, so that a
// search that keeps many states (the breadth-first search for the shortest
// counterexample) allocates a block now and then rather than every part of
// every state. A copy's capacity is its length: an append to it never
// writes into the block.
type slab[T any] struct{ block []T }

// slabBlock is the length of a slab's blocks.
const slabBlock = 1 << 12

// copyOf returns a copy of src from the slab (nil for nil).
func (p *slab[T]) copyOf(src []T) []T {
	if src == nil {
		return nil
	}
	if len(p.block) < len(src) {
		p.block = make([]T, max(slabBlock, len(src)))
	}
	out := p.block[:len(src):len(src)]
	p.block = p.block[len(src):]
	copy(out, src)
	return out
}

// stateSlabs copies states (stateSlabs.clone) from slabs of each of their
// parts.
type stateSlabs struct {
	states  slab[state]
	nodes   slab[snapNode]
	bools   slab[bool]
	decs    slab[elect.Decision]
	ids     slab[elect.ID]
	depths  slab[int64]
	links   slab[[]flight]
	flights slab[flight]
	rngs    slab[rand.PCG]
	keys    slab[stateKey]
}

// clone copies s: its slices, not the nodes or the links' arrays, which
// steps replace rather than change.
func (p *stateSlabs) clone(s *state) *state {
	c := &p.states.copyOf([]state{*s})[0]
	c.nodes, c.woken, c.halted, c.pending = p.nodes.copyOf(s.nodes), p.bools.copyOf(s.woken), p.bools.copyOf(s.halted), p.bools.copyOf(s.pending)
	c.dec, c.knows, c.depth, c.links, c.rngs = p.decs.copyOf(s.dec), p.ids.copyOf(s.knows), p.depths.copyOf(s.depth), p.links.copyOf(s.links), p.rngs.copyOf(s.rngs)
	c.nodeH, c.nodeD, c.linkH, c.linkD = p.keys.copyOf(s.nodeH), p.keys.copyOf(s.nodeD), p.keys.copyOf(s.linkH), p.keys.copyOf(s.linkD)
	if s.crashed != nil {
		c.crashed, c.electHi, c.electLo = p.bools.copyOf(s.crashed), p.ids.copyOf(s.electHi), p.ids.copyOf(s.electLo)
	}
	return c
}
