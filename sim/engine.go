package sim

import (
	"math"
	"math/rand/v2"
	"sync"
	"unsafe"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/topology"
)

// engine is the state of one run of the fast simulator. It is the Env of
// every node (env.go): current is the node whose input is being handled.
type engine struct {
	cfg   *election.Config
	alg   *elect.Algorithm
	g     *topology.Graph
	n     int
	ids   []elect.ID
	mon   *election.Monitor
	nodes nodeStore // where the nodes and their statuses live (nodes.go)

	uniRing bool
	// fastTypes is the number of message types on a ring under unit or
	// random delays without trace or faults, where send's fast path
	// handles the declared types; 0 elsewhere (every send takes sendSlow).
	fastTypes int
	ringN     int32 // n on rings (neighbours computed inline), else 0
	delivery  election.Delivery

	now        int64
	unit       int64 // ticks per round or time unit
	buf        *buffers
	wheel      *wheel     // random delays
	due, soon  []delivery // unit delays: arriving now, and at now+1
	stack      []delivery // newest-first
	stackDepth []int64    // causal depth of each stacked delivery
	timers     timedHeap
	seq        uint64
	delayRng   *rand.PCG // delays are its outputs mod 1024, as election.Stream's Uint64N(1024) would give
	linkLast   []int64   // random-fifo: latest arrival per port
	linkLastM  map[int64]int64
	// maxEvents is where the event count next needs attention: the event
	// limit (eventLimit), or sooner the next call of Config.Progress.
	maxEvents  int64
	eventLimit int64
	maxTicks   int64

	wakeNext int // next node to wake when all wake at time 0 (n: done)
	current  int32
	// batchLen and batchAt: while instant counts an instant's batchLen
	// deliveries at once, the one being delivered (so that a node's panic
	// takes back the count of those not reached).
	batchLen, batchAt int
	depth             []int64 // newest-first: causal depth reached by each node
	maxDepth          int64
	lastAt            int64

	typeCounts []int64
	events     int64
	stepLimit  bool
	stopped    bool // election.Config.Progress stopped the run
	rngs       []*rand.Rand
	// cancelSeq[i]: node i's timers created at or before this sequence
	// number are cancelled (nil until a node cancels).
	cancelSeq []uint64
	trace     *election.Tracer
	// plain: no trace and no faults, so that instant may call an awake
	// receiver inline.
	plain bool
	// flt is the run's faults (faults.go); nil without Config.Faults, and
	// then none of the paths that read it is taken.
	flt *faultRun
	// guard holds the queues to Config.MaxQueueBytes (guard.go).
	guard queueGuard
}

