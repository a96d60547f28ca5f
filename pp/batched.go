package pp

import "math"

// The batched engine (after Berenbrink, Hammer, Kaaser, Meyer, Penschuck and
// Tran, "Simulating Population Protocols in Sub-Constant Time per
// Interaction", ESA 2020, and the batching of ppsim by Doty and Severson).
//
// One batch simulates a run of consecutive interactions whose agents are all
// distinct ("fresh"), then the first interaction that meets an agent already
// used in the batch (the collision):
//
//  1. Sample L, the number of fresh interactions before the collision (see
//     sampleFresh for its law under the distinct-pair scheduler).
//  2. The 2L agents of those interactions are a uniform sample without
//     replacement of the population: draw the L initiators' states, then the
//     L responders' states, each by a multivariate hypergeometric draw from
//     the counts.
//  3. Initiators and responders are paired by a uniformly random matching:
//     for each initiator state i in turn, its a_i partners are a
//     multivariate hypergeometric draw from the responders not yet matched.
//     This gives the number m_ij of (i, j) interactions; each type's
//     transition is applied m_ij times at once. The L interactions touch
//     disjoint agents, so their order does not change the configuration
//     after them, and every order is equally likely.
//  4. The collision: the ordered pair is uniform among the pairs that are
//     not both untouched (see collide), and its agents' states are drawn
//     from the touched agents (in their new states) or the untouched ones.
//
// After the collision every agent is again exchangeable given its state, so
// the next batch starts afresh: the whole run has exactly the law of the
// sequential process (up to floating-point rounding in the samplers).
//
// Stop conditions at exact step resolution. Each type (i, j) changes the
// leader count and the goal counter by known amounts, so a batch knows the
// range [L0 + sum of decreases, L0 + sum of increases] that the leader count
// can take at any prefix. When the stop condition (one leader, the goal
// target, or a monitored violation) cannot hold inside that range, the batch
// is applied whole; otherwise the batch is replayed: since the L fresh
// interactions come in a uniformly random order, the engine draws that
// order interaction by interaction (without replacement from the types that
// change a counter, and one lump of the others) and stops at the first step
// at which the condition holds. The configuration at that step is then
// rebuilt exactly: the neutral interactions of the prefix are a uniform
// sub-multiset of the neutral ones (a multivariate hypergeometric draw).
//
// Adaptive batch sizes: the batch length is not fixed but is the sampled
// collision time L, which adapts to n (E[L] ~ sqrt(pi n / 8)) and is cut at
// the step limit; the hybrid engine also leaves batches for null-skipping
// when too few pairs are non-null for a batch to pay off.

