package live

import (
	"cmp"
	"container/heap"
	"slices"
	"sync"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
)

// runSync runs the synchronous model behind a round barrier: each round,
// the nodes with something to do run concurrently on their goroutines, and
// the coordinator (this goroutine) waits for all of them, applies what they
// did in the simulator's order of the instant, and moves to the next round
// in which anything happens.
//
// The simulator's order of an instant is total: its wake-ups (in the order
// Config.Wake lists them), then its deliveries (the late ones due then
// first, by time due and sending order, then the others in the order they
// were sent), then its timers (in the order they were set, those set in
// the instant with 0 rounds included, after the others). A round runs in
// phases, each a stretch of that order known before it starts: phase 0 the
// wake-ups and deliveries, phase 1 the timers due (set in earlier rounds,
// or in phase 0 for now), phase k+1 the timers of 0 rounds set in phase k.
// Each node takes its events of a phase in that order, concurrently with
// the others, and marks what each event did (its sends, late messages,
// timers, monitor and trace calls); the coordinator then walks the phase in
// the global order and carries out each event's marks: so the messages of
// the next round are handed over in the order the simulator sends them,
// which is the order in which every node takes them, and the timers are
// numbered in the order the simulator sets them. The event limit
// (Config.MaxEvents) falls where the simulator's does: a phase that would
// pass it runs one event at a time in that order, on the coordinator, and
// stops at the limit.
func (r *run) runSync() {
	c := r.newSyncCoordinator()
	defer close(c.startWorkers())
	if r.cfg.Faults != nil {
		r.crashAtStart()
	}
	for {
		now, ok := c.nextRound()
		if !ok {
			return
		}
		r.clock = now
		c.beginRound(now)
		for phase := 0; ; phase++ {
			if len(c.list) > 0 {
				c.runPhase(now, phase)
				c.walk(now, phase)
				if c.cut {
					break
				}
			}
			if c.timersDue(now); len(c.list) == 0 {
				break
			}
		}
		for _, i := range c.ran {
			if p := r.nodes[i].syn.panicked; p != nil {
				// A node's code panicked: the round's other steps are
				// carried out, then the run ends with the violation, as in
				// the simulator.
				defer r.mon.Violate(election.PropPanic, election.PanicMessage(i, *p), i)
			}
		}
		if c.over(now) {
			return
		}
	}
}

// syncEntry is one event of a phase: node's next wake-up or delivery
// (phase 0), or its timer seq (the node's own number of it; later phases).
type syncEntry struct {
	node int32
	seq  uint64
}

// syncMark is what one event of a node did: the lengths of its output,
// late messages, new timers and deferred calls after it, and the timer it
// fired (0: a wake-up or a delivery).
type syncMark struct {
	out, late, timers, ops int32
	seq                    uint64
}

// syncCoordinator is what the coordinator of a synchronous run keeps
// between rounds.
type syncCoordinator struct {
	r          *run
	wakes      map[int64][]int32 // spontaneous wake-ups by round
	wakeRounds []int64           // the rounds of wakes, in order
	wg         sync.WaitGroup
	round      int64 // the round the workers run
	phase      int   // the phase the workers run
	// deliveries is the receivers of the messages handed over for the
	// next round, in the order sent.
	deliveries []int32
	list       []syncEntry // the phase's events, in order
	timers     timerHeap
	timerSeq   uint64 // the timers' numbers, in the order set
	events     int64
	now        int64 // the last round run
	active     []int32
	ran        []int32 // the nodes that ran in the round
	mark       []bool  // active, or (ranMark) in ran
	ranMark    []bool
	// cut: the event limit stopped the run within the round.
	cut bool
	// Config.Progress is called every election.ProgressEvents events.
	nextProgress int64
	late         syncLateHeap // delayed messages (faults)
	lateSeq      uint64
}