func newEngine(cfg *election.Config) (*engine, error) {
	if err := cfg.CheckConfig(cfg.Delivery.Unit()); err != nil {
		return nil, err
	}
	alg, g := cfg.Algorithm, cfg.Graph
	n := g.N
	buf, _ := runBuffers.Get().(*buffers)
	if buf == nil {
		buf = new(buffers)
	}
	e := &engine{
		buf: buf, cfg: cfg, alg: alg, g: g, n: n, ids: cfg.IDs,
		uniRing:    alg.Model.Topology == elect.UniRing,
		delivery:   cfg.Delivery,
		typeCounts: make([]int64, len(alg.Messages)),
		maxEvents:  cfg.MaxEvents,
		maxTicks:   math.MaxInt64,
		unit:       cfg.Delivery.Unit(),
	}
	if e.maxEvents <= 0 {
		e.maxEvents = election.DefaultMaxEvents
	}
	e.eventLimit = e.maxEvents
	e.guard = queueGuard{limit: max(cfg.MaxQueueBytes, 0), maxEvents: &e.maxEvents}
	if e.guard.limit > 0 && buf.bytes() > e.guard.limit/2 {
		// The arrays of a larger run before this one: not held against
		// this run's limit, but let go.
		buf.due, buf.soon, buf.wheel = nil, nil, nil
	}
	if cfg.Progress != nil {
		e.maxEvents = min(e.eventLimit, election.ProgressEvents)
	}
	if cfg.Trace != nil {
		e.trace = election.NewTracer(cfg.Trace, cfg, e.traceClock)
		if cfg.Delivery != election.NewestFirst {
			e.trace.SetUnit(e.unit) // traceClock gives ticks
		}
	}
	e.mon = election.NewMonitor(cfg, e.trace, grow(buf.decisions, n), grow(buf.knows, n))
	if cfg.Faults != nil {
		if err := e.newFaults(); err != nil {
			runBuffers.Put(buf)
			return nil, err
		}
	}
	e.plain = e.trace == nil && e.flt == nil
	if g.Kind == topology.Ring {
		e.ringN = int32(n)
		// A traced run's sends all take sendSlow, which writes them, as
		// does a run with faults.
		if (cfg.Delivery == election.Sync || cfg.Delivery == election.FIFO || cfg.Delivery == election.Random) && e.plain {
			e.fastTypes = len(e.typeCounts)
		}
	}
	switch cfg.Delivery {
	case election.Sync, election.FIFO:
		e.due, e.soon = buf.due[:0], buf.soon[:0]
		if e.due == nil {
			// Room for every node's first send (the first instant of
			// most ring algorithms): growing to it would copy the list
			// twice; pages never written cost no memory. Large lists
			// ask for huge pages (hugepages_linux.go), which then come
			// 2 MiB at a time as the list fills.
			size := min(n, 1<<22)
			if e.guard.limit > 0 {
				size = min(size, int(e.guard.limit/2/int64(unsafe.Sizeof(delivery{}))))
			}
			e.due = make([]delivery, 0, size)
			e.soon = make([]delivery, 0, size)
			adviseSliceHugePages(e.due[:size])
			adviseSliceHugePages(e.soon[:size])
		}
		e.guard.held = arrayBytes(e.due) + arrayBytes(e.soon)
	case election.Random, election.RandomFIFO:
		e.wheel = buf.wheel // empty, its buckets' arrays kept
		if e.wheel == nil {
			e.wheel = newWheel(randomDelayTicks)
		}
		e.wheel.guard = &e.guard
		e.guard.held = e.wheel.bytes()
		e.delayRng = election.StreamSource(cfg.Seed, "delivery", 0)
		if cfg.Delivery == election.RandomFIFO {
			if p := g.Ports(); p <= 1<<24 {
				e.linkLast = make([]int64, p)
			} else {
				e.linkLastM = make(map[int64]int64)
			}
		}
	case election.NewestFirst:
		e.depth = make([]int64, n)
	}
	if cfg.MaxTime > 0 && cfg.MaxTime < math.MaxInt64/e.unit {
		e.maxTicks = cfg.MaxTime * e.unit
	}
	e.nodes.build(cfg, buf)
	if cfg.Wake == nil {
		e.wakeNext = 0 // every node wakes at time 0, in index order, before any other event
	} else {
		e.wakeNext = n
		for _, w := range cfg.Wake {
			e.pushTimed(w.At*e.unit, kindWake, int32(w.Node), 0)
		}
	}
	return e, nil
}

// traceClock is the time a trace line is stamped with.
func (e *engine) traceClock() int64 {
	if e.delivery == election.NewestFirst {
		return e.maxDepth
	}
	return e.now
}

// buffers are the per-node and per-message arrays of a run, kept from one
// run to the next (runBuffers) so that a sweep of many runs does not
// allocate, clear and collect them every time. A run takes them zeroed and
// clears them when it is done, so nothing of one run reaches another and no
// node is kept alive.
type buffers struct {
	nodes     []elect.Node
	status    []status
	decisions []elect.Decision
	knows     []elect.ID
	due, soon []delivery
	wheel     *wheel
}

// bytes is the memory of the arrays of messages b keeps.
func (b *buffers) bytes() int64 {
	n := arrayBytes(b.due) + arrayBytes(b.soon)
	if b.wheel != nil {
		n += b.wheel.bytes()
	}
	return n
}

var runBuffers sync.Pool // of *buffers

// grow returns s resized to n zero elements, reusing its array if it is
// large enough (s is all zero).
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// releaseBuffers clears the run's buffers and hands them to the next run.
func (e *engine) releaseBuffers() {
	b := e.buf
	e.nodes.release(b)
	decisions, knows := e.mon.Arrays()
	clear(decisions)
	clear(knows)
	b.decisions, b.knows = decisions, knows
	if e.due != nil {
		b.due, b.soon = e.due[:0], e.soon[:0]
	}
	if e.wheel != nil {
		e.wheel.clear()
		e.wheel.guard = nil
		b.wheel = e.wheel
	}
	e.buf, e.due, e.soon, e.wheel = nil, nil, nil, nil
	runBuffers.Put(b)
}

func (e *engine) pushTimed(at int64, kind uint64, node int32, tag int64) {
	e.seq++
	e.timers.push(timed{at: at, ord: kind<<56 | e.seq, node: node, tag: tag})
}

