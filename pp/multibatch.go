package pp

import "math"

// Multibatching (Berenbrink et al., ESA 2020, Section 5; ppsim's
// "multibatch" step): an epoch of T interactions, T chosen adaptively and
// possibly much longer than one collision-free run, so that the cost of
// the q x q matching is spread over many more interactions.
//
// Agents are untouched (not yet in the epoch), delayed (scheduled in exactly
// one interaction with another delayed agent, not yet evaluated: still in
// their initial state) or updated (already evaluated: in their new state,
// kept in s.b.upd). The counts c hold the untouched and delayed agents
// together: the delayed ones are a uniformly random subset of them, so any
// one of them, when it must be revealed, is a uniform draw from c.
//
// The epoch repeats: sample k, the number of next interactions whose two
// agents are both untouched (sampleFresh with r = delayed + updated agents
// already touched), which become k delayed pairs; then the interaction that
// meets a touched agent. A touched agent is delayed with probability
// delayed/touched; a delayed agent first has its scheduled interaction
// evaluated (its partner is a uniform draw from c, the roles a fair coin,
// since the pair was an ordered pair of uniform agents), its partner
// becoming updated. At the end of the epoch the remaining delayed pairs are
// evaluated together by the matching of the batched engine.
//
// Since the interactions of an epoch are not evaluated in time order, the
// engine uses an epoch only when the stop condition cannot hold inside it:
// an interaction changes the leader count and the goal counter by at most 2,
// so an epoch of T < (|leaders - 1|) / 2 interactions (and T < (target -
// goal) / 2 for a goal count) cannot reach one leader, the goal or a
// violation of monotone leaders. Otherwise the engine runs single batches,
// which resolve the exact step.

// epochLength returns the length of the next epoch, or 0 when single
// batches must be used.
func (s *CountSim[S, P]) epochLength(end int64) int64 {
	c := s.c
	lim := end - s.step
	if c.spec.Goal == GoalOneLeader || c.leaders >= 1 {
		d := c.leaders - 1
		if d < 0 {
			d = -d
		}
		lim = min(lim, (d-1)/2)
	}
	if c.spec.Goal == GoalCount {
		lim = min(lim, (c.spec.Target-c.goal-1)/2)
	}
	sq := math.Sqrt(float64(c.n))
	thr := min(int64(float64(len(c.order))*epochFactor*sq), c.n/8)
	T := min(lim, thr)
	if float64(T) < 3*sq { // not worth it: one collision-free run is ~0.63 sqrt(n)
		return 0
	}
	return T
}

// epochFactor sets the adaptive length (see epochLength); 0.25 was the
// fastest of 0.125, 0.25, 0.5 and 2 for 128 states at n = 2^30 (5.2, 3.5,
// 5.8, 10.2 ns per interaction; single batches: 142).
var epochFactor = 0.25

// The adaptive length: (q/4) sqrt(n) interactions for q live states
// (so the q^2 matching costs O(q / sqrt(n)) per interaction, while the
// collisions, about 2T^2/n of them at O(q) each, stay comparable), at most
// n/8 and never beyond the safe length above.

// multibatch runs one epoch of exactly T interactions among the n agents
// held in c.counts (all of them, or the followers while followerEpoch holds
// the leaders aside).
func (s *CountSim[S, P]) multibatch(T, n int64) {
	c, g := s.c, s.g
	s.batches++
	cTotal := n   // agents in c (untouched and delayed)
	var upd int64 // updated agents
	var delayed int64
	var done int64 // interactions evaluated so far (collisions and revealed delayed pairs)
	var dl, dg int64
	apply := func(i, j int32) (int32, int32) {
		x, y := c.trans(i, j)
		c.touch(x)
		c.touch(y)
		a, b := c.deltas(i, j, x, y)
		dl += a
		dg += b
		done++
		return x, y
	}
	fromC := func() int32 {
		i := pick(g, c.counts, cTotal, c.order)
		c.counts[i]--
		cTotal--
		return i
	}
	fromUpd := func() int32 {
		i := pick(g, s.b.upd, upd, c.order)
		s.b.upd[i]--
		upd--
		return i
	}
	// reveal evaluates the scheduled interaction of one delayed agent and
	// returns that agent's new state; its partner becomes updated.
	reveal := func() int32 {
		a, b := fromC(), fromC()
		delayed -= 2
		if g.r.Uint64()&1 == 0 { // the revealed agent was the initiator
			x, y := apply(a, b)
			s.b.upd[y]++
			upd++
			return x
		}
		x, y := apply(b, a)
		s.b.upd[x]++
		upd++
		return y
	}
	pickTouched := func() int32 {
		t := delayed + upd
		if int64(g.below(uint64(t))) < delayed {
			return reveal()
		}
		return fromUpd()
	}
	for {
		left := T - done - delayed/2
		if left <= 0 {
			break
		}
		k := sampleFresh(g, n, delayed+upd, left)
		delayed += 2 * k
		if k == left {
			break
		}
		// The interaction that meets a touched agent.
		t := delayed + upd
		u := n - t
		initTouched := g.below(uint64(n-1+u)) < uint64(n-1)
		respTouched := true
		if initTouched {
			respTouched = g.below(uint64(n-1)) < uint64(t-1)
		}
		var i, j int32
		if initTouched {
			i = pickTouched()
		} else {
			i = fromC()
		}
		if respTouched {
			j = pickTouched()
		} else {
			j = fromC()
		}
		x, y := apply(i, j)
		s.b.upd[x]++
		s.b.upd[y]++
		upd += 2
	}
	// The remaining delayed pairs: initiators, responders, matching.
	pairs := delayed / 2
	order := c.order
	g.multiHypergeometric(c.counts, cTotal, pairs, s.b.ini, order)
	for _, i := range order {
		c.counts[i] -= s.b.ini[i]
	}
	g.multiHypergeometric(c.counts, cTotal-pairs, pairs, s.b.res, order)
	for _, i := range order {
		c.counts[i] -= s.b.res[i]
	}
	remR := pairs
	for _, i := range order {
		a := s.b.ini[i]
		if a == 0 {
			continue
		}
		g.multiHypergeometric(s.b.res, remR, a, s.b.row, order)
		remR -= a
		left := a
		for _, j := range order {
			m := s.b.row[j]
			if m == 0 {
				continue
			}
			s.b.res[j] -= m
			x, y := c.trans(i, j)
			c.touch(x)
			c.touch(y)
			s.b.upd[x] += m
			s.b.upd[y] += m
			a, b := c.deltas(i, j, x, y)
			dl += a * m
			dg += b * m
			if left -= m; left == 0 {
				break
			}
		}
	}
	for _, i := range c.order {
		if u := s.b.upd[i]; u != 0 {
			c.counts[i] += u
			s.b.upd[i] = 0
		}
	}
	s.step += done + pairs
	c.leaders += dl
	c.goal += dg
	if dl != 0 {
		s.oneStep = -1 // the epoch is too short to reach one leader
	}
	s.account(dl)
	if s.batches%8 == 0 {
		c.sortOrder()
	}
}

