package check

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"slices"
)

// stateKey is a 128-bit hash, two 64-bit lanes: the visited set knows a
// state by it (see keys for how a state's key is made of its parts'
// keys). A struct of two words, not an array, so that the compiler keeps
// it in registers (it keeps arrays of more than one element in memory,
// which made every step of the hashing a store and a load).
type stateKey struct{ a, b uint64 }

// hashSeeds are drawn afresh in every process (maphash's seeds are
// random), so a collision between two states could not repeat from run to
// run either.
var hashSeeds = func() (k [6]uint64) {
	for i := range k {
		k[i] = maphash.Comparable(maphash.MakeSeed(), uint64(i)) | 1
	}
	return k
}()

// hasher hashes a sequence of 64-bit words into 128 bits: two lanes, each
// a chain of folded multiplications (the high and low halves of a 128-bit
// product xored together) that take two words a step, as in the wyhash
// family; each lane has its own random multipliers, and the lanes take the
// words of a pair in opposite roles. Distinct sequences of the same length
// agree in a lane with probability about 2^-64 over the seeds, so two parts
// collide with probability about 2^-128, which even 10^9 states leave
// below 10^-20 for a single pair. It is several times cheaper than two
// passes of maphash over an encoding in bytes, and the checker hashes
// after every step.
type hasher stateKey

// newHasher starts a hash of a part of kind tag with index i (a node, a
// link, or their depths: parts of different kinds or indexes never share
// a sequence).
func newHasher(tag, i uint64) hasher {
	return hasher{hashSeeds[0], hashSeeds[1]}.pair(tag, i)
}

func fold(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// pair mixes two words into the hash.
func (h hasher) pair(w1, w2 uint64) hasher {
	return hasher{fold(h.a^w1, w2^hashSeeds[2]), fold(h.b^w2, w1^hashSeeds[3])}
}

// bytes hashes b sixteen bytes a step, the last step with b's length, so
// that encodings differing only in trailing zero bytes differ.
func (h hasher) bytes(b []byte) hasher {
	n := uint64(len(b))
	for len(b) >= 16 {
		h = h.pair(binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:]))
		b = b[16:]
	}
	var last [2]uint64
	for i, c := range b {
		last[i/8] |= uint64(c) << (8 * (i % 8))
	}
	return h.pair(last[0], last[1]).pair(n, 0)
}

// sum finishes the hash: one more step mixes the last words into both
// halves of each lane. The key is never zero (the visited set's empty
// slot).
func (h hasher) sum() stateKey {
	h = h.pair(hashSeeds[4], hashSeeds[5])
	return stateKey{h.a, h.b | 1}
}

// nodeDepth returns the hash of node i's depth d (its part of the full
// state's depths), from a table grown as paths grow.
func (m *model) nodeDepth(i int32, d int64) stateKey {
	t := &m.nodeDepths[i]
	for int64(len(*t)) <= d {
		*t = append(*t, m.depthBase[i].pair(uint64(len(*t)), 0).sum())
	}
	return (*t)[d]
}

// visitedSet maps the keys of visited states to their indexes: open
// addressing with linear probing, slots chosen by the key's own bits (the
// keys are hashes already), at most half full. A zero key marks an empty
// slot; keys (see keys) are never zero.
type visitedSet struct {
	keys []stateKey
	ids  []int32
	used int
}

func (t *visitedSet) get(k stateKey) (int32, bool) {
	if len(t.keys) == 0 {
		return 0, false
	}
	mask := uint64(len(t.keys) - 1)
	for i := k.a & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return t.ids[i], true
		case stateKey{}:
			return 0, false
		}
	}
}

// put adds k, which is not in the set.
func (t *visitedSet) put(k stateKey, id int32) {
	if 2*(t.used+1) > len(t.keys) {
		t.grow()
	}
	mask := uint64(len(t.keys) - 1)
	i := k.a & mask
	for t.keys[i] != (stateKey{}) {
		i = (i + 1) & mask
	}
	t.keys[i], t.ids[i] = k, id
	t.used++
}