// loop processes events in order until none is left or a limit is reached.
func (e *engine) loop() {
	if e.flt != nil && e.wakeNext < e.n {
		e.crashUntil(0)
	}
	for e.wakeNext < e.n {
		if !e.countEvent() {
			return
		}
		i := e.wakeNext
		e.wakeNext++
		e.fire(timed{ord: kindWake << 56, node: int32(i)})
	}
	switch e.delivery {
	case election.Sync, election.FIFO:
		e.unitLoop()
	case election.Random, election.RandomFIFO:
		e.wheelLoop()
	default:
		e.stackLoop()
	}
}

// unitLoop is loop under unit delays (sync and fifo). Every message sent at
// time t arrives at t+1, so the pending deliveries are one list in sending
// order, taken over whole at each instant.
func (e *engine) unitLoop() {
	for {
		e.dropCancelledTimers()
		var next int64
		switch {
		case len(e.soon) > 0 && len(e.timers) > 0:
			next = min(e.now+1, e.timers[0].at)
		case len(e.soon) > 0:
			next = e.now + 1
		case len(e.timers) > 0:
			next = e.timers[0].at
		default:
			if e.flt == nil || len(e.flt.late) == 0 {
				return
			}
			next = e.flt.late[0].at
		}
		if e.flt != nil && len(e.flt.late) > 0 && e.flt.late[0].at <= next {
			if !e.lateInstant(e.flt.late[0].at, nil) {
				return
			}
			continue
		}
		// Only the first instant can be now itself (explicit wake-ups at 0),
		// and then nothing is in flight.
		if next == e.now+1 {
			e.due, e.soon = e.soon, e.due[:0]
		} else {
			e.due = e.due[:0]
		}
		if !e.instant(next, e.due) {
			return
		}
	}
}

// wheelLoop is loop under random delays: the wheel's bucket for one tick
// holds every delivery due then, in sending order, and no message sent
// while they are handled can be due at the same tick (delays are at least
// one tick), so a bucket is handled whole, like an instant of unitLoop.
func (e *engine) wheelLoop() {
	for {
		e.dropCancelledTimers()
		var bk *bucket
		var at int64
		if e.wheel.count > 0 {
			bk, at = e.wheel.next(e.now)
			if len(bk.items) == 1 && e.loneDelivery(bk, at) {
				continue
			}
		}
		var next int64
		switch {
		case bk != nil && len(e.timers) > 0:
			next = min(at, e.timers[0].at)
		case bk != nil:
			next = at
		case len(e.timers) > 0:
			next = e.timers[0].at
		default:
			if e.flt == nil || len(e.flt.late) == 0 {
				return
			}
			next = e.flt.late[0].at
		}
		if e.flt != nil && len(e.flt.late) > 0 && e.flt.late[0].at <= next {
			next = e.flt.late[0].at
			var items []delivery
			if bk != nil && at == next {
				items = bk.items
			}
			ok := e.lateInstant(next, items)
			if items != nil {
				e.wheel.empty(bk, at)
			}
			if !ok {
				return
			}
			continue
		}
		var due []delivery
		if bk != nil && at == next {
			due = bk.items
			if e.nodes.touchAhead > 0 {
				e.touchWheel(at)
			}
		}
		ok := e.instant(next, due)
		if due != nil {
			e.wheel.empty(bk, at)
		}
		if !ok {
			return
		}
	}
}

// loneDelivery runs the instant at, when its only event is the one
// delivery in bucket bk, as instant would, without its work for the
// general case; it reports false, having done nothing, when the instant
// may hold more (a timer, a wake-up, a fault), must be watched (a trace,
// the symmetry check), may end the run (a time, event or memory limit) or
// needs deliver (the receiver not awake). Under random delays most
// instants of a long run are like this: in LCR at n = 10^6, 5.7 million of
// its 6.7 million instants carry one delivery each.
func (e *engine) loneDelivery(bk *bucket, at int64) bool {
	d := &bk.items[0]
	if !e.plain || (len(e.timers) > 0 && e.timers[0].at <= at) || e.cfg.DetectSymmetry ||
		at > e.maxTicks || e.events >= e.maxEvents || !e.nodes.st(d.to).awake() {
		return false
	}
	e.now, e.lastAt, e.current = at, at, d.to
	e.events++
	// The bucket is not written while its delivery is handled: every
	// message sent meanwhile is due one to randomDelayTicks ticks later,
	// in another bucket.
	e.nodes.node(d.to).Receive(e, d.port, d.msg)
	e.wheel.empty(bk, at)
	return true
}

