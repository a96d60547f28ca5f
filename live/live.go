// Package live runs an algorithm's nodes on real concurrent goroutines,
// running the unchanged node code, scheduled by the Go runtime rather than
// by a simulated clock: asynchronous runs on a pool of one goroutine per
// processor that take ready nodes from a queue (so a node costs no stack and
// no goroutine wake-up, and several run truly at once in any order),
// synchronous runs on one goroutine per node behind a round barrier. It answers what the simulator
// cannot: does the algorithm meet real scheduling, and do the simulator's
// counts hold there?
//
// # The asynchronous runtime
//
// Every node has an inbox of a fixed window. A node that is made ready (an
// input reached its empty inbox) is run next by the worker that made it
// ready, or taken from a shared queue by an idle worker (async.go's
// signal); the worker that runs it takes its whole inbox at once, handles
// it message by message through an elect.Recorder, and then hands what it
// sent to the receivers, one lock per receiver and batch; a sender that
// finds an inbox full parks until the receiver takes it, so memory is
// bounded by the windows, not by the messages a run sends (flow control,
// with its deadlock-freedom argument, in async.go). A sender appends its
// messages to a link in the order it sent them, and a receiver takes its
// inbox in order, so links are FIFO: the runtime serves exactly the
// algorithms that run under the simulator's fifo delivery.
//
// Termination is detected by counting work: a shared counter holds the
// number of inputs (spontaneous wake-ups and messages) that exist and have
// not been fully handled. It starts at the number of initiators; a node
// that has handled a batch of b inputs and is about to hand over k messages
// adds k-b, before the messages become visible. So the counter never falls
// below the number of inputs still to handle (the k messages are counted
// before anyone can receive them, and each of the b inputs is discounted
// only after its handler has returned), and it is zero exactly when no node
// is handling anything and no message is in flight: since nodes act only on
// inputs, nothing can happen any more, and the goroutine that brought the
// counter to zero ends the run. This is the credit-counting idea behind
// Dijkstra-Scholten and Mattern's counters, with one shared counter in place
// of their messages: the runtime shares memory, so it may.
//
// Time under real scheduling is not measured in delays: the runtime reports
// the causal depth (the longest chain of messages each caused by the
// previous one), as the simulator does under newest-first delivery.
// Spontaneous wake-up times are not waited for: every initiator wakes at the
// start.
//
// # The synchronous runtime
//
// Synchronous algorithms run in lock step behind a round barrier kept by a
// coordinator: in round r, the nodes that have something to do (a wake-up,
// messages sent in round r-1, a timer due) run concurrently, each on its own
// goroutine; the coordinator waits for all of them and moves to the next
// round in which anything happens, skipping idle rounds (time-slice with IDs
// near 10^9 ends at once, as in the simulator). Within a round a node takes
// its wake-up, then its messages ordered by port (one sender per port, in
// the order sent), then its timers, as the simulator orders one instant.
// Decisions and trace lines of a round are applied after the barrier in
// node order, so a synchronous run is as deterministic as the simulator's.
//
// # Checks and records
//
// The same election.Monitor as the simulator's checks the election, under a
// mutex: decisions are irrevocable, at most one leader, and at the end every
// node knows the leader when the algorithm announces. With Config.Trace set
// the runtime records the order in which inputs were really handled, as
// election.Tracer lines in an order consistent with causality (a batch's lines
// are written before its messages are handed over), so that the reference
// engine can replay exactly that execution (reference.Replay) with the same
// counts and decisions. Node i's random source is the simulator's,
// election.StreamSource(seed, "node", i): one seed fixes IDs and node
// randomness on every runtime.
package live

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faultplan"
)

// Run executes cfg on goroutines and returns its result. The delivery
// model must be election.Sync (the round barrier) or election.FIFO (real
// asynchrony, which has FIFO links); the others exist only in simulation.
func Run(cfg election.Config) (*election.Result, error) {
	return RunWith(cfg, Options{})
}

// Options are what a run on goroutines takes besides its Config.
type Options struct {
	// Plan is the run's fault schedule (Config.Faults) resolved before the
	// run by whoever starts it (package faultplan/resolve): the runtime
	// applies it and resolves nothing itself. A run with faults needs one.
	Plan *faultplan.Plan
}

