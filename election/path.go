package election

import (
	"fmt"
	"slices"

	"github.com/electkit/elect"
)

// The path of a run with faults, from which a failed run's cause is taken
// (docs/faults.md, "What the report says"). The promised leader L is the
// node the algorithm promises to elect, known before the run: the largest
// ID (for an algorithm that elects the maximum or elects some node that
// records the maximum), the smallest ID, or the smallest ID among the
// nodes scheduled to wake spontaneously. The path is L's causal future:
// L is on it from the start, a message is sent on it when its sender is
// on it, and a node joins it when a message sent on it reaches the node
// (before the node's step, so what the arrival wakes it to do is on the
// path too). A fault meets the path when it is
//
//   - the loss of a message sent on the path (a removal),
//   - the crash of a node on the path, L's above all (a removal),
//   - a message sent on the path reaching a crashed node (a removal: the
//     crash of its receiver, named with the message it swallowed),
//   - the duplication or delay of a message sent on the path (an
//     alteration).
//
// The cause of a run that failed by an absence (no leader, a limit that
// stopped a run waiting for ever, a leader other than L, a node left not
// knowing or undecided) is the first removal on the path, else the first
// alteration; of any other failure (two leaders, a property the monitor
// caught, a bound broken) the first fault on the path of either kind.
// When no fault met the path (or the algorithm promises no node), the
// cause is the run's first fault.
//
// An engine learns which messages were sent on the path by telling the
// monitor of each message it routes (Routed) and delivers (Delivered); the
// monitor tells messages apart by their receiver, its port and their
// content, and matches identical messages on one link in sending order.
// The table holds a message only while it is in flight and only until the
// first removal on the path is known: after that nothing can change the
// cause.
type pathState struct {
	leader int32  // L; -1: the algorithm promises no node
	on     []bool // by node: on the path
	onN    int    // nodes on the path
	// removal and alteration are the first faults of each kind on the
	// path, described; first says which came first.
	removal, alteration string
	removalFirst        bool
	// flight holds, for each message in flight that the matching must
	// tell apart, whether it was sent on the path (a queue per key, in
	// sending order); untracked is true once every node is on the path
	// or a removal is known, after which nothing new is recorded.
	flight    map[flightKey]flightQueue
	tracked   []int32 // by receiver: the messages in flight to it that flight holds
	untracked bool
	crashedAt []string // by node: its crash, described
}

// flightKey is a message in flight: its receiver, the receiver's port and
// the message.
type flightKey struct {
	to   int32
	port elect.Port
	msg  elect.Message
}

// flightQueue is the sending order of the identical messages in flight on
// one link: whether each was sent on the path, the first n in bits (the
// oldest in bit 0), any beyond 64 in more.
type flightQueue struct {
	n    int
	bits uint64
	more []bool
}

func (q *flightQueue) push(on bool) {
	if q.n == 64 {
		q.more = append(q.more, on)
		return
	}
	if on {
		q.bits |= 1 << q.n
	}
	q.n++
}

func (q *flightQueue) pop() (on bool) {
	on = q.bits&1 != 0
	q.bits >>= 1
	q.n--
	if len(q.more) > 0 {
		if q.more[0] {
			q.bits |= 1 << q.n
		}
		q.n++
		q.more = q.more[1:]
	}
	return on
}

// initPath sets the promised leader of a run with faults.
func (m *Monitor) initPath() {
	p := &m.faults.path
	p.leader = -1
	n := len(m.ids)
	if n == 0 {
		return
	}
	best := int32(-1)
	better := func(i int32, larger bool) {
		if best < 0 || larger && m.ids[i] > m.ids[best] || !larger && m.ids[i] < m.ids[best] {
			best = i
		}
	}
	switch m.alg.RunModel(m.cfg.Params).Elects {
	case elect.ElectsMax, elect.ElectsAnyKnowsMax:
		for i := range n {
			better(int32(i), true)
		}
	case elect.ElectsMin:
		for i := range n {
			better(int32(i), false)
		}
	case elect.ElectsMinInitiator:
		if m.cfg.Wake == nil {
			for i := range n {
				better(int32(i), false)
			}
		}
		for _, w := range m.cfg.Wake {
			better(int32(w.Node), false)
		}
	}
	if best < 0 {
		return
	}
	p.leader = best
	p.on = make([]bool, n)
	p.tracked = make([]int32, n)
	p.on[best] = true
	p.onN = 1
	p.untracked = n == 1
	p.flight = map[flightKey]flightQueue{}
}

// onPath reports whether node i is on the path (false when the run has no
// promised leader).
func (m *Monitor) onPath(i int32) bool {
	p := &m.faults.path
	return p.on != nil && p.on[i]
}

