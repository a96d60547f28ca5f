package pp

import "math"

// Quiet stretches: the long waits of clock-driven protocols (P_LL's
// CountUp periods) simulated through the agents' numbers of interactions.
//
// A configuration is quiet when there are a set Q of states holding every
// agent and a map f on Q such that every interaction of two agents in
// states a, b of Q gives them f(a), f(b) (the partner and the role do not
// matter) and changes no leader or goal flag, except, possibly, pairs of
// "inert" states (f(a) = a) that are few (the hot-inert states, e.g. the
// leaders of P_LL's BackUp, which eliminate each other on meeting). Then,
// until an agent leaves Q, an agent's state is its start state moved by f
// once per interaction it takes part in: the configuration is a function of
// the agents' degrees (numbers of interactions), and the sequence of pairs
// is the scheduler's, independent of the states. An agent in state a leaves
// Q after exit(a) interactions (exit(a) = infinity for a fixed point or a
// cycle of f inside Q).
//
// The engine splits the agents by state: hot agents (states with exit <=
// quietHot, and the hot-inert states), tracked by state and evaluated
// interaction by interaction in time order, and cold agents, of which it
// only follows the degree histogram over a window, starting from degree 0.
// A window is a run of multibatch epochs (multibatch.go) of the degree
// process: in an epoch the untouched cold agents' pairs are aggregated
// (sampleFresh), every interaction that meets a touched agent or a hot one
// is drawn individually (a touched cold agent by its degree in the epoch,
// a hot agent by its state), and an epoch ends after sqrt(8n) interactions
// or as soon as an agent's degree in it reaches quietEpochDeg. The touched
// cold agents of an epoch, of each epoch degree, are a uniform subset of
// the cold agents (the epoch's pairs do not depend on the past), so they
// are drawn from the sub-window's degree histogram (multivariate
// hypergeometric, shiftMerge) and moved up; a sub-window ends before an
// agent's degree in it could reach quietSubCap and is merged into the
// window's histogram the same way. The window ends before a cold agent's
// degree could exceed quietHot - 1, so no cold agent leaves Q inside a
// window. At the window's end the cold agents of degree d, a uniform subset
// of the cold agents (the degree process treats them alike and never
// looked at their states), are drawn from the cold states (multivariate
// hypergeometric), d = max .. 1, and moved by f^d; every state passed
// through is marked met.
//
// The stretch stops right after the first interaction that takes a hot
// agent out of Q or is a hot pair whose outcome is not (f(a), f(b)): both
// are decided on interactions already simulated, in time order, at their
// exact step, and the run goes on with the ordinary engine from the exact
// configuration. The law is the sequential process's: the degree process is
// the multibatch's law with the hot agents touched from the start (as the
// leaders of leader epochs), and the map from degrees to states is exact
// since cold agents are exchangeable given their states.
//
// Q is found from the live states: f(a) is a's state after meeting the most
// populous live state; the live states and the states their f-chains reach
// are added one by one, each tested against one representative of every
// partner class in Q (with a PartnerClasser, a state's outcome depends on
// its partner only through the partner's class) in both roles, and the
// states already in Q against a new class; a state that fails ends its
// chain (it is outside Q: reaching it stops the stretch); a live state
// that fails means the configuration is not quiet.

const (
	quietHot      = 24   // hot: states at most this many interactions from leaving Q
	quietEpochDeg = 4    // an epoch ends when an agent's degree in it reaches this
	quietSubCap   = 8    // a sub-window ends before an agent's degree in it could reach this
	quietMaxQ     = 8192 // the largest Q (with partner classes; 512 without)
	quietMaxLive  = 4096
	// quietEpochFactor: an epoch is sqrt(quietEpochFactor n) interactions,
	// which balances its merge (a few hypergeometric draws) against its
	// collisions (one collision-length draw each, about 2T^2/n of them);
	// P_LL's wait at n = 10^8 (seed 6) took 9.2, 8.7 and 9.4 s of CPU with
	// 2, 8 and 32.
	quietEpochFactor = 8.0
)

// quietPlan is a quiet configuration's Q, by state index: succ[a] = f(a)
// (-1 outside Q), exit[a] (math.MaxInt32: never), hotInert[a].
type quietPlan struct {
	succ     []int32
	exit     []int32
	hotInert []bool
}

func (p *quietPlan) in(a int32) bool { return int(a) < len(p.succ) && p.succ[a] >= 0 }

