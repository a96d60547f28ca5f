package pp

import (
	"math"
	"math/bits"
)

// The null-skipping engine. An interaction is null when it leaves the
// configuration unchanged (its outputs are its inputs, possibly swapped).
// With counts c_i, the ordered pair of distinct agents is non-null with
// probability p = W / (n(n-1)), where
//
//	W = sum_i c_i S_i,   S_i = sum_{j : (i,j) non-null} (c_j - [i = j])
//
// counts the non-null ordered agent pairs. The steps until the next non-null
// interaction are independent trials of probability p, so the engine jumps
// over G ~ Geometric(p) null steps (P(G >= g) = (1-p)^g, drawn by inversion
// G = floor(ln U / ln(1-p))) and then applies one non-null interaction whose
// state pair (i, j) has the exact conditional law c_i (c_j - [i = j]) / W:
// the initiator state with weight c_i S_i, then the responder state among
// the non-null partners of i with integer weight c_j - [i = j]. The step
// limit is honoured exactly: when the jump passes it the run ends there,
// since null steps change nothing.
//
// Cost per non-null event. Each live state (count > 0) holds a slot; two
// bit matrices over the slots say which ordered pairs of live states are
// non-null (rows: as initiator, columns: as responder), filled when a state
// becomes live (2q transition lookups, once per birth, not per event). The
// row sums are kept incrementally, one of two ways per state: directly (a
// change of c_j by delta adds delta to S_i for every i with (i, j)
// non-null) or by complement, for a state whose row is mostly non-null:
// since sum_j (c_j - [i = j]) = n - 1 at every configuration, S_i = n - 1 -
// N_i with N_i the same sum over the null partners, and over one
// interaction (whose count changes add up to zero) S_i moves by minus the
// changes of its null partners. Either way an event updates only the row
// sums that change, found a word (64 slots) at a time. The initiator is
// drawn from a Fenwick tree over c_i S_i (float64; rebuilt exactly every
// 1024 events so rounding cannot accumulate), the responder by rejection
// from a Fenwick tree over the counts when at least a quarter of i's
// partners are non-null (expected at most four O(log q) draws), else by a
// scan of i's non-null row. An event therefore costs O(q/64 + log q) word
// operations plus O(log q) per changed row sum, instead of the O(q)
// transition lookups of a plain scan (BenchmarkNullSkipEvent).

type skipState struct {
	valid bool
	slot  []int32 // state -> slot, or -1 (indexed by state)
	state []int32 // slot -> state, or -1 for a free slot
	free  []int32 // free slots below top
	top   int     // slots in use or freed: [0, top)
	cap   int     // slots allocated
	words int     // cap / 64
	nlive int
	live  []uint64  // live slots
	compl []uint64  // slots whose row sum is kept by complement
	rowNN []uint64  // cap x words: bit t of row s: (state(s), state(t)) non-null
	colNN []uint64  // cap x words: bit t of row s: (state(t), state(s)) non-null
	sum   []int64   // per slot: S_i
	wcur  []float64 // per slot: the weight c_i S_i the tree holds
	wfen  []float64
	cfen  []int64
	stale bool // the trees were reallocated: rebuild them
	wtot  float64
	since int     // events since the weight tree was rebuilt
	lastP float64 // the non-null fraction at the last event
	// scratch of one event
	born   []int32
	dirty  []int32
	isDirt []bool
}

func (k *skipState) grow(q int) {
	for len(k.slot) < q {
		k.slot = append(k.slot, -1)
	}
}

// skipThreshold: the hybrid tries null-skipping (for a window, whose
// measured cost then decides, autoswitch.go) when p sqrt(n) < skipThreshold
// * (live states): a batch of ~sqrt(n) interactions costs about q^2
// samples, so null-skipping may pay off when fewer than about q / sqrt(n)
// of the pairs are non-null.
const skipThreshold = 1.0

func (s *CountSim[S, P]) liveStates() int {
	q := 0
	for _, i := range s.c.order {
		if s.c.counts[i] > 0 {
			q++
		}
	}
	return q
}

