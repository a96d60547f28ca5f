package pp

import (
	"math"
	"unsafe"
)

// Auto's engines are chosen by cost and re-chosen during a run. The
// hybrid count engine (Hybrid, auto's engine from n = 2^14) counts the work
// it does (CountSim.work, in units of about one draw or one state visited):
// the draws and state visits of its batches and epochs, the transition
// lookups of its class matchings, the bit-matrix words of its null-skipping
// events and the lookups of the states that become live. Every window of
// n/4 interactions (decide) it turns that work into an estimate of its
// cost per interaction (batchUnitNs or skipUnitNs per unit) and compares:
//
//   - with the agent array's cost (arrayCostNs: one interaction, more when
//     the array outgrows the caches): when the agent array fits (at most
//     autoArrayBytes of states) and the count engine costs more than
//     arraySwitch times as much, the run moves onto an agent array: the
//     configuration's n agents laid out state by state, the leader and goal
//     counters, the step, the one-leader step and the states met carried
//     over, and a pair source seeded from the count engine's stream. The
//     move is one way (P_LL's clocks at n = 10^4 to 10^5, the case it is
//     for, do not come back to a few states);
//   - with the other count mode's cost, as last measured: batches give way
//     to null-skipping when null-skipping was measured cheaper, or, when its
//     cost is unknown or stale, when few enough pairs are non-null (p
//     sqrt(n) < live states, checked then, not at every batch) to try it for
//     a window; null-skipping gives way to batches likewise
//     (skipState.shouldBatch). A mode left because it cost more is not
//     tried again for twice as many windows as the last time (4, 8, ...).
//
// Exactness. Given its counts, the count engines' configuration is a
// uniformly random arrangement of the agents (agents are exchangeable),
// and the agent array's scheduler draws uniform pairs of positions, so the
// law of the rest of the run does not depend on how the agents are laid
// out: the run continues with the sequential process's law from the exact
// step at which it moved. Switching between batches and null-skipping
// happens between two of their steps, each of which leaves the exact law.
// Every decision depends only on the run's own counts of work, never on
// the clock, so the same seed gives the same run on any machine.
// TestAutoEquivalentToAgentArray checks the law against the agent array.
//
// The constants were measured (CPU time) on P_LL-sym at n = 10^4 to 10^6,
// see the engine table in docs/performance.md: a unit of work costs about
// 0.65-1.35 ns in batches (batchUnitNs) and 5-15 ns in null-skipping; an agent-array
// interaction of P_LL-sym about 50-60 ns within 8 MiB, more beyond; in the
// processor's own caches (n = 10^4) the agent array is taken at 25 ns, since
// pll's own transition (its fast path for two followers) costs 18 ns there
// against 38 in batches.
const (
	skipUnitNs   = 6.0
	arrayNs      = 60.0
	arrayCacheNs = 25.0
	arrayMissNs  = 60.0
	arraySwitch  = 1.4
	// autoArrayBytes is the largest agent array auto moves a run onto.
	autoArrayBytes = 1 << 30
)

// batchUnitNs is the cost of a unit of the batches' work: 1.35 ns at
// n = 10^4, 1.0 at 10^5, 0.65 at 10^6 (measured on P_LL-sym: at small n
// its clocks reach thousands of states, whose transitions are cached in a
// map rather than the dense table), between 0.5 and 1.4 ns.
func batchUnitNs(n int64) float64 {
	return min(max(1.35-0.35*math.Log10(float64(n)/1e4), 0.5), 1.4)
}

// arrayCostNs estimates the agent array's cost per interaction for n agents.
func arrayCostNs[S comparable](n int64) float64 {
	var s S
	switch bytes := n * int64(unsafe.Sizeof(s)); {
	case bytes <= 256<<10:
		return arrayCacheNs // in the processor's own caches
	case bytes <= 8<<20:
		return arrayNs
	}
	return arrayNs + arrayMissNs
}

// arrayAllowed says whether auto may move this run onto an agent array.
func (s *CountSim[S, P]) arrayAllowed() bool {
	var st S
	return s.mode == Hybrid && s.opt.Sample == nil && !s.noArray &&
		s.c.n <= MaxN && s.c.n*int64(unsafe.Sizeof(st)) <= min(autoArrayBytes, AgentArrayBudget)
}