// sampleFresh returns the number L of consecutive interactions, capped at
// limit, whose agents are distinct from each other and from r agents
// already touched, in a population of n under the ordered distinct-pair
// scheduler.
//
// Derivation. Let t = r + 2k agents be touched after k fresh interactions.
// The next ordered pair (u, v), u != v, uniform among n(n-1), is fresh iff
// both agents are untouched: probability (n-t)(n-t-1) / (n(n-1)). Hence
//
//	P(L >= k) = prod_{i<k} (n-r-2i)(n-r-2i-1) / (n(n-1))
//	          = (n-r)_{2k} / (n(n-1))^k,
//
// with (x)_m the falling factorial. The plain formula of the paper,
// (n-r)_{2k} / n^{2k}, is the law for the with-repeats scheduler, where an
// agent may meet itself (each of the 2k picks uniform among n). In logs,
//
//	ln P(L >= k) = ln((n-r)_{2k} / (n-r)^{2k}) + 2k ln(1 - r/n) - k ln(1 - 1/n),
//
// L is drawn by thinning, which needs no logarithm of the product. The
// hazard of interaction i (0-based), the probability that it meets a
// touched agent given that the i before it did not, is
//
//	h_i = 1 - (n-t)(n-t-1) / (n(n-1)) = t (2n - t - 1) / (n(n-1)),  t = r + 2i,
//
// increasing in i (t < n). Over a window [k, e) every h_i is at most
// h_max = h_{e-1}, so candidate steps are drawn as a Bernoulli(h_max)
// sequence (a geometric gap from k: an exponential variable, drawn by the
// ziggurat, over -ln(1 - h_max)), and a candidate i is the collision with
// probability h_i / h_max; otherwise the search goes on after it. Each step
// then collides with probability exactly h_i, independently of the others,
// which is the law above. The window is about four mean gaps long (2n/t
// steps) once t is well above sqrt(n), so h_max / h_i stays near 1, and
// max(t/4, sqrt(n)/2) steps below that; the expected number of draws is a
// small constant for every n up to 2^60 and every r.
func sampleFresh(g rng, n, r, limit int64) int64 {
	kmax := min(limit, (n-r)/2)
	if kmax <= 0 {
		return 0
	}
	fn := float64(n)
	scale := 1 / (fn * (fn - 1))
	hazard := func(i int64) float64 {
		t := float64(r + 2*i)
		return t * (2*fn - t - 1) * scale
	}
	halfRoot := int64(math.Sqrt(fn) / 2)
	k := int64(0)
	for k < kmax {
		t := r + 2*k
		w := max(t/4, halfRoot, 1)
		if t > 0 {
			w = max(min(w, 2*(n/t)), halfRoot, 1)
		}
		e := min(k+w, kmax)
		hmax := hazard(e - 1)
		if hmax <= 0 { // only t = 0: the first interaction is always fresh
			k = e
			continue
		}
		gap := 0.0
		if hmax < 1 {
			gap = math.Floor(g.std.ExpFloat64() / -log1pSmall(-hmax))
		}
		if gap >= float64(e-k) {
			k = e
			continue
		}
		cand := k + int64(gap)
		if g.uniform()*hmax <= hazard(cand) {
			return cand
		}
		k = cand + 1
	}
	return kmax
}

// pairType is one interaction type of a batch: m interactions (i, j) ->
// (x, y), each changing the leader count by dl and the goal counter by dg.
type pairType struct {
	i, j, x, y int32
	m          int64
	dl, dg     int64
}

type batchScratch struct {
	ini, res, row, upd []int64
	types              []pairType
	neutral            []int64
}

func (b *batchScratch) grow(q int) {
	for _, p := range []*[]int64{&b.ini, &b.res, &b.row, &b.upd, &b.neutral} {
		for len(*p) < q {
			*p = append(*p, 0)
		}
	}
}

// batch simulates one batch, never beyond step end.
func (s *CountSim[S, P]) batch(end int64) {
	if s.biasHook == nil && !s.noEpochs {
		if s.quietStep(end) {
			return
		}
		if s.leaderEpoch(end) {
			return
		}
		if T := s.epochLength(end); T > 0 {
			s.multibatch(T, s.c.n, 0, false)
			return
		}
	}
	c, g := s.c, s.g
	c.batchNew = c.batchNew[:0]
	n := c.n
	R := end - s.step
	l := sampleFresh(g, n, 0, R)
	s.work += int64(len(c.order)) + 40 // the collision length, the collision, the passes
	if s.biasHook != nil {
		l = max(1, min(s.biasHook(l, n), R, n/2))
	}
	s.batches++
	// Steps 2 and 3: the states and the matching, type by type.
	s.b.types = s.b.types[:0]
	var neg, pos, gpos int64
	s.drawPairs(l, n, func(t pairType) {
		s.b.types = append(s.b.types, t)
		if t.dl < 0 {
			neg += t.dl * t.m
		} else {
			pos += t.dl * t.m
		}
		if t.dg > 0 {
			gpos += t.dg * t.m
		}
	})
	// Can a stop condition (or the start or end of a one-leader stretch)
	// hold at some prefix of the batch?
	L0 := c.leaders
	replay := (neg != 0 || pos != 0) && L0+neg <= 1 && 1 <= L0+pos
	if c.spec.Goal == GoalCount && c.goal+gpos >= c.spec.Target {
		replay = true
	}
	if c.spec.Monotone && (pos > 0 || L0+neg <= 0) {
		replay = true
	}
	if replay && s.replay(l) {
		clear(s.b.upd)
		c.retractUnreached()
		return
	}
	if !replay && (neg != 0 || pos != 0) {
		c.leaders += neg + pos
		s.oneStep = -1 // the range excludes 1: never one leader in the batch
	}
	if !replay {
		for _, t := range s.b.types {
			c.goal += t.dg * t.m
		}
	}
	s.step += l
	if l < R {
		s.collide(2 * l)
	}
	for _, i := range c.order {
		if u := s.b.upd[i]; u != 0 {
			c.counts[i] += u
			s.b.upd[i] = 0
		}
	}
	if s.batches%32 == 0 {
		c.sortOrder()
	}
}

