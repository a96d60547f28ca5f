package check

import (
	"math/rand/v2"
	"slices"

	"github.com/electkit/elect"
)

// Known moves. A running node's step on a message is a function of the
// node's part of the state (its encoding, flags, learned leader and random
// stream: what nodePart hashes, without depths) and of the message and the
// port it comes on: the node ends in the same part, and sends the same
// messages on the same links. The search remembers each such move the
// first time it makes it, and at a later state where the same node takes
// the same message in the same part it computes the key of the state the
// step leads to from the move, without copying or running the node: when
// that state has been visited, which is the case for most steps (LCR at
// n = 6 makes 63,816 steps to 22,563 states), the step is counted and its
// extremes taken with nothing changed. Otherwise the step is made in full
// as before. Steps that elect a leader (whose checks depend on the rest of
// the network), wake a node, or reach a halted one are always made in
// full. The key computed is the one the full step would give (the same
// parts, hashed by the same functions), so the search visits the same
// states and takes the same steps either way; TestKnownMovesChangeNothing
// compares the two on every checkable algorithm.

// useKnownMoves turns the shortcut on; the test turns it off to compare.
var useKnownMoves = true

// maxKnownMoves bounds the moves a search remembers.
const maxKnownMoves = 1 << 20

// move is what a node's step does.
type move struct {
	nodeH stateKey // the node's part of the state after the step, without depth
	sends []sendOn // the messages it sends, in order
	links []int64  // the links it changes, each once: the one it takes the message from, those it sends on
	// The node's part after the step: the node (a state's node is never
	// changed once the step that made it is over, so states share it),
	// its random stream, decision, learned leader and halt.
	node   snapNode
	rng    rand.PCG
	dec    elect.Decision
	knows  elect.ID
	halted bool
}

// sendOn is a message sent, with the link it goes on and its digest.
type sendOn struct {
	key    int64
	msg    elect.Message
	digest stateKey
}

// moveKey returns the key of step st at s in the table of moves, or false
// when the step is one that is always made in full.
func (m *model) moveKey(s *state, st step) (stateKey, bool) {
	i := st.node
	if !useKnownMoves || m.draws > 0 || st.wake || st.fault != 0 || !s.woken[i] || s.halted[i] {
		return stateKey{}, false
	}
	// The node's part (its index among them), the port and the message:
	// a key in a table of its own, so it needs no tag.
	d := s.links[m.inLinks[i]+int64(st.port)][st.k].digest
	h := s.nodeH[i]
	return hasher(h).pair(uint64(st.port), 0).pair(d.a, d.b).sum(), true
}

// knownStep makes step st at s from its known move, if it is known (the
// same state as making it in full, see above). When the state it leads to
// has been visited (and is not on the current path: a cycle is left to
// the full step to report), nothing changes and visited is true, with the
// state's index; otherwise the step is made and made is true, with the
// record that undoes it in u. sent counts the messages the step sends by
// type.
func (x *stateSpace) knownStep(s *state, st step, mk stateKey, sent []int64, u *undo) (child int32, visited, made bool) {
	mi, ok := x.moveIdx.get(mk)
	if !ok {
		return 0, false, false
	}
	mv := &x.moves[mi]
	i := st.node
	from := x.inLinks[i] + int64(st.port)
	l := s.links[from]
	d := max(s.depth[i], l[st.k].depth)
	nodeD := x.nodeDepth(i, d)
	sumH := addKey(subKey(s.sumH, s.nodeH[i]), mv.nodeH)
	sumD := addKey(subKey(s.sumD, s.nodeD[i]), nodeD)
	x.changed = x.changed[:0]
	for _, c := range mv.links {
		var h, hd stateKey
		if x.bag { // the contents are sorted to be hashed: made in a buffer
			if x.scratch == nil {
				x.scratch = make([]flight, 0, 16)
			}
			buf := x.newContents(s, c, from, st.k, mv, d, x.scratch[:0])
			h, hd = x.linkHash(c, buf)
			x.scratch = buf[:0]
		} else {
			h, hd = x.streamLinkHash(s, c, from, st.k, mv, d)
		}
		x.changed = append(x.changed, changedLink{key: c, h: h, d: hd})
		sumH, sumD = addKey(subKey(sumH, s.linkH[c]), h), addKey(subKey(sumD, s.linkD[c]), hd)
	}
	behaviour, full := x.keysOf(sumH, sumD)
	if x.onPath.find(behaviour) >= 0 {
		return 0, false, false
	}
	for _, t := range mv.sends {
		sent[t.msg.Type]++
	}
	if id, ok := x.memo.get(full); ok {
		return id, true, false
	}
	// A new state: make the step from the move. Every link's new contents
	// are made before any is set, since they are read from s.
	x.save(u, s, i)
	for k := range x.changed {
		c := &x.changed[k]
		c.flights = x.newContents(s, c.key, from, st.k, mv, d, nil)
	}
	s.nodes[i], s.rngs[i], s.dec[i], s.knows[i], s.halted[i] = mv.node, mv.rng, mv.dec, mv.knows, mv.halted
	s.depth[i] = d
	for _, c := range x.changed {
		x.touch(s, c.key)
		s.links[c.key] = c.flights
		s.linkH[c.key], s.linkD[c.key] = c.h, c.d
	}
	s.nodeH[i], s.nodeD[i] = mv.nodeH, nodeD
	s.sumH, s.sumD = sumH, sumD
	return 0, false, true
}

