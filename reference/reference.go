// Package reference is the plain reference engine: it runs a election.Config as
// the fast simulator (package sim) does, with nothing clever in the way, so
// that a differential test can hold the fast one to it.
//
// It is obviously correct by construction, or meant to be read as such:
//
//   - one event queue: wake-ups, deliveries and timers are entries of one
//     binary heap, taken in the total order of the simulator, (time, kind,
//     creation), with kinds wake < deliver < timer; under newest-first
//     delivery, wake-ups and timers first by time, then the most recently
//     sent delivery;
//   - nodes are built with Algorithm.New, one by one, and called with an
//     elect.Recorder: what a node asks for is carried out after its call, in
//     the order asked;
//   - no pooling, no prefetching, no unsafe, no reflection, no fast paths;
//   - the same monitor (election.Monitor), trace writer (election.Tracer) and random
//     streams (election.Stream) as the simulator, so that equal runs give equal
//     Results and byte-identical traces;
//   - faults (Config.Faults) drawn and applied by code of its own
//     (faults.go), written from docs/faults.md and sharing nothing with the
//     simulator's but the shared package, so that the differential test
//     sees a mistake in either.
//
// It can also stop a run after any event, snapshot its whole state
// (Snapshot) and go on from a snapshot (Restore) as many times as wanted:
// the nodes are copied with elect.Snapshotter.
package reference

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"unsafe"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/topology"
)

// Event kinds, in the order they happen within one instant.
const (
	kindWake    = 0
	kindDeliver = 1
	kindTimer   = 2
)

// event is an entry of the queue.
type event struct {
	at    int64  // ticks (unused by deliveries under newest-first)
	kind  int    // kindWake, kindDeliver or kindTimer
	seq   uint64 // creation order
	node  int32  // who wakes, receives or gets the timer
	port  elect.Port
	msg   elect.Message
	tag   int64
	depth int64 // newest-first: the delivery's causal depth
	late  bool  // replays: a delayed message, which later ones may pass
}

// Engine is one run of a election.Config on the reference engine.
type Engine struct {
	cfg     *election.Config
	alg     *elect.Algorithm
	g       *topology.Graph
	n       int
	unit    int64
	newest  bool // newest-first delivery
	uniRing bool

	nodes  []elect.Node
	woken  []bool
	halted []bool
	sent   []int64
	queue  []event // a binary heap ordered by before
	seq    uint64

	now, lastAt int64
	events      int64
	maxEvents   int64
	maxTicks    int64
	stepLimit   bool
	stopped     bool
	memoryLimit bool // the queue reached Config.MaxQueueBytes
	typeCounts  []int64
	cancelSeq   []uint64 // node i's timers with seq <= cancelSeq[i] are cancelled
	linkLast    map[int64]int64
	depth       []int64
	maxDepth    int64
	delays      *rand.PCG
	nodeRand    []*rand.PCG // made on first use

	mon   *election.Monitor
	trace *election.Tracer
	rec   *elect.Recorder
	cur   int32

	// faults is the run's faults (Config.Faults), drawn and applied by
	// faults.go; nil without them.
	faults *faultPlan

	// Replays (Replay): messages in flight by receiving port, and the
	// timers each node has pending.
	replay       map[int64][]event
	replayTimers [][]event
	early        []*event // replays: by node, the message that woke it, not yet handed over (wakeEarly)
	crashed      []bool   // replays: the nodes the record crashed
	// scheduled says a replay applies its record's explicit fault
	// schedule (a checker's counterexample) rather than its fault lines.
	scheduled bool
	// routes are the messages of a faulty record's current step, not yet
	// told to the monitor (Monitor.Routed); nil unless the record has
	// faults.
	routes []route
}

// route is a message a replayed step sent: how many copies travel.
type route struct {
	from, to int32
	q        elect.Port
	msg      elect.Message
	copies   int
}

