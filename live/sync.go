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
// the coordinator (this goroutine) waits for all of them, applies their
// decisions and trace lines in node order, and moves to the next round in
// which anything happens.
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
		c.gather(now)
		c.runRound(now)
		for _, i := range c.active {
			if p := r.nodes[i].syn.panicked; p != nil {
				// A node's code panicked: the round's other steps are
				// carried out, then the run ends with the violation, as in
				// the simulator.
				defer r.mon.Violate(election.PropPanic, election.PanicMessage(i, *p), i)
			}
		}
		c.collect(now)
		if c.over(now) {
			return
		}
	}
}

// syncCoordinator is what the coordinator of a synchronous run keeps
// between rounds.
type syncCoordinator struct {
	r          *run
	wakes      map[int64][]int32 // spontaneous wake-ups by round
	wakeRounds []int64           // the rounds of wakes, in order
	wg         sync.WaitGroup
	round      int64   // the round the workers run
	due        []int32 // nodes with messages for the next round
	timers     timerHeap
	events     int64
	now        int64 // the last round run
	active     []int32
	mark       []bool
	// Config.Progress is called every election.ProgressEvents events.
	nextProgress int64
	late         syncLateHeap // delayed messages (faults)
	lateSeq      uint64
	// held is the messages handed to the next rounds (late ones
	// included), for the memory guard (overQueueLimit).
	held int64
}

// newSyncCoordinator plans the run's spontaneous wake-ups.
func (r *run) newSyncCoordinator() *syncCoordinator {
	n := len(r.nodes)
	c := &syncCoordinator{r: r, wakes: map[int64][]int32{}, mark: make([]bool, n)}
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
	for at, list := range c.wakes {
		c.wakeRounds = append(c.wakeRounds, at)
		slices.Sort(list)
	}
	slices.Sort(c.wakeRounds)
	return c
}