func (p *quietPlan) hot(a int32) bool { return p.hotInert[a] || p.exit[a] <= quietHot }

// quietState is a CountSim's quiet-stretch state and scratch.
type quietState struct {
	plan      *quietPlan
	nextCheck int64
	hmax      int64 // the most hot agents a stretch accepts (0: default)
	used      bool
	windows   int64
	epochs    int64 // epochs of the degree process
	steps     int64 // interactions simulated in quiet stretches

	hs     []int32 // hot agents' states
	hc     []int64 // and their numbers
	cs     []int32 // cold agents' states at the window's start
	cc     []int64
	w, urn []int64 // window degree histogram; scratch
	w1     []int64 // sub-window degree histogram
	add    []int64
	out    []int64
	t      [quietEpochDeg + 1]int64 // epoch degree histogram (1..quietEpochDeg)
	mv     []int64                  // window map: cold state x degree
	ord    []int32
}

// buildQuiet returns the plan of the current configuration, or nil when it
// is not quiet: Q grown from the live states and the states their f-chains
// reach, then each state's exit distance.
func (s *CountSim[S, P]) buildQuiet() *quietPlan {
	c := s.c
	var live []int32
	for _, i := range c.order {
		if c.counts[i] > 0 {
			live = append(live, i)
		}
	}
	if len(live) == 0 || len(live) > quietMaxLive {
		return nil
	}
	b := newQuietBuilder(c, live[0])
	for _, y := range live {
		if !b.try(y) {
			return nil
		}
	}
	b.followChains()
	p := b.plan(len(c.states))
	p.setExits(b.Q)
	return p
}

// quietBuilder grows a configuration's Q (see the comment at the top of
// this file): f(y) is y's state after meeting the representative state r,
// and every state added is tested against one representative of every
// partner class in Q, in both roles.
type quietBuilder[S comparable, P Protocol[S]] struct {
	c        *counter[S, P]
	r        int32
	maxQ     int
	succ     map[int32]int32   // f on Q
	Q        []int32           // Q's states in the order they were added
	members  map[int32][]int32 // class -> its states in Q
	classes  []int32           // the partner classes of Q, in the order met
	classHot map[int32]bool    // classes whose pairs with some class of Q are not (f(a), f(b))
	hot      map[int32]bool    // the hot-inert states
	rejected map[int32]bool    // states reached by a chain that failed the test
}

// newQuietBuilder starts an empty Q of c with f defined by meeting r.
func newQuietBuilder[S comparable, P Protocol[S]](c *counter[S, P], r int32) *quietBuilder[S, P] {
	maxQ := quietMaxQ
	if c.classOf == nil {
		maxQ = 512
	}
	return &quietBuilder[S, P]{
		c: c, r: r, maxQ: maxQ,
		succ: map[int32]int32{}, members: map[int32][]int32{},
		classHot: map[int32]bool{}, hot: map[int32]bool{}, rejected: map[int32]bool{},
	}
}

// classOf is state x's partner class (x itself without a PartnerClasser).
func (b *quietBuilder[S, P]) classOf(x int32) int32 {
	if b.c.classOf != nil {
		return b.c.classOf[x]
	}
	return x
}

// repOf is class k's representative state.
func (b *quietBuilder[S, P]) repOf(k int32) int32 {
	if b.c.classOf != nil {
		return b.c.classRep[k]
	}
	return k
}

// try adds y to Q if it passes: its step f(y) changes no leader or goal
// flag, it moves to f(y) with a partner of every class of Q in both roles
// (and, when its class is new, so does every state of Q with it), or else
// it and every state it fails with are inert, and become hot-inert.
func (b *quietBuilder[S, P]) try(y int32) bool {
	c := b.c
	fy, _ := c.trans(y, b.r)
	if c.leader[fy] != c.leader[y] || c.inGoal[fy] != c.inGoal[y] {
		return false
	}
	fixed := fy == y
	ky := b.classOf(y)
	if b.classHot[ky] && !fixed {
		return false
	}
	_, known := b.members[ky]
	failK, failB := b.failures(y, fy, ky, known)
	if len(failK)+len(failB) > 0 && !b.markHot(y, ky, fixed, failK, failB) {
		return false
	}
	if b.classHot[ky] {
		b.hot[y] = true
	}
	b.succ[y] = fy
	b.Q = append(b.Q, y)
	if !known {
		b.classes = append(b.classes, ky)
	}
	b.members[ky] = append(b.members[ky], y)
	return true
}

