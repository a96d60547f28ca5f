package live

import (
	"fmt"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faultplan"
)

// Faults (Config.Faults) on the goroutine runtime: the schedule is resolved
// before the run to (sender, k-th send) and (node, steps) by whoever starts
// it (package faultplan/resolve), handed over as a faultplan.Plan
// (Options.Plan), and applied where a node sends (a lost message never reaches
// the node's output; a duplicate is output twice; a late one is held back)
// and where it has taken a step (it crashes right after its S-th). A run
// without faults never reads any of it: node.flt is nil.

// nodeFaults is one node's part of the plan, and its own counts.
type nodeFaults struct {
	sender faultplan.Sender
	steps  int64
	crash  faultplan.Crash // Steps < 0: it does not crash
	// at is the time of the step being taken: the node's causal depth
	// (asynchronous runs: the deepest input it has taken, the simulator's
	// time of the step under fifo delivery) or the round.
	at int64
	// late holds the messages of the current batch that are late
	// (asynchronous runs: handed over after their delay in real time;
	// synchronous runs: after their delay in rounds).
	late []lateMsg
}

// lateMsg is a delayed message: it is handed over after by time units.
type lateMsg struct {
	to  int32
	env envelope
	by  int64
}

// newFaults gives every node its part of plan, cfg's resolved schedule.
func (r *run) newFaults(plan *faultplan.Plan, tick time.Duration) error {
	if plan == nil {
		return fmt.Errorf("live: the run has faults (%s) and no resolved plan: resolve the schedule before the run (package faultplan/resolve) and pass it as Options.Plan", r.cfg.Faults)
	}
	if plan.N() != len(r.nodes) {
		return fmt.Errorf("live: the fault plan is for %d nodes, the run has %d", plan.N(), len(r.nodes))
	}
	r.tick = tick
	if r.tick <= 0 {
		r.tick = election.DefaultFaultTick
	}
	flts := make([]nodeFaults, len(r.nodes))
	for i, nd := range r.nodes {
		f := &flts[i]
		f.sender = plan.Sender(int32(i))
		f.crash.Steps = -1
		if c, ok := plan.CrashOf(int32(i)); ok {
			f.crash = c
		}
		nd.flt = f
	}
	return nil
}

// crashAtStart crashes, before anything happens (and before any other
// goroutine runs), the nodes the plan crashes before their first step.
func (r *run) crashAtStart() {
	for _, nd := range r.nodes {
		if nd.flt.crash.Steps == 0 {
			nd.halted = true
			r.do(nd.index, &op{kind: opCrash})
		}
	}
}

// syncLate is a late message of a synchronous run, due in round due.
type syncLate struct {
	due int64
	seq uint64
	msg lateMsg
}

// syncLateHeap orders a synchronous run's late messages by round, then in
// the order they were sent.
type syncLateHeap []syncLate

func (h syncLateHeap) Len() int { return len(h) }
func (h syncLateHeap) Less(a, b int) bool {
	return h[a].due < h[b].due || h[a].due == h[b].due && h[a].seq < h[b].seq
}
func (h syncLateHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *syncLateHeap) Push(x any)   { *h = append(*h, x.(syncLate)) }
func (h *syncLateHeap) Pop() any {
	q := *h
	x := q[len(q)-1]
	*h = q[:len(q)-1]
	return x
}

// stepped counts a step of nd, which crashes right after it if the plan
// says so.
func (r *run) stepped(nd *node) {
	f := nd.flt
	f.steps++
	if f.steps == f.crash.Steps {
		r.crash(nd)
	}
}

// crash stops nd for good, unless it has terminated: it takes no more
// steps, and what reaches it is dropped.
func (r *run) crash(nd *node) {
	if nd.halted {
		return
	}
	nd.halted = true
	r.apply(nd, op{kind: opCrash, round: nd.flt.at})
}

// sendFaulty sends m of nd, on its port p to port q of node to, as the plan
// says: lost, or output (held back when late), and output twice when
// duplicated.
func (r *run) sendFaulty(nd *node, p elect.Port, to int32, q elect.Port, m elect.Message) {
	f := nd.flt
	env := envelope{port: q, msg: m, depth: nd.depth + 1}
	s, hit := f.sender.Next()
	if !hit {
		r.apply(nd, op{kind: opRouted, to: to, env: env, by: 1})
		r.output(nd, outgoingTo(to, env))
		return
	}
	fo := op{no: s.No, to: to, env: envelope{port: p, msg: m}, round: f.at}
	if s.Lost != 0 {
		fo.kind, fo.cause = opLost, s.Lost
		r.apply(nd, fo)
		return
	}
	if s.Delay > 0 {
		fo.kind, fo.by = opDelayed, s.Delay
		r.apply(nd, fo)
	}
	copies := int64(1)
	if s.Dup {
		fo.kind = opDup
		r.apply(nd, fo)
		copies = 2
	}
	// The monitor follows the promised leader's causal path (the cause).
	r.apply(nd, op{kind: opRouted, to: to, env: env, by: copies})
	if s.Delay > 0 {
		f.late = append(f.late, lateMsg{to: to, env: env, by: s.Delay})
	} else {
		r.output(nd, outgoingTo(to, env))
	}
	if s.Dup {
		r.output(nd, outgoingTo(to, env))
	}
}

// output appends o to nd's output, growing it as send does.
func (r *run) output(nd *node, o outgoing) {
	if len(nd.out) == cap(nd.out) {
		r.growOut(nd)
	}
	nd.out = append(nd.out, o)
}

// deliveredFaulty tells the monitor, in a run with faults, that ev reaches
// nd (before its step, or dropped when nd has halted), and sets the time
// of the step.
func (r *run) deliveredFaulty(nd *node, round int64, ev envelope) {
	f := nd.flt
	f.at = round
	if r.cfg.Delivery != election.Sync {
		f.at = nd.depth
	}
	r.apply(nd, op{kind: opDelivered, env: ev, dropped: nd.halted, round: f.at})
}

// holdLate hands nd's late messages of the batch just handled to timers
// that hand each over after its delay, in real time (by times the fault
// tick). They were counted as pending with the batch's output, so the run
// cannot end before they arrive.
func (a *asyncRun) holdLate(nd *node) {
	a.held.Add(int64(len(nd.flt.late)) * lateBytes)
	for _, l := range nd.flt.late {
		time.AfterFunc(time.Duration(l.by)*a.tick, func() { a.handOverLate(l.to, l.env) })
	}
	clear(nd.flt.late)
	nd.flt.late = nd.flt.late[:0]
}

// handOverLate puts a late message in its receiver's inbox, past the
// window (a late message does not wait: it was sent long ago), and makes
// the receiver ready if it was idle. When the run is over it does nothing.
func (a *asyncRun) handOverLate(to int32, env envelope) {
	a.held.Add(-lateBytes)
	if a.stopped.Load() {
		return
	}
	dst := a.nodes[to]
	dst.mu.Lock()
	env.sent = a.ticks()
	c := cap(dst.inbox)
	dst.inbox = append(dst.inbox, env)
	a.held.Add(int64(cap(dst.inbox)-c) * envelopeBytes)
	dst.peakInbox = max(dst.peakInbox, int32(dst.held()))
	wasIdle := dst.state == stateIdle
	if wasIdle {
		dst.state = stateReady
	}
	dst.mu.Unlock()
	if wasIdle {
		a.busy.Add(1)
		a.signal(nil, dst)
	}
}