// nonNullAbove reports whether the fraction of ordered pairs of agents that
// are non-null exceeds p. It sums that fraction row by row, the most
// populous states first (c.order), and stops as soon as the sum exceeds p:
// far from stabilisation, as in P_LL's counting, the first rows settle it
// and a check costs a few rows instead of q^2 lookups.
func (s *CountSim[S, P]) nonNullAbove(p float64) bool {
	c := s.c
	var live []int32
	for _, i := range c.order {
		if c.counts[i] > 0 {
			live = append(live, i)
		}
	}
	n := float64(c.n)
	limit := p * n * (n - 1)
	var w float64
	for _, i := range live {
		var row int64
		for _, j := range live {
			if !c.null(i, j) {
				row += c.counts[j]
				if i == j {
					row--
				}
			}
		}
		w += float64(c.counts[i]) * float64(row)
		if w > limit {
			return true
		}
	}
	return false
}

// setCap (re)allocates the slot structures for at least q slots, keeping
// the slots in use.
func (k *skipState) setCap(q int) {
	nc := max(64, k.cap)
	for nc < q {
		nc *= 2
	}
	if nc == k.cap && k.rowNN != nil {
		return
	}
	nw := nc / 64
	row, col := make([]uint64, nc*nw), make([]uint64, nc*nw)
	for s := 0; s < k.top; s++ {
		copy(row[s*nw:s*nw+k.words], k.rowNN[s*k.words:(s+1)*k.words])
		copy(col[s*nw:s*nw+k.words], k.colNN[s*k.words:(s+1)*k.words])
	}
	k.rowNN, k.colNN = row, col
	live, compl := make([]uint64, nw), make([]uint64, nw)
	copy(live, k.live)
	copy(compl, k.compl)
	k.live, k.compl = live, compl
	for len(k.state) < nc {
		k.state = append(k.state, -1)
		k.sum = append(k.sum, 0)
		k.wcur = append(k.wcur, 0)
		k.isDirt = append(k.isDirt, false)
	}
	k.cap, k.words = nc, nw
	k.wfen = make([]float64, nc+1)
	k.cfen = make([]int64, nc+1)
	k.stale = true
}

func (k *skipState) isLive(t int32) bool { return k.live[t>>6]&(1<<(t&63)) != 0 }

func setBit(m []uint64, row, words int, t int32, on bool) {
	w := &m[row*words+int(t>>6)]
	if on {
		*w |= 1 << (t & 63)
	} else {
		*w &^= 1 << (t & 63)
	}
}

func getBit(m []uint64, row, words int, t int32) bool {
	return m[row*words+int(t>>6)]&(1<<(t&63)) != 0
}

// initSkip rebuilds the slots, the non-null matrices, the row sums and
// the trees from the counts.
func (s *CountSim[S, P]) initSkip() {
	c, k := s.c, &s.ns
	for _, i := range k.state[:k.top] {
		if i >= 0 {
			k.slot[i] = -1
		}
	}
	var q int
	for _, i := range c.order {
		if c.counts[i] > 0 {
			q++
		}
	}
	k.top, k.nlive, k.free = 0, 0, k.free[:0]
	k.setCap(q + 1)
	clear(k.live)
	clear(k.compl)
	for t := range k.state {
		k.state[t] = -1
	}
	for _, i := range c.order {
		if c.counts[i] > 0 {
			s.birth(i)
		}
	}
	for t := 0; t < k.top; t++ {
		k.sum[t] = s.scanRow(int32(t))
	}
	s.rebuildTrees()
	k.valid = true
}

// birth gives live state i a slot and fills its rows and columns of the
// non-null matrices against the live slots (and itself).
func (s *CountSim[S, P]) birth(i int32) int32 {
	c, k := s.c, &s.ns
	var t int32
	if n := len(k.free); n > 0 {
		t = k.free[n-1]
		k.free = k.free[:n-1]
	} else {
		if k.top == k.cap {
			k.setCap(k.cap + 1)
		}
		t = int32(k.top)
		k.top++
	}
	s.work += 8 * int64(k.nlive+1) // 2 transition lookups and 4 bits per live slot
	k.slot[i], k.state[t] = t, i
	k.live[t>>6] |= 1 << (t & 63)
	k.nlive++
	W := k.words
	nn := 0
	for w, lw := range k.live {
		for lw != 0 {
			u := int32(w*64 + bits.TrailingZeros64(lw))
			lw &= lw - 1
			j := k.state[u]
			out := !c.null(i, j) // (i, j): row t, column u
			in := out
			if u != t {
				in = !c.null(j, i)
			}
			setBit(k.rowNN, int(t), W, u, out)
			setBit(k.colNN, int(u), W, t, out)
			setBit(k.rowNN, int(u), W, t, in)
			setBit(k.colNN, int(t), W, u, in)
			if out {
				nn++
			}
		}
	}
	setBit(k.compl, 0, W, t, 2*nn > k.nlive)
	return t
}