// failures tests y (of class ky, with f(y) = fy) against a representative
// of every class of Q, and of its own class when that is new (known
// false), in both roles; and, when its class is new, every state of Q
// against that class's representative. It returns the classes with which
// y does not move to fy, and the states of Q that do not move to their
// f with y's class.
func (b *quietBuilder[S, P]) failures(y, fy, ky int32, known bool) (failK, failB []int32) {
	c := b.c
	own := func(k int32) {
		rho := b.repOf(k)
		x, _ := c.trans(y, rho)
		_, z := c.trans(rho, y)
		if x != fy || z != fy {
			failK = append(failK, k)
		}
	}
	for _, k := range b.classes {
		own(k)
	}
	if known {
		return failK, nil
	}
	own(ky)
	rho := b.repOf(ky)
	for _, a := range b.Q {
		x, _ := c.trans(a, rho)
		_, z := c.trans(rho, a)
		if x != b.succ[a] || z != b.succ[a] {
			failB = append(failB, a)
		}
	}
	return failK, failB
}

// markHot accepts the failed tests of y (of class ky) when y and every
// state it failed with are inert (fixed points of f), and marks them all
// hot-inert; it reports whether it accepted.
func (b *quietBuilder[S, P]) markHot(y, ky int32, fixed bool, failK, failB []int32) bool {
	if !fixed {
		return false
	}
	for _, k := range failK {
		for _, m := range b.members[k] {
			if b.succ[m] != m {
				return false
			}
		}
	}
	for _, a := range failB {
		if b.succ[a] != a {
			return false
		}
	}
	b.hot[y] = true
	for _, k := range failK {
		b.classHot[k] = true
		for _, m := range b.members[k] {
			b.hot[m] = true
		}
	}
	for _, a := range failB {
		b.hot[a] = true
	}
	if len(failB) > 0 {
		b.classHot[ky] = true
	}
	return true
}

// followChains adds the states the f-chains of Q reach, up to maxQ states;
// a state that fails ends its chain (it is outside Q).
func (b *quietBuilder[S, P]) followChains() {
	for i := 0; i < len(b.Q) && len(b.Q) < b.maxQ; i++ {
		y := b.succ[b.Q[i]]
		if _, ok := b.succ[y]; ok || b.rejected[y] {
			continue
		}
		if !b.try(y) {
			b.rejected[y] = true
		}
	}
}

// plan is Q as a plan over ns states, its exit distances not yet set.
func (b *quietBuilder[S, P]) plan(ns int) *quietPlan {
	p := &quietPlan{succ: make([]int32, ns), exit: make([]int32, ns), hotInert: make([]bool, ns)}
	for i := range p.succ {
		p.succ[i] = -1
	}
	for _, y := range b.Q {
		p.succ[y] = b.succ[y]
		p.hotInert[y] = b.hot[y]
	}
	return p
}

// setExits sets the exit distance of every state of Q, chain by chain:
// the interactions until its f-chain leaves Q (math.MaxInt32 when it ends
// in a fixed point or a cycle).
func (p *quietPlan) setExits(Q []int32) {
	var path []int32
	for _, y := range Q {
		if p.exit[y] != 0 {
			continue
		}
		path = path[:0]
		x := y
		var base int32
		for {
			if !p.in(x) {
				base = 0
				break
			}
			if p.exit[x] == -1 { // back on the path: a cycle
				base = math.MaxInt32
				break
			}
			if p.exit[x] != 0 {
				base = p.exit[x]
				break
			}
			if p.succ[x] == x {
				p.exit[x] = math.MaxInt32
				base = math.MaxInt32
				break
			}
			p.exit[x] = -1
			path = append(path, x)
			x = p.succ[x]
		}
		for j := len(path) - 1; j >= 0; j-- {
			if base != math.MaxInt32 {
				base++
			}
			p.exit[path[j]] = base
		}
	}
}

// quietStep runs one window of a quiet stretch when the configuration is
// quiet (checked every n/4 interactions while it is not) and reports
// whether it did.
func (s *CountSim[S, P]) quietStep(end int64) bool {
	q := &s.qt
	if q.plan == nil {
		if s.step < q.nextCheck {
			return false
		}
		q.nextCheck = s.step + max(s.c.n/4, 1)
		q.plan = s.buildQuiet()
		if q.plan == nil {
			return false
		}
	}
	if !s.quietWindow(end) {
		q.plan = nil
		return false
	}
	return true
}

