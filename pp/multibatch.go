package pp

import (
	"fmt"
	"math"

	"github.com/electkit/elect/election"
)

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
// evaluated together by the matching of the batched engine (state by
// state, or class by class for a PartnerClasser: classmatch.go).
//
// Since the interactions of an epoch are not evaluated in time order, the
// engine uses a plain epoch only when the stop condition cannot hold inside
// it (leader epochs, below, lift this for monotone one-leader protocols):
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
	thr := s.epochCap()
	T := min(lim, thr)
	if float64(T) < 3*sq { // not worth it: one collision-free run is ~0.63 sqrt(n)
		return 0
	}
	return T
}

// epochCap returns the adaptive length of an epoch, at most n/8. An epoch
// of T interactions costs its matching, M draws, and its collisions, about
// 2T^2/n of them at c each, so T = sqrt(M n / (2c)) minimises the cost per
// interaction, which is then 2 sqrt(2Mc/n). M is about q^2 + 10q + 100
// draws for q live states (the q^2 matching, the 2q draws of the delayed
// agents' states, and a fixed part: the collision-length draw, the passes
// over the states, the sort). With partner classes it is what the last
// class matching drew (s.cm.draws: q draws of delayed agents, the class
// matrix and the splits of the states that need one) plus 5q + 100 for
// the passes over the states; before the first matching, 15q + 100, as if
// every state were split. epochFactor = sqrt(draw / 2c). Measured at
// n = 2^30: 8 states, 0.42-0.49 ns per interaction with T = q sqrt(n)/4
// (too short for q = 8: single batches), 0.18 with T = q sqrt(n)/2; 128 states, fastest with T =
// q sqrt(n)/4 of q sqrt(n)/8, /4, /2 and 2q sqrt(n) (5.2, 3.5, 5.8, 10.2
// ns); P_LL's BackUp at n = 10^8, fastest with T = q sqrt(n)/16 of /4,
// /8, /16 and /32; P_LL's long wait with two leaders at n = 10^8 (parallel
// time 40-190, seed 9), 12.3-14.0 s with 5q of 2q, 5q and 15q.
func (s *CountSim[S, P]) epochCap() int64 {
	q, n := float64(len(s.c.order)), s.c.n
	draws := q*q + 10*q + 100
	if s.c.classOf != nil {
		draws = 15*q + 100
		if s.cm.draws > 0 {
			draws = float64(s.cm.draws) + 5*q + 100
		}
	}
	return min(int64(epochFactor*math.Sqrt(draws*float64(n))), n/8)
}

var epochFactor = 0.25

