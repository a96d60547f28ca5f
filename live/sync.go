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
	n := len(r.nodes)
	// Spontaneous wake-ups by round.
	wakes := map[int64][]int32{}
	if r.cfg.Wake == nil {
		for i := range n {
			wakes[0] = append(wakes[0], int32(i))
		}
	} else {
		for _, w := range r.cfg.Wake {
			wakes[w.At] = append(wakes[w.At], int32(w.Node))
		}
	}
	wakeRounds := make([]int64, 0, len(wakes))
	for at, list := range wakes {
		wakeRounds = append(wakeRounds, at)
		slices.Sort(list)
	}
	slices.Sort(wakeRounds)

	var (
		wg    sync.WaitGroup
		round int64 // the round the workers run
		stop  = make(chan struct{})
	)
	// One goroutine per node, started once; a signal runs one round.
	for _, nd := range r.nodes {
		go func() {
			for {
				select {
				case <-nd.syn.signal:
				case <-stop:
					return
				}
				r.syncRoundRecovered(nd, round)
				wg.Done()
			}
		}()
	}
	defer close(stop)

	var (
		due       []int32 // nodes with messages for the next round
		timers    timerHeap
		events    int64
		now       int64 // the last round run
		active    []int32
		mark      = make([]bool, n)
		maxRounds = r.cfg.MaxTime
		// Config.Progress is called every election.ProgressEvents events,
		nextProgress int64
		late         syncLateHeap // delayed messages (faults)
		lateSeq      uint64
	)
	if r.cfg.Faults != nil {
		r.crashAtStart()
	}
	for {
		// The next round with anything in it.
		next := int64(-1)
		if len(due) > 0 {
			next = now + 1
		}
		if len(wakeRounds) > 0 && (next < 0 || wakeRounds[0] < next) {
			next = wakeRounds[0]
		}
		if len(late) > 0 && (next < 0 || late[0].due < next) {
			next = late[0].due
		}
		for len(timers) > 0 {
			t := timers[0]
			nd := r.nodes[t.node]
			if !nd.pendingTimer(t.seq) {
				heap.Pop(&timers) // cancelled, or fired already
				continue
			}
			if next < 0 || t.due < next {
				next = t.due
			}
			break
		}
		if next < 0 {
			return
		}
		if maxRounds > 0 && next > maxRounds {
			r.stepLimit = true
			return
		}
		if r.cfg.DetectSymmetry && next > now && r.mon.SymmetryBetweenRounds(now, r.view()) {
			return
		}
		now = next
		// Who runs: receivers of last round's messages, this round's
		// initiators, and nodes with a timer due.
		active = active[:0]
		add := func(i int32) {
			if !mark[i] {
				mark[i] = true
				active = append(active, i)
			}
		}
		for _, i := range due {
			add(i)
		}
		due = due[:0]
		if len(late) > 0 && late[0].due == now {
			r.handOverSyncLate(&late, now, add)
		}
		if len(wakeRounds) > 0 && wakeRounds[0] == now {
			for _, i := range wakes[now] {
				r.nodes[i].syn.wakeAt = now
				add(i)
			}
			wakeRounds = wakeRounds[1:]
		}
		for len(timers) > 0 && timers[0].due == now {
			add(heap.Pop(&timers).(timerEntry).node)
		}
		slices.Sort(active)
		round = now
		wg.Add(len(active))
		for _, i := range active {
			r.nodes[i].syn.signal <- struct{}{}
		}
		wg.Wait()
		r.clock = now
		for _, i := range active {
			if p := r.nodes[i].syn.panicked; p != nil {
				// A node's code panicked: the round's other steps are
				// carried out, then the run ends with the violation, as in
				// the simulator.
				defer r.mon.Violate("panic", election.PanicMessage(i, *p))
			}
		}
		handed := r.ticks()
		for _, i := range active {
			mark[i] = false
			nd := r.nodes[i]
			sy := nd.syn
			for k := range sy.deferred {
				r.do(i, &sy.deferred[k])
			}
			clear(sy.deferred)
			sy.deferred = sy.deferred[:0]
			events += nd.events - sy.countedEvents
			sy.countedEvents = nd.events
			for _, t := range sy.newTimers {
				heap.Push(&timers, timerEntry{due: t.due, seq: t.seq, node: i})
			}
			sy.newTimers = sy.newTimers[:0]
			// Hand over the round's messages for the next round, here
			// rather than by the senders: no message can reach a node in
			// the round it was sent, and the order is the nodes'.
			for _, o := range nd.out {
				dst := r.nodes[o.to]
				if len(dst.inbox) == 0 {
					due = append(due, o.to)
				}
				dst.inbox = append(dst.inbox, o.envelope(handed))
			}
			nd.out = nd.out[:0]
			if nd.flt != nil {
				for _, l := range nd.flt.late {
					lateSeq++
					l.env.sent = handed
					heap.Push(&late, syncLate{due: now + 1 + l.by, seq: lateSeq, msg: l})
				}
				nd.flt.late = nd.flt.late[:0]
			}
		}
		for _, i := range active {
			if r.nodes[i].syn.panicked != nil {
				return
			}
		}
		if events >= r.maxEvents {
			r.stepLimit = true
			return
		}
		if r.cfg.Progress != nil && events >= nextProgress {
			nextProgress = events + election.ProgressEvents
			if !r.cfg.Progress(election.Progress{Events: events, Time: float64(now)}) {
				r.stopped = true
				return
			}
		}
	}
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