// decide ends a window of at least n/4 interactions (and 1024): it
// measures the current mode's cost and moves the run as described above.
func (s *CountSim[S, P]) decide() {
	if s.forceArrayAt > 0 && s.step >= s.forceArrayAt {
		s.toArray()
		return
	}
	steps := s.step - s.winStep
	if steps < max(s.c.n/4, 1024) {
		return
	}
	m, unit := 0, batchUnitNs(s.c.n)
	if s.skipping {
		m, unit = 1, skipUnitNs
	}
	cost := float64(s.work-s.winWork) / float64(steps) * unit
	if s.twoWay {
		// Small n: null-skipping or the agent array, nothing else.
		if ev := s.events - s.winEvents; ev > 0 {
			s.eventNs = float64(s.work-s.winWork) / float64(ev) * skipUnitNs
		}
		s.winWork, s.winStep, s.winEvents = s.work, s.step, s.events
		if s.pingPong || cost > arraySwitch*arrayCostNs[S](s.c.n) {
			if !s.pingPong {
				s.arrWin *= 2
			} // it left the array too early: check less often
			s.toArray()
			s.arrCheck = s.step + s.arrWin
		}
		return
	}
	s.winWork, s.winStep = s.work, s.step
	s.windows++
	s.cost[m], s.costAt[m] = cost, s.windows
	o := 1 - m
	known := s.costAt[o] > 0 && s.windows-s.costAt[o] <= s.backoff[o]
	best := cost
	if known {
		best = min(best, s.cost[o])
	}
	if s.arrayOK && best > arraySwitch*arrayCostNs[S](s.c.n) {
		s.toArray()
		return
	}
	var move bool
	switch {
	case known:
		move = s.cost[o]*1.1 < cost
		if move {
			s.backoff[m] *= 2 // m was measured against o and lost
		}
	case s.skipping:
		move = s.ns.shouldBatch(s.c.n)
	default:
		move = !s.nonNullAbove(skipThreshold * float64(s.liveStates()) / math.Sqrt(float64(s.c.n)))
	}
	if move {
		s.skipping = !s.skipping
		s.ns.valid = false
	}
}

// toArray moves the run onto an agent array.
func (s *CountSim[S, P]) toArray() {
	c := s.c
	a := &Sim[S, P]{p: c.p, spec: c.spec, n: int(c.n), seed: s.seed, opt: s.opt, leaderWatch: s.leaderWatch, rep: reporter{fn: s.opt.Progress}}
	for b := range a.events {
		a.events[b], a.eventLead[b], a.tallyAt[b] = -1, -1, -1
	}
	a.states = make([]S, c.n)
	adviseHugePages(a.states)
	k := 0
	for i, x := range c.counts {
		for range x {
			a.states[k] = c.states[i]
			k++
		}
	}
	if int64(k) != c.n {
		panic("pp: the counts do not add up to n")
	}
	a.leaders, a.goal, a.step, a.maxSteps = c.leaders, c.goal, s.step, s.maxSteps
	if s.seen != nil {
		a.seen = s.seen // the states met in earlier stays on the array
	} else {
		a.seen = newStateSet(c.p, c.spec.StateSpace, s.opt.TrackStates)
	}
	if s.opt.TrackStates {
		for i, r := range c.reached {
			if r {
				a.seen.add(c.states[i])
			}
		}
	}
	a.done = a.reached()
	a.src = newPairSource(int(c.n), s.g.r.Uint64(), s.opt.Scheduler)
	s.arr = a
	s.usedArray = true
}

// advanceArray runs the agent array up to step end and copies its state.
// In auto's small-n mode it checks, every arrWin interactions, whether to
// leave the array for null-skipping; it reports whether the run is still
// on the array.
func (s *CountSim[S, P]) advanceArray(end int64) bool {
	a := s.arr
	for {
		stop := end
		if s.twoWay {
			stop = min(end, s.arrCheck)
		}
		a.Advance(stop - a.step)
		s.step, s.leaderWatch, s.done, s.rep.halted = a.step, a.leaderWatch, a.done, a.rep.halted
		s.c.leaders, s.c.goal = a.leaders, a.goal
		if !s.twoWay || a.Stopped() || a.step >= end {
			return true
		}
		s.arrCheck = a.step + s.arrWin
		if s.leaveArray() {
			return false
		}
	}
}