// Run executes cfg to its end on the reference engine.
func Run(cfg election.Config) (*election.Result, error) {
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return e.Run()
}

// New prepares a run of cfg: the nodes are built and the initiators
// scheduled; nothing has happened yet.
func New(cfg election.Config) (*Engine, error) {
	unit := cfg.Delivery.Unit()
	if err := cfg.CheckConfig(unit); err != nil {
		return nil, err
	}
	n := cfg.Graph.N
	e := &Engine{
		cfg: &cfg, alg: cfg.Algorithm, g: cfg.Graph, n: n, unit: unit,
		newest:     cfg.Delivery == election.NewestFirst,
		uniRing:    cfg.Algorithm.Model.Topology == elect.UniRing,
		nodes:      make([]elect.Node, n),
		woken:      make([]bool, n),
		halted:     make([]bool, n),
		sent:       make([]int64, n),
		maxEvents:  cfg.MaxEvents,
		maxTicks:   math.MaxInt64,
		typeCounts: make([]int64, len(cfg.Algorithm.Messages)),
		cancelSeq:  make([]uint64, n),
		linkLast:   map[int64]int64{},
		depth:      make([]int64, n),
		delays:     election.StreamSource(cfg.Seed, "delivery", 0),
		nodeRand:   make([]*rand.PCG, n),
	}
	if e.maxEvents <= 0 {
		e.maxEvents = election.DefaultMaxEvents
	}
	if cfg.MaxTime > 0 && cfg.MaxTime < math.MaxInt64/unit {
		e.maxTicks = cfg.MaxTime * unit
	}
	var err error
	if e.faults, err = drawFaultPlan(cfg.Faults, n, cfg.Seed); err != nil {
		return nil, err
	}
	e.setTrace(cfg.Trace)
	e.mon = election.NewMonitor(e.cfg, e.trace, nil, nil)
	e.rec = elect.NewRecorder(e.rand)
	info := cfg.NodeInfos()
	for i := range n {
		e.nodes[i] = cfg.Algorithm.New(info(i))
	}
	if cfg.Wake == nil {
		for i := range n {
			e.push(event{at: 0, kind: kindWake, node: int32(i)})
		}
	}
	for _, w := range cfg.Wake {
		e.push(event{at: w.At * unit, kind: kindWake, node: int32(w.Node)})
	}
	return e, nil
}

func (e *Engine) setTrace(w io.Writer) {
	e.trace = nil
	if w != nil {
		e.trace = election.NewTracer(w, e.cfg, func() int64 {
			if e.newest {
				return e.maxDepth
			}
			return e.now
		})
		e.trace.SetRuntime("reference")
		if e.cfg.Delivery != election.NewestFirst {
			e.trace.SetUnit(e.unit) // the clock gives ticks (Replay says otherwise)
		}
	}
}

// Run runs to the end and returns the result.
func (e *Engine) Run() (*election.Result, error) {
	for e.Step() {
	}
	return e.Finish()
}

// Finish ends the run where it stands and returns its result.
func (e *Engine) Finish() (*election.Result, error) {
	if e.cfg.DetectSymmetry {
		e.mon.SymmetryAtEnd(e.now/e.unit, e.stepLimit, e.view())
	}
	end := election.End{TypeCounts: e.typeCounts, Events: e.events, StepLimit: e.stepLimit, MemoryLimit: e.memoryLimit}
	for _, s := range e.sent {
		end.MaxNodeMessages = max(end.MaxNodeMessages, s)
	}
	if e.newest {
		end.Time = float64(e.maxDepth)
	} else {
		end.Time = float64(e.lastAt) / float64(e.unit)
	}
	r := e.mon.Finish(end)
	if e.trace != nil {
		if err := e.trace.Flush(); err != nil {
			return r, fmt.Errorf("reference: writing the trace: %w", err)
		}
	}
	return r, nil
}

