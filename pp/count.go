package pp

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// The count-based engines (batched, null-skipping) keep the configuration as
// a number of agents per state instead of one state per agent, so their
// memory does not grow with n and n may be as large as MaxCountN. States are
// discovered lazily: a map gives each state met its index, and the
// transition of a pair of state indices is computed once, by calling the
// protocol's Interact on copies of the two states, and cached (in a dense
// table, grown by doubling, for the first 1024 states, in a map beyond). No q x q table
// is built up front, so P_LL's 2^23 possible states cost nothing until met.
// Computing a transition discovers states that the run may never reach
// (null-skipping computes every pair of live states); states_seen counts
// only the states that held an agent (counter.reached).
//
// Protocol statistics that Interact keeps as side effects (for example
// Epidemic's conversion counters) are not meaningful under caching, so the
// count engines do not call Finisher; protocols that want details from a
// count engine implement CountFinisher.

// MaxCountN is the largest population the count-based engines accept.
const MaxCountN = 1 << 60

// StateCount is a number of agents in one state.
type StateCount[S comparable] struct {
	State S
	Count int64
}

// MaxInitCalls is the largest n for which a count-based engine builds the
// initial configuration of a protocol without Census by calling Init for
// every agent (numbered protocols such as epidemic, whose n initial states
// are all distinct).
const MaxInitCalls = 1 << 22

// denseStates is the number of states whose pairwise transitions are cached
// in the dense table.
const denseStates = 1024

// known marks a filled transition cache entry; the entry holds the two
// output state indices in bits 0-30 and 32-62.
const known = 1 << 63

// counter holds the configuration of a count-based engine and its caches.
type counter[S comparable, P Protocol[S]] struct {
	p      P
	spec   Spec
	n      int64
	index  map[S]int32
	states []S
	leader []bool
	inGoal []bool
	counts []int64
	dense  []uint64 // dd x dd, grown by doubling up to denseStates
	dd     int
	sparse map[uint64]uint64
	// order lists the states that may hold agents (every state with a
	// positive count, in counts or in a batch's scratch, is in it), most
	// populous first as of the last sort; samplers visit states in this order
	// so that they stop early, and dead states drop out at each sort.
	order   []int32
	inOrder []bool
	// reached marks the states that have held an agent (states_seen);
	// batchNew lists those first reached in the current batch, which a
	// batch stopped at a step inside it retracts when the stop comes
	// before their interactions.
	reached  []bool
	nReached int
	batchNew []int32
	leaders  int64
	goal     int64
	// Partner classes (protocols that are PartnerClassers, else nil): the
	// class of each state, and one state of each class.
	partnerClass func(S) uint64
	classIndex   map[uint64]int32
	classOf      []int32
	classRep     []int32
	// grow is called after a new state was added (engines resize scratch).
	grow func(q int)
}

func newCounter[S comparable, P Protocol[S]](p P, n int64) (*counter[S, P], error) {
	c := &counter[S, P]{p: p, spec: p.Spec(), n: n, index: map[S]int32{}, dd: 16,
		dense: make([]uint64, 16*16), sparse: map[uint64]uint64{}}
	if pc, ok := any(p).(PartnerClasser[S]); ok {
		c.partnerClass, c.classIndex = pc.PartnerClass, map[uint64]int32{}
	}
	if cs, ok := any(p).(Census[S]); ok {
		var total int64
		for _, sc := range cs.Census(n) {
			if sc.Count < 0 {
				return nil, fmt.Errorf("pp: census with a negative count")
			}
			i := c.stateIndex(sc.State)
			c.counts[i] += sc.Count
			total += sc.Count
		}
		if total != n {
			return nil, fmt.Errorf("pp: census of %d agents for n = %d", total, n)
		}
	} else {
		if n > MaxInitCalls {
			return nil, fmt.Errorf("pp: %s numbers its agents (no census of initial states): count-based engines need n <= %d, got %d", c.spec.Name, MaxInitCalls, n)
		}
		for i := range int(n) {
			c.counts[c.stateIndex(p.Init(i))]++
		}
	}
	for i, k := range c.counts {
		if c.leader[i] {
			c.leaders += k
		}
		if c.inGoal[i] {
			c.goal += k
		}
	}
	for i, k := range c.counts {
		if k > 0 {
			c.touch(int32(i))
		}
	}
	c.sortOrder()
	return c, nil
}

// stateIndex returns the index of s, adding it (with count 0) if new.
func (c *counter[S, P]) stateIndex(s S) int32 {
	if i, ok := c.index[s]; ok {
		return i
	}
	i := int32(len(c.states))
	c.index[s] = i
	c.states = append(c.states, s)
	c.leader = append(c.leader, c.p.IsLeader(s))
	c.inGoal = append(c.inGoal, inGoal(c.p, s))
	c.counts = append(c.counts, 0)
	c.inOrder = append(c.inOrder, false)
	c.reached = append(c.reached, false)
	if c.partnerClass != nil {
		k := c.partnerClass(s)
		a, ok := c.classIndex[k]
		if !ok {
			a = int32(len(c.classRep))
			c.classIndex[k] = a
			c.classRep = append(c.classRep, i)
		}
		c.classOf = append(c.classOf, a)
	}
	if int(i) >= c.dd && c.dd < denseStates {
		dd := c.dd * 2
		d := make([]uint64, dd*dd)
		for r := range c.dd {
			copy(d[r*dd:r*dd+c.dd], c.dense[r*c.dd:(r+1)*c.dd])
		}
		c.dense, c.dd = d, dd
	}
	if c.grow != nil {
		c.grow(len(c.states))
	}
	return i
}

