package check

import (
	"errors"
	"slices"

	"github.com/electkit/elect/election"
)

// stateSpace searches the states of one configuration's model: depth
// first, each state once, keeping each state's extremes (visit), with the
// partial-order reduction (choices) and the state limit; it finds the
// executions the report shows (shortest, schedule).
type stateSpace struct {
	model
	reduce bool       // one node's deliveries stand for all where they can (see persistent)
	memo   visitedSet // visited states, by key, to their index
	onPath *pathSet   // the states of the current path, without depths, by their place on it
	// The extremes of each visited state (by index, nq values each): over
	// every execution from it, the messages of each type and in all still
	// to come and the time at the end. The step that leads to each is not
	// kept: schedule finds it again for the few it writes out.
	max, min []int64
	// Draws mode (see draws.go): scriptBufs is a buffer of draw scripts
	// by depth, and weights each visited state's probabilities.
	scriptBufs [][]int
	weights    []weights
	limit      int64
	states     int64
	edges      int64
	longest    int // the longest path visited
	// The first property violated, with the path that reaches it.
	violation *election.Violation
	path      []step
	badPath   []step
	// Buffers by depth on the path, reused: the steps enabled at a state
	// and the messages a step sent.
	stepBufs [][]step
	sentBufs [][]int64
	loopFrom int  // non-termination: badPath returns to the state after its first loopFrom steps
	full     bool // the state limit was reached
	// shared is the check's progress and stop flag (nil: none), which the
	// search reads every progressEvery states; interrupted says the stop
	// flag ended the search.
	shared      *shared
	interrupted bool
}

func newStateSpace(cfg *election.Config, bag bool, limit int64) *stateSpace {
	x := &stateSpace{limit: limit}
	x.model.init(cfg, bag)
	return x
}

// reuseMemory takes over the maps and buffers of a finished search, so
// that checking many small configurations does not allocate them anew.
func (x *stateSpace) reuseMemory(old *stateSpace) {
	if old == nil || old.nq() != x.nq() {
		return
	}
	old.memo.reset()
	x.memo, x.onPath = old.memo, old.onPath // the path is empty after a search
	x.max, x.min = old.max[:0], old.min[:0]
	x.stepBufs, x.sentBufs = old.stepBufs, old.sentBufs
	x.buf, x.linkLog, x.path = old.buf[:0], old.linkLog[:0], old.path[:0]
	x.arena = old.arena
	x.weights, x.scriptBufs = old.weights[:0], old.scriptBufs
	// A move is a function of a node's part and a message, the same in
	// every configuration of a check (same algorithm, graph and
	// parameters), so the moves are kept.
	x.moveIdx, x.moves, x.changed = old.moveIdx, old.moves, old.changed[:0]
	// So are the graph's tables (the same graph).
	x.nodeDepths, x.nodeBase, x.depthBase, x.linkBase, x.linkDepthBase = old.nodeDepths, old.nodeBase, old.depthBase, old.linkBase, old.linkDepthBase
	x.inLinks, x.liveIn, x.linkTo, x.linkPort = old.inLinks, old.liveIn, old.linkTo, old.linkPort
}

// The ways a search ends early: at the state limit (or the check's stop
// flag), or at the first property violated.
var (
	errLimit     = errors.New("state limit reached")
	errViolation = errors.New("property violated")
)

// search explores every execution from the initial state (see visit).
func (x *stateSpace) search() (int32, error) {
	if x.onPath == nil {
		x.onPath = &pathSet{} // unless reuseMemory gave one (it is 16 KB)
	}
	return x.visit(x.initial())
}