// quietWindow runs one window (see above); it reports false, having done
// nothing, when an agent is outside Q or too many are hot.
func (s *CountSim[S, P]) quietWindow(end int64) bool {
	c, g, q, p := s.c, s.g, &s.qt, s.qt.plan
	n := c.n
	q.hs, q.hc, q.cs, q.cc = q.hs[:0], q.hc[:0], q.cs[:0], q.cc[:0]
	var H int64
	for _, i := range c.order {
		k := c.counts[i]
		if k == 0 {
			continue
		}
		if !p.in(i) {
			return false
		}
		if p.hot(i) {
			q.hs, q.hc = append(q.hs, i), append(q.hc, k)
			H += k
		} else {
			q.cs, q.cc = append(q.cs, i), append(q.cc, k)
		}
	}
	hmax := q.hmax
	if hmax == 0 {
		hmax = max(64, int64(math.Sqrt(float64(n))))
	}
	if H > hmax || end <= s.step {
		return false
	}
	if H == 0 {
		moving := false
		for _, i := range q.cs {
			moving = moving || p.exit[i] != math.MaxInt32 || p.succ[i] != i
		}
		if !moving {
			return false // every agent is fixed: the ordinary engine sees the silence
		}
	}
	q.used = true
	q.windows++
	C := n - H
	w := append(q.w[:0], C)
	D := 0 // the largest degree in w
	var stop bool
	var sdl, sdg int64
	for !stop && D <= quietHot-quietSubCap && s.step < end {
		// a sub-window: epochs merged into w1, then w1 into w
		w1 := append(q.w1[:0], C)
		D1 := 0
		for !stop && D1 < quietSubCap-quietEpochDeg && s.step < end {
			T := int64(math.Sqrt(quietEpochFactor * float64(n)))
			T = max(min(T, n/16, end-s.step), 1)
			done, st, dl, dg := s.quietEpoch(T, H)
			s.step += done
			q.steps += done
			q.epochs++
			s.work += int64(D1) + 20 + 2*(done*done/n)
			w1, D1 = q.shiftMerge(g, w1, D1, C, q.t[:])
			if st {
				stop, sdl, sdg = true, dl, dg
			}
		}
		q.w1 = w1
		s.work += int64(D * D1)
		w, D = q.shiftMerge(g, w, D, C, w1[:D1+1])
	}
	q.w = w
	// the window's end: cold agents of degree d move by f^d
	nc := len(q.cs)
	q.urn = append(q.urn[:0], q.cc...)
	if need := nc * (D + 1); cap(q.mv) < need {
		q.mv = make([]int64, need)
	} else {
		q.mv = q.mv[:need]
		clear(q.mv)
	}
	q.out = append(q.out[:0], make([]int64, nc)...)
	left := C
	for d := D; d >= 1; d-- {
		if w[d] == 0 {
			continue
		}
		g.multiHypergeometric(q.urn, left, w[d], q.out, nil)
		for j, x := range q.out {
			if x != 0 {
				q.urn[j] -= x
				q.mv[j*(D+1)+d] = x
			}
		}
		left -= w[d]
	}
	s.work += int64(nc*D) + 100
	for _, i := range q.cs {
		c.counts[i] = 0
	}
	for _, i := range q.hs {
		c.counts[i] = 0
	}
	for j, i := range q.cs {
		c.counts[i] += q.urn[j]
		x := i
		row := q.mv[j*(D+1) : (j+1)*(D+1)]
		top := 0
		for d := D; d >= 1; d-- {
			if row[d] != 0 {
				top = d
				break
			}
		}
		for d := 1; d <= top; d++ {
			x = p.succ[x]
			c.touch(x)
			c.counts[x] += row[d]
		}
	}
	for j, i := range q.hs {
		if q.hc[j] > 0 {
			c.touch(i)
			c.counts[i] += q.hc[j]
		}
	}
	c.batchNew = c.batchNew[:0]
	c.sortOrder()
	if stop {
		c.leaders += sdl
		c.goal += sdg
		s.account(sdl)
		q.plan = nil
		q.nextCheck = s.step + max(n/4, 1)
	}
	return true
}

