package check

// reducible says whether the partial-order reduction applies: links are
// FIFO, so that the deliveries a node can take are one per non-empty
// incoming link, each "take the next message of that link" (under bag a
// message arriving later on a non-empty link is a new step).
func reducible(bag bool) bool { return !bag }

// choices returns the steps the search takes at s: every enabled step, or
// with the reduction the first persistent set found, the deliveries to
// one node (see the package doc for why they stand for all).
func (x *stateSpace) choices(s *state, buf []step) []step {
	steps := x.enabled(s, buf)
	if x.reduce && len(steps) > 1 {
		return x.persistent(s, steps)
	}
	return steps
}

// persistent returns the steps of the first node whose steps form a
// persistent set at s: a node with a message on every incoming link (no
// other node's step can add one of its steps, so all of them are
// independent of the steps left out; under a free wake order its wake-up,
// if it has not woken, is one of them), or one delivery to a halted node
// (which only drops it); or all steps when no node's do. enabled lists
// steps node by node, port by port.
func (x *stateSpace) persistent(s *state, steps []step) []step {
	for a := 0; a < len(steps); {
		i := steps[a].node
		b := a + 1
		for b < len(steps) && steps[b].node == i {
			b++
		}
		wake := 0 // a wake-up of i's, first (a free wake order: see enabledFreeWake)
		if steps[a].wake {
			wake = 1
		}
		switch {
		case wake == 1 && !x.freeWake:
		case s.halted[i]:
			return steps[a : a+1]
		case b-a-wake == x.liveIn[i]:
			return steps[a:b]
		}
		a = b
	}
	return steps
}
