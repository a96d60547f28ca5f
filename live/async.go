package live

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/internal/footprint"
)

// Flow control of the asynchronous runtime.
//
// Every node's inbox holds at most its window (window(degree)) messages
// handed over by senders; a sender that finds the receiver's inbox full
// keeps the rest of its output, in order, parks (takes no input of its own
// while parked), and registers with the receiver, which wakes it when it
// next takes its inbox. A node's output waiting in its own buffer is at most
// what one batch of its inputs produced, so what the runtime holds is
// bounded by the nodes' windows and batches, not by the messages a run
// sends (memoryBytes says how much).
//
// Parked nodes can wait on each other in a cycle, each with a full inbox
// that only the next could empty. Deadlock freedom: the run counts the
// nodes that can make progress (busy: running, or signalled to run) in one
// atomic counter. A node counts itself out only when it goes idle (its
// inbox empty) or parks; it is counted in, before it is signalled, by the
// running node that made it ready (a sender that filled its empty inbox, a
// receiver that took its inbox and woke it from parking). So busy is zero
// only when no node is running or about to run. At that moment, if inputs
// remain (pending > 0), each of them sits in a parked node's inbox or
// output, every idle node has an empty inbox, and every parked node waits
// on a receiver whose inbox is full, which is then parked too: the parked
// nodes wait on each other, and nothing else can ever wake them. The node
// that brought busy to zero then breaks the cycle (breakDeadlock): it
// grants one parked node overflow, the right to hand over its whole output
// past the receiver's window, and makes it ready. That node then takes its
// own inbox, which wakes the nodes parked on it, and handles at least one
// input; every break therefore moves the run on by an event, so the event
// limit bounds how many there can be. A break creates no message: it moves
// a batch from a sender's output to an inbox, so what inboxes hold beyond
// their windows is what the algorithm itself keeps in flight around a cycle
// (pump's tokens in flow_test.go), as the simulator holds it too, never the
// messages a run sends over its course. A run whose nodes never form such a
// cycle (LCR and every algorithm on a line, or with a sink) never
// overflows.

// The states of a node in an asynchronous run (node.state, under node.mu).
const (
	stateIdle   = iota // nothing to do: its inbox is empty and its output handed over
	stateReady         // running, or signalled to run
	stateParked        // waiting for room in a receiver's inbox
)

// window is the capacity of the inbox of a node of the given degree
// (footprint.Window, where the memory guard reads it too).
func window(degree int) int { return footprint.Window(degree) }

// Window is the most messages the inbox of a node of the given degree
// holds in an asynchronous run, but for a break of a cycle of waiting nodes
// (see async.go): senders wait for room beyond it.
func Window(degree int) int { return window(degree) }

// asyncRun is the state the goroutines of an asynchronous run share.
type asyncRun struct {
	*run
	pending atomic.Int64 // inputs that exist and are not fully handled
	busy    atomic.Int64 // nodes running or signalled to run (see above)
	events  atomic.Int64 // events reported by the nodes
	chunk   int64        // how many events a node handles between reports
	done    chan struct{}
	stopped atomic.Bool // the run is over: goroutines return when they wake
	endOnce sync.Once

	// queue holds the nodes made ready that no worker keeps as its next
	// (see readyQueue); the workers take them from it.
	queue readyQueue

	workers []*worker

	// The free buffers the workers share (see worker).
	inboxPool sharedList[envelope]
	outPool   sharedList[outgoing]

	breakMu    sync.Mutex
	lastParked atomic.Int32
	overflows  atomic.Int64 // deadlocks broken (reported in tests)
	timeLimit  atomic.Bool  // Config.Progress stopped the run

	// Faults: the late messages their senders hold (faults.go), and the
	// nodes that hold some (or did, until the next releaseQuiescent).
	heldCount atomic.Int64
	heldMu    sync.Mutex
	heldNodes []*node
}