// RunWith executes cfg on goroutines with opt, as Run.
func RunWith(cfg election.Config, opt Options) (*election.Result, error) {
	if err := Check(&cfg); err != nil {
		return nil, err
	}
	if cfg.Delivery != election.Sync {
		cfg.CausalTime = true
	}
	r := newRun(&cfg)
	if cfg.Faults != nil {
		if err := r.newFaults(opt.Plan); err != nil {
			return nil, err
		}
	}
	if cfg.Delivery == election.Sync {
		r.runSync()
	} else {
		r.runAsync()
	}
	return r.finish()
}

// Check returns an error for a Config the goroutine runtime cannot run.
func Check(cfg *election.Config) error {
	if err := cfg.CheckConfig(1); err != nil {
		return err
	}
	if cfg.Delivery != election.Sync && cfg.Delivery != election.FIFO {
		return fmt.Errorf("the goroutine runtime has real timing and FIFO links: use --delivery fifo (or sync for synchronous algorithms); %s delivery exists only in the simulator", cfg.Delivery)
	}
	return nil
}

// node is one node and what the runtime keeps for it. It is kept small
// (a run of n nodes holds n of them): what only synchronous runs use is in
// syncNode, what only a node that senders wait on uses is in waitList.
//
// In an asynchronous run other workers write a node's mailbox (its first
// 64 bytes, guarded by mu) while its own worker runs it: the rest, which
// only that worker touches, starts on the next cache line, so that a
// delivery to a running node does not take the line its worker reads and
// writes for every message (the node is 256 bytes, and the slab of a run
// of 128 nodes or more is a large allocation, page-aligned, so every
// node's mailbox is a line of its own; TestNodeLayout).
type node struct {
	// The mailbox. Asynchronous runs' flow control (async.go): inbox,
	// wakeUp, state, waiter and wait (the nodes parked on this one's full
	// inbox) and wokenEarly; peakInbox.
	mu    sync.Mutex
	inbox []envelope // asynchronous runs: nil when empty
	// waiter is a sender parked on its full inbox, and wait holds the
	// others, made by the first sender to wait on it while waiter is
	// taken (on a ring, hardly ever: a node has one sender a direction).
	waiter    *node
	wait      *waitList
	capacity  int32 // its inbox's window (set at the start)
	peakInbox int32 // the most its inbox held
	state     uint8
	// wokenEarly: a receiver woke it between its registering as a waiter
	// and its parking (async.go's unpark).
	wokenEarly bool
	// wakeUp is a spontaneous wake-up to handle (asynchronous runs, an
	// initiator at the start): the first input of its inbox, where it
	// takes a slot (node.held).
	wakeUp bool
	_      [64 - 8 - 24 - 8 - 8 - 4 - 4 - 3]byte

	// The node's own, which its worker alone touches in an asynchronous
	// run: next (its first message of out not handed over) and overflow
	// (async.go) among them, and blockedOn (the node whose full inbox it
	// waits on, when parked; guarded by mu).
	index     int32
	firstPort int32 // its first port's place in run.portCounts
	woken     bool
	halted    bool
	overflow  bool
	next      int32
	code      elect.Node
	rec       *elect.Recorder
	rng       *rand.Rand
	blockedOn *node
	depth     int64 // causal depth reached (asynchronous runs)
	sent      int64
	events    int64
	// Asynchronous runs: the deepest message it received, and its events
	// not yet added to the run's count.
	maxDepth, unreported int64

	out   []outgoing  // lent by its worker in asynchronous runs (async.go)
	last1 [1]outgoing // the one message it had left when it parked (async.go's shrinkOut)
	// The latency histogram and the recorder are the node's own in
	// synchronous runs, its worker's in asynchronous ones.
	latency *election.Latency

	// flt is the node's part of the fault plan (faults.go); nil in a run
	// without faults.
	flt *nodeFaults
	// syn is what a synchronous run keeps for the node; nil in an
	// asynchronous run.
	syn *syncNode
}