func (t *visitedSet) grow() {
	old, oldIDs := t.keys, t.ids
	size := max(1024, 2*len(old))
	t.keys, t.ids, t.used = make([]stateKey, size), make([]int32, size), 0
	for i, k := range old {
		if k != (stateKey{}) {
			t.put(k, oldIDs[i])
		}
	}
}

// reset empties the set for the next search, keeping its memory unless it
// is much larger than the last search needed.
func (t *visitedSet) reset() {
	if len(t.keys) > 8*t.used+1024 {
		*t = visitedSet{}
		return
	}
	clear(t.keys)
	t.used = 0
}

// pathSet holds the behaviours of the states on the current path (see
// visit: a path that comes back to one is a cycle), by place on the path.
// A counting filter over a few bits of each key answers most "not on the
// path" questions without looking at the path.
type pathSet struct {
	keys  []stateKey
	count [1 << 12]uint32
}

// find returns the place of k on the path, or -1.
func (p *pathSet) find(k stateKey) int {
	if p.count[k.b>>52] == 0 {
		return -1
	}
	for i, o := range p.keys {
		if o == k {
			return i
		}
	}
	return -1
}

func (p *pathSet) push(k stateKey) {
	p.keys = append(p.keys, k)
	p.count[k.b>>52]++
}

func (p *pathSet) pop() {
	k := p.keys[len(p.keys)-1]
	p.keys = p.keys[:len(p.keys)-1]
	p.count[k.b>>52]--
}

// flightArena hands out the arrays that hold links' contents. The search
// changes one state in place and undoes each step (restore), so the arrays
// a step makes are dead once it is undone: they are taken from the arena
// in order, and the undo gives back everything taken since the step began
// (release). A step copies a link before changing it (the undo log keeps
// the old array), so no live array is ever written.
type flightArena struct {
	chunks      [][]flight
	chunk, used int
}

// arenaMark is a position in the arena, to release back to.
type arenaMark struct{ chunk, used int }

func (a *flightArena) alloc(n int) []flight {
	for {
		if a.chunk == len(a.chunks) {
			// Chunks of 256 flights, then twice the last, up to 4096: a
			// small check takes little.
			size := 256
			if k := len(a.chunks); k > 0 {
				size = min(4096, 2*len(a.chunks[k-1]))
			}
			a.chunks = append(a.chunks, make([]flight, max(size, n)))
		}
		if c := a.chunks[a.chunk]; a.used+n <= len(c) {
			out := c[a.used : a.used+n : a.used+n]
			a.used += n
			return out
		}
		a.chunk, a.used = a.chunk+1, 0
	}
}

func (a *flightArena) mark() arenaMark { return arenaMark{a.chunk, a.used} }

func (a *flightArena) release(m arenaMark) { a.chunk, a.used = m.chunk, m.used }

// keys returns the state's behaviour (node states, flags, decisions,
// learned leaders, random streams and every link's contents; under bag
// each link's messages sorted, as their order is no part of the state) and
// the full state (the behaviour with each node's and each message's causal
// depth). Nodes never see depths, so the behaviour says what can happen
// next: a path that returns to a behaviour it has been in can go round for
// ever.
//
// Each is the sum, word by word modulo 2^64, of the 128-bit hashes of the
// state's parts (a node's part encodes its index, a link's its key), so a
// step rehashes only the node it ran and the links it changed. Two
// distinct states have equal sums when the differences of their parts'
// hashes cancel, which for hashes with random seeds happens with
// probability about 2^-128 per pair, as for one hash of the whole state.
func (m *model) keys(s *state) (behaviour, full stateKey) { return m.keysOf(s.sumH, s.sumD) }

// keysOf returns the keys of a state whose parts' hashes sum to sumH
// (behaviour) and sumD (depths).
func keysOf(sumH, sumD stateKey) (behaviour, full stateKey) {
	return sumH, stateKey{sumH.a ^ sumD.a*0x9e3779b97f4a7c15, (sumH.b ^ (sumD.b<<1 | sumD.b>>63)) | 1}
}

// The kinds of a state's parts, which start their hashes.
const (
	nodeTag uint64 = iota + 1
	nodeDepthTag
	linkTag
	linkDepthTag
	drawnTag
	messageTag
	faultTag
)