// runAsync runs every node on its own goroutine until no input is left.
func (r *run) runAsync() {
	a := &asyncRun{run: r, done: make(chan struct{})}
	r.async = a
	r.applyMu = r.trace == nil // a traced batch holds the mutex throughout
	var initiators []*node
	if r.cfg.Wake == nil {
		initiators = r.nodes
	} else {
		for _, w := range r.cfg.Wake {
			initiators = append(initiators, r.nodes[w.Node])
		}
	}
	a.chunk = min(max(a.maxEvents/int64(4*len(r.nodes)), 1), 1024)

	if r.cfg.Faults != nil {
		r.crashAtStart()
	}
	a.pending.Store(int64(len(initiators)))
	a.busy.Store(int64(len(initiators)))
	for _, nd := range initiators {
		nd.wakeUp = true
		nd.state = stateReady
	}
	if len(initiators) == 0 {
		return
	}
	a.queue.init(len(r.nodes))
	for _, nd := range initiators {
		a.queue.put(nd)
	}
	var wg sync.WaitGroup
	for range workers(len(r.nodes)) {
		w := &worker{}
		w.rec = elect.NewRecorder(func() *rand.Rand { return r.random(w.node) })
		a.workers = append(a.workers, w)
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.serve(w)
		}()
	}
	var tick, guard <-chan time.Time
	if r.cfg.Progress != nil {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	if r.cfg.MaxQueueBytes > 0 {
		// The memory guard reads the bytes of the buffers grown beyond
		// the nodes' first ones (run.held) a hundred times a second,
		// which costs the workers nothing.
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		guard = t.C
	}
wait:
	for {
		select {
		case <-a.done:
			break wait
		case <-guard:
			if r.held.Load() > r.cfg.MaxQueueBytes {
				a.stopAtMemoryLimit()
			}
		case <-tick:
			ev := a.events.Load()
			if !r.cfg.Progress(election.Progress{Events: ev}) {
				a.timeLimit.Store(true)
				a.end()
			}
		}
	}
	// Stop the workers: each finds the flag, or the closed done, when it
	// next looks.
	a.stopped.Store(true)
	wg.Wait()
	r.stopped = a.timeLimit.Load()
}

// workers is the number of goroutines that run the nodes of an
// asynchronous run: one per processor the Go scheduler runs goroutines on,
// and no more than there are nodes.
func workers(n int) int { return max(1, min(runtime.GOMAXPROCS(0), n)) }

// signal hands nd, just made ready by the node that worker w runs, to the
// workers: it becomes w's next node (no lock: the worker runs it as soon as
// its node is done, as the Go scheduler runs a goroutine just made
// runnable), and the node w had kept as its next, if any, goes to the
// shared queue, where an idle worker can take it. With w nil (a late
// message's timer, a woken sender: see unpark) nd goes to the queue.
func (a *asyncRun) signal(w *worker, nd *node) {
	if w != nil {
		nd, w.next = w.next, nd
		if nd == nil {
			return
		}
	}
	a.queue.put(nd)
}

// end stops the run (once).
func (a *asyncRun) end() {
	a.endOnce.Do(func() {
		close(a.done)
		a.queue.close()
	})
}

// worker is one of the goroutines that run an asynchronous run's nodes,
// with the recorder it lends the node it works, the latencies of the
// deliveries it made, and the buffers no node holds: inboxes (see
// inboxFor) and outputs. It lends the node it works an output buffer; a
// node that parks keeps it with what it could not hand over, until it has
// handed it all. A node holds an inbox buffer only while its inbox is not
// empty: the worker that takes the inbox keeps the buffer, and a sender's
// worker gives one to an empty inbox it fills. So a run holds an inbox
// buffer per node with inputs waiting (on LCR with decreasing IDs, n =
// 1000: at most about 150 at once, not 1000), an output buffer per node
// working or parked, and a few free ones per worker.
type worker struct {
	// next is the node made ready last by the node it works, which it
	// works next (see signal).
	next    *node
	node    *node // the node it works
	rec     *elect.Recorder
	latency election.Latency
	inboxes freeList[envelope]
	outs    freeList[outgoing]
}

// freeList is a worker's free buffers of one kind: up to maxFree, trading
// half of them with the run's shared list when it has too many or none, so
// that buffers taken by one worker and given out by another do not pile up
// on one side.
type freeList[T any] struct{ bufs [][]T }

// sharedList is the free buffers of one kind that a run's workers share.
type sharedList[T any] struct {
	mu   sync.Mutex
	bufs [][]T
}