// trans returns the transition of the ordered state pair (i, j).
func (c *counter[S, P]) trans(i, j int32) (int32, int32) {
	var e uint64
	if dd := int32(c.dd); i < dd && j < dd {
		e = c.dense[i*dd+j]
		if e == 0 {
			e = c.compute(i, j)
			// compute may have grown the table.
			c.dense[int(i)*c.dd+int(j)] = e
		}
	} else {
		key := uint64(i)<<32 | uint64(j)
		var ok bool
		if e, ok = c.sparse[key]; !ok {
			e = c.compute(i, j)
			c.sparse[key] = e
		}
	}
	return int32(e & 0x7fffffff), int32(e >> 32 & 0x7fffffff)
}

func (c *counter[S, P]) compute(i, j int32) uint64 {
	a, b := c.states[i], c.states[j]
	c.p.Interact(&a, &b)
	x, y := c.stateIndex(a), c.stateIndex(b)
	return known | uint64(y)<<32 | uint64(x)
}

// null says whether the pair (i, j) leaves the configuration unchanged (its
// outputs are its inputs, possibly swapped).
func (c *counter[S, P]) null(i, j int32) bool {
	x, y := c.trans(i, j)
	return (x == i && y == j) || (x == j && y == i)
}

// deltas returns the change of the leader count and of the goal counter
// when one interaction (i, j) -> (x, y) happens.
func (c *counter[S, P]) deltas(i, j, x, y int32) (dl, dg int64) {
	dl = b2i64(c.leader[x]) + b2i64(c.leader[y]) - b2i64(c.leader[i]) - b2i64(c.leader[j])
	dg = b2i64(c.inGoal[x]) + b2i64(c.inGoal[y]) - b2i64(c.inGoal[i]) - b2i64(c.inGoal[j])
	return
}

func b2i64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// touch puts state i in the visiting order (before it receives agents)
// and marks it reached: every caller touches the states that receive
// agents in interactions that happen (a batch stopped inside itself
// retracts the ones its stop excludes, see retractUnreached).
func (c *counter[S, P]) touch(i int32) {
	if !c.reached[i] {
		c.reached[i] = true
		c.nReached++
		c.batchNew = append(c.batchNew, i)
	}
	if !c.inOrder[i] {
		c.inOrder[i] = true
		c.order = append(c.order, i)
	}
}

// retractUnreached unmarks the states first reached in this batch that
// hold no agent once the batch has been cut at its stop: inside a batch
// every agent interacts at most once, so a state that an interaction of
// the kept prefix produced still holds that agent at the stop.
func (c *counter[S, P]) retractUnreached() {
	for _, i := range c.batchNew {
		if c.counts[i] == 0 {
			c.reached[i] = false
			c.nReached--
		}
	}
	c.batchNew = c.batchNew[:0]
}

// sortOrder drops the states without agents from the visiting order and
// sorts it by decreasing count (ties by index, so runs are deterministic).
// It must only be called when no batch scratch holds agents.
func (c *counter[S, P]) sortOrder() {
	counts := c.counts
	live := c.order[:0]
	for _, i := range c.order {
		if counts[i] > 0 {
			live = append(live, i)
		} else {
			c.inOrder[i] = false
		}
	}
	c.order = live
	slices.SortFunc(c.order, func(a, b int32) int {
		if r := cmp.Compare(counts[b], counts[a]); r != 0 {
			return r
		}
		return cmp.Compare(a, b)
	})
}

// census lists the configuration: states in discovery order, zero counts
// omitted.
func (c *counter[S, P]) census() []StateCount[S] {
	var out []StateCount[S]
	for i, k := range c.counts {
		if k > 0 {
			out = append(out, StateCount[S]{c.states[i], k})
		}
	}
	return out
}

// recount checks the incremental counters against the counts.
func (c *counter[S, P]) recount() (leaders, goal, total int64) {
	for i, k := range c.counts {
		total += k
		if c.leader[i] {
			leaders += k
		}
		if c.inGoal[i] {
			goal += k
		}
	}
	return
}

// pick returns a state drawn uniformly from the agents of pool (whose total
// is total), visiting states in order.
func pick(g rng, pool []int64, total int64, order []int32) int32 {
	x := int64(g.below(uint64(total)))
	for _, i := range order {
		x -= pool[i]
		if x < 0 {
			return i
		}
	}
	panic("pp: pick from an inconsistent pool")
}

// saturatingSteps returns a step limit from a protocol's default, which may
// have overflowed for n beyond the agent-array engine's range.
func saturatingSteps(def int64, n int64) int64 {
	if n > MaxN || def <= 0 {
		return math.MaxInt64
	}
	return def
}