// multibatch runs one epoch of exactly T interactions among the n agents
// (the whole population); it stops earlier only when watch holds (see
// leaderEpoch): then touched holds the leaders, already out of c.counts and
// in s.b.upd, and the epoch ends at the exact step at which an interaction
// leaves one leader or breaks the monotone leader count.
func (s *CountSim[S, P]) multibatch(T, n int64, touched int64, watch bool) {
	c, g := s.c, s.g
	s.batches++
	cTotal := n - touched // agents in c (untouched and delayed)
	upd := touched        // updated agents (s.b.upd)
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
	toUpd := func(i int32) {
		s.b.upd[i]++
		upd++
	}
	// reveal evaluates the scheduled interaction of one delayed agent and
	// returns that agent's new state; its partner becomes updated.
	reveal := func() int32 {
		a, b := fromC(), fromC()
		delayed -= 2
		if g.r.Uint64()&1 == 0 { // the revealed agent was the initiator
			x, y := apply(a, b)
			toUpd(y)
			return x
		}
		x, y := apply(b, a)
		toUpd(x)
		return y
	}
	pickTouched := func() int32 {
		t := delayed + upd
		if int64(g.below(uint64(t))) < delayed {
			return reveal()
		}
		return fromUpd()
	}
	stopped, increased := false, false
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
		before := dl
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
		toUpd(x)
		toUpd(y)
		if watch && dl != before {
			// Every leader is touched, so this interaction is the one that
			// changed the leader count, unless a revealed pair of
			// followers made a leader (a broken promise, reported below).
			increased = increased || dl > before
			if increased || c.leaders+dl <= 1 {
				stopped = true
				break
			}
		}
	}
	// The remaining delayed pairs: their states, and the matching.
	pairs := delayed / 2
	match := s.matchByState
	if c.classOf != nil {
		match = s.matchByClass
	}
	s.work += 5*int64(len(c.order)) + done*(4+int64(len(c.order))) + 100 // picks visit the states in order
	a, b := match(pairs, cTotal)
	if c.classOf != nil {
		s.work += int64(s.cm.draws)
	}
	dl += a
	dg += b
	for _, i := range c.order {
		if u := s.b.upd[i]; u != 0 {
			c.counts[i] += u
			s.b.upd[i] = 0
		}
	}
	s.step += done + pairs
	c.leaders += dl
	c.goal += dg
	if dl != 0 && !stopped {
		s.oneStep = -1 // the epoch does not contain a step with one leader
	}
	if increased {
		s.violation = election.NewViolation(election.PropLeadersIncreased, fmt.Sprintf("to %d by step %d", c.leaders, s.step)).AtStep(s.step)
	}
	s.account(dl)
	if s.batches%8 == 0 {
		c.sortOrder()
	}
}

// Leader epochs. With few leaders the epochs above cannot be used (an
// epoch that may contain the step at which one leader remains must be
// resolved step by step), and single batches cost about q^2 draws for
// about sqrt(n) interactions, ruinous when a protocol such as P_LL keeps
// hundreds of live states (its clock) while a few leaders wait for the next
// phase. For a protocol whose goal is one leader and whose leader count
// never increases (Spec.Monotone), the leader count only changes in an
// interaction that involves a leader agent. A leader epoch is an epoch in
// which the L leaders' agents count as touched from the start: they are
// taken out of c into s.b.upd, so every interaction that involves one of
// them is a collision of the epoch, evaluated individually and in time
// order, while the delayed pairs are pairs of followers. The leader count
// is therefore known after every collision, and the epoch stops at the
// exact step at which it reaches one (or at which the monotone count is
// broken). Revealing a delayed pair of followers cannot change it unless
// the protocol breaks its promise; that is reported as leaders-increased
// at the collision that revealed it. The law is the multibatch's: only
// which agents start as touched differs, and touched agents are met
// uniformly whatever their state.

// leaderEpoch runs one leader epoch when it applies and pays (the leader
// count, not the matching, limits a plain epoch), and reports whether it did.
func (s *CountSim[S, P]) leaderEpoch(end int64) bool {
	c := s.c
	n, L := c.n, c.leaders
	if c.spec.Goal != GoalOneLeader || !c.spec.Monotone || L < 2 {
		return false
	}
	sq := math.Sqrt(float64(n))
	thr := s.epochCap()
	if (L-1)/2 >= thr || float64(thr) < 3*sq {
		return false // a plain epoch is as long, or no epoch pays
	}
	T := min(thr, end-s.step)
	var total int64
	for _, i := range c.order {
		if k := c.counts[i]; c.leader[i] && k > 0 {
			s.b.upd[i] = k
			c.counts[i] = 0
			total += k
		}
	}
	if total != L {
		panic("pp: leader count disagrees with the counts")
	}
	s.multibatch(T, n, L, true)
	return true
}

// matchByState draws the pairs delayed initiators and responders of an
// epoch and pairs them state by state (drawPairs), and returns the changes
// of the leader count and of the goal counter.
func (s *CountSim[S, P]) matchByState(pairs, total int64) (dl, dg int64) {
	s.drawPairs(pairs, total, func(t pairType) {
		dl += t.dl * t.m
		dg += t.dg * t.m
	})
	return dl, dg
}