// visit explores every execution from s (reached by x.path; visit leaves
// s as it found it) and returns
// the index of s's extremes (in x.max and x.min). It
// stops at the first violated property (x.violation, x.badPath) or at the
// state limit.
func (x *stateSpace) visit(s *state) (int32, error) {
	behaviour, k := x.keys(s)
	if at := x.onPath.find(behaviour); at >= 0 {
		// The path returns to a state it has been in (but for depths,
		// which no node sees): it can go round for ever.
		x.violation = broke(election.PropNonTermination, "an execution returns to a state it has been in, and can go round for ever")
		x.badPath = append([]step(nil), x.path...)
		x.loopFrom = at
		return 0, errViolation
	}
	if id, ok := x.memo.get(k); ok {
		return id, nil
	}
	if x.states >= x.limit {
		x.full = true
		return 0, errLimit
	}
	x.states++
	if x.states&(progressEvery-1) == 0 && x.shared != nil && x.shared.tick() {
		x.full, x.interrupted = true, true // Options.Stop
		return 0, errLimit
	}
	x.longest = max(x.longest, len(x.path))
	x.onPath.push(behaviour) // at its place, len(x.path)
	defer x.onPath.pop()
	nq := x.nq()
	id := int32(len(x.max) / nq)
	x.memo.put(k, id)
	if x.draws > 0 {
		x.weights = append(x.weights, weights{})
	}
	x.max = slices.Grow(x.max, nq)[:len(x.max)+nq]
	x.min = slices.Grow(x.min, nq)[:len(x.min)+nq]
	at := int(id) * nq
	clear(x.max[at:])
	clear(x.min[at:])
	depth := len(x.path)
	for len(x.stepBufs) <= depth {
		x.stepBufs = append(x.stepBufs, nil)
		x.sentBufs = append(x.sentBufs, make([]int64, nq-2))
	}
	steps := x.enabled(s, x.stepBufs[depth])
	x.stepBufs[depth] = steps
	if x.reduce && len(steps) > 1 {
		steps = x.persistent(s, steps) // as choices does
	}
	if len(steps) == 0 {
		if v := x.terminal(s); v != nil {
			x.violation = v
			x.badPath = append([]step(nil), x.path...)
			return 0, errViolation
		}
		d := maxDepth(s)
		x.max[at+nq-1], x.min[at+nq-1] = d, d
		if x.draws > 0 {
			x.weights[id] = weights{done: []weight{{0, x.powK(x.maxDraws - s.drawn)}}}
		}
		return id, nil
	}
	sent := x.sentBufs[depth]
	var u undo // the record of the step being made, one at a time
	if x.draws > 0 {
		return id, x.drawSteps(s, id, at, steps, sent)
	}
	for j, st := range steps {
		x.edges++
		clear(sent)
		mk, known := x.moveKey(s, st)
		made := false
		if known {
			child, visited, m := x.knownStep(s, st, mk, sent, &u)
			if visited {
				x.extremeStep(at, j == 0, child, sent)
				continue
			}
			made = m
		}
		if !made {
			x.save(&u, s, st.node)
			if v := x.apply(s, st, sent); v != nil {
				x.violation = v
				x.badPath = append(append([]step(nil), x.path...), st)
				return 0, errViolation
			}
			if known && s.elected == u.elected {
				x.learnMove(s, mk, &u)
			}
		}
		x.path = append(x.path, st)
		child, err := x.visit(s)
		x.path = x.path[:len(x.path)-1]
		if err != nil {
			return 0, err
		}
		x.restore(s, &u)
		x.extremeStep(at, j == 0, child, sent)
	}
	return id, nil
}

// extremeStep takes a step of the state whose extremes are at x.max[at:]
// (and x.min) into them: it leads to state child and sent the messages
// counted in sent; first says it is the state's first step.
func (x *stateSpace) extremeStep(at int, first bool, child int32, sent []int64) {
	nq := x.quantities
	ct := int(child) * nq
	hi, lo := x.max[at:at+nq], x.min[at:at+nq]
	childHi, childLo := x.max[ct:ct+nq], x.min[ct:ct+nq]
	for q := range nq {
		add := stepAdds(q, sent)
		if first {
			hi[q], lo[q] = add+childHi[q], add+childLo[q]
		} else {
			hi[q], lo[q] = max(hi[q], add+childHi[q]), min(lo[q], add+childLo[q])
		}
	}
}

// stepAdds is what a step that sent the messages counted in sent adds to
// quantity q: its messages of type q, all its messages, or no time (the
// time at the end of an execution is the largest causal depth, which the
// states' extremes hold).
func stepAdds(q int, sent []int64) int64 {
	switch {
	case q < len(sent):
		return sent[q]
	case q == len(sent):
		var total int64
		for _, c := range sent {
			total += c
		}
		return total
	}
	return 0
}

// extremes returns the extremes of state id.
func (x *stateSpace) extremes(id int32) (hi, lo []int64) {
	nq := x.nq()
	at := int(id) * nq
	return x.max[at : at+nq], x.min[at : at+nq]
}
