package check

import "errors"

var errLimit = errors.New("state limit reached")

// visit explores every execution from s (reached by x.path) and returns
// the extremes of what is still to come. It stops at the first violated
// property (x.violation, x.badPath) or at the state limit.
func (x *explorer) visit(s *state) (*info, error) {
	behaviour := string(x.key(s, x.buf, false))
	if x.onPath[behaviour] {
		// The path returns to a state it has been in (but for depths,
		// which no node sees): it can go round for ever.
		x.violation = "non-termination: an execution returns to a state it has been in, and can go round for ever"
		x.badPath = append([]step(nil), x.path...)
		return nil, errViolation
	}
	k := string(x.key(s, x.buf, true))
	if inf, ok := x.memo[k]; ok {
		return inf, nil
	}
	if x.states >= x.limit {
		x.full = true
		return nil, errLimit
	}
	x.states++
	x.onPath[behaviour] = true
	defer delete(x.onPath, behaviour)
	nq := x.nq()
	inf := &info{max: make([]int64, nq), min: make([]int64, nq), maxStep: make([]int32, nq), minStep: make([]int32, nq)}
	x.memo[k] = inf
	steps := x.enabled(s, nil)
	if len(steps) == 0 {
		if v := x.terminal(s); v != "" {
			x.violation = v
			x.badPath = append([]step(nil), x.path...)
			return nil, errViolation
		}
		d := maxDepth(s)
		inf.max[nq-1], inf.min[nq-1] = d, d
		for q := range inf.maxStep {
			inf.maxStep[q], inf.minStep[q] = -1, -1
		}
		return inf, nil
	}
	types := nq - 2
	sent := make([]int64, types)
	for j, st := range steps {
		x.edges++
		next := s.clone()
		clear(sent)
		if v := x.apply(next, st, sent); v != "" {
			x.violation = v
			x.badPath = append(append([]step(nil), x.path...), st)
			return nil, errViolation
		}
		x.path = append(x.path, st)
		child, err := x.visit(next)
		x.path = x.path[:len(x.path)-1]
		if err != nil {
			return nil, err
		}
		var total int64
		for q := 0; q < nq; q++ {
			var add int64
			switch {
			case q < types:
				add = sent[q]
				total += add
			case q == types:
				add = total
			}
			hi, lo := add+child.max[q], add+child.min[q]
			if j == 0 || hi > inf.max[q] {
				inf.max[q], inf.maxStep[q] = hi, int32(j)
			}
			if j == 0 || lo < inf.min[q] {
				inf.min[q], inf.minStep[q] = lo, int32(j)
			}
		}
	}
	return inf, nil
}

var errViolation = errors.New("property violated")

// schedule follows the recorded choices from the initial state to the end
// of an execution that reaches the extreme of quantity q (max or min).
func (x *explorer) schedule(q int, maximum bool) []step {
	var out []step
	s := x.initial()
	for {
		inf := x.memo[string(x.key(s, x.buf, true))]
		if inf == nil {
			return out
		}
		j := inf.minStep[q]
		if maximum {
			j = inf.maxStep[q]
		}
		if j < 0 {
			return out
		}
		st := x.enabled(s, nil)[j]
		sent := make([]int64, x.nq()-2)
		x.apply(s, st, sent)
		out = append(out, st)
	}
}