// startWorkers starts one goroutine per node, once; a signal runs one
// round. Closing the channel it returns ends them.
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
				c.r.syncRoundRecovered(nd, c.round)
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
	if len(c.due) > 0 {
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

// gather sets who runs in round now, in node order: receivers of last
// round's messages and of late ones due now, this round's initiators, and
// nodes with a timer due.
func (c *syncCoordinator) gather(now int64) {
	c.now = now
	c.active = c.active[:0]
	add := func(i int32) {
		if !c.mark[i] {
			c.mark[i] = true
			c.active = append(c.active, i)
		}
	}
	for _, i := range c.due {
		add(i)
	}
	c.due = c.due[:0]
	if len(c.late) > 0 && c.late[0].due == now {
		c.r.handOverSyncLate(&c.late, now, add)
	}
	if len(c.wakeRounds) > 0 && c.wakeRounds[0] == now {
		for _, i := range c.wakes[now] {
			c.r.nodes[i].syn.wakeAt = now
			add(i)
		}
		c.wakeRounds = c.wakeRounds[1:]
	}
	for len(c.timers) > 0 && c.timers[0].due == now {
		add(heap.Pop(&c.timers).(timerEntry).node)
	}
	slices.Sort(c.active)
}

// runRound runs round now on the active nodes' goroutines and waits for
// them all.
func (c *syncCoordinator) runRound(now int64) {
	c.round = now
	c.wg.Add(len(c.active))
	for _, i := range c.active {
		c.r.nodes[i].syn.signal <- struct{}{}
	}
	c.wg.Wait()
	c.r.clock = now
}

// collect applies, in node order, what the active nodes did in round now:
// their decisions and trace lines, their events and new timers, and their
// messages, handed over for the next round (late ones for theirs).
func (c *syncCoordinator) collect(now int64) {
	r := c.r
	handed := r.ticks()
	c.held = int64(len(c.late))
	for _, i := range c.active {
		c.mark[i] = false
		nd := r.nodes[i]
		sy := nd.syn
		for k := range sy.deferred {
			r.do(i, &sy.deferred[k])
		}
		clear(sy.deferred)
		sy.deferred = sy.deferred[:0]
		c.events += nd.events - sy.countedEvents
		sy.countedEvents = nd.events
		for _, t := range sy.newTimers {
			heap.Push(&c.timers, timerEntry{due: t.due, seq: t.seq, node: i})
		}
		sy.newTimers = sy.newTimers[:0]
		// Hand over the round's messages for the next round, here rather
		// than by the senders: no message can reach a node in the round
		// it was sent, and the order is the nodes'.
		c.held += int64(len(nd.out))
		for _, o := range nd.out {
			dst := r.nodes[o.to]
			if len(dst.inbox) == 0 {
				c.due = append(c.due, o.to)
			}
			dst.inbox = append(dst.inbox, o.envelope(handed))
		}
		nd.out = nd.out[:0]
		if nd.flt != nil {
			for _, l := range nd.flt.late {
				c.lateSeq++
				l.env.sent = handed
				heap.Push(&c.late, syncLate{due: now + 1 + l.by, seq: c.lateSeq, msg: l})
			}
			nd.flt.late = nd.flt.late[:0]
		}
	}
}

// over reports whether the run ends after round now: a node's code
// panicked, the event limit is reached (step-limit), or Config.Progress
// asked to stop.
func (c *syncCoordinator) over(now int64) bool {
	r := c.r
	for _, i := range c.active {
		if r.nodes[i].syn.panicked != nil {
			return true
		}
	}
	if c.events >= r.maxEvents {
		r.stepLimit = true
		return true
	}
	if r.overQueueLimit(c.held) {
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

// syncRoundRecovered runs syncRound, recording a panic of the node's code
// (for the coordinator) instead of letting it end the process.
func (r *run) syncRoundRecovered(nd *node, round int64) {
	defer func() {
		if p := recover(); p != nil {
			nd.syn.panicked = &p
		}
	}()
	r.syncRound(nd, round)
}

// syncRound is node nd's part of one round: its wake-up, then the messages
// sent to it last round (by port, each link in the order sent), then its
// timers due now. Its sends stay in nd.out for the coordinator.
func (r *run) syncRound(nd *node, round int64) {
	sy := nd.syn
	if sy.wakeAt == round {
		sy.wakeAt = -1
		r.wake(nd, round)
	}
	batch := nd.inbox
	nd.inbox = sy.spare[:0]
	taken := r.ticks()
	for i := range batch {
		nd.latency.Add(latencyNanos(batch[i].sent, taken))
	}
	slices.SortStableFunc(batch, func(a, b envelope) int { return cmp.Compare(a.port, b.port) })
	for i := range batch {
		r.receive(nd, round, &batch[i])
	}
	sy.spare = batch[:0]
	// Timers due now, in the order set (those of 0 rounds set in this
	// round's handlers included); a timer cancelled by this round's
	// handlers does not fire.
	for k := 0; k < len(sy.timers); {
		t := sy.timers[k]
		if t.seq <= sy.cancelSeq {
			sy.timers = slices.Delete(sy.timers, k, k+1)
			continue
		}
		if t.due != round {
			k++
			continue
		}
		sy.timers = slices.Delete(sy.timers, k, k+1)
		nd.events++
		if nd.halted {
			continue
		}
		nd.syn.last = round
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

// timerEntry is a timer in the coordinator's heap.
type timerEntry struct {
	due  int64
	seq  uint64
	node int32
}

// timerHeap is a min-heap of timers by (due, node, seq), for
// container/heap (the timers of a synchronous run are few: no need for
// the simulator's specialised queues).
type timerHeap []timerEntry

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(a, b int) bool {
	x, y := h[a], h[b]
	return cmp.Or(cmp.Compare(x.due, y.due), cmp.Compare(x.node, y.node), cmp.Compare(x.seq, y.seq)) < 0
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
// were sent earlier), and makes the receivers run.
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
	}
	for _, i := range order {
		dst := r.nodes[i]
		dst.inbox = append(got[i], dst.inbox...)
		add(i)
	}
}