// instant runs everything due at time next, in the total order (time, kind,
// creation): the wake-ups due then, the deliveries due (in sending order),
// then the timers. It reports false when the run must stop.
func (e *engine) instant(next int64, due []delivery) bool {
	if next > e.maxTicks {
		e.stepLimit = true
		return false
	}
	if e.cfg.DetectSymmetry && next > e.now && e.mon.SymmetryBetweenRounds(e.now/e.unit, e.view()) {
		return false
	}
	e.now = next
	if e.flt != nil {
		e.crashUntil(next)
	}
	for len(e.timers) > 0 && e.timers[0].at == next && e.timers[0].ord>>56 == kindWake {
		if !e.countEvent() {
			return false
		}
		e.fire(e.timers.pop())
	}
	if e.events+int64(len(due)) <= e.maxEvents {
		// The event limit cannot be reached in this instant: count its
		// deliveries at once (nothing reads the count meanwhile).
		e.events += int64(len(due))
		e.batchLen = len(due)
		ns := &e.nodes
		if ns.touchAhead == 0 && e.plain {
			// The same loop without the prefetch, for networks in cache.
			for k := range due {
				e.batchAt = k
				d := &due[k]
				if ns.st(d.to).awake() {
					e.current = d.to
					e.lastAt = e.now
					ns.node(d.to).Receive(e, d.port, d.msg)
					continue
				}
				e.deliver(d)
			}
			e.batchLen = 0
			return len(e.timers) == 0 || e.timersAt(next)
		}
		for k := range due {
			e.batchAt = k
			if a := ns.touchAhead; a > 0 && k+a < len(due) {
				ns.touch(due[k+a/2].to, due[k+a].to)
			}
			// The common case inline: an awake receiver, no trace.
			d := &due[k]
			if ns.st(d.to).awake() && e.plain {
				e.current = d.to
				e.lastAt = e.now
				ns.node(d.to).Receive(e, d.port, d.msg)
				continue
			}
			e.deliver(d)
		}
		e.batchLen = 0
	} else {
		for k := range due {
			if !e.countEvent() {
				return false
			}
			e.deliver(&due[k])
		}
	}
	return len(e.timers) == 0 || e.timersAt(next)
}

// timersAt fires the timers due at time next, the last events of its
// instant, and reports false when the run must stop.
func (e *engine) timersAt(next int64) bool {
	for len(e.timers) > 0 && e.timers[0].at == next {
		if e.cancelled(&e.timers[0]) {
			e.timers.pop()
			continue
		}
		if !e.countEvent() {
			return false
		}
		e.fire(e.timers.pop())
	}
	return true
}

// stackLoop is loop under newest-first delivery: wake-ups and timers first,
// then the most recently sent pending message.
func (e *engine) stackLoop() {
	for {
		e.dropCancelledTimers()
		if len(e.timers) > 0 {
			at := e.timers[0].at
			if at > e.maxTicks {
				e.stepLimit = true
				return
			}
			if e.cfg.DetectSymmetry && at > e.now && e.mon.SymmetryBetweenRounds(e.now/e.unit, e.view()) {
				return
			}
			if !e.countEvent() {
				return
			}
			t := e.timers.pop()
			e.now = t.at
			e.fire(t)
			continue
		}
		if len(e.stack) == 0 {
			return
		}
		if !e.countEvent() {
			return
		}
		last := len(e.stack) - 1
		d := e.stack[last]
		depth := e.stackDepth[last]
		e.stack = e.stack[:last]
		e.stackDepth = e.stackDepth[:last]
		if depth > e.depth[d.to] {
			e.depth[d.to] = depth
		}
		e.maxDepth = max(e.maxDepth, depth)
		e.deliver(&d)
	}
}

// dropCancelledTimers pops the cancelled timers at the top of the heap.
func (e *engine) dropCancelledTimers() {
	for len(e.timers) > 0 && e.cancelled(&e.timers[0]) {
		e.timers.pop()
	}
}

// countEvent counts one more event, or reports false and marks the run
// stopped if the event limit has been reached.
func (e *engine) countEvent() bool {
	if e.events >= e.maxEvents && !e.checkpoint() {
		return false
	}
	e.events++
	return true
}