// waitList holds the senders parked on a node's full inbox but the one in
// node.waiter (guarded by the node's mu), and a spare list for the node's
// own use.
type waitList struct {
	waiters, spare []*node
}

// syncNode is what a synchronous run keeps for a node besides its record.
type syncNode struct {
	spare         []envelope // its second inbox
	last          int64      // last round with an event
	signal        chan struct{}
	wakeAt        int64   // round of its spontaneous wake-up, or -1
	timers        []timer // pending, in the order set
	newTimers     []timer // set this round, for the coordinator's heap
	timerSeq      uint64
	cancelSeq     uint64 // its timers with seq <= cancelSeq are cancelled
	deferred      []op   // monitor and trace calls, applied after the barrier
	countedEvents int64
	// The round's inputs (sync.go's syncNext): batch, taken in round
	// takenRound (-1: none yet), of which pos are handled.
	batch      []envelope
	pos        int
	takenRound int64
	// marks ends each event of the phase (sync.go's syncMark), and the
	// coordinator's walk has carried out markAt of them, up to outAt,
	// lateAt, timersAt and opsAt.
	marks                          []syncMark
	markAt                         int
	outAt, lateAt, timersAt, opsAt int32
	// panicked is what the node's code panicked with in a round (nil: it
	// did not).
	panicked *any
}

// envelope is one input in an inbox.
type envelope struct {
	port elect.Port
	// sent is when it was handed over, in ticks (tickNanos) since the
	// run's start, modulo 2^32: a latency up to 2^32 ticks (4.6 minutes)
	// is their difference.
	sent  uint32
	msg   elect.Message
	depth int64
}

// tickShift makes nanoseconds into the ticks of envelope.sent: 64 ns.
const tickShift = 6

// ticks is the time since the run's start in envelope ticks.
func (r *run) ticks() uint32 { return uint32(time.Since(r.start) >> tickShift) }

// latencyNanos is the latency, in nanoseconds, of an envelope sent at tick
// sent and taken at tick now.
func latencyNanos(sent, now uint32) int64 { return int64(now-sent) << tickShift }

// outgoing is a message in a node's output: the receiver, and the
// envelope it gets but for the time of the hand-over (48 bytes, where
// the receiver and an envelope took 56).
type outgoing struct {
	to    int32
	port  elect.Port
	msg   elect.Message
	depth int64
}

// outgoingTo is env, to be handed over to node to.
func outgoingTo(to int32, env envelope) outgoing {
	return outgoing{to: to, port: env.port, msg: env.msg, depth: env.depth}
}

// envelope is o as handed over at tick sent.
func (o *outgoing) envelope(sent uint32) envelope {
	return envelope{port: o.port, sent: sent, msg: o.msg, depth: o.depth}
}

type timer struct {
	due int64
	seq uint64
	tag int64
}

// run is one execution.
type run struct {
	cfg   *election.Config
	nodes []*node

	mu      sync.Mutex // guards mon and trace in asynchronous runs
	mon     *election.Monitor
	trace   *election.Tracer
	clock   int64 // what trace lines are stamped with
	applyMu bool  // asynchronous runs without a trace: monitor calls take mu

	maxEvents int64
	stepLimit bool
	stopped   bool // Config.Progress stopped the run
	// memoryLimit: the messages held reached Config.MaxQueueBytes
	// (overQueueLimit, asyncRun.stopAtMemoryLimit).
	memoryLimit bool
	// held is the bytes of the message buffers grown or made while the
	// run runs (inboxes and outputs past their first size, late
	// messages' timers), for the memory guard.
	held     atomic.Int64
	maxDepth int64
	start    time.Time
	async    *asyncRun

	// The messages sent, by node and type (node i's of type t at
	// i*types+t), and by node and port (node i's port p at its
	// firstPort+p).
	types      int
	typeCounts []int64
	portCounts []int64
}

