package ppfile

import (
	"fmt"
	"math"
	"slices"
)

// denseMax is the largest number of states whose transitions are kept in a
// dense q x q table (8 bytes a pair: 8 MiB at 1024 states); beyond it the
// non-null pairs are kept in a hash table.
const denseMax = 1 << 10

// step is the transition of one ordered pair with the changes it makes to
// the engine's counters (leaders: agents that output leader; goal: agents
// that give the consensus output); the zero step is null.
type step struct {
	x, y   uint16
	dl, dg int8
	set    bool
}

// table holds the non-null transitions of a compiled protocol: dense for
// up to denseMax states, else an open-addressing hash table keyed by the
// pair a<<16 | b (linear probing, at most half full, so a lookup of a null
// pair ends at the first empty slot).
type table struct {
	q     int
	dense []step
	keys  []uint32
	vals  []step
	shift uint
	used  int
}

func newTable(q int) table {
	if q <= denseMax {
		return table{q: q, dense: make([]step, q*q)}
	}
	t := table{q: q}
	t.resize(1 << 10)
	return t
}

func (t *table) resize(size int) {
	keys, vals := t.keys, t.vals
	t.keys, t.vals = make([]uint32, size), make([]step, size)
	t.shift = uint(64 - bitsLen(size))
	t.used = 0
	for i, v := range vals {
		if v.set {
			t.put(keys[i], v)
		}
	}
}

func bitsLen(size int) int {
	k := 0
	for 1<<k < size {
		k++
	}
	return k
}

func (t *table) slot(key uint32) int {
	return int((uint64(key) * 0x9E3779B97F4A7C15) >> t.shift)
}

func (t *table) put(key uint32, v step) {
	if 2*(t.used+1) > len(t.keys) {
		t.resize(2 * len(t.keys))
	}
	mask := len(t.keys) - 1
	for i := t.slot(key); ; i = (i + 1) & mask {
		if !t.vals[i].set {
			t.keys[i], t.vals[i] = key, v
			t.used++
			return
		}
		if t.keys[i] == key {
			t.vals[i] = v
			return
		}
	}
}

func (t *table) set(a, b int, v step) {
	if t.dense != nil {
		t.dense[a*t.q+b] = v
		return
	}
	t.put(uint32(a)<<16|uint32(b), v)
}

func (t *table) get(a, b int) step {
	if t.dense != nil {
		return t.dense[a*t.q+b]
	}
	key := uint32(a)<<16 | uint32(b)
	mask := len(t.keys) - 1
	for i := t.slot(key); ; i = (i + 1) & mask {
		if !t.vals[i].set {
			return step{}
		}
		if t.keys[i] == key {
			return t.vals[i]
		}
	}
}

// each visits the non-null transitions (in a deterministic order).
func (t *table) each(fn func(a, b int, v step)) {
	if t.dense != nil {
		for k, e := range t.dense {
			if e.set {
				fn(k/t.q, k%t.q, e)
			}
		}
		return
	}
	for i, e := range t.vals {
		if e.set {
			fn(int(t.keys[i]>>16), int(t.keys[i]&0xffff), e)
		}
	}
}

// Initial returns the initial configuration for n agents: the number of
// agents of each state of the initial mapping, in the file's order. Counts
// are taken as written; fractions are rounded down and the agents that
// rounding leaves over go one each to the fractional entries with the
// largest remainders (ties: the earlier entry) when the fractions add up to
// 1, to the state marked rest otherwise. The counts must add up to n.
func (f *File) Initial(n int64) (states []int, counts []int64, err error) {
	fail := func(format string, args ...any) error {
		return &Error{Path: f.Path, Line: f.initLine, Msg: fmt.Sprintf(format, args...)}
	}
	var total int64
	var fracSum float64
	restAt := -1
	counts = make([]int64, len(f.initial))
	rem := make([]float64, len(f.initial))
	for i, it := range f.initial {
		states = append(states, it.state)
		switch it.kind {
		case initAll:
			counts[i] = n
		case initCount:
			counts[i] = it.count
		case initFraction:
			x := it.frac * float64(n)
			counts[i] = int64(math.Floor(x))
			rem[i] = x - math.Floor(x)
			fracSum += it.frac
		case initRest:
			restAt = i
		}
		total += counts[i]
	}
	if restAt < 0 && fracSum > 0 && math.Abs(fracSum-1) < 1e-9 && total < n {
		// The fractions add up to 1: hand out what rounding left over.
		order := make([]int, 0, len(f.initial))
		for i, it := range f.initial {
			if it.kind == initFraction {
				order = append(order, i)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case rem[a] > rem[b]:
				return -1
			case rem[a] < rem[b]:
				return 1
			}
			return 0
		})
		for k := 0; total < n && k < len(order); k++ {
			counts[order[k]]++
			total++
		}
	}
	if restAt >= 0 {
		if total > n {
			return nil, nil, fail("the initial configuration names %d agents before the rest, more than n = %d", total, n)
		}
		counts[restAt] = n - total
		total = n
	}
	if total != n {
		return nil, nil, fail("the initial configuration has %d agents, not n = %d (give counts that add up to n, fractions, or a state with rest)", total, n)
	}
	return states, counts, nil
}

// DefaultN returns the population size that the initial configuration
// fixes, when it is written in counts only (ok false otherwise).
func (f *File) DefaultN() (n int64, ok bool) {
	for _, it := range f.initial {
		if it.kind != initCount {
			return 0, false
		}
		n += it.count
	}
	return n, n >= 2
}

// Transition returns the new states of the ordered pair (a, b) of state
// indices, and whether the pair is non-null.
func (f *File) Transition(a, b int) (x, y int, nonNull bool) {
	e := f.trans.get(a, b)
	if !e.set {
		return a, b, false
	}
	return int(e.x), int(e.y), true
}

// Output returns the output of state s.
func (f *File) Output(s int) string { return f.Outputs[f.out[s]] }

// Monotone reports whether no rule increases the number of agents that
// output leader or removes the last leader of its pair.
func (f *File) Monotone() bool { return f.monotone }