// drawPairs draws pairs initiators' and pairs responders' states from the
// total agents of c.counts (step 2 of a batch) and pairs them by a uniform
// matching drawn state by state (step 3: for each initiator state, its
// partners' states from the responders not yet matched). It puts the
// agents' new states in s.b.upd and calls each once per interaction type.
func (s *CountSim[S, P]) drawPairs(pairs, total int64, each func(t pairType)) {
	c, g, order := s.c, s.g, s.c.order
	s.work += 2*int64(len(order)) + 40 // a multivariate draw: its states, and about 20 units of fixed cost
	g.multiHypergeometric(c.counts, total, pairs, s.b.ini, order)
	for _, i := range order {
		c.counts[i] -= s.b.ini[i]
	}
	g.multiHypergeometric(c.counts, total-pairs, pairs, s.b.res, order)
	for _, i := range order {
		c.counts[i] -= s.b.res[i]
	}
	remR := pairs
	for _, i := range order {
		a := s.b.ini[i]
		if a == 0 {
			continue
		}
		s.work += int64(len(order)) + 20
		g.multiHypergeometric(s.b.res, remR, a, s.b.row, order)
		remR -= a
		left := a
		for _, j := range order {
			m := s.b.row[j]
			if m == 0 {
				continue
			}
			s.b.res[j] -= m
			x, y := c.trans(i, j) // may discover states: s.b slices are re-read
			c.touch(x)
			c.touch(y)
			s.b.upd[x] += m
			s.b.upd[y] += m
			dl, dg := c.deltas(i, j, x, y)
			each(pairType{i, j, x, y, m, dl, dg})
			if left -= m; left == 0 {
				break
			}
		}
	}
}