// Step handles the next event and reports whether the run goes on.
func (e *Engine) Step() bool {
	for !e.stopped {
		if len(e.queue) == 0 {
			e.stopped = true
			return false
		}
		ev := e.pop()
		if ev.kind == kindTimer && ev.seq <= e.cancelSeq[ev.node] {
			continue // cancelled: neither an event nor time
		}
		if ev.kind != kindDeliver || !e.newest {
			if ev.at > e.maxTicks {
				e.stepLimit, e.stopped = true, true
				return false
			}
			if e.cfg.DetectSymmetry && ev.at > e.now && e.mon.SymmetryBetweenRounds(e.now/e.unit, e.view()) {
				e.stopped = true
				return false
			}
			if e.faults != nil {
				e.crashesDue(ev.at)
			}
		}
		if e.events >= e.maxEvents {
			e.stepLimit, e.stopped = true, true
			return false
		}
		e.events++
		if ev.kind != kindDeliver || !e.newest {
			e.now = ev.at
		}
		switch ev.kind {
		case kindWake:
			e.wake(ev.node)
		case kindTimer:
			e.timer(ev.node, ev.tag)
		default:
			e.deliver(ev)
		}
		return true
	}
	return false
}

// wake wakes node i spontaneously, unless it is awake or halted.
func (e *Engine) wake(i int32) {
	if e.halted[i] || e.woken[i] {
		return
	}
	e.woken[i] = true
	e.lastAt = e.now
	e.mon.Woke(i, true)
	e.call(i, func(env elect.Env) { e.nodes[i].Wake(env, true) })
}

// timer fires a timer of node i.
func (e *Engine) timer(i int32, tag int64) {
	if e.halted[i] {
		return
	}
	e.lastAt = e.now
	if e.trace != nil {
		e.trace.Timer(i, tag)
	}
	e.call(i, func(env elect.Env) { e.nodes[i].(elect.TimerNode).Timer(env, tag) })
}

// deliver hands a message to its receiver, waking it first if needed.
func (e *Engine) deliver(ev event) {
	i := ev.node
	if e.newest {
		e.depth[i] = max(e.depth[i], ev.depth)
		e.maxDepth = max(e.maxDepth, ev.depth)
	}
	if e.faults != nil {
		e.mon.Delivered(i, ev.port, ev.msg, e.halted[i], e.monitorNow())
	} else if e.routes != nil { // a faulty record's replay: its time is the round, or the causal depth
		now := e.now
		if e.newest {
			now = e.depth[i]
		}
		e.mon.Delivered(i, ev.port, ev.msg, e.halted[i], now)
	}
	if e.halted[i] {
		if e.trace != nil {
			e.trace.Deliver(i, ev.port, ev.msg, true)
		}
		return
	}
	e.lastAt = e.now
	if !e.woken[i] {
		e.woken[i] = true
		e.mon.Woke(i, false)
		e.call(i, func(env elect.Env) { e.nodes[i].Wake(env, false) })
		if e.halted[i] {
			// The node crashed (or halted) on waking, before it took the
			// message: the record says the message reached it and was
			// dropped, so that a replay wakes the node with it.
			if e.trace != nil {
				e.trace.Deliver(i, ev.port, ev.msg, true)
			}
			return
		}
	}
	if e.trace != nil {
		e.trace.Deliver(i, ev.port, ev.msg, false)
	}
	e.call(i, func(env elect.Env) { e.nodes[i].Receive(env, ev.port, ev.msg) })
}