func newRun(cfg *election.Config) *run {
	r := &run{cfg: cfg, nodes: make([]*node, cfg.Graph.N), maxEvents: cfg.MaxEvents, start: time.Now()}
	if r.maxEvents <= 0 {
		r.maxEvents = election.DefaultMaxEvents
	}
	if cfg.Trace != nil {
		r.trace = election.NewTracer(cfg.Trace, cfg, func() int64 { return r.clock })
		r.trace.SetRuntime("live")
	}
	r.mon = election.NewMonitor(cfg, r.trace, nil, nil)
	info := cfg.NodeInfos()
	// The nodes' records (and a synchronous run's first inboxes) come from
	// a few slabs: most nodes of most algorithms never outgrow them. An
	// asynchronous run's inboxes are made when first needed (async.go).
	const slots = 4
	types := len(cfg.Algorithm.Messages)
	n := len(r.nodes)
	slab := make([]node, n)
	r.types = types
	r.typeCounts = make([]int64, n*types)
	degrees := 0
	for i := range n {
		degrees += cfg.Graph.Degree(i)
	}
	r.portCounts = make([]int64, degrees)
	// Synchronous runs keep a recorder, a latency histogram, a spare inbox
	// and an output buffer per node (each node has its goroutine);
	// asynchronous runs one of each per worker (async.go), which lends
	// them to the node it works.
	sync := cfg.Delivery == election.Sync
	var lat []election.Latency
	var syns []syncNode
	var inboxes []envelope
	var outs []outgoing
	if sync {
		lat = make([]election.Latency, n)
		syns = make([]syncNode, n)
		inboxes = make([]envelope, 2*n*slots)
		outs = make([]outgoing, n*slots)
	}
	used := 0
	for i := range r.nodes {
		nd := &slab[i]
		deg := cfg.Graph.Degree(i)
		*nd = node{
			index: int32(i), code: cfg.Algorithm.New(info(i)),
			firstPort: int32(used), capacity: int32(window(deg)),
		}
		used += deg
		if sync {
			sy := &syns[i]
			nd.syn = sy
			sy.wakeAt, sy.takenRound = -1, -1
			nd.inbox = inboxes[2*i*slots : 2*i*slots : (2*i+1)*slots]
			sy.spare = inboxes[(2*i+1)*slots : (2*i+1)*slots : (2*i+2)*slots]
			nd.out = outs[i*slots : i*slots : (i+1)*slots]
			sy.signal = make(chan struct{}, 1) // its goroutine's (sync.go)
			nd.latency = &lat[i]
			nd.rec = elect.NewRecorder(func() *rand.Rand { return r.random(nd) })
		}
		r.nodes[i] = nd
	}
	return r
}

// random is nd's own random source, made when first asked for:
// election.StreamSource(seed, "node", i), as in the simulator.
func (r *run) random(nd *node) *rand.Rand {
	if nd.rng == nil {
		nd.rng = election.Stream(r.cfg.Seed, "node", uint64(nd.index))
	}
	return nd.rng
}

// The inputs a node handles.
const (
	inputWake = iota
	inputSpontaneousWake
	inputMessage
	inputTimer
)

// call runs one handler of nd (input, with the message's port and content,
// or the timer's tag in m.A) and carries out what it asked for: sends go to
// nd.out, everything else to the monitor (through apply).
func (r *run) call(nd *node, round int64, input int, port elect.Port, m elect.Message) {
	nd.rec.ClearEffects()
	nd.rec.SetRound(round)
	switch input {
	case inputWake, inputSpontaneousWake:
		nd.code.Wake(nd.rec, input == inputSpontaneousWake)
	case inputMessage:
		nd.code.Receive(nd.rec, port, m)
	case inputTimer:
		nd.code.(elect.TimerNode).Timer(nd.rec, m.A)
	}
	// By pointer: a copy of each effect, made with wider loads than the
	// recorder's stores, waited for the stores to retire (store-to-load
	// forwarding fails), for 12% of an asynchronous run's time.
	effects := nd.rec.Effects()
	for i := range effects {
		f := &effects[i]
		switch f.Kind {
		case elect.EffectSend:
			r.send(nd, f.Port, f.Msg)
		case elect.EffectDecide:
			r.apply(nd, op{kind: opDecide, decision: f.Decision, round: round})
		case elect.EffectLearn:
			r.apply(nd, op{kind: opLearn, id: f.Leader()})
		case elect.EffectSetTimer:
			rounds, tag := f.Timer()
			r.setTimer(nd, round, rounds, tag)
		case elect.EffectCancelTimers:
			if nd.syn != nil {
				nd.syn.cancelSeq = nd.syn.timerSeq
			}
		case elect.EffectTerminate:
			nd.halted = true
			if r.trace != nil {
				r.apply(nd, op{kind: opHalt})
			}
		}
	}
	nd.rec.ClearEffects()
	if r.trace != nil {
		r.traceState(nd)
	}
}