// shiftMerge moves, for e = len(src)-1 .. 1, src[e] agents, drawn without
// replacement from the degree histogram h (total agents, largest degree D),
// up by e degrees, and returns the new histogram and largest degree. The
// agents moved are a uniform subset of the total (those touched in an epoch
// or a sub-window, whose interactions are independent of the past), so the
// number of them in each degree class is a multivariate hypergeometric
// draw; classes are visited from the largest degree down, so that the
// largest class, degree 0, takes the rest without a draw.
func (q *quietState) shiftMerge(g rng, h []int64, D int, total int64, src []int64) ([]int64, int) {
	E := len(src) - 1
	for len(h) < D+E+1 {
		h = append(h, 0)
	}
	q.urn = append(q.urn[:0], h...)
	q.add = append(q.add[:0], h...)
	clear(q.add)
	q.out = append(q.out[:0], h...)
	q.ord = q.ord[:0]
	for d := D; d >= 0; d-- {
		q.ord = append(q.ord, int32(d))
	}
	left := total
	for e := E; e >= 1; e-- {
		k := src[e]
		if k == 0 {
			continue
		}
		g.multiHypergeometric(q.urn[:D+1], left, k, q.out[:D+1], q.ord)
		for d := 0; d <= D; d++ {
			if x := q.out[d]; x != 0 {
				q.urn[d] -= x
				q.add[d+e] += x
			}
		}
		left -= k
	}
	for d := range h {
		h[d] = q.urn[d] + q.add[d]
		if h[d] > 0 && d > D {
			D = d
		}
	}
	return h, D
}

// quietEpoch runs one epoch of at most T interactions of the degree
// process with the H hot agents (q.hs, q.hc) touched from the start; it
// leaves the epoch's degree histogram of the touched cold agents in q.t and
// returns the interactions simulated and, when the stretch stops at its
// last one, the changes of the leader count and goal counter.
func (s *CountSim[S, P]) quietEpoch(T, H int64) (done int64, stop bool, dl, dg int64) {
	c, g, q, p := s.c, s.g, &s.qt, s.qt.plan
	n := c.n
	t := &q.t
	clear(t[:])
	var tc int64 // touched cold agents
	// pick removes and returns a uniform touched agent: a hot state's
	// place in q.hs (hot) or an epoch degree.
	pick := func() (hot bool, v int) {
		x := int64(g.below(uint64(H + tc)))
		if x < H {
			for j, k := range q.hc {
				if x -= k; x < 0 {
					q.hc[j]--
					H--
					return true, j
				}
			}
		}
		x -= H
		for e := 1; e < quietEpochDeg; e++ {
			if x -= t[e]; x < 0 {
				t[e]--
				tc--
				return false, e
			}
		}
		panic("pp: quiet epoch: inconsistent touched agents")
	}
	putHot := func(x int32) {
		for j, i := range q.hs {
			if i == x {
				q.hc[j]++
				H++
				return
			}
		}
		q.hs, q.hc = append(q.hs, x), append(q.hc, 1)
		H++
	}
	for done < T {
		k := sampleFresh(g, n, H+tc, T-done)
		t[1] += 2 * k
		tc += 2 * k
		done += k
		if done == T {
			break
		}
		touched := H + tc
		u := n - touched
		initT := g.below(uint64(n-1+u)) < uint64(n-1)
		respT := true
		if initT {
			respT = g.below(uint64(n-1)) < uint64(touched-1)
		}
		var aHot, bHot bool
		var av, bv int // hot: index in q.hs; cold: epoch degree (0: untouched)
		if initT {
			aHot, av = pick()
		}
		if respT {
			bHot, bv = pick()
		}
		done++
		var ends bool
		cold := func(e int) {
			t[e+1]++
			tc++
			if e+1 >= quietEpochDeg {
				ends = true
			}
		}
		switch {
		case aHot && bHot:
			a, b := q.hs[av], q.hs[bv]
			x, y := c.trans(a, b)
			if x != p.succ[a] || y != p.succ[b] {
				dl, dg = c.deltas(a, b, x, y)
				stop = true
			}
			putHot(x)
			putHot(y)
			c.touch(x)
			c.touch(y)
			if !p.in(x) || !p.in(y) {
				stop = true
			}
		case aHot || bHot:
			j, e := av, bv
			if bHot {
				j, e = bv, av
			}
			x := p.succ[q.hs[j]]
			putHot(x)
			c.touch(x)
			cold(e)
			if !p.in(x) {
				stop = true
			}
		default:
			cold(av)
			cold(bv)
		}
		if stop || ends {
			break
		}
	}
	return done, stop, dl, dg
}