// Auto's small-n mode. Below autoMinCount agents (2^14), batches (at most
// about 128 interactions each) do not beat the agent array, whose states
// fit in the processor's caches, by much (at n = 10^4: 9.2-66 ns per
// interaction against 7.0-51 on the agent array, approximate majority's
// 10.1 against 12.5 the exception); what can beat it by orders of magnitude is
// null-skipping once few pairs of agents are non-null (Angluin et al.'s
// protocol with a few leaders left, a majority's last minority agents).
// So auto starts the run on the agent array, built and seeded exactly as
// Run builds it (a run that never leaves it is Run's run, draw for draw,
// with the agent array's result and details), and checks every arrWin
// interactions (4n, at least 4096) the fraction p of non-null pairs on
// probePairs pairs drawn from a stream of their own: when p times the cost
// of a null-skipping event (measured, once it has run) is below the array's
// cost per interaction over probeMargin, the run moves onto null-skipping
// (syncCounts: the counts of the array's states). Null-skipping measures
// its own cost every window (decide) and moves the run back onto a new
// agent array (toArray) when it costs more than arraySwitch times the
// array; each move back doubles arrWin. The law is exact for the reason
// given above: the configuration's counts are all the future depends on,
// and the probes draw from their own stream.
const (
	probePairs     = 64
	probeMargin    = 1.5
	defaultEventNs = 180.0 // angluin's null-skipping events at n = 1000
)

// startOnArray puts a small-n auto run on the agent array, as Run would
// set it up.
func (s *CountSim[S, P]) startOnArray() {
	a := NewSim[S](s.c.p, int(s.c.n), s.seed, s.opt)
	a.maxSteps = s.maxSteps
	s.arr, s.usedArray, s.twoWay, s.seen = a, true, true, a.seen
	s.probe = newRNG(s.seed, probeStream)
	s.arrWin = max(4*s.c.n, 4096)
	s.arrCheck = s.arrWin
	s.eventNs = defaultEventNs
}

// probeStream is the PCG stream selector of the small-n mode's probes.
const probeStream = 0x656c6563742d7072 // "elect-pr"

// leaveArray probes the array's non-null fraction and, when null-skipping
// would cost less, moves the run onto it.
func (s *CountSim[S, P]) leaveArray() bool {
	a, n := s.arr, uint64(s.c.n)
	nonNull := 0
	for range probePairs {
		u := s.probe.below(n)
		v := s.probe.below(n - 1)
		if v >= u {
			v++
		}
		x, y := a.states[u], a.states[v]
		s.c.p.Interact(&x, &y)
		if !(x == a.states[u] && y == a.states[v]) && !(x == a.states[v] && y == a.states[u]) {
			nonNull++
		}
	}
	p := float64(nonNull) / probePairs
	if !s.pingPong && p*s.eventNs*probeMargin >= arrayCostNs[S](s.c.n) {
		return false
	}
	s.syncCounts()
	s.arr = nil
	s.skipping, s.ns.valid, s.silent = true, false, false
	s.winWork, s.winStep, s.winEvents = s.work, s.step, s.events
	return true
}

// has reports whether st was recorded.
func (s *stateSet[S]) has(st S) bool {
	if !s.on {
		return false
	}
	if s.bits != nil {
		i := s.index.Index(st)
		return s.bits[i/64]&(uint64(1)<<(i%64)) != 0
	}
	_, ok := s.m[st]
	return ok
}

// syncCounts rebuilds the counts from the agent array (after a move).
func (s *CountSim[S, P]) syncCounts() {
	a, c := s.arr, s.c
	if a == nil {
		return
	}
	clear(c.counts)
	// The first few distinct states are looked up by comparison, not in
	// the map: with few states (a majority, an epidemic) the map lookup was
	// most of the cost of a move at n = 10^4.
	const few = 8
	var fs [few]S
	var fi [few]int32
	nf := 0
agents:
	for _, st := range a.states {
		for k := range nf {
			if fs[k] == st {
				c.counts[fi[k]]++
				continue agents
			}
		}
		i := c.stateIndex(st)
		c.counts[i]++
		if nf < few {
			fs[nf], fi[nf] = st, i
			nf++
		}
	}
	for i, x := range c.counts {
		if x > 0 {
			c.touch(int32(i))
		}
	}
	c.batchNew = c.batchNew[:0]
	c.leaders, c.goal = a.leaders, a.goal
	if s.opt.TrackStates {
		for i, st := range c.states {
			if !c.reached[i] && a.seen.has(st) {
				c.reached[i] = true
			}
		}
		c.nReached = a.seen.len()
	}
}
