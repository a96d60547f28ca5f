package check

import (
	"errors"
	"slices"
)

var errLimit = errors.New("state limit reached")

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
		x.violation = "non-termination: an execution returns to a state it has been in, and can go round for ever"
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
		if v := x.terminal(s); v != "" {
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
			if v := x.apply(s, st, sent); v != "" {
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

var errViolation = errors.New("property violated")

// extremes returns the extremes of state id.
func (x *stateSpace) extremes(id int32) (hi, lo []int64) {
	nq := x.nq()
	at := int(id) * nq
	return x.max[at : at+nq], x.min[at : at+nq]
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

// shortest searches breadth-first for the shortest execution that breaks
// a property at a state or at an end (non-termination aside, which the
// depth-first search reports with its cycle): level by level from the
// initial state, each state kept as a copy (nodes are never changed in
// place once a step is over, and links' arrays are never released while
// it runs, so a copy shares them), each visited once. A property broken by
// a step of length d+1 is returned only once every state at depth d has
// been seen not to end in a broken property, so that what it returns is
// shortest. It returns the violation and its path, or "" when none is
// found within the state limit.
func (x *stateSpace) shortest() (string, []step) {
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
	var best string
	var bestPath []step
	for head := int32(0); int(head) < len(q); head++ {
		e := q[head]
		if best != "" && e.depth >= int32(len(bestPath)) {
			break // every state shorter than the step's violation is done
		}
		s := e.s
		q[head].s = nil // its successors are made below: the copy is not needed again
		steps := x.enabled(s, nil)
		if len(steps) == 0 {
			if v := x.terminal(s); v != "" {
				return v, pathTo(q, head, nil)
			}
			continue
		}
		for _, st := range steps {
			c := cloneState(s)
			v := x.apply(c, st, sent)
			x.linkLog = x.linkLog[:0]
			if v != "" {
				if best == "" {
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

// cloneState copies s: its slices, not the nodes or the links' arrays,
// which steps replace rather than change.
func cloneState(s *state) *state {
	c := *s
	c.nodes, c.woken, c.halted, c.pending = slices.Clone(s.nodes), slices.Clone(s.woken), slices.Clone(s.halted), slices.Clone(s.pending)
	c.dec, c.knows, c.depth, c.links, c.rngs = slices.Clone(s.dec), slices.Clone(s.knows), slices.Clone(s.depth), slices.Clone(s.links), slices.Clone(s.rngs)
	c.nodeH, c.nodeD, c.linkH, c.linkD = slices.Clone(s.nodeH), slices.Clone(s.nodeD), slices.Clone(s.linkH), slices.Clone(s.linkD)
	if s.crashed != nil {
		c.crashed, c.electHi, c.electLo = slices.Clone(s.crashed), slices.Clone(s.electHi), slices.Clone(s.electLo)
	}
	return &c
}