// op is a call on the monitor or the trace, made by a node's input.
type op struct {
	kind        uint8
	spontaneous bool
	dropped     bool
	decision    elect.Decision
	id          elect.ID
	round       int64
	prop        election.Property // opViolate, with text
	text        string
	env         envelope
	to          int32      // opSend: the receiver (env has the sender's port)
	state       elect.Node // opState: a copy of the node after its step
	// Faults: the message's number (opLost, opDup, opDelayed), the cause
	// of a loss and a delay's time units; round is the time.
	no    int64
	cause elect.Faults
	by    int64
}

// The ops.
const (
	opWoke = iota
	opDecide
	opLearn
	opHalt
	opViolate
	opDeliver
	opTimer
	opSend
	opState
	opLost
	opDup
	opDelayed
	opCrash
	opRouted    // faults: a message routed (env has the receiver's port; by: copies)
	opDelivered // faults: a message reaching its receiver, before its step
)

// apply carries out an op of nd: at once under the mutex in an asynchronous
// run, after the round's barrier in a synchronous one.
func (r *run) apply(nd *node, o op) {
	if nd.syn != nil {
		nd.syn.deferred = append(nd.syn.deferred, o)
		return
	}
	if r.applyMu {
		r.mu.Lock()
		r.do(nd.index, &o)
		r.mu.Unlock()
		return
	}
	r.do(nd.index, &o)
}

// do carries out an op of node i.
func (r *run) do(i int32, o *op) {
	switch o.kind {
	case opWoke:
		r.mon.Woke(i, o.spontaneous)
	case opDecide:
		r.mon.Decide(i, o.decision, o.round)
	case opLearn:
		r.mon.Learn(i, o.id)
	case opHalt:
		r.trace.Halt(i)
	case opViolate:
		r.mon.Violate(o.prop, o.text, i)
	case opDeliver:
		if r.cfg.Delivery != election.Sync {
			r.clock = o.env.depth
		}
		r.trace.Deliver(i, o.env.port, o.env.msg, o.dropped)
	case opTimer:
		r.trace.Timer(i, o.env.msg.A)
	case opSend:
		r.trace.Send(i, o.env.port, o.to, o.env.msg)
	case opState:
		r.trace.State(i, o.state)
	case opLost:
		r.mon.Lost(o.no, i, o.env.port, o.to, o.env.msg, o.cause, o.round)
	case opDup:
		r.mon.Duplicated(o.no, i, o.env.port, o.to, o.env.msg, o.round)
	case opDelayed:
		r.mon.Delayed(o.no, i, o.env.port, o.to, o.env.msg, o.by, o.round)
	case opCrash:
		r.mon.Crash(i, o.round)
	case opRouted:
		r.mon.Routed(i, o.to, o.env.port, o.env.msg, int(o.by))
	case opDelivered:
		r.mon.Delivered(i, o.env.port, o.env.msg, o.dropped, o.round)
	}
}

// violate reports a violation detected by the runtime itself.
func (r *run) violate(nd *node, p election.Property, msg string) {
	r.apply(nd, op{kind: opViolate, prop: p, text: msg})
}