// newSyncCoordinator plans the run's spontaneous wake-ups, each round's in
// the order Config.Wake lists them (as the simulator numbers them).
func (r *run) newSyncCoordinator() *syncCoordinator {
	n := len(r.nodes)
	c := &syncCoordinator{r: r, wakes: map[int64][]int32{}, mark: make([]bool, n), ranMark: make([]bool, n)}
	if r.cfg.Wake == nil {
		for i := range n {
			c.wakes[0] = append(c.wakes[0], int32(i))
		}
	} else {
		for _, w := range r.cfg.Wake {
			c.wakes[w.At] = append(c.wakes[w.At], int32(w.Node))
		}
	}
	c.wakeRounds = make([]int64, 0, len(c.wakes))
	for at := range c.wakes {
		c.wakeRounds = append(c.wakeRounds, at)
	}
	slices.Sort(c.wakeRounds)
	return c
}

// startWorkers starts one goroutine per node, once; a signal runs the
// node's part of one phase. Closing the channel it returns ends them.
func (c *syncCoordinator) startWorkers() chan struct{} {
	stop := make(chan struct{})
	for _, nd := range c.r.nodes {
		go func() {
			for {
				select {
				case <-nd.syn.signal:
				case <-stop:
					return
				}
				c.r.syncPhaseRecovered(nd, c.round, c.phase)
				c.wg.Done()
			}
		}()
	}
	return stop
}

// nextRound returns the next round with anything in it, or false when the
// run is over: nothing is left, the round limit is passed (step-limit), or
// the run stayed symmetric.
func (c *syncCoordinator) nextRound() (int64, bool) {
	r := c.r
	next := int64(-1)
	if len(c.deliveries) > 0 {
		next = c.now + 1
	}
	if len(c.wakeRounds) > 0 && (next < 0 || c.wakeRounds[0] < next) {
		next = c.wakeRounds[0]
	}
	if len(c.late) > 0 && (next < 0 || c.late[0].due < next) {
		next = c.late[0].due
	}
	for len(c.timers) > 0 {
		t := c.timers[0]
		if !r.nodes[t.node].pendingTimer(t.seq) {
			heap.Pop(&c.timers) // cancelled, or fired already
			continue
		}
		if next < 0 || t.due < next {
			next = t.due
		}
		break
	}
	if next < 0 {
		return 0, false
	}
	if maxRounds := r.cfg.MaxTime; maxRounds > 0 && next > maxRounds {
		r.stepLimit = true
		return 0, false
	}
	if r.cfg.DetectSymmetry && next > c.now && r.mon.SymmetryBetweenRounds(c.now, r.view()) {
		return 0, false
	}
	return next, true
}

// beginRound makes the list of phase 0 of round now: this round's
// initiators, the receivers of the late messages due now (each put before
// its receiver's other messages: they were sent earlier), then the
// receivers of last round's messages, in the order sent.
func (c *syncCoordinator) beginRound(now int64) {
	c.now = now
	c.list = c.list[:0]
	for _, i := range c.ran {
		c.ranMark[i] = false
	}
	c.ran = c.ran[:0]
	if len(c.wakeRounds) > 0 && c.wakeRounds[0] == now {
		for _, i := range c.wakes[now] {
			c.r.nodes[i].syn.wakeAt = now
			c.list = append(c.list, syncEntry{node: i})
		}
		delete(c.wakes, now)
		c.wakeRounds = c.wakeRounds[1:]
	}
	if len(c.late) > 0 && c.late[0].due == now {
		c.r.handOverSyncLate(&c.late, now, func(i int32) { c.list = append(c.list, syncEntry{node: i}) })
	}
	for _, i := range c.deliveries {
		c.list = append(c.list, syncEntry{node: i})
	}
	c.deliveries = c.deliveries[:0]
}

// timersDue makes the list of the next phase: the timers due now that are
// still set, in the order they were set.
func (c *syncCoordinator) timersDue(now int64) {
	c.list = c.list[:0]
	for len(c.timers) > 0 && c.timers[0].due == now {
		t := heap.Pop(&c.timers).(timerEntry)
		if c.r.nodes[t.node].pendingTimer(t.seq) {
			c.list = append(c.list, syncEntry{node: t.node, seq: t.seq})
		}
	}
}