// call runs one handler of node i and then carries out what it asked for.
func (e *Engine) call(i int32, handler func(elect.Env)) {
	e.cur = i
	e.rec.ClearEffects()
	e.rec.SetRound(e.now / e.unit)
	panicValue, panicked := e.callRecovered(handler)
	if panicked {
		// The node panicked: what it did before the panic is carried
		// out, as the fast engine does, then the panic is recorded (after
		// them, as the fast engine sees them), and the run stops there.
		e.stopped = true
	}
	for _, f := range e.rec.Effects() {
		switch f.Kind {
		case elect.EffectSend:
			e.send(i, f.Port, f.Msg)
		case elect.EffectDecide:
			e.mon.Decide(i, f.Decision, e.monitorNow())
		case elect.EffectLearn:
			e.mon.Learn(i, f.Leader())
		case elect.EffectSetTimer:
			rounds, tag := f.Timer()
			e.setTimer(i, rounds, tag)
		case elect.EffectCancelTimers:
			e.cancelSeq[i] = e.seq
		case elect.EffectTerminate:
			e.halted[i] = true
			if e.trace != nil {
				e.trace.Halt(i)
			}
		}
	}
	e.rec.ClearEffects()
	if panicked {
		e.mon.Violate(election.PropPanic, election.PanicMessage(i, panicValue), i)
		return // the step did not end: no state after it (the fast engine writes none)
	}
	if e.trace != nil {
		e.trace.State(i, e.nodes[i])
	}
	if e.faults != nil {
		e.stepTaken(i)
	}
}

// callRecovered runs handler and returns the value the node's code
// panicked with, if it did (a forced run off its model, or a fault, can
// drive a node into a state its code calls impossible).
func (e *Engine) callRecovered(handler func(elect.Env)) (value any, panicked bool) {
	defer func() {
		if p := recover(); p != nil {
			value, panicked = p, true
		}
	}()
	handler(e.rec)
	return nil, false
}

// rand is the Env's random source: the current node's own stream.
func (e *Engine) rand() *rand.Rand {
	if e.nodeRand[e.cur] == nil {
		e.nodeRand[e.cur] = election.StreamSource(e.cfg.Seed, "node", uint64(e.cur))
	}
	return rand.New(e.nodeRand[e.cur])
}

// send routes a message of node i sent on port p.
func (e *Engine) send(i int32, p elect.Port, m elect.Message) {
	to, q, ok := e.cfg.Route(i, p)
	if !ok {
		e.mon.Report(e.cfg.RouteViolation(i, p))
		return
	}
	if int(m.Type) >= len(e.typeCounts) {
		e.mon.Violate(election.PropBadMessageType, fmt.Sprintf("node %d sent undeclared message type %d", i, m.Type), i)
		return
	}
	e.typeCounts[m.Type]++
	e.sent[i]++
	if e.trace != nil {
		e.trace.Send(i, p, to, m)
	}
	ev := event{kind: kindDeliver, node: to, port: q, msg: m}
	if e.faults != nil {
		e.sendUnderFaults(i, p, ev)
		return
	}
	if e.replay != nil {
		e.holdForReplay(i, ev)
		if e.routes != nil {
			// A faulty record's lines after the step say whether the
			// message was lost or duplicated: the monitor hears of its
			// routing then (flushRoutes).
			e.routes = append(e.routes, route{from: i, to: to, q: q, msg: m, copies: 1})
		}
		return
	}
	e.enqueue(i, p, ev, 0)
}

// holdForReplay puts the delivery ev of a message node i sent in flight
// on its link, where a replay takes it when the record says it arrives.
func (e *Engine) holdForReplay(i int32, ev event) {
	ev.depth = e.depth[i] + 1
	key := e.g.PortIndex(ev.node, ev.port)
	e.replay[key] = append(e.replay[key], ev)
}

// enqueue schedules the delivery ev of a message node i sent on port p,
// late by extra time units (a delay fault): a late message keeps no FIFO
// order, it is overtaken by those sent after it.
func (e *Engine) enqueue(i int32, p elect.Port, ev event, extra int64) {
	switch e.cfg.Delivery {
	case election.Sync, election.FIFO:
		ev.at = e.now + 1
	case election.Random, election.RandomFIFO:
		ev.at = e.now + 1 + int64(e.delays.Uint64()&uint64(e.unit-1))
		if e.cfg.Delivery == election.RandomFIFO {
			link := e.g.PortIndex(i, p)
			ev.at = max(ev.at, e.linkLast[link])
			e.linkLast[link] = ev.at
		}
	case election.NewestFirst:
		ev.depth = e.depth[i] + 1
	}
	ev.at += extra * e.unit
	e.push(ev)
}