// nodePart hashes node i's part of the state: behaviour and depth.
func (m *model) nodePart(s *state, i int) (h, d stateKey) {
	b := s.nodes[i].AppendState(m.buf[:0])
	flags := uint64(s.dec[i])
	if s.woken[i] {
		flags |= 4
	}
	if s.halted[i] {
		flags |= 8
	}
	if s.pending[i] {
		flags |= 16
	}
	hb := m.nodeBase[i].pair(flags, uint64(s.knows[i]))
	if m.crashK > 0 {
		if s.crashed[i] {
			flags |= 32
		}
		hb = hb.pair(flags, uint64(s.electHi[i])).pair(uint64(s.electLo[i]), 0)
	}
	if m.random {
		b, _ = s.rngs[i].AppendBinary(b)
	}
	m.buf = b
	return hb.bytes(b).sum(), m.nodeDepth(int32(i), s.depth[i])
}

// linkPart hashes link key's part of the state; an empty link's is zero.
func (m *model) linkPart(s *state, key int64) (h, d stateKey) {
	return m.linkHash(key, s.links[key])
}

// linkHash hashes link key's part of the state when it holds l.
func (m *model) linkHash(key int64, l []flight) (h, d stateKey) {
	if len(l) == 0 {
		return stateKey{}, stateKey{}
	}
	if m.bag && len(l) > 1 { // sorted in a buffer: the link's own order is kept
		m.sorted = append(m.sorted[:0], l...)
		sortFlights(m.sorted)
		l = m.sorted
	}
	hb, hd := m.linkBase[key], m.linkDepthBase[key].pair(uint64(len(l)), 0)
	for _, f := range l {
		hb = hb.pair(f.digest.a, f.digest.b)
		hd = hd.pair(uint64(f.depth), 0)
	}
	return hb.pair(uint64(len(l)), 0).sum(), hd.sum()
}

func addKey(x, y stateKey) stateKey { return stateKey{x.a + y.a, x.b + y.b} }

func subKey(x, y stateKey) stateKey { return stateKey{x.a - y.a, x.b - y.b} }

// rehashAll computes every part's hash and the sums (a new state).
func (m *model) rehashAll(s *state) {
	s.nodeH, s.nodeD = make([]stateKey, len(s.nodes)), make([]stateKey, len(s.nodes))
	s.linkH, s.linkD = make([]stateKey, len(s.links)), make([]stateKey, len(s.links))
	s.sumH, s.sumD = stateKey{}, stateKey{}
	for i := range s.nodes {
		s.nodeH[i], s.nodeD[i] = m.nodePart(s, i)
		s.sumH, s.sumD = addKey(s.sumH, s.nodeH[i]), addKey(s.sumD, s.nodeD[i])
	}
	for k := range s.links {
		s.linkH[k], s.linkD[k] = m.linkPart(s, int64(k))
		s.sumH, s.sumD = addKey(s.sumH, s.linkH[k]), addKey(s.sumD, s.linkD[k])
	}
	if m.draws > 0 {
		s.sumH = addKey(s.sumH, drawnPart(s.drawn))
	}
	if m.faulty() {
		s.sumH = addKey(s.sumH, faultPart(s))
	}
}

// rehash updates the hashes after a step of node i that changed the links
// logged from x.linkLog[from] on.
func (m *model) rehash(s *state, i int32, from int) {
	h, d := m.nodePart(s, int(i))
	s.sumH, s.sumD = addKey(subKey(s.sumH, s.nodeH[i]), h), addKey(subKey(s.sumD, s.nodeD[i]), d)
	s.nodeH[i], s.nodeD[i] = h, d
	for j := from; j < len(m.linkLog); j++ {
		key := m.linkLog[j].key
		if slices.ContainsFunc(m.linkLog[from:j], func(u linkUndo) bool { return u.key == key }) {
			continue // rehashed already
		}
		h, d := m.linkPart(s, key)
		s.sumH, s.sumD = addKey(subKey(s.sumH, s.linkH[key]), h), addKey(subKey(s.sumD, s.linkD[key]), d)
		s.linkH[key], s.linkD[key] = h, d
	}
}