// runPhase runs phase phase of round now: on the nodes' goroutines, each
// taking its events of the phase, or, when the phase holds more events
// than the event limit leaves, one event at a time in the phase's order,
// stopping at the limit.
func (c *syncCoordinator) runPhase(now int64, phase int) {
	r := c.r
	c.active = c.active[:0]
	for _, e := range c.list {
		if !c.mark[e.node] {
			c.mark[e.node] = true
			c.active = append(c.active, e.node)
		}
		if !c.ranMark[e.node] {
			c.ranMark[e.node] = true
			c.ran = append(c.ran, e.node)
		}
	}
	for _, i := range c.active {
		c.mark[i] = false
	}
	c.round, c.phase = now, phase
	if left := r.maxEvents - c.events; int64(len(c.list)) > left {
		c.runInOrder(now, phase, left)
		return
	}
	c.wg.Add(len(c.active))
	for _, i := range c.active {
		r.nodes[i].syn.signal <- struct{}{}
	}
	c.wg.Wait()
}

// runInOrder runs the phase's events one at a time in its order, on this
// goroutine, until left events have been taken: the next event then stops
// the run (step-limit), where the simulator's event limit stops it.
func (c *syncCoordinator) runInOrder(now int64, phase int, left int64) {
	r := c.r
	for _, e := range c.list {
		nd := r.nodes[e.node]
		if nd.syn.panicked != nil || phase > 0 && !nd.pendingTimer(e.seq) {
			continue // a timer cancelled in this phase is no event
		}
		if left == 0 {
			r.stepLimit, c.cut = true, true
			return
		}
		left--
		r.syncEventRecovered(nd, now, phase, e.seq)
	}
}

// walk carries out, in the phase's order, what each of its events did:
// its monitor and trace calls, its messages (handed over for the next
// round, in the order sent; late ones for theirs) and its timers
// (numbered in the order set). What a node did past its last mark (a step
// whose code panicked) follows, in node order.
func (c *syncCoordinator) walk(now int64, phase int) {
	r := c.r
	handed := r.ticks()
	for _, e := range c.list {
		nd := r.nodes[e.node]
		sy := nd.syn
		if sy.markAt == len(sy.marks) {
			continue // it took no event for this entry (the limit, a panic)
		}
		m := sy.marks[sy.markAt]
		if phase > 0 && m.seq != e.seq {
			continue // a timer cancelled before it was due to fire
		}
		sy.markAt++
		c.carryOut(nd, m, now, handed)
	}
	for _, i := range c.active {
		nd := r.nodes[i]
		sy := nd.syn
		c.carryOut(nd, syncMark{out: int32(len(nd.out)), late: int32(c.lateLen(nd)), timers: int32(len(sy.newTimers)), ops: int32(len(sy.deferred))}, now, handed)
		c.events += nd.events - sy.countedEvents
		sy.countedEvents = nd.events
		clear(sy.deferred)
		sy.deferred = sy.deferred[:0]
		sy.newTimers = sy.newTimers[:0]
		sy.marks = sy.marks[:0]
		nd.out = nd.out[:0]
		if nd.flt != nil {
			nd.flt.late = nd.flt.late[:0]
		}
		sy.markAt, sy.outAt, sy.lateAt, sy.timersAt, sy.opsAt = 0, 0, 0, 0, 0
	}
}

// lateLen is the number of late messages nd holds (0 without faults).
func (c *syncCoordinator) lateLen(nd *node) int {
	if nd.flt == nil {
		return 0
	}
	return len(nd.flt.late)
}