// setTimer schedules Timer(tag) of node i rounds ahead.
func (e *Engine) setTimer(i int32, rounds, tag int64) {
	switch _, ok := e.nodes[i].(elect.TimerNode); {
	case rounds < 0:
		e.mon.Violate(election.PropBadTimer, fmt.Sprintf("node %d set a timer for %d rounds; a timer cannot fire in the past", i, rounds), i)
	case !ok:
		e.mon.Violate(election.PropBadTimer, fmt.Sprintf("node %d set a timer but cannot receive one", i), i)
	case rounds > (math.MaxInt64-e.now)/e.unit:
		e.mon.Violate(election.PropTimeOverflow, fmt.Sprintf("node %d set a timer %d rounds ahead, past the largest representable time", i, rounds), i)
		e.stepLimit = true
	case e.replay != nil:
		e.seq++
		e.replayTimers[i] = append(e.replayTimers[i], event{at: e.now + rounds*e.unit, kind: kindTimer, node: i, tag: tag, seq: e.seq})
	default:
		e.push(event{at: e.now + rounds*e.unit, kind: kindTimer, node: i, tag: tag})
	}
}

// view is how the monitor reads the nodes to check symmetry.
func (e *Engine) view() election.NodeView {
	return election.NodeView{N: e.n, Node: func(i int) elect.Node { return e.nodes[i] }, SameStatus: func(i int) bool {
		return e.woken[i] == e.woken[0] && e.halted[i] == e.halted[0]
	}}
}

// before is the queue's order.
func (e *Engine) before(a, b *event) bool {
	if e.newest {
		ad, bd := a.kind == kindDeliver, b.kind == kindDeliver
		switch {
		case ad && bd:
			return a.seq > b.seq // the most recently sent first
		case ad != bd:
			return bd // wake-ups and timers before any delivery
		}
	}
	if a.at != b.at {
		return a.at < b.at
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.seq < b.seq
}

// eventBytes is the memory of one entry of the queue.
const eventBytes = int64(unsafe.Sizeof(event{}))

// push queues ev. A queue that would grow beyond Config.MaxQueueBytes (by
// the capacity of its arrays, the old and the new one while it grows) does
// not: ev is not kept and the run stops with outcome memory-limit.
func (e *Engine) push(ev event) {
	if limit := e.cfg.MaxQueueBytes; limit > 0 && len(e.queue) == cap(e.queue) {
		// While the queue is copied, its array and the new one are both
		// held.
		room := int(limit/eventBytes) - cap(e.queue)
		if e.memoryLimit || room <= len(e.queue) {
			e.memoryLimit, e.stopped = true, true
			return
		}
		grown := make([]event, len(e.queue), min(2*len(e.queue)+16, room))
		copy(grown, e.queue)
		e.queue = grown
	}
	e.seq++
	ev.seq = e.seq
	e.queue = append(e.queue, ev)
	for k := len(e.queue) - 1; k > 0; {
		parent := (k - 1) / 2
		if !e.before(&e.queue[k], &e.queue[parent]) {
			break
		}
		e.queue[k], e.queue[parent] = e.queue[parent], e.queue[k]
		k = parent
	}
}

func (e *Engine) pop() event {
	q := e.queue
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	for k := 0; ; {
		c := 2*k + 1
		if c >= len(q) {
			break
		}
		if c+1 < len(q) && e.before(&q[c+1], &q[c]) {
			c++
		}
		if !e.before(&q[c], &q[k]) {
			break
		}
		q[k], q[c] = q[c], q[k]
		k = c
	}
	e.queue = q
	return top
}
