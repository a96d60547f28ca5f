package pp

// Class-level matching. The end of a multibatch epoch pairs P delayed
// initiators with P delayed responders by a uniformly random matching; drawn
// state by state it takes about q^2 hypergeometric draws for q live states.
// Many protocols read only a little of the partner's state: in P_LL an agent
// sees of a counting agent (status B) its epoch, its colour and whether its
// count is about to wrap, not the count itself, which is what makes most of
// its hundreds of live states. For such protocols (PartnerClasser) the
// matching is drawn through the classes, exactly:
//
//  1. the 2P delayed agents' states (one multivariate hypergeometric draw),
//     and the initiators among them per class (a uniform half);
//  2. the class matrix: M[a][b], the number of pairs whose initiator is of
//     class a and responder of class b, drawn row by row like the state
//     matching (a uniform matching, seen through the classes);
//  3. given M, the class-a initiators paired with class b are a uniform
//     subset of size M[a][b] of them, and likewise for the responders, each
//     side independently of the other (the matching within a block M[a][b]
//     is a uniform bijection that no outcome depends on); so each state's
//     agents are split over the (role, partner class) cells of its class by
//     one multivariate hypergeometric draw, state after state, each given
//     what the states before it took.
//  4. the states whose agents become the same state in every cell of their
//     class with room left need no split: they come last (the states can be
//     split in any order) and take what the others leave. In P_LL's long
//     waits (two leaders, every follower counting) that is every state: the
//     count goes up whatever the partner and the role.
//
// An initiator in state i paired with class b becomes T(i, r_b).first for
// any state r_b of class b, a responder in state j paired with class a
// becomes T(r_a, j).second, and the leader and goal changes of a pair are the
// sums of its two agents' changes. The cost is about q + C^2 + qC' draws
// for q live states, C live classes and C' the cells a state's agents
// actually spread over (0 for the states of step 4), instead of about q^2.

// classScratch holds the class matching's work arrays.
type classScratch struct {
	pos   []int32 // by class: 1 + its place among the live classes, 0 if not live
	live  []int32 // the live classes
	del   []int64 // by live class: delayed agents
	ini   []int64 // by live class: delayed initiators
	res   []int64 // by live class: delayed responders
	cells []int64 // by live class a, 2C cells: as initiator with each class b (M[a][b]), then as responder (M[b][a])
	left  []int64 // by live class: agents not yet split
	split []int64 // one state's split over its class's cells
	// same lists the states left for last (step 4), with their one outcome.
	same []sameOutcome
	// draws is about how many draws the last matching made: the states'
	// draws of delayed agents, the class matrix's and the splits'.
	draws int
}

// sameOutcome is a state whose delayed agents all become state x.
type sameOutcome struct{ i, x int32 }