// send routes one message of nd into nd.out.
func (r *run) send(nd *node, p elect.Port, m elect.Message) {
	to, q, ok := r.cfg.Route(nd.index, p)
	if !ok || int(m.Type) >= r.types {
		r.badSend(nd, p, m, ok)
		return
	}
	r.typeCounts[int(nd.index)*r.types+int(m.Type)]++
	r.portCounts[int(nd.firstPort)+int(p)]++
	nd.sent++
	if r.trace != nil {
		r.traceSend(nd, p, to, m)
	}
	if nd.flt != nil {
		r.sendFaulty(nd, p, to, q, m)
		return
	}
	k := len(nd.out)
	if k == cap(nd.out) {
		r.growOut(nd)
	}
	// Field by field, not through a temporary (see call).
	nd.out = nd.out[:k+1]
	o := &nd.out[k]
	o.to, o.port, o.msg, o.depth = to, q, m, nd.depth+1
}

// growOut makes room in nd.out: at once for a window of messages (one
// batch's output when each input sends one), doubling past it.
//
//go:noinline
func (r *run) growOut(nd *node) {
	c := cap(nd.out)
	nd.out = append(make([]outgoing, 0, max(int(nd.capacity), 2*c)), nd.out...)
	r.held.Add(int64(cap(nd.out)-c) * outgoingBytes)
}

// badSend reports a send that cannot be carried out (kept out of send, so
// that the hot path's stack frame stays small).
//
//go:noinline
func (r *run) badSend(nd *node, p elect.Port, m elect.Message, routed bool) {
	if !routed {
		v := r.cfg.RouteViolation(nd.index, p)
		r.violate(nd, v.Property, v.Detail)
		return
	}
	r.violate(nd, election.PropBadMessageType, fmt.Sprintf("node %d sent undeclared message type %d", nd.index, m.Type))
}

// setTimer schedules a timer of nd (synchronous runs only).
func (r *run) setTimer(nd *node, now, rounds, tag int64) {
	_, isTimerNode := nd.code.(elect.TimerNode)
	switch {
	case r.cfg.Delivery != election.Sync:
		r.violate(nd, election.PropBadTimer, fmt.Sprintf("node %d set a timer, but timers exist only in the synchronous model", nd.index))
	case rounds < 0:
		r.violate(nd, election.PropBadTimer, fmt.Sprintf("node %d set a timer for %d rounds; a timer cannot fire in the past", nd.index, rounds))
	case !isTimerNode:
		r.violate(nd, election.PropBadTimer, fmt.Sprintf("node %d set a timer but cannot receive one", nd.index))
	case rounds > math.MaxInt64-now:
		r.violate(nd, election.PropTimeOverflow, fmt.Sprintf("node %d set a timer %d rounds ahead, past the largest representable time", nd.index, rounds))
	default:
		sy := nd.syn
		sy.timerSeq++
		t := timer{due: now + rounds, seq: sy.timerSeq, tag: tag}
		sy.timers = append(sy.timers, t)
		sy.newTimers = append(sy.newTimers, t)
	}
}

// receive hands one message to nd, waking it first if needed, and counts
// the event (ev by pointer: see call).
func (r *run) receive(nd *node, round int64, ev *envelope) {
	nd.events++
	nd.depth = max(nd.depth, ev.depth)
	if nd.halted {
		if nd.flt != nil {
			r.deliveredFaulty(nd, round, *ev)
		}
		r.traceDeliver(nd, *ev, true)
		return
	}
	if nd.syn != nil {
		nd.syn.last = round
	}
	if nd.flt != nil {
		r.deliveredFaulty(nd, round, *ev)
	}
	if !nd.woken && !r.wakeByMessage(nd, round, *ev) {
		return
	}
	if r.trace != nil {
		r.traceDeliver(nd, *ev, false)
	}
	r.call(nd, round, inputMessage, ev.port, ev.msg)
	if nd.flt != nil {
		r.stepped(nd)
	}
}

// wakeByMessage wakes nd for the message ev and reports whether nd is still
// running to receive it.
//
//go:noinline
func (r *run) wakeByMessage(nd *node, round int64, ev envelope) bool {
	nd.woken = true
	r.apply(nd, op{kind: opWoke})
	r.call(nd, round, inputWake, 0, elect.Message{})
	if nd.flt != nil {
		r.stepped(nd)
	}
	if nd.halted {
		// It stopped on waking: the message is lost, and recorded as
		// dropped so that a replay consumes it too.
		r.traceDeliver(nd, ev, true)
		return false
	}
	return true
}

