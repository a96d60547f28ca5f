package check

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
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