// matchByClass draws the 2 pairs delayed agents of an epoch from the total
// agents of c.counts, pairs them by a uniform matching drawn class by class,
// puts their new states in s.b.upd, and returns the changes of the leader
// count and of the goal counter.
//
// The delayed agents are drawn together (one multivariate hypergeometric
// draw over the states), the initiators among them are a uniform half
// (drawn per class), then come the class matrix and, for each state, the
// split of its delayed agents over its class's cells (role, partner class):
// given the cell sizes, the agents of a class fill them as a uniformly
// random partition.
func (s *CountSim[S, P]) matchByClass(pairs, total int64) (dl, dg int64) {
	c, g, w := s.c, s.g, &s.cm
	order := c.order // states discovered below are appended to c.order, not visited
	del := s.b.ini   // delayed agents by state
	g.multiHypergeometric(c.counts, total, 2*pairs, del, order)
	for len(w.pos) < len(c.classRep) {
		w.pos = append(w.pos, 0)
	}
	w.live, w.del = w.live[:0], w.del[:0]
	for _, i := range order {
		k := del[i]
		if k == 0 {
			continue
		}
		c.counts[i] -= k
		a := c.classOf[i]
		if w.pos[a] == 0 {
			w.live = append(w.live, a)
			w.del = append(w.del, 0)
			w.pos[a] = int32(len(w.live))
		}
		w.del[w.pos[a]-1] += k
	}
	C := len(w.live)
	w.draws = len(order) + C*C
	w.ini = zeroed(w.ini, C)
	w.res = zeroed(w.res, C)
	w.cells = zeroed(w.cells, 2*C*C)
	w.left = zeroed(w.left, C)
	w.split = zeroed(w.split, 2*C)
	g.multiHypergeometric(w.del, 2*pairs, pairs, w.ini, nil)
	for a := range C {
		w.res[a] = w.del[a] - w.ini[a]
	}
	// The class matrix, row by row: class a's initiators over the
	// responders' classes.
	copy(w.left, w.res)
	rem := pairs
	row := w.split[:C]
	for a := range C {
		if w.ini[a] == 0 {
			continue
		}
		g.multiHypergeometric(w.left, rem, w.ini[a], row, nil)
		rem -= w.ini[a]
		for b, k := range row {
			w.left[b] -= k
			w.cells[a*2*C+b] = k
			w.cells[b*2*C+C+a] = k
		}
	}
	// Each state's delayed agents over its class's cells, except the
	// states left for last.
	copy(w.left, w.del)
	w.same = w.same[:0]
	for _, i := range order {
		u := del[i]
		if u == 0 {
			continue
		}
		a := int(w.pos[c.classOf[i]] - 1)
		cells := w.cells[a*2*C : (a+1)*2*C]
		if x, ok := s.sameOutcome(i, cells, C); ok {
			w.same = append(w.same, sameOutcome{i, x})
			continue
		}
		w.draws += 2 * C
		s.work += 2 * int64(C)
		if u == w.left[a] {
			copy(w.split, cells)
		} else {
			g.multiHypergeometric(cells, w.left[a], u, w.split, nil)
		}
		w.left[a] -= u
		for k, m := range w.split {
			if m == 0 {
				continue
			}
			cells[k] -= m
			var x int32
			if k < C {
				x, _ = c.trans(i, c.classRep[w.live[k]])
			} else {
				_, x = c.trans(c.classRep[w.live[k-C]], i)
			}
			c.touch(x)
			s.b.upd[x] += m
			dl += (b2i64(c.leader[x]) - b2i64(c.leader[i])) * m
			dg += (b2i64(c.inGoal[x]) - b2i64(c.inGoal[i])) * m
		}
	}
	for _, so := range w.same {
		i, x, m := so.i, so.x, del[so.i]
		if m == 0 {
			continue
		}
		c.touch(x)
		s.b.upd[x] += m
		dl += (b2i64(c.leader[x]) - b2i64(c.leader[i])) * m
		dg += (b2i64(c.inGoal[x]) - b2i64(c.inGoal[i])) * m
	}
	for _, a := range w.live {
		w.pos[a] = 0
	}
	return dl, dg
}

// sameOutcome reports whether an agent in state i becomes the same state x
// in every one of the cells of its class that still has room (cells: the
// class's 2C cells, as in matchByClass), and returns x. Cells only empty as
// states are split, so the answer holds until the end of the matching.
func (s *CountSim[S, P]) sameOutcome(i int32, cells []int64, C int) (x int32, ok bool) {
	c, w := s.c, &s.cm
	x = -1
	s.work += int64(len(cells))
	for k, room := range cells {
		if room == 0 {
			continue
		}
		var y int32
		if k < C {
			y, _ = c.trans(i, c.classRep[w.live[k]])
		} else {
			_, y = c.trans(c.classRep[w.live[k-C]], i)
		}
		if x >= 0 && y != x {
			return 0, false
		}
		x = y
	}
	return x, x >= 0
}

// zeroed returns s resized to n zeros, reusing its array when it can.
func zeroed(s []int64, n int) []int64 {
	if cap(s) < n {
		return make([]int64, n)
	}
	s = s[:n]
	clear(s)
	return s
}