// maxFree is the most free buffers of one kind a worker keeps.
const maxFree = 16

// pop returns the buffer freed last if it has room for need (nil if not,
// or if there is none), emptied.
func (f *freeList[T]) pop(s *sharedList[T], need int) []T {
	if len(f.bufs) == 0 {
		s.mu.Lock()
		k := max(len(s.bufs)-maxFree/2, 0)
		f.bufs = append(f.bufs, s.bufs[k:]...)
		clear(s.bufs[k:])
		s.bufs = s.bufs[:k]
		s.mu.Unlock()
	}
	k := len(f.bufs) - 1
	if k < 0 || cap(f.bufs[k]) < need {
		return nil
	}
	b := f.bufs[k]
	f.bufs[k] = nil
	f.bufs = f.bufs[:k]
	return b[:0]
}

// push frees b, which no node holds any more. Envelopes and outgoing
// messages hold no pointers: it is reused without clearing.
func (f *freeList[T]) push(s *sharedList[T], b []T) {
	if len(f.bufs) == maxFree {
		s.mu.Lock()
		s.bufs = append(s.bufs, f.bufs[maxFree/2:]...)
		s.mu.Unlock()
		clear(f.bufs[maxFree/2:])
		f.bufs = f.bufs[:maxFree/2]
	}
	f.bufs = append(f.bufs, b)
}

// firstInbox is the capacity of an inbox buffer made for at most that many
// messages: most inboxes of most runs never hold more (on LCR with random
// IDs, n = 1000, three quarters of them).
const firstInbox = footprint.FirstInbox

// inboxFor returns an empty inbox buffer for at least need messages, for a
// node whose window is window: the free one freed last if it has room,
// else a new one, of firstInbox slots if that is enough, else of the
// window at once (or of what an overflow needs), not grown by doubling up
// to it.
func (a *asyncRun) inboxFor(w *worker, need, window int) []envelope {
	if b := w.inboxes.pop(&a.inboxPool, need); b != nil {
		return b
	}
	size := max(window, need)
	if need <= firstInbox {
		size = min(firstInbox, window)
	}
	a.held.Add(int64(size) * envelopeBytes)
	return make([]envelope, 0, size)
}

// freeInbox frees the inbox buffer b. A buffer smaller than a first inbox
// (made for a late message, faults.go) is left to the garbage collector.
func (a *asyncRun) freeInbox(w *worker, b []envelope) {
	if cap(b) >= firstInbox {
		w.inboxes.push(&a.inboxPool, b)
	} else {
		a.held.Add(-int64(cap(b)) * envelopeBytes)
	}
}

// serve is one worker: it works its next node, or else one from the
// shared queue, until the node goes idle or parks, and so on until the run
// is over. After maxChain nodes in a row that were its own next, it takes
// the shared queue's oldest instead (queueing its next), so that a pair of
// nodes that keep making each other ready cannot hold a worker while
// others wait.
func (a *asyncRun) serve(w *worker) {
	chain := 0
	for !a.stopped.Load() {
		nd := w.next
		w.next = nil
		switch {
		case nd == nil:
			chain = 0
			if nd = a.queue.take(); nd == nil {
				return // the run is over
			}
		case chain == maxChain:
			chain = 0
			nd = a.queue.swap(nd)
		default:
			chain++
		}
		w.node = nd
		nd.rec, nd.latency = w.rec, &w.latency
		if len(nd.out) == 0 {
			nd.out = w.outs.pop(&a.outPool, 0)
		}
		a.work(nd, w)
	}
}

// maxChain is the most nodes in a row a worker takes from its own next
// before it takes one from the shared queue.
const maxChain = 64

