package live

import (
	"fmt"
	"slices"

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
	// late holds the messages of the current round that are late
	// (synchronous runs: handed over after their delay in rounds).
	late []lateMsg
	// Asynchronous runs: held are its late messages not yet in its
	// output, by arrival then sending (heldMsg); newHeld and released
	// count what the current batch held and released; listed: it is in
	// the run's heldNodes.
	held              []heldMsg
	heldSeq           int64
	newHeld, released int
	listed            bool
}

// lateMsg is a delayed message: it is handed over after by time units.
type lateMsg struct {
	to  int32
	env envelope
	by  int64
}

// newFaults gives every node its part of plan, cfg's resolved schedule.
func (r *run) newFaults(plan *faultplan.Plan) error {
	if plan == nil {
		return fmt.Errorf("live: the run has faults (%s) and no resolved plan: resolve the schedule before the run (package faultplan/resolve) and pass it as Options.Plan", r.cfg.Faults)
	}
	if plan.N() != len(r.nodes) {
		return fmt.Errorf("live: the fault plan is for %d nodes, the run has %d", plan.N(), len(r.nodes))
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
// says: lost, or output (held back when late: in rounds in a synchronous
// run, in the simulator's time in an asynchronous one), and output twice
// when duplicated.
func (r *run) sendFaulty(nd *node, p elect.Port, to int32, q elect.Port, m elect.Message) {
	f := nd.flt
	env := envelope{port: q, msg: m, depth: nd.depth + 1}
	s, hit := f.sender.Next()
	if !hit {
		r.apply(nd, op{kind: opRouted, to: to, env: env, by: 1})
		r.outputOnTime(nd, to, env)
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
	switch {
	case s.Delay == 0:
		r.outputOnTime(nd, to, env)
	case r.async != nil:
		late := env
		late.depth += s.Delay
		r.async.hold(nd, to, late)
	default:
		f.late = append(f.late, lateMsg{to: to, env: env, by: s.Delay})
	}
	if s.Dup {
		r.outputOnTime(nd, to, env)
	}
}

// outputOnTime appends an on-time message of nd to node to to nd's
// output, after the held late messages it may not pass (asynchronous runs).
func (r *run) outputOnTime(nd *node, to int32, env envelope) {
	if r.async != nil && len(nd.flt.held) > 0 {
		r.async.releaseBefore(nd, to, env.depth)
	}
	r.output(nd, outgoingTo(to, env))
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

// An asynchronous run's late messages are late in the simulator's time,
// not in wall time, so that each link delivers its messages in the
// simulator's order (under fifo delivery with every initiator waking at 0,
// the plan's resolving run): a message its sender sends at time t (the
// depth of the step, its envelope's depth less one) arrives at t+1 on time
// and at t+1+d late by d, and on one link the simulator delivers by arrival
// time, a late message before an on-time one arriving with it (sim's
// lateInstant). A sender holds its late messages (heldMsg) and puts each
// into its output, behind what it sent before, only when nothing it can
// still send on that link may pass it:
//
//   - when it sends an on-time message on the link arriving at A' no
//     earlier than the held one's arrival A (A <= A'): the held one goes
//     first (releaseBefore);
//   - at the end of a batch, when its own time t has reached A-1: whatever
//     it sends from then arrives at t+1 >= A or later (releaseDue);
//   - when nothing else is left in the whole run (every node idle, every
//     input left a held message: asyncRun.releaseQuiescent): the held
//     messages arriving first, everywhere, go, since every step from then
//     is at their time or later.
//
// So a node whose inputs come on one link (LCR's) takes the simulator's
// inputs in the simulator's order, and sends the same messages: its k-th
// message is the simulator's, every fault of the plan hits the message it
// hit there, and the run's counts and time (a late message's arrival
// lengthens the causal depth as it does the simulator's time) are the
// simulator's. Held messages count as pending inputs, so the run cannot end
// before they arrive.

// heldMsg is a late message its sender holds: to node to, arriving at
// env.depth, its sender's seq-th late message.
type heldMsg struct {
	to  int32
	seq int64
	env envelope
}

// hold keeps a late message of nd, in order of arrival, then of sending.
func (a *asyncRun) hold(nd *node, to int32, env envelope) {
	f := nd.flt
	f.heldSeq++
	h := heldMsg{to: to, seq: f.heldSeq, env: env}
	k := len(f.held)
	for k > 0 && f.held[k-1].env.depth > env.depth {
		k--
	}
	f.held = slices.Insert(f.held, k, h)
	f.newHeld++
	a.heldCount.Add(1)
	a.held.Add(lateBytes)
	if !f.listed {
		f.listed = true
		a.heldMu.Lock()
		a.heldNodes = append(a.heldNodes, nd)
		a.heldMu.Unlock()
	}
}

// releaseBefore puts into nd's output, ahead of a message to node to
// arriving at arrive, the held messages to that node that arrive no later.
func (a *asyncRun) releaseBefore(nd *node, to int32, arrive int64) {
	f := nd.flt
	for k := 0; k < len(f.held) && f.held[k].env.depth <= arrive; {
		if f.held[k].to != to {
			k++
			continue
		}
		a.release(nd, k)
	}
}

// releaseDue puts into nd's output, at the end of a batch, the held
// messages that nothing nd sends from now on can pass: those arriving no
// later than its time plus one.
func (a *asyncRun) releaseDue(nd *node) {
	f := nd.flt
	for len(f.held) > 0 && f.held[0].env.depth <= nd.depth+1 {
		a.release(nd, 0)
	}
}

// release moves nd's k-th held message to its output.
func (a *asyncRun) release(nd *node, k int) {
	f := nd.flt
	h := f.held[k]
	f.held = slices.Delete(f.held, k, k+1)
	f.released++
	a.heldCount.Add(-1)
	a.held.Add(-lateBytes)
	a.output(nd, outgoingTo(h.to, h.env))
}

// releaseQuiescent is called when no node runs or is about to run and
// every input left is a held late message: the earliest of them, over all
// senders, are handed to their receivers (past their windows, as a break
// of a cycle hands a batch: the inboxes are empty of that link's messages,
// its sender being idle), which are made ready. Nothing else can run
// meanwhile.
func (a *asyncRun) releaseQuiescent() {
	a.heldMu.Lock()
	defer a.heldMu.Unlock()
	first := int64(-1)
	live := a.heldNodes[:0]
	for _, nd := range a.heldNodes {
		f := nd.flt
		if len(f.held) == 0 {
			f.listed = false
			continue
		}
		live = append(live, nd)
		if d := f.held[0].env.depth; first < 0 || d < first {
			first = d
		}
	}
	clear(a.heldNodes[len(live):])
	a.heldNodes = live
	var due []heldMsg
	for _, nd := range a.heldNodes {
		f := nd.flt
		for len(f.held) > 0 && f.held[0].env.depth == first {
			due = append(due, f.held[0])
			f.held = slices.Delete(f.held, 0, 1)
		}
	}
	a.heldCount.Add(-int64(len(due)))
	// Every one of them is in its inbox before any receiver runs: a
	// receiver signalled at once could set off a chain of steps that
	// reaches the sender of a later one of due while it is still out of
	// its inbox, and that sender, holding it no more, would put its next
	// messages on the link ahead of it (LCR on the decreasing ring of 16
	// under delay:p=0.3,d=3, seed 1: a message due at time 7 delivered
	// after those due at 8 and 9, in 52 of 2000 runs under -race).
	var ready []*node
	for _, h := range due {
		if dst := a.placeLate(h.to, h.env); dst != nil {
			ready = append(ready, dst)
		}
	}
	for _, dst := range ready {
		a.busy.Add(1)
		a.signal(nil, dst)
	}
}

// placeLate puts a late message in its receiver's inbox, past the window
// (a late message does not wait: it was sent long ago), and returns the
// receiver when it was idle, marked ready, for the caller to signal. When
// the run is over it does nothing.
func (a *asyncRun) placeLate(to int32, env envelope) *node {
	a.held.Add(-lateBytes)
	if a.stopped.Load() {
		return nil
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
	if !wasIdle {
		return nil
	}
	return dst
}