// Follower epochs. With few leaders the epochs above cannot be used (an
// epoch that may contain the step at which one leader remains must be
// resolved step by step), and single batches cost about q^2 draws for
// about sqrt(n) interactions, ruinous when a protocol such as P_LL keeps
// hundreds of live states (its clock) while two or three leaders wait for
// the next phase. For a protocol whose goal is one leader and whose leader
// count never increases (Spec.Monotone), the leader count only changes in
// an interaction that involves a leader agent: a count that falls has an
// agent leaving L. With L leaders among n agents, each interaction avoids
// them with probability p0 = (n-L)(n-L-1) / (n(n-1)), independently, so the
// number G of interactions before the first one that involves a leader is
// geometric, P(G >= g) = p0^g, and given G those G interactions are
// uniform ordered pairs of distinct followers: the ordered scheduler on the
// n-L followers, whose own epochs have no stop condition inside them. The
// engine sets the leaders' agents aside, runs an epoch of T = min(G, cap,
// steps left) follower interactions, puts the leaders back and, when T = G,
// plays the interaction that involves a leader: an ordered pair uniform
// among those with at least one leader agent (the collision rule of
// collide, with the leaders as the touched agents), at its exact step. When
// T < G nothing else happens: G is memoryless, so the next call draws a
// fresh gap. A follower interaction that created a leader would break the
// protocol's promise; the monitor then reports it at the end of the epoch
// (the only case in which a count engine does not name the exact step).

// followerEpochMinGap: follower epochs are used when the mean gap between
// interactions that involve a leader, about n / (2L), is at least this many
// times sqrt(n) (a single batch is about 0.63 sqrt(n) interactions).
const followerEpochMinGap = 3

// followerEpoch runs one follower epoch (and the leader interaction that
// ends it, if it comes before the cap and end) when they apply, and reports
// whether it did.
func (s *CountSim[S, P]) followerEpoch(end int64) bool {
	c, g := s.c, s.g
	n, L := c.n, c.leaders
	if c.spec.Goal != GoalOneLeader || !c.spec.Monotone || L < 1 || L >= n-1 {
		return false
	}
	sq := math.Sqrt(float64(n))
	if float64(n)/(2*float64(L)) < followerEpochMinGap*sq {
		return false
	}
	nF := n - L
	thr := min(int64(float64(len(c.order))*epochFactor*math.Sqrt(float64(nF))), nF/8)
	if float64(thr) < 3*sq {
		return false
	}
	// Set the leaders aside.
	held, heldStates := s.b.held, s.b.heldStates[:0]
	var heldTotal int64
	for _, i := range c.order {
		if c.leader[i] && c.counts[i] > 0 {
			heldStates = append(heldStates, i)
			held[i] = c.counts[i]
			heldTotal += held[i]
			c.counts[i] = 0
		}
	}
	s.b.heldStates = heldStates
	if heldTotal != L {
		panic("pp: leader count disagrees with the counts")
	}
	// G: interactions before the first one that involves a leader.
	fn := float64(n)
	lnP0 := math.Log1p(-float64(L)/fn) + math.Log1p(-float64(L)/(fn-1))
	gap := math.Floor(math.Log(g.uniform()) / lnP0)
	T := min(thr, end-s.step)
	leaderNext := gap < float64(T)
	if leaderNext {
		T = int64(gap)
	}
	if T > 0 {
		s.multibatch(T, nF)
	}
	if !leaderNext || s.violation != "" {
		s.restoreLeaders(held, heldStates)
		return true
	}
	// The interaction that involves a leader, at its exact step.
	i, j := pairMeeting(g, n, L, held, c.counts, heldStates, c.order)
	s.restoreLeaders(held, heldStates)
	s.play(i, j)
	return true
}

// restoreLeaders puts the agents set aside by followerEpoch back into the
// counts (and their states back into the visiting order, which a sort may
// have dropped them from while their counts were 0).
func (s *CountSim[S, P]) restoreLeaders(held []int64, states []int32) {
	c := s.c
	for _, i := range states {
		c.counts[i] += held[i]
		held[i] = 0
		c.touch(i)
	}
}
