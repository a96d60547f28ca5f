package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
)

// The engine is the elect.Env of every node: current is the node whose
// input is being handled, and what it asks for happens at once.

// Send implements elect.Env. It is the simulator's hot path: on rings under
// unit or random delays the common case is handled here, with the neighbour
// computed inline; sendSlow does the rest.
func (e *engine) Send(p elect.Port, m elect.Message) {
	if int(m.Type) >= e.fastTypes {
		e.sendSlow(p, m)
		return
	}
	i := e.current
	to, q := i+1, elect.Right
	switch {
	case p == elect.Left:
		if to == e.ringN {
			to = 0
		}
	case p == elect.Right && !e.uniRing:
		to, q = i-1, elect.Left
		if to < 0 {
			to = e.ringN - 1
		}
	default:
		e.sendSlow(p, m)
		return
	}
	e.typeCounts[m.Type]++
	e.nodes.countSent(i)
	if e.wheel != nil {
		e.wheel.push(e.now+1+int64(e.delayRng.Uint64()&(randomDelayTicks-1)), to, q, m)
		return
	}
	if len(e.soon) == cap(e.soon) && !e.growSoon() {
		return
	}
	e.soon = appendDelivery(e.soon, to, q, m)
}

// growSoon makes room for one more delivery in the unit delays' list of
// the next instant; false when the run's queue limit refuses it (the
// message is then not kept, and the run stops).
//
//go:noinline
func (e *engine) growSoon() bool {
	e.soon = growDeliveries(&e.guard, e.soon)
	return len(e.soon) < cap(e.soon)
}

// Decide implements elect.Env: the monitor sees every decision.
func (e *engine) Decide(d elect.Decision) { e.mon.Decide(e.current, d, e.now) }

// SetLeader implements elect.Env.
func (e *engine) SetLeader(id elect.ID) { e.mon.Learn(e.current, id) }

// CancelTimers implements elect.Env: the current node's pending timers are
// dropped without firing, so they are neither events nor time.
func (e *engine) CancelTimers() {
	if e.cancelSeq == nil {
		e.cancelSeq = make([]uint64, e.n)
	}
	e.cancelSeq[e.current] = e.seq
}

// Terminate implements elect.Env.
func (e *engine) Terminate() {
	*e.nodes.st(e.current) |= statusHalted
	if e.trace != nil {
		e.trace.Halt(e.current)
	}
}

// Round implements elect.Env.
func (e *engine) Round() int64 { return e.now / e.unit }

// Rand implements elect.Env: each node has its own stream, made on first use.
func (e *engine) Rand() *rand.Rand {
	if e.rngs == nil {
		e.rngs = make([]*rand.Rand, e.n)
	}
	r := e.rngs[e.current]
	if r == nil {
		r = election.Stream(e.cfg.Seed, "node", uint64(e.current))
		e.rngs[e.current] = r
	}
	return r
}

// sendSlow routes a send in general: it checks the port and the message type,
// and writes the message straight into its list, bucket or stack.
func (e *engine) sendSlow(p elect.Port, m elect.Message) {
	i := e.current
	var to int32
	var q elect.Port
	if e.ringN > 0 {
		switch p {
		case elect.Left:
			to, q = i+1, elect.Right
			if to == e.ringN {
				to = 0
			}
		case elect.Right:
			if e.uniRing {
				e.mon.Violate(election.PropAgainstDirection, fmt.Sprintf("node %d sent counterclockwise on a unidirectional ring", i), i)
				return
			}
			to, q = i-1, elect.Left
			if to < 0 {
				to = e.ringN - 1
			}
		default:
			e.mon.Violate(election.PropBadPort, fmt.Sprintf("node %d sent on port %d, which it does not have", i, p), i)
			return
		}
	} else {
		if p < 0 || int(p) >= e.g.Degree(int(i)) {
			e.mon.Violate(election.PropBadPort, fmt.Sprintf("node %d sent on port %d, which it does not have", i, p), i)
			return
		}
		to, q = e.g.Neighbor(i, p)
	}
	if int(m.Type) >= len(e.typeCounts) {
		e.mon.Violate(election.PropBadMessageType, fmt.Sprintf("node %d sent undeclared message type %d", i, m.Type), i)
		return
	}
	e.typeCounts[m.Type]++
	e.nodes.countSent(i)
	if e.trace != nil {
		e.trace.Send(i, p, to, m)
	}
	if e.flt != nil {
		e.sendFaulty(i, p, to, q, m)
		return
	}
	e.enqueue(i, p, to, q, m)
}

// enqueue puts a message node i sent on port p into its list, bucket or
// stack, and returns the tick it arrives at (unit and random delays).
func (e *engine) enqueue(i int32, p elect.Port, to int32, q elect.Port, m elect.Message) int64 {
	var at int64
	switch e.delivery {
	case election.Sync, election.FIFO:
		if len(e.soon) == cap(e.soon) && !e.growSoon() {
			return e.now + 1
		}
		e.soon = appendDelivery(e.soon, to, q, m)
		return e.now + 1
	case election.Random:
		at = e.now + 1 + int64(e.delayRng.Uint64()&(randomDelayTicks-1))
	case election.RandomFIFO:
		at = e.now + 1 + int64(e.delayRng.Uint64()&(randomDelayTicks-1))
		k := e.g.PortIndex(i, p)
		if e.linkLast != nil {
			at = max(at, e.linkLast[k])
			e.linkLast[k] = at
		} else {
			at = max(at, e.linkLastM[k])
			e.linkLastM[k] = at
		}
	case election.NewestFirst:
		if len(e.stack) == cap(e.stack) && !e.growStack() {
			return 0
		}
		e.stack = append(e.stack, delivery{to: to, port: q, msg: m})
		e.stackDepth = append(e.stackDepth, e.depth[i]+1)
		return 0
	}
	e.wheel.push(at, to, q, m)
	return at
}

// growStack makes room in the newest-first stack and its depths, within
// the run's queue limit.
func (e *engine) growStack() bool {
	stack, ok := growQueue(&e.guard, e.stack, 1)
	if !ok {
		return false
	}
	e.stack = stack
	if len(e.stackDepth) == cap(e.stackDepth) {
		if e.stackDepth, ok = growQueue(&e.guard, e.stackDepth, 1); !ok {
			return false
		}
	}
	return true
}

// SetTimer implements elect.Env.
func (e *engine) SetTimer(rounds, tag int64) {
	i := e.current
	if rounds < 0 {
		e.mon.Violate(election.PropBadTimer, fmt.Sprintf("node %d set a timer for %d rounds; a timer cannot fire in the past", i, rounds), i)
		return
	}
	if _, ok := e.nodes.node(i).(elect.TimerNode); !ok {
		e.mon.Violate(election.PropBadTimer, fmt.Sprintf("node %d set a timer but cannot receive one", i), i)
		return
	}
	if rounds > (math.MaxInt64-e.now)/e.unit {
		e.mon.Violate(election.PropTimeOverflow, fmt.Sprintf("node %d set a timer %d rounds ahead, past the largest representable time", i, rounds), i)
		e.stepLimit = true
		return
	}
	e.pushTimed(e.now+rounds*e.unit, kindTimer, i, tag)
}