// checkpoint is countEvent's slow path, when the event count reaches
// maxEvents: the event limit ends the run; short of it, Config.Progress is
// told how far the run is and may stop it; otherwise the run goes on to
// the next checkpoint.
func (e *engine) checkpoint() bool {
	if e.guard.over {
		return false
	}
	if e.events >= e.eventLimit {
		e.stepLimit = true
		return false
	}
	var sent int64
	for _, c := range e.typeCounts {
		sent += c
	}
	if !e.cfg.Progress(election.Progress{Events: e.events, Messages: sent, Time: float64(e.now) / float64(e.unit)}) {
		e.stopped = true
		return false
	}
	e.maxEvents = min(e.eventLimit, e.events+election.ProgressEvents)
	return true
}

// stopAtMemoryLimit ends the run at its queue limit (Config.MaxQueueBytes)
// and reports false, for the loops to return.
func (e *engine) stopAtMemoryLimit() bool {
	e.guard.over = true
	return false
}

// fire runs a wake-up or a timer.
func (e *engine) fire(t timed) {
	i := t.node
	st := e.nodes.st(i)
	if *st&statusHalted != 0 {
		return
	}
	e.current = i
	if t.ord>>56 == kindWake {
		if *st&statusWoken != 0 {
			return
		}
		*st |= statusWoken
		e.lastAt = e.now
		e.mon.Woke(i, true)
		e.nodes.node(i).Wake(e, true)
		if e.trace != nil {
			e.trace.State(i, e.nodes.node(i))
		}
		if e.flt != nil {
			e.stepped(i)
		}
		return
	}
	e.lastAt = e.now
	if e.trace != nil {
		e.trace.Timer(i, t.tag)
	}
	e.nodes.node(i).(elect.TimerNode).Timer(e, t.tag)
	if e.trace != nil {
		e.trace.State(i, e.nodes.node(i))
	}
	if e.flt != nil {
		e.stepped(i)
	}
}

// deliver hands d's message to its receiver, waking it first if needed.
// d's fields are read before the receiver runs.
func (e *engine) deliver(d *delivery) {
	i, port, msg := d.to, d.port, d.msg
	st := e.nodes.st(i)
	if e.flt != nil {
		e.mon.Delivered(i, port, msg, *st&statusHalted != 0, e.now)
	}
	if *st&statusHalted != 0 {
		if e.trace != nil {
			e.trace.Deliver(i, port, msg, true)
		}
		return
	}
	e.current = i
	e.lastAt = e.now
	if *st&statusWoken == 0 {
		*st |= statusWoken
		e.mon.Woke(i, false)
		e.nodes.node(i).Wake(e, false)
		if e.trace != nil {
			e.trace.State(i, e.nodes.node(i))
		}
		if e.flt != nil {
			e.stepped(i)
		}
		if *st&statusHalted != 0 {
			// The node crashed on waking, before it took the message:
			// the record says the message reached it and was dropped,
			// as the reference engine's does, so that a replay wakes the
			// node with it.
			if e.trace != nil {
				e.trace.Deliver(i, port, msg, true)
			}
			return
		}
	}
	if e.trace != nil {
		e.trace.Deliver(i, port, msg, false)
	}
	e.nodes.node(i).Receive(e, port, msg)
	if e.trace != nil {
		e.trace.State(i, e.nodes.node(i))
	}
	if e.flt != nil {
		e.stepped(i)
	}
}

// cancelled reports whether t is a timer its node has cancelled.
func (e *engine) cancelled(t *timed) bool {
	return e.cancelSeq != nil && t.ord>>56 == kindTimer && t.ord&(1<<56-1) <= e.cancelSeq[t.node]
}

// view is how the monitor reads the nodes to check symmetry.
func (e *engine) view() election.NodeView {
	return election.NodeView{N: e.n, Node: func(i int) elect.Node { return e.nodes.node(int32(i)) }, SameStatus: func(i int) bool {
		return (*e.nodes.st(int32(i))^*e.nodes.st(0))&(statusWoken|statusHalted) == 0
	}}
}

// finish ends the run: the monitor's result from what the engine measured.
func (e *engine) finish() *election.Result {
	if e.cfg.DetectSymmetry {
		e.mon.SymmetryAtEnd(e.now/e.unit, e.stepLimit, e.view())
	}
	end := election.End{TypeCounts: e.typeCounts, Events: e.events, StepLimit: e.stepLimit, Stopped: e.stopped, MemoryLimit: e.guard.over}
	for i := range e.n {
		end.MaxNodeMessages = max(end.MaxNodeMessages, e.nodes.sent(int32(i)))
	}
	if e.delivery == election.NewestFirst {
		end.Time = float64(e.maxDepth)
	} else {
		end.Time = float64(e.lastAt) / float64(e.unit)
	}
	return e.mon.Finish(end)
}
