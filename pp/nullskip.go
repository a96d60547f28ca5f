package pp

import (
	"math"
	"strconv"
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
// The engine keeps the live states (count > 0) and the row sums S_i up to
// date incrementally: a change of c_j by delta adds delta to S_i for every
// live i with (i, j) non-null, so an interaction costs O(live states)
// (transition lookups are cached), not O(live states^2).

type skipState struct {
	valid  bool
	live   []int32
	pos    []int32 // position of a state in live, or -1
	rowSum []int64
	lastP  float64 // the non-null fraction at the last event
}

func (k *skipState) grow(q int) {
	for len(k.pos) < q {
		k.pos = append(k.pos, -1)
		k.rowSum = append(k.rowSum, 0)
	}
}

// skipThreshold: the hybrid null-skips when p sqrt(n) < skipThreshold *
// (live states). A batch of ~sqrt(n) interactions costs about q^2 samples,
// a non-null event about q lookups, so null-skipping pays off roughly when
// fewer than q / sqrt(n) of the pairs are non-null; the constant was set by
// the benchmarks.
const skipThreshold = 1.0

// checkEvery returns how many batches the hybrid runs between two checks of
// the non-null fraction: a check costs q^2 lookups for q live states, a
// batch or an epoch at least about q draws, so checks come every 8 + q/4
// batches (with P_LL's q = 250 at every 8 they took a sixth of the time,
// before nonNullAbove stopped at the first rows that settle the answer).
func (s *CountSim[S, P]) checkEvery() int {
	return 8 + len(s.c.order)/4
}

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

// initSkip rebuilds the live list and the row sums.
func (s *CountSim[S, P]) initSkip() {
	c, k := s.c, &s.ns
	k.live = k.live[:0]
	for i := range k.pos {
		k.pos[i] = -1
	}
	for _, i := range c.order {
		if c.counts[i] > 0 {
			k.pos[i] = int32(len(k.live))
			k.live = append(k.live, i)
		}
	}
	for _, i := range k.live {
		s.ns.rowSum[i] = s.computeRow(i)
	}
	k.valid = true
}

func (s *CountSim[S, P]) computeRow(i int32) int64 {
	c := s.c
	var row int64
	for _, j := range s.ns.live {
		if !c.null(i, j) {
			row += c.counts[j]
			if i == j {
				row--
			}
		}
	}
	return row
}

// change adds delta to the count of state j and updates the live list and
// the row sums.
func (s *CountSim[S, P]) change(j int32, delta int64) {
	if delta == 0 {
		return
	}
	c := s.c
	was := c.counts[j]
	if delta > 0 {
		c.touch(j)
	}
	c.counts[j] += delta
	for _, i := range s.ns.live {
		if i != j && !c.null(i, j) {
			s.ns.rowSum[i] += delta
		}
	}
	switch {
	case was == 0: // j becomes live
		s.ns.pos[j] = int32(len(s.ns.live))
		s.ns.live = append(s.ns.live, j)
		s.ns.rowSum[j] = s.computeRow(j)
	case c.counts[j] == 0: // j dies
		p := s.ns.pos[j]
		last := s.ns.live[len(s.ns.live)-1]
		s.ns.live[p] = last
		s.ns.pos[last] = p
		s.ns.live = s.ns.live[:len(s.ns.live)-1]
		s.ns.pos[j] = -1
	default:
		if !c.null(j, j) {
			s.ns.rowSum[j] += delta
		}
	}
}

// weight returns W as a float64 (exact below 2^53).
func (s *CountSim[S, P]) weight() float64 {
	var w float64
	for _, i := range s.ns.live {
		w += float64(s.c.counts[i]) * float64(s.ns.rowSum[i])
	}
	return w
}

// shouldBatch says whether the hybrid should go back to batches.
func (k *skipState) shouldBatch(n int64) bool {
	return k.lastP*math.Sqrt(float64(n)) > 1.5*skipThreshold*float64(len(k.live))
}

// skipStep jumps over the null interactions and applies the next non-null
// one, never beyond step end.
func (s *CountSim[S, P]) skipStep(end int64) {
	c, g := s.c, s.g
	if !s.ns.valid {
		s.initSkip()
	}
	w := s.weight()
	if w <= 0 {
		s.silent = true
		s.step = end
		return
	}
	n := float64(c.n)
	p := w / (n * (n - 1))
	s.ns.lastP = p
	var jump float64
	if p < 1 {
		jump = math.Floor(math.Log(g.uniform()) / math.Log1p(-p))
	}
	if jump >= float64(end-s.step) {
		s.step = end
		return
	}
	s.step += int64(jump) + 1
	// The initiator's state, weight c_i S_i.
	x := g.uniform() * w
	var i int32 = -1
	for _, a := range s.ns.live {
		wa := float64(c.counts[a]) * float64(s.ns.rowSum[a])
		if wa <= 0 {
			continue
		}
		i = a
		if x -= wa; x <= 0 {
			break
		}
	}
	// The responder's state among i's non-null partners, weight c_j - [i=j].
	r := int64(g.below(uint64(s.ns.rowSum[i])))
	var j int32 = -1
	for _, b := range s.ns.live {
		if c.null(i, b) {
			continue
		}
		wb := c.counts[b]
		if b == i {
			wb--
		}
		if r -= wb; r < 0 {
			j = b
			break
		}
	}
	x2, y2 := c.trans(i, j)
	s.change(i, -1)
	s.change(j, -1)
	s.change(x2, 1)
	s.change(y2, 1)
	dl, dg := c.deltas(i, j, x2, y2)
	c.leaders += dl
	c.goal += dg
	s.events++
	s.account(dl)
}

func itoa(x int64) string { return strconv.FormatInt(x, 10) }