// pathFault records a fault on the path, described by what: a removal or
// an alteration.
func (m *Monitor) pathFault(what string, removal bool) {
	p := &m.faults.path
	switch {
	case removal && p.removal == "":
		p.removal = what
		p.removalFirst = p.alteration == ""
		p.untracked = true // nothing later can change the cause
		p.flight = nil
	case !removal && p.alteration == "":
		p.alteration = what
	}
}

// Routed records, in a run with faults, that node from sent msg to node to
// (arriving on its port q) and that it was not lost: copies is 2 when it
// was duplicated, else 1. Engines call it after Lost, Delayed and
// Duplicated, for every message they route, so that the monitor knows
// which messages were sent on the path (Delivered).
func (m *Monitor) Routed(from, to int32, q elect.Port, msg elect.Message, copies int) {
	p := &m.faults.path
	if p.untracked || p.on == nil {
		return
	}
	if (!p.on[from] || p.on[to]) && p.tracked[to] == 0 {
		// Off the path, or to a node on it already (which it cannot bring
		// onto the path, and whose crash before it arrives is a removal
		// by itself), and nothing held in flight to its receiver that it
		// would have to be told from: the common case, without a lookup.
		return
	}
	k := flightKey{to: to, port: q, msg: msg}
	fq, ok := p.flight[k]
	if !ok && (!p.on[from] || p.on[to]) {
		return // as above, and no identical message in flight
	}
	for range copies {
		fq.push(p.on[from])
	}
	p.flight[k] = fq
	p.tracked[to] += int32(copies)
}

// Delivered records, in a run with faults, that msg reached node to on its
// port q, before the node's step (dropped: the node has halted). A message
// sent on the path brings its receiver onto it; reaching a crashed node,
// it is a removal on the path.
func (m *Monitor) Delivered(to int32, q elect.Port, msg elect.Message, dropped bool, now int64) {
	p := &m.faults.path
	if p.untracked || p.on == nil {
		return
	}
	if p.tracked[to] == 0 {
		return // nothing held in flight to it: sent off the path
	}
	k := flightKey{to: to, port: q, msg: msg}
	fq, ok := p.flight[k]
	if !ok {
		return // sent off the path
	}
	p.tracked[to]--
	onPath := fq.pop()
	if fq.n == 0 {
		delete(p.flight, k)
	} else {
		p.flight[k] = fq
	}
	if !onPath {
		return
	}
	if dropped {
		if m.faults.down != nil && m.faults.down[to] {
			m.pathFault(fmt.Sprintf("%s, and a message sent on the path (%s) reached it at time %s", p.crashedAt[to], m.content(msg), m.formatTime(now)), true)
		}
		return
	}
	if !p.on[to] {
		p.on[to] = true
		p.onN++
		if p.onN == len(p.on) {
			// Every node is on the path: every message from now on is
			// sent on it, and those in flight have nobody left to bring.
			// Only a drop at a crashed node would still count, and a
			// crash of a node on the path is already a removal.
			p.untracked = true
			p.flight = nil
		}
	}
}

// pathCause is the cause of the failed run r.
func (m *Monitor) pathCause(r *Result) string {
	p := &m.faults.path
	var what string
	switch {
	case p.removal == "" && p.alteration == "":
	case p.removal == "":
		what = p.alteration
	case p.alteration == "":
		what = p.removal
	case m.absence(r) || p.removalFirst:
		what = p.removal
	default:
		what = p.alteration
	}
	if what == "" {
		return m.faults.cause
	}
	return fmt.Sprintf("on the path of node %d (ID %d): %s", p.leader, m.ids[p.leader], what)
}

// absence reports whether r failed by something that did not happen: no
// leader, a run stopped waiting, a leader other than the promised one, or
// nodes that do not know the leader or never decided.
func (m *Monitor) absence(r *Result) bool {
	switch r.Outcome {
	case NoLeader, StepLimit, Stopped, MemoryLimit:
		return true
	case OutcomeElected:
		return false
	case OutcomeViolation:
		switch r.Broken.Property {
		case PropWrongLeader, PropWrongLeaderID, PropNotInformed, PropDeadlockUndecided:
			return true
		}
	}
	return false
}

// clone returns a copy of p that shares nothing with it.
func (p pathState) clone() pathState {
	c := p
	c.on = slices.Clone(p.on)
	c.tracked = slices.Clone(p.tracked)
	c.crashedAt = slices.Clone(p.crashedAt)
	if p.flight != nil {
		c.flight = make(map[flightKey]flightQueue, len(p.flight))
		for k, q := range p.flight {
			q.more = slices.Clone(q.more)
			c.flight[k] = q
		}
	}
	return c
}