// newContents returns link c's contents after the known step mv that takes
// message k of link from (at depth d): in buf when it is not nil, else in
// an array from the arena (nil when empty).
func (m *model) newContents(s *state, c, from int64, k int, mv *move, d int64, buf []flight) []flight {
	l := s.links[c]
	n := len(l)
	if c == from {
		n--
	}
	for _, t := range mv.sends {
		if t.key == c {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if buf == nil {
		buf = m.arena.alloc(n)[:0]
	}
	if c == from {
		buf = append(append(buf, l[:k]...), l[k+1:]...)
	} else {
		buf = append(buf, l...)
	}
	for _, t := range mv.sends {
		if t.key == c {
			buf = append(buf, flight{msg: t.msg, depth: d + 1, digest: t.digest})
		}
	}
	return buf
}

// streamLinkHash is linkHash of newContents under FIFO (no sorting),
// computed without making the contents.
func (m *model) streamLinkHash(s *state, c, from int64, k int, mv *move, d int64) (h, hd stateKey) {
	l := s.links[c]
	skip := -1
	n := len(l)
	if c == from {
		skip, n = k, n-1
	}
	for _, t := range mv.sends {
		if t.key == c {
			n++
		}
	}
	if n == 0 {
		return stateKey{}, stateKey{}
	}
	hb, hdd := m.linkBase[c], m.linkDepthBase[c].pair(uint64(n), 0)
	for j, f := range l {
		if j != skip {
			hb = hb.pair(f.digest.a, f.digest.b)
			hdd = hdd.pair(uint64(f.depth), 0)
		}
	}
	for _, t := range mv.sends {
		if t.key == c {
			hb = hb.pair(t.digest.a, t.digest.b)
			hdd = hdd.pair(uint64(d+1), 0)
		}
	}
	return hb.pair(uint64(n), 0).sum(), hdd.sum()
}

// changedLink is a link's contents after a known step, with its hashes.
type changedLink struct {
	key     int64
	flights []flight
	h, d    stateKey
}

// learnMove remembers the move of the step just made in full from the
// state saved in u (x.sends holds its messages, x.linkLog from u.links on
// the links it changed).
func (m *model) learnMove(s *state, mk stateKey, u *undo) {
	if len(m.moves) >= maxKnownMoves {
		return
	}
	if _, ok := m.moveIdx.get(mk); ok {
		return
	}
	i := u.i
	mv := move{nodeH: s.nodeH[i], sends: slices.Clone(m.sends),
		node: s.nodes[i], rng: s.rngs[i], dec: s.dec[i], knows: s.knows[i], halted: s.halted[i]}
	for _, lu := range m.linkLog[u.links:] {
		if !slices.Contains(mv.links, lu.key) {
			mv.links = append(mv.links, lu.key)
		}
	}
	m.moveIdx.put(mk, int32(len(m.moves)))
	m.moves = append(m.moves, mv)
}