// work hands over what nd has left to send and handles its inbox, batch
// after batch, until it goes idle or parks. The worker w lends nd its
// output buffer and takes nd's inbox buffer once it has handled it (see
// worker).
func (a *asyncRun) work(nd *node, w *worker) {
	for !a.stopped.Load() {
		if int(nd.next) < len(nd.out) && !a.deliver(nd, w) {
			return // parked, keeping its output: the receiver, or a deadlock break, wakes it
		}
		nd.mu.Lock()
		batch, wake := nd.inbox, nd.wakeUp
		if len(batch) == 0 && !wake {
			// Its output is all handed over: the worker takes the
			// buffer back before anyone else can work nd.
			if cap(nd.out) > 0 {
				w.outs.push(&a.outPool, nd.out[:0])
			}
			nd.out = nil
			nd.state = stateIdle
			nd.mu.Unlock()
			a.countOut(w)
			return
		}
		nd.inbox = nil
		nd.wakeUp = false
		first, wl := nd.waiter, nd.wait // wl: set once, by a sender
		nd.waiter = nil
		var waiters []*node
		if wl != nil && len(wl.waiters) > 0 {
			waiters = wl.waiters
			wl.waiters = wl.spare[:0]
		}
		nd.mu.Unlock()
		// Room was made: the senders parked on nd may go on.
		if first != nil {
			a.unpark(first)
		}
		for _, p := range waiters {
			a.unpark(p)
		}
		if waiters != nil {
			clear(waiters)
			wl.spare = waiters[:0]
		}
		a.measureLatency(nd, batch)
		ok := a.handle(nd, wake, batch)
		if cap(batch) > 0 {
			a.freeInbox(w, batch)
		}
		if !ok {
			return
		}
	}
}

// countOut takes one node out of busy; at zero, with inputs left, the
// parked nodes wait on each other and one of them is given overflow.
func (a *asyncRun) countOut(w *worker) {
	if a.busy.Add(-1) == 0 && a.pending.Load() > 0 && !a.stopped.Load() {
		if a.pending.Load() == a.heldCount.Load() {
			// Every input left is a late message its sender holds
			// (faults.go): no node is parked, none can run.
			a.releaseQuiescent()
			return
		}
		a.breakDeadlock(w)
	}
}

// unpark makes p, parked on a node that has just taken its inbox, ready.
// It goes to the shared queue, not to the next node of the worker that
// runs the receiver: that worker follows the receiver's output downstream,
// another takes the sender (on LCR with decreasing IDs, n = 1000, as fast
// and with 7% fewer bytes allocated, the buffers of fewer nodes at once).
func (a *asyncRun) unpark(p *node) {
	p.mu.Lock()
	if p.state != stateParked {
		// p has registered but not yet parked: it finds the flag and
		// tries again instead of parking.
		p.wokenEarly = true
		p.mu.Unlock()
		return
	}
	p.state = stateReady
	p.mu.Unlock()
	a.busy.Add(1)
	a.signal(nil, p)
}

// breakDeadlock gives one parked node overflow (see the comment at the top
// of this file): it finds one that is still parked, takes it off its
// receiver's list of waiters and makes it ready, the next node of the
// worker w.
func (a *asyncRun) breakDeadlock(w *worker) {
	a.breakMu.Lock()
	defer a.breakMu.Unlock()
	try := func(p *node) bool {
		p.mu.Lock()
		if p.state != stateParked {
			p.mu.Unlock()
			return false
		}
		dst := p.blockedOn
		p.state = stateReady
		p.overflow = true
		p.mu.Unlock()
		dst.mu.Lock()
		if dst.waiter == p {
			dst.waiter = nil
		} else {
			for k, x := range dst.wait.waiters {
				if x == p {
					dst.wait.waiters = append(dst.wait.waiters[:k], dst.wait.waiters[k+1:]...)
					break
				}
			}
		}
		dst.mu.Unlock()
		a.overflows.Add(1)
		a.busy.Add(1)
		a.signal(w, p)
		return true
	}
	if try(a.nodes[a.lastParked.Load()]) {
		return
	}
	for _, p := range a.nodes {
		if try(p) {
			return
		}
	}
}