// replay draws the order of the batch's l fresh interactions and follows the
// counters step by step. It returns true when the run stopped inside the
// batch (the configuration is then rebuilt at that step); otherwise it has
// updated the counters and the one-leader step to the end of the batch.
func (s *CountSim[S, P]) replay(l int64) bool {
	c, g := s.c, s.g
	types := s.b.types
	// Groups: the types that change a counter, then one lump of the rest.
	var changing []int
	var neutralTotal int64
	for k, t := range types {
		if t.dl != 0 || t.dg != 0 {
			changing = append(changing, k)
		} else {
			neutralTotal += t.m
		}
	}
	rem := make([]int64, len(changing))
	for k, ti := range changing {
		rem[k] = types[ti].m
	}
	neutralRem := neutralTotal
	left := l
	leaders, goal := c.leaders, c.goal
	oneStep := s.oneStep
	stopAt := int64(-1)
	for t := int64(1); t <= l; t++ {
		x := int64(g.below(uint64(left)))
		left--
		if x < neutralRem {
			neutralRem--
			continue
		}
		x -= neutralRem
		k := 0
		for ; x >= rem[k]; k++ {
			x -= rem[k]
		}
		rem[k]--
		tp := types[changing[k]]
		leaders += tp.dl
		goal += tp.dg
		at := s.step + t
		if tp.dl != 0 {
			if c.spec.Monotone && tp.dl > 0 {
				s.violation = leadersIncreased(leaders-tp.dl, leaders, at)
			} else if c.spec.Monotone && leaders == 0 {
				s.violation = lastLeaderEliminated(at)
			}
			if leaders == 1 {
				oneStep = at
			} else {
				oneStep = -1
			}
		}
		reached := leaders == 1
		if c.spec.Goal == GoalCount {
			reached = goal >= c.spec.Target
		}
		if reached || s.violation.Found() {
			stopAt = t
			break
		}
	}
	c.leaders, c.goal, s.oneStep = leaders, goal, oneStep
	if stopAt < 0 {
		return false
	}
	// Rebuild the configuration after the first stopAt interactions: the
	// neutral ones among them are a uniform sub-multiset of the neutral
	// interactions.
	neutralUsed := neutralTotal - neutralRem
	var neutralIdx []int32
	for k, t := range types {
		if t.dl == 0 && t.dg == 0 {
			neutralIdx = append(neutralIdx, int32(k))
		}
	}
	ms := make([]int64, len(neutralIdx))
	used := make([]int64, len(neutralIdx))
	for a, k := range neutralIdx {
		ms[a] = types[k].m
	}
	g.multiHypergeometric(ms, neutralTotal, neutralUsed, used, nil)
	apply := func(t pairType, u int64) {
		c.counts[t.x] += u
		c.counts[t.y] += u
		c.counts[t.i] += t.m - u
		c.counts[t.j] += t.m - u
	}
	for a, k := range neutralIdx {
		apply(types[k], used[a])
	}
	for a, k := range changing {
		apply(types[k], types[k].m-rem[a])
	}
	s.step += stopAt
	s.done = s.reached()
	return true
}

// collide simulates the interaction that ends a batch: an ordered pair of
// distinct agents, uniform among those not both untouched, where t agents
// are touched (their states are in s.b.upd) and n - t untouched (in counts).
func (s *CountSim[S, P]) collide(t int64) {
	c := s.c
	i, j := pairMeeting(s.g, c.n, t, s.b.upd, c.counts, c.order, c.order)
	s.play(i, j)
}

// pairMeeting draws the states of an ordered pair of distinct agents,
// uniform among the pairs with at least one agent of a set A of a agents
// among n, and takes both out of the counts: A's states are counted in inA
// and visited in orderA, the other n - a agents' in rest and orderRest.
//
// Conditioned on not both outside A, the initiator is in A with
// probability a(n-1) / (a(n-1) + (n-a)a) = (n-1) / (n-1 + n-a); given an
// initiator in A the responder is any of the other n-1 agents (in A with
// probability (a-1)/(n-1)), and given an initiator outside A the responder
// is in A. Both draws are exact integer draws.
func pairMeeting(g rng, n, a int64, inA, rest []int64, orderA, orderRest []int32) (int32, int32) {
	out := n - a
	initA := g.below(uint64(n-1+out)) < uint64(n-1)
	respA := true
	if initA {
		respA = g.below(uint64(n-1)) < uint64(a-1)
	}
	draw := func(fromA bool) int32 {
		if fromA {
			i := pick(g, inA, a, orderA)
			inA[i]--
			a--
			return i
		}
		i := pick(g, rest, out, orderRest)
		rest[i]--
		out--
		return i
	}
	i := draw(initA)
	return i, draw(respA)
}

// play applies one interaction between agents in states i and j, already
// taken out of the counts, and accounts for it as one step.
func (s *CountSim[S, P]) play(i, j int32) {
	c := s.c
	x, y := c.trans(i, j)
	c.touch(x)
	c.touch(y)
	c.counts[x]++
	c.counts[y]++
	dl, dg := c.deltas(i, j, x, y)
	s.step++
	c.leaders += dl
	c.goal += dg
	s.account(dl)
}