// wake wakes nd spontaneously, unless it is awake or halted.
func (r *run) wake(nd *node, round int64) {
	nd.events++
	if nd.woken || nd.halted {
		return
	}
	nd.woken = true
	if nd.syn != nil {
		nd.syn.last = round
	}
	r.apply(nd, op{kind: opWoke, spontaneous: true})
	if nd.flt != nil {
		nd.flt.at = round
	}
	r.call(nd, round, inputSpontaneousWake, 0, elect.Message{})
	if nd.flt != nil {
		r.stepped(nd)
	}
}

//go:noinline
func (r *run) traceSend(nd *node, p elect.Port, to int32, m elect.Message) {
	r.apply(nd, op{kind: opSend, env: envelope{port: p, msg: m}, to: to})
}

// traceState writes nd's state after a step (a copy, since a synchronous
// run writes its trace after the round).
//
//go:noinline
func (r *run) traceState(nd *node) {
	if s, ok := nd.code.(elect.Snapshotter); ok {
		r.apply(nd, op{kind: opState, state: s.Clone()})
	}
}

//go:noinline
func (r *run) traceDeliver(nd *node, ev envelope, dropped bool) {
	if r.trace != nil {
		r.apply(nd, op{kind: opDeliver, env: ev, dropped: dropped})
	}
}

// finish sums what the nodes measured and lets the monitor judge the run.
func (r *run) finish() (*election.Result, error) {
	wall := time.Since(r.start).Seconds()
	end := election.End{TypeCounts: make([]int64, len(r.cfg.Algorithm.Messages)), StepLimit: r.stepLimit, Stopped: r.stopped, MemoryLimit: r.memoryLimit}
	last := int64(0)
	for k, c := range r.typeCounts {
		end.TypeCounts[k%r.types] += c
	}
	for _, nd := range r.nodes {
		end.MaxNodeMessages = max(end.MaxNodeMessages, nd.sent)
		end.Events += nd.events
		if nd.syn != nil {
			last = max(last, nd.syn.last)
		}
		r.maxDepth = max(r.maxDepth, nd.maxDepth)
	}
	if r.cfg.Delivery == election.Sync {
		end.Time = float64(last)
		if r.cfg.DetectSymmetry {
			r.mon.SymmetryAtEnd(last, r.stepLimit, r.view())
		}
	} else {
		end.Time = float64(r.maxDepth)
	}
	res := r.mon.Finish(end)
	res.Transport = r.transport(wall, res.Messages)
	if r.trace != nil {
		if err := r.trace.Flush(); err != nil {
			return res, fmt.Errorf("live: writing the trace: %w", err)
		}
	}
	return res, nil
}

// view is how the monitor reads the nodes to check symmetry.
func (r *run) view() election.NodeView {
	return election.NodeView{N: len(r.nodes), Node: func(i int) elect.Node { return r.nodes[i].code }, SameStatus: func(i int) bool {
		a, b := r.nodes[i], r.nodes[0]
		return a.woken == b.woken && a.halted == b.halted
	}}
}

// transport is the run report: the links' counts and the merged latencies.
func (r *run) transport(wall float64, messages int64) *election.Transport {
	links := make([]election.LinkCount, 0, len(r.portCounts))
	var lat election.Latency
	for _, nd := range r.nodes {
		deg := r.cfg.Graph.Degree(int(nd.index))
		for p, c := range r.portCounts[nd.firstPort : int(nd.firstPort)+deg] {
			to, _ := r.cfg.Graph.Neighbor(nd.index, elect.Port(p))
			links = append(links, election.LinkCount{From: int(nd.index), To: int(to), Messages: c})
		}
		if r.async == nil { // a synchronous run's node has its own
			lat.Merge(nd.latency)
		}
	}
	if r.async != nil {
		for _, w := range r.async.workers {
			lat.Merge(&w.latency)
		}
	}
	t := election.NewTransport(links, &lat, messages, wall)
	if r.async != nil {
		t.Overflows = r.async.overflows.Load()
		for _, nd := range r.nodes {
			t.MaxInbox = max(t.MaxInbox, int(nd.peakInbox))
		}
	}
	return t
}
