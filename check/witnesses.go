package check

import (
	"slices"

	"github.com/electkit/elect/election"
)

// shortest searches breadth-first for the shortest execution that breaks
// a property at a state or at an end (non-termination aside, which the
// depth-first search reports with its cycle): level by level from the
// initial state, each state visited once. Each step is taken in place and
// undone, as in the depth-first search; a state not seen before is kept as
// a copy (nodes are never changed in place once a step is over, so a copy
// shares them; the links the step changed are copied out of the arena,
// which the undo releases). A property broken by a step of length d+1 is
// returned only once every state at depth d has been seen not to end in a
// broken property, so that what it returns is shortest; no state deeper
// than within, when it is >= 0, is expanded (a caller that knows of a
// counterexample of within steps wants only one as short). It returns the
// violation and its path, or nil when none is found within the depth, and
// whether it searched to the end (not cut by the state limit, x.limit, or
// an interruption: a violation found then is short, not shortest). It
// counts the states it keeps and the steps it takes in x.states and
// x.edges.
func (x *stateSpace) shortest(within int) (*election.Violation, []step, bool) {
	type entry struct {
		s      *state
		parent int32
		depth  int32
		st     step
	}
	pathTo := func(q []entry, at int32, last *step) []step {
		var out []step
		if last != nil {
			out = append(out, *last)
		}
		for ; at > 0; at = q[at].parent {
			out = append(out, q[at].st)
		}
		slices.Reverse(out)
		return out
	}
	first := x.initial()
	_, k0 := x.keys(first)
	var seen visitedSet
	seen.put(k0, 0)
	var slabs stateSlabs
	q := []entry{{s: first, parent: -1}}
	x.states = 1
	sent := make([]int64, x.nq()-2)
	var best *election.Violation
	var bestPath []step
	var steps []step
	for head := int32(0); int(head) < len(q); head++ {
		e := q[head]
		if best != nil && e.depth >= int32(len(bestPath)) || within >= 0 && int(e.depth) > within {
			break // every state shorter than the step's violation is done
		}
		s := e.s
		q[head].s = nil // its successors are made below: it is not needed again
		steps = x.enabled(s, steps)
		if len(steps) == 0 {
			if v := x.terminal(s); v != nil {
				return v, pathTo(q, head, nil), true
			}
			continue
		}
		if within >= 0 && int(e.depth) >= within {
			continue // a step from here makes an execution longer than within
		}
		for _, st := range steps {
			x.edges++
			var u undo
			x.save(&u, s, st.node)
			stopped := s.stopped
			v := x.apply(s, st, sent)
			switch {
			case v != nil:
				if best == nil {
					best, bestPath = v, pathTo(q, head, &st)
				}
			default:
				_, k := x.keys(s)
				if _, ok := seen.get(k); !ok {
					seen.put(k, 0)
					x.states++
					c := slabs.clone(s)
					for _, l := range x.linkLog[u.links:] {
						c.links[l.key] = slabs.flights.copyOf(c.links[l.key])
					}
					q = append(q, entry{s: c, parent: head, depth: e.depth + 1, st: st})
				}
			}
			x.restore(s, &u)
			s.stopped = stopped
		}
		if int64(len(q)) > x.limit || head%progressEvery == 0 && x.shared != nil && x.shared.stop.Load() {
			return best, bestPath, false
		}
	}
	return best, bestPath, true
}

// schedule follows, from the initial state to the end, an execution that
// reaches the extreme of quantity q (max or min): at each state, the first
// of its steps (in the search's order) whose extreme is the state's, as
// the search found them.
func (x *stateSpace) schedule(q int, maximum bool) []step {
	var out []step
	s := x.initial()
	nq := x.nq()
	sent := make([]int64, nq-2)
	extreme := func(id int32) int64 {
		if maximum {
			return x.max[int(id)*nq+q]
		}
		return x.min[int(id)*nq+q]
	}
	for {
		_, k := x.keys(s)
		id, ok := x.memo.get(k)
		if !ok {
			return out
		}
		next := -1
		steps := x.choices(s, nil)
		for j, st := range steps {
			var u undo
			x.save(&u, s, st.node)
			clear(sent)
			x.apply(s, st, sent)
			_, k := x.keys(s)
			child, ok := x.memo.get(k)
			x.restore(s, &u)
			if ok && stepAdds(q, sent)+extreme(child) == extreme(id) {
				next = j
				break
			}
		}
		if next < 0 {
			return out
		}
		clear(sent)
		x.apply(s, steps[next], sent)
		out = append(out, steps[next])
	}
}