// scanRow computes S for slot t from its row of the non-null matrix.
func (s *CountSim[S, P]) scanRow(t int32) int64 {
	c, k := s.c, &s.ns
	W := k.words
	row := k.rowNN[int(t)*W : int(t+1)*W]
	var sum int64
	for w, lw := range k.live {
		b := row[w] & lw
		for b != 0 {
			u := int32(w*64 + bits.TrailingZeros64(b))
			b &= b - 1
			sum += c.counts[k.state[u]]
			if u == t {
				sum--
			}
		}
	}
	return sum
}

func (k *skipState) weightOf(t int32, counts []int64) float64 {
	if !k.isLive(t) {
		return 0
	}
	return float64(counts[k.state[t]]) * float64(k.sum[t])
}

// rebuildTrees rebuilds both Fenwick trees from the slots in O(cap).
func (s *CountSim[S, P]) rebuildTrees() {
	k, counts := &s.ns, s.c.counts
	for t := 1; t <= k.cap; t++ {
		u := int32(t - 1)
		k.wcur[u] = k.weightOf(u, counts)
		k.wfen[t], k.cfen[t] = k.wcur[u], 0
		if k.isLive(u) {
			k.cfen[t] = counts[k.state[u]]
		}
	}
	for t := 1; t <= k.cap; t++ {
		if p := t + t&-t; p <= k.cap {
			k.wfen[p] += k.wfen[t]
			k.cfen[p] += k.cfen[t]
		}
	}
	k.wtot = 0
	for t := k.cap; t > 0; t -= t & -t {
		k.wtot += k.wfen[t]
	}
	k.since = 0
	k.stale = false
}

func (k *skipState) addW(t int32, d float64) {
	k.wtot += d
	for p := int(t) + 1; p <= k.cap; p += p & -p {
		k.wfen[p] += d
	}
}

func (k *skipState) addC(t int32, d int64) {
	for p := int(t) + 1; p <= k.cap; p += p & -p {
		k.cfen[p] += d
	}
}

// findW returns the slot whose cumulative weight range holds x.
func (k *skipState) findW(x float64) int32 {
	p, step := 0, 1<<(bits.Len(uint(k.cap))-1)
	for ; step > 0; step >>= 1 {
		if q := p + step; q <= k.cap && k.wfen[q] <= x {
			p = q
			x -= k.wfen[q]
		}
	}
	return int32(p) // the 0-based slot after the p slots whose total is <= x
}

// findC returns the slot holding agent number r (0-based, slots in order)
// and r's offset in it.
func (k *skipState) findC(r int64) (int32, int64) {
	p, step := 0, 1<<(bits.Len(uint(k.cap))-1)
	for ; step > 0; step >>= 1 {
		if q := p + step; q <= k.cap && k.cfen[q] <= r {
			p = q
			r -= k.cfen[q]
		}
	}
	return int32(p), r
}

// shouldBatch says whether the hybrid should go back to batches.
func (k *skipState) shouldBatch(n int64) bool {
	return k.lastP*math.Sqrt(float64(n)) > 1.5*skipThreshold*float64(k.nlive)
}