// deliver hands nd's output from nd.next on to the receivers, in order,
// and reports whether all of it went; if not, nd is parked on the receiver
// whose inbox is full. Its worker w gives an empty inbox that it fills a
// buffer.
func (a *asyncRun) deliver(nd *node, w *worker) bool {
	out := nd.out
	now := a.ticks()
	for k := int(nd.next); k < len(out); {
		to := out[k].to
		dst := a.nodes[to]
		dst.mu.Lock()
		held := dst.held()
		room := int(dst.capacity) - held
		if nd.overflow {
			room = len(out)
		}
		wasIdle := dst.state == stateIdle
		start, end := k, k
		for end < len(out) && out[end].to == to && end-start < room {
			end++
		}
		held0 := len(dst.inbox)
		if need := held0 + end - start; need > cap(dst.inbox) {
			if cap(dst.inbox) < int(dst.capacity) {
				// A buffer for an empty inbox, or the window at once
				// (or what an overflow needs) for a growing one, not by
				// doubling up to it.
				old := dst.inbox
				dst.inbox = append(a.inboxFor(w, need, int(dst.capacity)), old...)
				if cap(old) > 0 {
					a.freeInbox(w, old)
				}
			} else {
				// An overflow past a full window.
				c := cap(dst.inbox)
				dst.inbox = slices.Grow(dst.inbox, end-start)
				a.held.Add(int64(cap(dst.inbox)-c) * envelopeBytes)
			}
		}
		// Field by field, not through a temporary envelope (see run.call).
		dst.inbox = dst.inbox[:held0+end-start]
		for j := held0; k < end; k, j = k+1, j+1 {
			o, e := &out[k], &dst.inbox[j]
			e.port, e.sent, e.msg, e.depth = o.port, now, o.msg, o.depth
		}
		if k > start && wasIdle {
			dst.state = stateReady
		}
		dst.peakInbox = max(dst.peakInbox, int32(held+k-start))
		full := k < len(out) && out[k].to == to
		if full {
			switch {
			case dst.waiter == nil:
				dst.waiter = nd
			case dst.wait == nil:
				dst.wait = &waitList{}
				fallthrough
			default:
				dst.wait.waiters = append(dst.wait.waiters, nd)
			}
		}
		dst.mu.Unlock()
		if k > start && wasIdle {
			a.busy.Add(1)
			a.signal(w, dst)
		}
		if full {
			nd.next = int32(k)
			a.shrinkOut(nd, w)
			return a.park(nd, dst, w)
		}
	}
	nd.overflow = false
	nd.next = 0
	if unsafe.SliceData(out) == &nd.last1[0] {
		// The message nd had left when it parked (shrinkOut) is handed
		// over: a full buffer takes the place of its slot.
		nd.out = w.outs.pop(&a.outPool, 0)
		return true
	}
	// Outgoing messages hold no pointers: the buffer is reused without
	// clearing.
	nd.out = out[:0]
	return true
}

// shrinkOut moves what nd, about to park, has left to send into its own
// one-message slot (node.last1) when it is one message, and frees its
// output buffer: a node that waits for room (parked, then among the ready
// nodes queued for a worker) would hold one. On LCR with decreasing IDs,
// n = 1000, hundreds of nodes wait at once, and nearly every node parks
// with one message left of a window's.
func (a *asyncRun) shrinkOut(nd *node, w *worker) {
	if len(nd.out)-int(nd.next) != 1 || unsafe.SliceData(nd.out) == &nd.last1[0] {
		return
	}
	nd.last1[0] = nd.out[nd.next]
	w.outs.push(&a.outPool, nd.out[:0])
	nd.out, nd.next = nd.last1[:], 0
}

// held is the number of inputs in nd's inbox, its wake-up included
// (under nd.mu).
func (nd *node) held() int {
	if nd.wakeUp {
		return len(nd.inbox) + 1
	}
	return len(nd.inbox)
}

// park parks nd, registered with dst's waiters, unless dst woke it
// already; it reports whether nd may go on (it was woken early).
func (a *asyncRun) park(nd *node, dst *node, w *worker) bool {
	nd.mu.Lock()
	if nd.wokenEarly {
		nd.wokenEarly = false
		nd.mu.Unlock()
		return a.deliver(nd, w)
	}
	nd.state = stateParked
	nd.blockedOn = dst
	nd.mu.Unlock()
	a.lastParked.Store(nd.index)
	a.countOut(w)
	return false
}

// measureLatency adds the delivery latency of each message of batch (from
// the moment its sender handed it over to now) to nd's histogram.
func (a *asyncRun) measureLatency(nd *node, batch []envelope) {
	now := a.ticks()
	for i := range batch {
		nd.latency.Add(latencyNanos(batch[i].sent, now))
	}
}