// carryOut carries out what nd did up to mark m, from where the last mark
// carried out left it.
func (c *syncCoordinator) carryOut(nd *node, m syncMark, now int64, handed uint32) {
	r, sy, i := c.r, nd.syn, nd.index
	for k := sy.opsAt; k < m.ops; k++ {
		r.do(i, &sy.deferred[k])
	}
	sy.opsAt = max(sy.opsAt, m.ops)
	for k := sy.outAt; k < m.out; k++ {
		o := &nd.out[k]
		dst := r.nodes[o.to]
		dst.inbox = append(dst.inbox, o.envelope(handed))
		c.deliveries = append(c.deliveries, o.to)
	}
	sy.outAt = max(sy.outAt, m.out)
	if nd.flt != nil {
		for k := sy.lateAt; k < m.late; k++ {
			l := nd.flt.late[k]
			c.lateSeq++
			l.env.sent = handed
			heap.Push(&c.late, syncLate{due: now + 1 + l.by, seq: c.lateSeq, msg: l})
		}
		sy.lateAt = max(sy.lateAt, m.late)
	}
	for k := sy.timersAt; k < m.timers; k++ {
		t := sy.newTimers[k]
		c.timerSeq++
		heap.Push(&c.timers, timerEntry{due: t.due, order: c.timerSeq, seq: t.seq, node: i})
	}
	sy.timersAt = max(sy.timersAt, m.timers)
}

// over reports whether the run ends after round now: a node's code
// panicked, the event limit stopped it (step-limit), or Config.Progress
// asked to stop.
func (c *syncCoordinator) over(now int64) bool {
	r := c.r
	for _, i := range c.ran {
		if r.nodes[i].syn.panicked != nil {
			return true
		}
	}
	if c.cut {
		return true
	}
	if r.overQueueLimit(int64(len(c.late) + len(c.deliveries))) {
		return true
	}
	if r.cfg.Progress != nil && c.events >= c.nextProgress {
		c.nextProgress = c.events + election.ProgressEvents
		if !r.cfg.Progress(election.Progress{Events: c.events, Time: float64(now)}) {
			r.stopped = true
			return true
		}
	}
	return false
}

// syncPhaseRecovered runs syncPhase, recording a panic of the node's code
// (for the coordinator) instead of letting it end the process.
func (r *run) syncPhaseRecovered(nd *node, round int64, phase int) {
	defer func() {
		if p := recover(); p != nil {
			nd.syn.panicked = &p
		}
	}()
	r.syncPhase(nd, round, phase)
}

// syncPhase is node nd's part of one phase of a round: in phase 0 its
// wake-up, then the messages handed to it for this round, in the order
// the coordinator handed them over; in a later phase its timers due now
// that were set before the phase, in the order set. Its sends stay in
// nd.out for the coordinator, each event marked (syncMark).
func (r *run) syncPhase(nd *node, round int64, phase int) {
	sy := nd.syn
	if sy.panicked != nil {
		return // its code panicked earlier in the round: it takes no more steps
	}
	sy.timers = slices.DeleteFunc(sy.timers, func(t timer) bool { return t.seq <= sy.cancelSeq })
	if phase == 0 {
		for r.syncNext(nd, round) {
		}
		return
	}
	before := sy.timerSeq
	for {
		k := slices.IndexFunc(sy.timers, func(t timer) bool { return t.due == round && t.seq <= before })
		if k < 0 {
			return
		}
		r.fireTimer(nd, round, sy.timers[k].seq)
	}
}

// syncEventRecovered runs one event of nd in phase phase (the timer seq
// in a later phase), on the coordinator, recording a panic of the node's
// code as syncPhaseRecovered does.
func (r *run) syncEventRecovered(nd *node, round int64, phase int, seq uint64) {
	defer func() {
		if p := recover(); p != nil {
			nd.syn.panicked = &p
		}
	}()
	if phase == 0 {
		r.syncNext(nd, round)
	} else {
		r.fireTimer(nd, round, seq)
	}
}