// skipStep jumps over the null interactions and applies the next non-null
// one, never beyond step end.
func (s *CountSim[S, P]) skipStep(end int64) {
	c, g, k := s.c, s.g, &s.ns
	if !k.valid {
		s.initSkip()
	}
	if k.since >= 1024 {
		s.rebuildTrees()
	}
	w := k.wtot
	if w <= 0.5 { // W is an integer: no non-null pair
		s.silent = true
		s.step = end
		return
	}
	n := float64(c.n)
	p := w / (n * (n - 1))
	k.lastP = p
	var jump float64
	if p < 1 {
		jump = math.Floor(math.Log(g.uniform()) / math.Log1p(-p))
	}
	if jump >= float64(end-s.step) {
		s.step = end
		return
	}
	s.step += int64(jump) + 1
	// The initiator's state, weight c_i S_i (a slot of zero weight can only
	// come from rounding: draw again).
	var ti int32
	for {
		ti = k.findW((1 - g.uniform()) * w)
		if int(ti) < k.cap && k.weightOf(ti, c.counts) > 0 {
			break
		}
	}
	i := k.state[ti]
	// The responder's state among i's non-null partners, weight c_j - [i=j].
	var j int32 = -1
	if si := k.sum[ti]; 4*si >= c.n-1 {
		for j < 0 {
			u, off := k.findC(int64(g.below(uint64(c.n))))
			if u == ti && off == c.counts[i]-1 {
				continue // the initiator itself
			}
			if getBit(k.rowNN, int(ti), k.words, u) {
				j = k.state[u]
			}
		}
	} else {
		r := int64(g.below(uint64(si)))
		row := k.rowNN[int(ti)*k.words : int(ti+1)*k.words]
	scan:
		for wd, lw := range k.live {
			b := row[wd] & lw
			for b != 0 {
				u := int32(wd*64 + bits.TrailingZeros64(b))
				b &= b - 1
				wb := c.counts[k.state[u]]
				if u == ti {
					wb--
				}
				if r -= wb; r < 0 {
					j = k.state[u]
					break scan
				}
			}
		}
	}
	s.work += 4*int64(k.words) + 40
	x2, y2 := c.trans(i, j)
	s.applyEvent([4]int32{i, j, x2, y2})
	dl, dg := c.deltas(i, j, x2, y2)
	c.leaders += dl
	c.goal += dg
	s.events++
	k.since++
	s.account(dl)
}

// applyEvent moves one agent from each of st[0], st[1] to st[2], st[3]
// and updates the slots, the row sums and the trees (see the comment at
// the top: the count changes of one interaction add up to zero, which the
// complement row sums rely on).
func (s *CountSim[S, P]) applyEvent(st [4]int32) {
	c, k := s.c, &s.ns
	var who [4]int32
	var del [4]int64
	m := 0
	for a, x := range st {
		d := int64(1)
		if a < 2 {
			d = -1
		}
		f := 0
		for f < m && who[f] != x {
			f++
		}
		if f == m {
			who[m] = x
			m++
		}
		del[f] += d
	}
	k.born, k.dirty = k.born[:0], k.dirty[:0]
	mark := func(t int32) {
		if !k.isDirt[t] {
			k.isDirt[t] = true
			k.dirty = append(k.dirty, t)
		}
	}
	for f := range m {
		x, d := who[f], del[f]
		if d == 0 {
			continue
		}
		if d > 0 {
			c.touch(x)
		}
		was := c.counts[x]
		c.counts[x] += d
		if was == 0 {
			k.born = append(k.born, x)
		}
	}
	for _, x := range k.born {
		t := s.birth(x)
		mark(t)
	}
	W := k.words
	for f := range m {
		x, d := who[f], del[f]
		if d == 0 {
			continue
		}
		tx := k.slot[x]
		k.addC(tx, d)
		mark(tx)
		col := k.colNN[int(tx)*W : int(tx+1)*W]
		for wd, lw := range k.live {
			cm := k.compl[wd]
			b := (col[wd]&^cm | ^col[wd]&cm) & lw
			for b != 0 {
				u := int32(wd*64 + bits.TrailingZeros64(b))
				b &= b - 1
				if k.isDirt[u] && wasBorn(k.born, k.state[u]) {
					continue // newborn rows are scanned below
				}
				if cm&(1<<(u&63)) != 0 {
					k.sum[u] -= d
				} else {
					k.sum[u] += d
				}
				mark(u)
			}
		}
	}
	for _, x := range k.born {
		t := k.slot[x]
		k.sum[t] = s.scanRow(t)
	}
	// Deaths: free the slots of states left without agents.
	for f := range m {
		x := who[f]
		if c.counts[x] == 0 && k.slot[x] >= 0 {
			t := k.slot[x]
			k.live[t>>6] &^= 1 << (t & 63)
			k.nlive--
			k.slot[x], k.state[t] = -1, -1
			k.free = append(k.free, t)
		}
	}
	for _, t := range k.dirty {
		k.isDirt[t] = false
		if !k.stale {
			nw := k.weightOf(t, c.counts)
			k.addW(t, nw-k.wcur[t])
			k.wcur[t] = nw
		}
	}
	if k.stale {
		s.rebuildTrees()
	}
}

func wasBorn(born []int32, x int32) bool {
	for _, b := range born {
		if b == x {
			return true
		}
	}
	return false
}