// handle runs nd's handlers for a batch of inputs (its spontaneous wake-up
// if wake, then the messages of batch) and counts what they sent; it
// reports false when the run is over. With a trace, the whole
// batch holds the run's mutex so that its lines stand together, before any
// of its messages can be received.
func (a *asyncRun) handle(nd *node, wake bool, batch []envelope) (goOn bool) {
	traced := a.trace != nil
	if traced {
		a.mu.Lock()
		a.clock = nd.depth
	}
	held := traced
	defer func() {
		// A node's code that panics (driven off its model by a fault, say)
		// ends the run with the violation "panic", as in the simulator,
		// instead of the process.
		if p := recover(); p != nil {
			if !held {
				a.mu.Lock()
			}
			a.mon.Violate(election.PropPanic, election.PanicMessage(nd.index, p), nd.index)
			a.mu.Unlock()
			a.end()
			goOn = false
		}
	}()
	var depth int64
	maxTime := a.cfg.MaxTime
	inputs := len(batch)
	if wake {
		a.wake(nd, 0)
		inputs++
	}
	for i := range batch {
		ev := &batch[i]
		if maxTime > 0 && ev.depth > maxTime {
			// The next event is later than --max-time: the run stops
			// there, as the simulator's does.
			if traced {
				held = false
				a.mu.Unlock()
			}
			a.stopAtLimit()
			return false
		}
		depth = max(depth, ev.depth)
		a.receive(nd, 0, ev)
	}
	if traced {
		held = false
		a.mu.Unlock()
	}
	nd.maxDepth = max(nd.maxDepth, depth)
	// The event limit is checked on a shared count that each node updates
	// once per chunk of its own events, so that the count is not contended;
	// the chunk is small enough (a quarter of the limit over all nodes) that
	// a run stops soon after the limit.
	nd.unreported += int64(inputs)
	if nd.unreported >= a.chunk {
		over := a.events.Add(nd.unreported) > a.maxEvents
		nd.unreported = 0
		if over {
			a.stopAtLimit()
			return false
		}
	}
	// Count the messages before anyone can receive them, and discount the
	// batch only now that its handlers have returned (see the package doc).
	// Late messages held (faults.go) count from when they are held; those
	// released into the output were counted then.
	sent := len(nd.out)
	if f := nd.flt; f != nil {
		if len(f.held) > 0 {
			a.releaseDue(nd)
		}
		sent = len(nd.out) + f.newHeld - f.released
		f.newHeld, f.released = 0, 0
	}
	// A batch that sends as many messages as it had inputs (every node
	// on a forwarding path) leaves the count as it is, and cannot bring
	// it to zero (its inputs are still in it): it is not touched, so that
	// the workers do not contend for it.
	if d := int64(sent - inputs); d != 0 && a.pending.Add(d) == 0 {
		a.end()
		return false
	}
	return true
}

// stopAtMemoryLimit ends the run with outcome memory-limit.
func (a *asyncRun) stopAtMemoryLimit() {
	a.mu.Lock()
	a.memoryLimit = true
	a.mu.Unlock()
	a.end()
}

// stopAtLimit ends the run with outcome step-limit.
func (a *asyncRun) stopAtLimit() {
	a.mu.Lock()
	a.stepLimit = true
	a.mu.Unlock()
	a.end()
}

// envelopeBytes and outgoingBytes are the sizes of a message in an inbox
// and in a node's output (footprint's, which live's tests hold to its
// types).
const (
	envelopeBytes = footprint.EnvelopeBytes
	outgoingBytes = footprint.OutgoingBytes
)

// pendingBytes is what a synchronous run holds for one message it hands
// to the next rounds: an envelope in an inbox, whose array grows by
// doubling, and the output it was in.
const pendingBytes = 4 * envelopeBytes

// lateBytes is what a late message of an asynchronous run holds while its
// sender holds it: its heldMsg, in a list that grows by doubling.
const lateBytes = 2 * 64

// overQueueLimit reports whether held messages of a synchronous run, at
// the end of a round, pass Config.MaxQueueBytes (pendingBytes each), and
// then marks the run stopped by it.
func (r *run) overQueueLimit(held int64) bool {
	if limit := r.cfg.MaxQueueBytes; limit > 0 && held > limit/pendingBytes {
		r.memoryLimit = true
		return true
	}
	return false
}