// syncNext takes nd's next event of phase 0 of round (its wake-up, then
// the messages handed to it, in order), and reports whether there was one.
func (r *run) syncNext(nd *node, round int64) bool {
	sy := nd.syn
	if sy.takenRound != round {
		// Its first event of the round: it takes its inbox.
		sy.takenRound = round
		sy.batch = nd.inbox
		nd.inbox = sy.spare[:0]
		sy.spare = sy.batch[:0] // the next round's, when this one is handled
		sy.pos = 0
		taken := r.ticks()
		for i := range sy.batch {
			nd.latency.Add(latencyNanos(sy.batch[i].sent, taken))
		}
	}
	switch {
	case sy.wakeAt == round:
		sy.wakeAt = -1
		r.wake(nd, round)
	case sy.pos < len(sy.batch):
		sy.pos++
		r.receive(nd, round, &sy.batch[sy.pos-1])
	default:
		return false
	}
	r.markEvent(nd, 0)
	return true
}

// fireTimer fires nd's timer seq, due in round, and reports whether it was
// still set: a timer cancelled by an earlier handler is dropped, and is no
// event.
func (r *run) fireTimer(nd *node, round int64, seq uint64) bool {
	sy := nd.syn
	k := slices.IndexFunc(sy.timers, func(t timer) bool { return t.seq == seq })
	if k < 0 {
		return false
	}
	t := sy.timers[k]
	sy.timers = slices.Delete(sy.timers, k, k+1)
	if t.seq <= sy.cancelSeq {
		return false
	}
	nd.events++
	if !nd.halted {
		sy.last = round
		if r.trace != nil {
			r.apply(nd, op{kind: opTimer, env: envelope{msg: elect.Message{A: t.tag}}})
		}
		if nd.flt != nil {
			nd.flt.at = round
		}
		r.call(nd, round, inputTimer, 0, elect.Message{A: t.tag})
		if nd.flt != nil {
			r.stepped(nd)
		}
	}
	r.markEvent(nd, t.seq)
	return true
}

// markEvent marks the end of an event of nd (a timer's seq, or 0).
func (r *run) markEvent(nd *node, seq uint64) {
	sy := nd.syn
	late := 0
	if nd.flt != nil {
		late = len(nd.flt.late)
	}
	sy.marks = append(sy.marks, syncMark{out: int32(len(nd.out)), late: int32(late), timers: int32(len(sy.newTimers)), ops: int32(len(sy.deferred)), seq: seq})
}

// pendingTimer reports whether nd's timer seq is set, not fired and not
// cancelled (read by the coordinator between rounds).
func (nd *node) pendingTimer(seq uint64) bool {
	if seq <= nd.syn.cancelSeq {
		return false
	}
	for _, t := range nd.syn.timers {
		if t.seq == seq {
			return true
		}
	}
	return false
}

// timerEntry is a timer in the coordinator's heap: due in round due, the
// order-th set in the run (in the simulator's order), its node's seq-th.
type timerEntry struct {
	due   int64
	order uint64
	seq   uint64
	node  int32
}

// timerHeap is a min-heap of timers by (due, order), the simulator's order
// of timers, for container/heap (the timers of a synchronous run are few:
// no need for the simulator's specialised queues).
type timerHeap []timerEntry

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(a, b int) bool {
	x, y := h[a], h[b]
	return cmp.Or(cmp.Compare(x.due, y.due), cmp.Compare(x.order, y.order)) < 0
}
func (h timerHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(timerEntry)) }
func (h *timerHeap) Pop() any {
	q := *h
	t := q[len(q)-1]
	*h = q[:len(q)-1]
	return t
}

// handOverSyncLate puts the late messages due in round now in their
// receivers' inboxes, before the messages sent in the round before (they
// were sent earlier), and adds each to the phase's events, in order.
func (r *run) handOverSyncLate(late *syncLateHeap, now int64, add func(int32)) {
	var got map[int32][]envelope
	var order []int32
	for len(*late) > 0 && (*late)[0].due == now {
		l := heap.Pop(late).(syncLate).msg
		if got == nil {
			got = map[int32][]envelope{}
		}
		if got[l.to] == nil {
			order = append(order, l.to)
		}
		got[l.to] = append(got[l.to], l.env)
		add(l.to)
	}
	for _, i := range order {
		dst := r.nodes[i]
		dst.inbox = append(got[i], dst.inbox...)
	}
}
