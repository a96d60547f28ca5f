package check

import (
	"slices"

	"github.com/electkit/elect/election"
)

// shortest searches breadth-first for the shortest execution that breaks
// a property at a state or at an end (non-termination aside, which the
// depth-first search reports with its cycle): level by level from the
// initial state, each state kept as a copy (nodes are never changed in
// place once a step is over, and links' arrays are never released while
// it runs, so a copy shares them), each visited once. A property broken by
// a step of length d+1 is returned only once every state at depth d has
// been seen not to end in a broken property, so that what it returns is
// shortest. It returns the violation and its path, or nil when none is
// found within the state limit.
func (x *stateSpace) shortest() (*election.Violation, []step) {
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
	seen := map[stateKey]bool{k0: true}
	q := []entry{{s: first, parent: -1}}
	sent := make([]int64, x.nq()-2)
	var best *election.Violation
	var bestPath []step
	for head := int32(0); int(head) < len(q); head++ {
		e := q[head]
		if best != nil && e.depth >= int32(len(bestPath)) {
			break // every state shorter than the step's violation is done
		}
		s := e.s
		q[head].s = nil // its successors are made below: the copy is not needed again
		steps := x.enabled(s, nil)
		if len(steps) == 0 {
			if v := x.terminal(s); v != nil {
				return v, pathTo(q, head, nil)
			}
			continue
		}
		for _, st := range steps {
			c := cloneState(s)
			v := x.apply(c, st, sent)
			x.linkLog = x.linkLog[:0]
			if v != nil {
				if best == nil {
					best, bestPath = v, pathTo(q, head, &st)
				}
				continue
			}
			_, k := x.keys(c)
			if !seen[k] {
				seen[k] = true
				q = append(q, entry{s: c, parent: head, depth: e.depth + 1, st: st})
			}
		}
		if int64(len(q)) > x.limit {
			return best, bestPath
		}
	}
	return best, bestPath
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
