package sim

import (
	"container/heap"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
)

// A run with faults (election.Config.Faults) takes the engine's general
// paths only: no inline ring send, no inline delivery; a run without faults
// never reads faultRun (e.flt is nil) and keeps its fast paths.
type faultRun struct {
	sched     *faults.Schedule
	crashes   []faults.Crash // timed crashes not yet applied, by time
	crashStep []int64        // by node: the step it crashes after (0: none)
	steps     []int64        // by node: steps taken
	late      lateHeap       // delayed messages, beyond the wheel's reach
	lateSeq   uint64
	lateBuf   []delivery

	heldLoss elect.Faults // mutant loss-next-message: the loss that hits the next message
}

// lateMsg is a delayed message: it arrives at tick at; seq keeps sending
// order among those of one tick.
type lateMsg struct {
	at  int64
	seq uint64
	d   delivery
}

type lateHeap []lateMsg

func (h lateHeap) Len() int { return len(h) }
func (h lateHeap) Less(a, b int) bool {
	if h[a].at != h[b].at {
		return h[a].at < h[b].at
	}
	return h[a].seq < h[b].seq
}
func (h lateHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *lateHeap) Push(x any)   { *h = append(*h, x.(lateMsg)) }
func (h *lateHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// newFaults draws the run's fault schedule.
func (e *engine) newFaults() error {
	sched, err := e.cfg.FaultSchedule()
	if err != nil {
		return err
	}
	f := &faultRun{sched: sched, crashStep: make([]int64, e.n), steps: make([]int64, e.n)}
	for _, c := range sched.Crashes() {
		switch {
		case c.Step == 0:
			f.crashes = append(f.crashes, c)
		case f.crashStep[c.Node] == 0 || c.Step < f.crashStep[c.Node]:
			f.crashStep[c.Node] = c.Step
		}
	}
	e.flt = f
	return nil
}

// crashUntil applies the timed crashes due at or before tick now, at the
// start of its instant.
func (e *engine) crashUntil(now int64) {
	f := e.flt
	for len(f.crashes) > 0 && f.crashes[0].At*e.unit <= now {
		e.crash(f.crashes[0].Node)
		f.crashes = f.crashes[1:]
	}
}

// stepped counts a step of node i, which crashes after it if the schedule
// says so.
func (e *engine) stepped(i int32) {
	f := e.flt
	f.steps[i]++
	if mutant == "crash-step-late" {
		if f.crashStep[i] > 0 && f.steps[i] == f.crashStep[i]+1 {
			e.crash(i)
		}
		return
	}
	if f.steps[i] == f.crashStep[i] {
		e.crash(i)
	}
}

// crash stops node i for good, unless it has halted already.
func (e *engine) crash(i int32) {
	st := e.nodes.st(i)
	if *st&statusHalted != 0 {
		return
	}
	*st |= statusHalted
	e.mon.Crash(i, e.now)
}

// sendFaulty routes a message under the fault schedule: lost, or sent (late
// by a delay fault), and sent again when duplicated.
func (e *engine) sendFaulty(i int32, p elect.Port, to int32, q elect.Port, m elect.Message) {
	f := e.flt
	fate := f.sched.Next(i, to, e.now, e.unit)
	no := f.sched.Sent()
	if mutant == "loss-next-message" {
		fate.Lost, f.heldLoss = f.heldLoss, fate.Lost
	}
	if fate.Lost != 0 {
		e.mon.Lost(no, i, p, to, m, fate.Lost, e.now)
		if mutant != "lost-delivered" {
			return
		}
	}
	if fate.Delay > 0 {
		e.mon.Delayed(no, i, p, to, m, fate.Delay, e.now)
	}
	copies := 1
	if fate.Dup {
		e.mon.Duplicated(no, i, p, to, m, e.now)
		copies = 2
	}
	e.mon.Routed(i, to, q, m, copies)
	if fate.Delay > 0 {
		e.enqueueLate(i, p, to, q, m, fate.Delay)
	} else {
		e.enqueue(i, p, to, q, m)
	}
	if fate.Dup {
		switch {
		case mutant == "dup-wrong-port" && e.g.Degree(int(to)) > 1:
			e.enqueue(i, p, to, (q+1)%elect.Port(e.g.Degree(int(to))), m)
		case mutant == "dup-copy-late" && fate.Delay > 0:
			e.enqueueLate(i, p, to, q, m, fate.Delay)
		default:
			e.enqueue(i, p, to, q, m)
		}
	}
}

// enqueueLate sends a message late by extra time units: it draws its delay
// as enqueue does (and keeps the link's FIFO clock as if it were on time),
// then waits in the late heap. A late message is overtaken by those sent
// after it. Delays are refused under newest-first delivery.
func (e *engine) enqueueLate(i int32, p elect.Port, to int32, q elect.Port, m elect.Message, extra int64) {
	f := e.flt
	var at int64
	switch e.delivery {
	case election.Sync, election.FIFO:
		at = e.now + 1
	default:
		at = e.now + 1 + int64(e.delayRng.Uint64()&(randomDelayTicks-1))
		if e.delivery == election.RandomFIFO {
			k := e.g.PortIndex(i, p)
			if e.linkLast != nil {
				at = max(at, e.linkLast[k])
				e.linkLast[k] = at
			} else {
				at = max(at, e.linkLastM[k])
				e.linkLastM[k] = at
			}
		}
	}
	if len(f.late) == cap(f.late) {
		late, ok := growQueue(&e.guard, f.late, 1)
		if !ok {
			return
		}
		f.late = late
	}
	f.lateSeq++
	heap.Push(&f.late, lateMsg{at: at + extra*e.unit, seq: f.lateSeq, d: delivery{to: to, port: q, msg: m}})
}

// lateInstant runs the instant at tick next when late messages are due
// then: they were all sent before the others due at next (a delay adds at
// least one time unit, more than the model's largest delay), so they are
// delivered first, in sending order, then items (the wheel's bucket of
// next, or under unit delays the messages sent at next-1).
func (e *engine) lateInstant(next int64, items []delivery) bool {
	f := e.flt
	buf := f.lateBuf[:0]
	for len(f.late) > 0 && f.late[0].at == next {
		if len(buf) == cap(buf) {
			var ok bool
			if buf, ok = growQueue(&e.guard, buf, 1); !ok {
				return e.stopAtMemoryLimit()
			}
		}
		buf = append(buf, heap.Pop(&f.late).(lateMsg).d)
	}
	if e.wheel == nil && next == e.now+1 {
		items = e.soon
		e.soon = e.due[:0]
		e.due = items
	}
	if cap(buf)-len(buf) < len(items) {
		var ok bool
		if buf, ok = growQueue(&e.guard, buf, len(items)); !ok {
			return e.stopAtMemoryLimit()
		}
	}
	buf = append(buf, items...)
	f.lateBuf = buf
	if e.wheel == nil && items != nil {
		e.due = e.due[:0]
	}
	return e.instant(next, buf)
}
