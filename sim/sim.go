// Package sim is the deterministic discrete-event simulator: it runs the
// nodes of one algorithm on one network under one delivery model, monitors
// the election at every step, and measures messages, bits and time.
//
// Events are totally ordered by (time, kind, creation order), every random
// choice comes from streams derived from one master seed, and no map order or
// goroutine timing reaches a result: the same Config gives the same Result
// and the same trace, byte for byte. Idle time is skipped, never looped over.
package sim

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"
	"unsafe"

	"github.com/electkit/elect"
	"github.com/electkit/elect/topology"
)

// DefaultMaxEvents is the event limit of a run when none is given.
const DefaultMaxEvents = 10_000_000_000

// Config is one run: an algorithm on a network with IDs, a delivery model,
// the wake-up schedule, and a master seed.
type Config struct {
	Algorithm *elect.Algorithm
	Graph     *topology.Graph
	IDs       []elect.ID // by node index
	Delivery  Delivery
	// Wake lists the initiators and their spontaneous wake-up times (rounds
	// or time units); nil means every node wakes at time 0.
	Wake     []Wake
	Announce bool
	Params   elect.Params
	Seed     uint64
	// MaxEvents stops the run with outcome step-limit (0: DefaultMaxEvents).
	MaxEvents int64
	// MaxTime stops the run with outcome step-limit when the next event is
	// later than this many rounds or time units (0: no limit).
	MaxTime int64
	// DetectSymmetry makes a synchronous run check after every round whether
	// all nodes are in the same state (Fingerprinter), and stop with outcome
	// symmetric if they all elect themselves or the run ends so.
	DetectSymmetry bool
	// Trace, when not nil, receives one JSON line per event.
	Trace io.Writer
}

// Wake is one initiator: node index Node wakes spontaneously at time At.
type Wake struct {
	Node int
	At   int64
}

// Outcome is how a run ended.
type Outcome string

// The outcomes.
const (
	OutcomeElected   Outcome = "elected"          // exactly one leader, every promise held
	NoLeader         Outcome = "no-leader"        // the run ended with no leader
	MultipleLeaders  Outcome = "multiple-leaders" // two or more nodes were elected
	Symmetric        Outcome = "symmetric"        // an anonymous run stayed symmetric
	StepLimit        Outcome = "step-limit"       // a configured limit stopped the run
	OutcomeViolation Outcome = "violation"        // a promised property failed (see Violation)
)

// Check is one verified property: a declared bound or a monitor property.
type Check struct {
	Name     string  `json:"name"`
	Relation string  `json:"relation"`
	Expected float64 `json:"expected"`
	Actual   float64 `json:"actual"`
	Holds    bool    `json:"holds"`
}

// Result is what a run produced.
type Result struct {
	Outcome   Outcome `json:"outcome"`
	Violation string  `json:"violation,omitempty"`
	// LeaderIndex and LeaderID identify the leader (the first elected node
	// when there are several; -1 when none).
	LeaderIndex    int              `json:"leader_index"`
	LeaderID       elect.ID         `json:"leader_id"`
	Leaders        int              `json:"leaders"`
	Messages       int64            `json:"messages"`
	MessagesByType map[string]int64 `json:"messages_by_type"`
	Bits           int64            `json:"bits"`
	// Time is the time of the last event: rounds in the synchronous model,
	// time units (largest delay = 1) in the asynchronous ones.
	Time            float64 `json:"time"`
	AllKnowLeader   bool    `json:"all_know_leader"`
	MaxNodeMessages int64   `json:"max_node_messages"`
	Events          int64   `json:"events"`
	// SymmetricRound is the round after which a symmetric run was stopped.
	SymmetricRound int64   `json:"symmetric_round,omitempty"`
	Checks         []Check `json:"checks"`

	// TypeCounts counts messages by MsgType.
	TypeCounts []int64 `json:"-"`
}

// Run executes cfg to its end and returns the result. It returns an error
// only for a malformed Config (a caller's bug or unchecked input); everything
// the algorithm does wrong is reported in the Result.
func Run(cfg Config) (*Result, error) {
	e, err := newEngine(&cfg)
	if err != nil {
		return nil, err
	}
	e.loop()
	r := e.finish()
	e.releaseBuffers()
	if e.trace != nil {
		if err := e.trace.flush(); err != nil {
			return r, fmt.Errorf("sim: writing the trace: %w", err)
		}
	}
	return r, nil
}

// peer is the rest of the simulator's record of one node besides its status:
// the node (which deliveries read here only when the nodes are not one
// array, see engine.node) and its decision.
type peer struct {
	node     elect.Node
	decision elect.Decision
}

// status is the simulator's record of one node that every delivery and send
// reads and writes: whether the node is woken and halted (the low two bits)
// and how many messages it has sent (the rest). It is eight bytes: when the
// nodes are one array (elect.NodeArray), each node's status is its runtime
// word, in the node's own cache line, so that a delivery to a node whose
// state is not in cache costs one miss, not two; otherwise the statuses are
// an array of their own (engine.st).
type status uint64

const (
	statusWoken  status = 1
	statusHalted status = 2
	statusSent   status = 4 // one message sent
)

func (st status) awake() bool { return st&(statusWoken|statusHalted) == statusWoken }

// engine is the state of one run. It is the Env of every node: current is the
// node whose input is being handled.
type engine struct {
	cfg   *Config
	alg   *elect.Algorithm
	g     *topology.Graph
	n     int
	ids   []elect.ID
	peers []peer
	// statusBase and statusStride place node i's status at statusBase +
	// i*statusStride: in the node array's runtime words, or in the array
	// status when the nodes are not one array.
	statusBase   unsafe.Pointer
	statusStride uintptr
	statusInNode bool // the statuses are the nodes' runtime words
	status       []status
	// nodes is the array NewAll built the nodes in, if it did. When they
	// are all of one type (nodeType, the interface's type word), a delivery
	// rebuilds node i's interface value from its address, firstNode + i *
	// nodeSize, instead of reading peers[i] (a cache miss less per delivery
	// on networks larger than the cache).
	nodes     elect.NodeArray
	nodeType  unsafe.Pointer
	firstNode unsafe.Pointer
	nodeSize  uintptr
	knows     []elect.ID // leader ID each node has learned; -1: none
	uniRing   bool
	fastRing  bool  // a ring under unit or random delays: Send's fast path
	ringN     int32 // n on rings (neighbours computed inline), else 0
	delivery  Delivery

	now        int64
	unit       int64 // ticks per round or time unit
	buf        *buffers
	wheel      *wheel     // random delays
	due, soon  []delivery // unit delays: arriving now, and at now+1
	stack      []delivery // newest-first
	stackDepth []int64    // causal depth of each stacked delivery
	timers     timedHeap
	seq        uint64
	delayRng   *rand.PCG // delays are its outputs mod 1024, as Stream's Uint64N(1024) would give
	linkLast   []int64   // random-fifo: latest arrival per port
	linkLastM  map[int64]int64
	maxEvents  int64
	maxTicks   int64

	wakeNext int // next node to wake when all wake at time 0 (n: done)
	current  int32
	depth    []int64 // newest-first: causal depth reached by each node
	maxDepth int64
	lastAt   int64

	typeCounts []int64
	events     int64
	elected    int
	leader     int32
	violation  string
	stepLimit  bool
	symmetric  bool
	symRound   int64
	symBroken  bool
	rngs       []*rand.Rand
	// minSpontID is the smallest ID of a node that woke spontaneously.
	minSpontID elect.ID
	// cancelSeq[i]: node i's timers created at or before this sequence
	// number are cancelled (nil until a node cancels).
	cancelSeq []uint64
	trace     *tracer
	// touchAhead is how many deliveries ahead touch looks (0: it is not
	// used, the network's state fits in cache).
	touchAhead int
}

func newEngine(cfg *Config) (*engine, error) {
	alg, g := cfg.Algorithm, cfg.Graph
	if alg == nil || g == nil {
		return nil, fmt.Errorf("sim: config needs an algorithm and a graph")
	}
	n := g.N
	if len(cfg.IDs) != n {
		return nil, fmt.Errorf("sim: %d IDs for %d nodes", len(cfg.IDs), n)
	}
	buf, _ := runBuffers.Get().(*buffers)
	if buf == nil {
		buf = new(buffers)
	}
	e := &engine{
		buf: buf, cfg: cfg, alg: alg, g: g, n: n, ids: cfg.IDs,
		uniRing:    alg.Model.Topology == elect.UniRing,
		delivery:   cfg.Delivery,
		typeCounts: make([]int64, len(alg.Messages)),
		leader:     -1,
		minSpontID: math.MaxInt64,
		maxEvents:  cfg.MaxEvents,
		maxTicks:   math.MaxInt64,
		unit:       1,
	}
	if e.maxEvents <= 0 {
		e.maxEvents = DefaultMaxEvents
	}
	e.peers = grow(buf.peers, n) // zero: released buffers are cleared
	e.knows = grow(buf.knows, n)
	if int64(n)*int64(unsafe.Sizeof(status(0))+uintptr(max(alg.NodeBytes, 8))) > touchBytes {
		// Far ahead in the long lists of unit delays, nearer in the short
		// buckets of random delays (distances tried on HS and Franklin at
		// n = 10^6: 4, 8, 16).
		e.touchAhead = 4
		if cfg.Delivery == Sync || cfg.Delivery == FIFO {
			e.touchAhead = 16
		}
	}
	if g.Kind == topology.Ring {
		e.ringN = int32(n)
		e.fastRing = cfg.Delivery == Sync || cfg.Delivery == FIFO || cfg.Delivery == Random
	}
	switch cfg.Delivery {
	case Sync, FIFO:
		e.due, e.soon = buf.due[:0], buf.soon[:0]
		if e.due == nil {
			e.due = make([]delivery, 0, min(n, 1<<18))
			e.soon = make([]delivery, 0, min(n, 1<<18))
		}
	case Random, RandomFIFO:
		e.unit = randomDelayTicks
		e.wheel = buf.wheel // empty, its buckets' arrays kept
		if e.wheel == nil {
			e.wheel = newWheel(randomDelayTicks)
		}
		e.delayRng = streamSource(cfg.Seed, "delivery", 0)
		if cfg.Delivery == RandomFIFO {
			if p := g.Ports(); p <= 1<<24 {
				e.linkLast = make([]int64, p)
			} else {
				e.linkLastM = make(map[int64]int64)
			}
		}
	case NewestFirst:
		e.depth = make([]int64, n)
	default:
		return nil, fmt.Errorf("sim: unknown delivery model %d", cfg.Delivery)
	}
	if cfg.MaxTime > 0 && cfg.MaxTime < math.MaxInt64/e.unit {
		e.maxTicks = cfg.MaxTime * e.unit
	}
	if cfg.Trace != nil {
		e.trace = newTracer(cfg.Trace, e)
	}
	for i := range e.knows {
		e.knows[i] = -1
	}
	base := elect.NodeInfo{Degree: g.Degree(0), Announce: cfg.Announce, Params: cfg.Params}
	if alg.Model.KnowsN {
		base.N = n
	}
	regular := g.Kind != topology.General
	info := func(i int) elect.NodeInfo {
		info := base
		info.ID = cfg.IDs[i]
		if !regular {
			info.Degree = g.Degree(i)
		}
		return info
	}
	if alg.NewAll != nil {
		nodes := grow(buf.nodes, n)
		e.nodes = alg.NewAll(nodes, info)
		e.firstNode, e.nodeSize = e.nodes.Layout()
		if n > 0 {
			e.nodeType = ifaceWords(&nodes[0])[0]
		}
		for i := range nodes {
			e.peers[i].node = nodes[i]
			if w := ifaceWords(&nodes[i]); w[0] != e.nodeType || w[1] != unsafe.Add(e.firstNode, uintptr(i)*e.nodeSize) {
				e.firstNode = nil // not the promised layout: go through peers
			}
		}
		clear(nodes)
		buf.nodes = nodes
	} else {
		for i := range n {
			e.peers[i].node = alg.New(info(i))
		}
	}
	if w := e.nodes; e.firstNode != nil && w.Words() != nil {
		e.statusBase, e.statusStride, e.statusInNode = w.Words(), e.nodeSize, true
	} else if n > 0 {
		e.status = grow(buf.status, n)
		e.statusBase, e.statusStride = unsafe.Pointer(&e.status[0]), unsafe.Sizeof(status(0))
	}
	if cfg.Wake == nil {
		e.wakeNext = 0 // every node wakes at time 0, in index order, before any other event
	} else {
		e.wakeNext = n
		for _, w := range cfg.Wake {
			if w.Node < 0 || w.Node >= n || w.At < 0 || w.At > math.MaxInt64/e.unit {
				return nil, fmt.Errorf("sim: wake-up of node %d at %d is out of range", w.Node, w.At)
			}
			e.pushTimed(w.At*e.unit, kindWake, int32(w.Node), 0)
		}
	}
	return e, nil
}

// buffers are the per-node and per-message arrays of a run, kept from one
// run to the next (runBuffers) so that a sweep of many runs does not
// allocate, clear and collect them every time. A run takes them zeroed and
// clears them when it is done, so nothing of one run reaches another and no
// node is kept alive.
type buffers struct {
	peers     []peer
	status    []status
	knows     []elect.ID
	nodes     []elect.Node
	due, soon []delivery
	wheel     *wheel
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
	if e.nodes != nil {
		e.nodes.Release()
		e.nodes, e.firstNode = nil, nil
	}
	clear(e.peers)
	clear(e.knows)
	b.peers, b.knows = e.peers, e.knows
	if e.status != nil {
		clear(e.status)
		b.status = e.status
	}
	e.statusBase, e.statusInNode = nil, false
	if e.due != nil {
		b.due, b.soon = e.due[:0], e.soon[:0]
	}
	if e.wheel != nil {
		e.wheel.clear()
		b.wheel = e.wheel
	}
	e.buf, e.peers, e.status, e.knows, e.due, e.soon, e.wheel = nil, nil, nil, nil, nil, nil, nil
	runBuffers.Put(b)
}

func (e *engine) pushTimed(at int64, kind uint64, node int32, tag int64) {
	e.seq++
	e.timers.push(timed{at: at, ord: kind<<56 | e.seq, node: node, tag: tag})
}

// loop processes events in order until none is left or a limit is reached.
func (e *engine) loop() {
	for e.wakeNext < e.n {
		if !e.countEvent() {
			return
		}
		i := e.wakeNext
		e.wakeNext++
		e.fire(timed{ord: kindWake << 56, node: int32(i)})
	}
	switch e.delivery {
	case Sync, FIFO:
		e.unitLoop()
	case Random, RandomFIFO:
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
			return
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
			return
		}
		var due []delivery
		if bk != nil && at == next {
			due = bk.items
			if e.touchAhead > 0 {
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

// instant runs everything due at time next, in the total order (time, kind,
// creation): the wake-ups due then, the deliveries due (in sending order),
// then the timers. It reports false when the run must stop.
func (e *engine) instant(next int64, due []delivery) bool {
	if next > e.maxTicks {
		e.stepLimit = true
		return false
	}
	if e.cfg.DetectSymmetry && next > e.now && !e.symBroken && e.checkSymmetry() {
		return false
	}
	e.now = next
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
		for k := range due {
			if a := e.touchAhead; a > 0 && k+a < len(due) {
				e.touch(due[k+a/2].to, due[k+a].to)
			}
			// The common case inline: an awake receiver, no trace.
			d := &due[k]
			if e.st(d.to).awake() && e.trace == nil {
				e.current = d.to
				e.lastAt = e.now
				e.node(d.to).Receive(e, d.port, d.msg)
				continue
			}
			e.deliver(d)
		}
	} else {
		for k := range due {
			if !e.countEvent() {
				return false
			}
			e.deliver(&due[k])
		}
	}
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
			if e.cfg.DetectSymmetry && at > e.now && !e.symBroken && e.checkSymmetry() {
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
		d := &e.stack[last]
		depth := e.stackDepth[last]
		e.stack = e.stack[:last]
		e.stackDepth = e.stackDepth[:last]
		if depth > e.depth[d.to] {
			e.depth[d.to] = depth
		}
		e.maxDepth = max(e.maxDepth, depth)
		e.deliver(d)
	}
}

// dropCancelledTimers pops the cancelled timers at the top of the heap.
func (e *engine) dropCancelledTimers() {
	for len(e.timers) > 0 && e.cancelled(&e.timers[0]) {
		e.timers.pop()
	}
}

// touchBytes is the size of the nodes' state beyond which deliveries
// prefetch (touch) what the coming ones need: twice what the L2 cache of
// the development machine holds (below it, prefetching only costs: at
// 10^4 nodes of 128 bytes it made random delays 25% slower).
const touchBytes = 4 << 20

// touch prefetches what the deliveries to nodes soon and later will read.
// On large networks a delivery's cost is its cache misses, since receivers
// come in sending order, not memory order (under random delays, in random
// order); fetching what the next deliveries need while this one runs lets
// their misses overlap. When the nodes are one array (NodeArray), a node's
// address is known from its index: touch fetches later's node and status
// (side by side in its slot when the status is the node's runtime word).
// Otherwise the node is found through its peer record: later's record comes
// first, so that it is in cache when later becomes soon and its node pointer
// is read.
func (e *engine) touch(soon, later int32) {
	if e.statusInNode {
		// The slot's first and last bytes: one cache line, or two when
		// it straddles a line boundary.
		w := unsafe.Pointer(e.st(later))
		prefetch(w)
		prefetch(unsafe.Add(w, e.nodeSize-1))
		return
	}
	prefetch(unsafe.Pointer(e.st(later)))
	if e.firstNode != nil {
		prefetch(unsafe.Add(e.firstNode, uintptr(later)*e.nodeSize))
		return
	}
	prefetch(unsafe.Pointer(&e.peers[later]))
	prefetch(e.nodeData(soon))
}

// st is node i's status.
func (e *engine) st(i int32) *status {
	return (*status)(unsafe.Add(e.statusBase, uintptr(i)*e.statusStride))
}

// nodeData is the address of node i's state: its interface's data word.
func (e *engine) nodeData(i int32) unsafe.Pointer {
	if e.firstNode != nil {
		return unsafe.Add(e.firstNode, uintptr(i)*e.nodeSize)
	}
	return ifaceWords(&e.peers[i].node)[1]
}

// node returns node i. When the nodes are one array of one type, it builds
// the interface value from the type word and the node's address, which is
// what peers[i].node holds, without reading it.
func (e *engine) node(i int32) elect.Node {
	if e.firstNode == nil {
		return e.peers[i].node
	}
	var v elect.Node
	w := ifaceWords(&v)
	w[0], w[1] = e.nodeType, unsafe.Add(e.firstNode, uintptr(i)*e.nodeSize)
	return v
}

// ifaceWords views an interface value as its two machine words: type (or
// itab) and data pointer, the layout of every Go implementation so far.
// newEngine checks it against the nodes NewAll built before relying on it.
func ifaceWords(v *elect.Node) *[2]unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(v))
}

// touchWheel is touch across the buckets of random delays, which hold few
// deliveries each: while the bucket of time at is handled, it prefetches
// the nodes of the receivers in the next occupied bucket (their records were
// fetched at the previous instant) and the records of those in the one
// after.
func (e *engine) touchWheel(at int64) {
	w := e.wheel
	b1, t1 := w.next(at + 1)
	if t1 <= at || t1 > at+randomDelayTicks {
		return // nothing pending after this bucket
	}
	for _, d := range b1.items[:min(len(b1.items), touchWheelItems)] {
		prefetch(e.nodeData(d.to))
	}
	b2, t2 := w.next(t1 + 1)
	if t2 <= t1 || t2 > at+randomDelayTicks {
		return
	}
	for _, d := range b2.items[:min(len(b2.items), touchWheelItems)] {
		prefetch(unsafe.Pointer(e.st(d.to)))
		if e.firstNode == nil {
			prefetch(unsafe.Pointer(&e.peers[d.to]))
		}
	}
}

// touchWheelItems is how many deliveries of a bucket touchWheel prefetches
// for.
const touchWheelItems = 8

// countEvent counts one more event, or reports false and marks the run
// stopped if the event limit has been reached.
func (e *engine) countEvent() bool {
	if e.events >= e.maxEvents {
		e.stepLimit = true
		return false
	}
	e.events++
	return true
}

func (e *engine) fire(t timed) {
	i := t.node
	if *e.st(i)&statusHalted != 0 {
		return
	}
	e.current = i
	if t.ord>>56 == kindWake {
		if *e.st(i)&statusWoken != 0 {
			return
		}
		*e.st(i) |= statusWoken
		e.minSpontID = min(e.minSpontID, e.ids[i])
		e.lastAt = e.now
		if e.trace != nil {
			e.trace.wake(i, true)
		}
		e.peers[i].node.Wake(e, true)
		return
	}
	e.lastAt = e.now
	if e.trace != nil {
		e.trace.timer(i, t.tag)
	}
	e.peers[i].node.(elect.TimerNode).Timer(e, t.tag)
}

// deliver hands d's message to its receiver. d points into a queue; its
// fields are read before the receiver runs (its sends may reuse the slot).
func (e *engine) deliver(d *delivery) {
	i, port, msg := d.to, d.port, d.msg
	if *e.st(i)&statusHalted != 0 {
		if e.trace != nil {
			e.trace.deliver(d, true)
		}
		return
	}
	e.current = i
	e.lastAt = e.now
	if *e.st(i)&statusWoken == 0 {
		*e.st(i) |= statusWoken
		if e.trace != nil {
			e.trace.wake(i, false)
		}
		e.peers[i].node.Wake(e, false)
		if *e.st(i)&statusHalted != 0 {
			return
		}
	}
	if e.trace != nil {
		e.trace.deliver(d, false)
	}
	e.peers[i].node.Receive(e, port, msg)
}

// Send implements elect.Env. It is the simulator's hot path: on rings under
// unit or random delays the common case is handled here (send does the
// rest).
func (e *engine) Send(p elect.Port, m elect.Message) {
	if !e.fastRing || int(m.Type) >= len(e.typeCounts) {
		e.send(p, m)
		return
	}
	i := e.current
	to, q := i+1, elect.Right
	switch {
	case p == elect.Left:
		if to == e.ringN {
			to = 0
		}
	case p == elect.Right && !e.uniRing:
		to, q = i-1, elect.Left
		if to < 0 {
			to = e.ringN - 1
		}
	default:
		e.send(p, m)
		return
	}
	e.typeCounts[m.Type]++
	e.countSent(i)
	if e.wheel != nil {
		e.wheel.push(e.now+1+int64(e.delayRng.Uint64()&(randomDelayTicks-1)), to, q, m)
		return
	}
	e.soon = appendDelivery(e.soon, to, q, m)
}

// send is Send in general: on rings the neighbour is computed inline, and
// the message is written straight into its list or bucket.
func (e *engine) send(p elect.Port, m elect.Message) {
	i := e.current
	var to int32
	var q elect.Port
	if e.ringN > 0 {
		switch p {
		case elect.Left:
			to, q = i+1, elect.Right
			if to == e.ringN {
				to = 0
			}
		case elect.Right:
			if e.uniRing {
				e.violate("against-direction", fmt.Sprintf("node %d sent counterclockwise on a unidirectional ring", i))
				return
			}
			to, q = i-1, elect.Left
			if to < 0 {
				to = e.ringN - 1
			}
		default:
			e.violate("bad-port", fmt.Sprintf("node %d sent on port %d, which it does not have", i, p))
			return
		}
	} else {
		if p < 0 || int(p) >= e.g.Degree(int(i)) {
			e.violate("bad-port", fmt.Sprintf("node %d sent on port %d, which it does not have", i, p))
			return
		}
		to, q = e.g.Neighbor(i, p)
	}
	if int(m.Type) >= len(e.typeCounts) {
		e.violate("bad-message-type", fmt.Sprintf("node %d sent undeclared message type %d", i, m.Type))
		return
	}
	e.typeCounts[m.Type]++
	e.countSent(i)
	var at int64
	switch e.delivery {
	case Sync, FIFO:
		e.soon = appendDelivery(e.soon, to, q, m)
		return
	case Random:
		at = e.now + 1 + int64(e.delayRng.Uint64()&(randomDelayTicks-1))
	case RandomFIFO:
		at = e.now + 1 + int64(e.delayRng.Uint64()&(randomDelayTicks-1))
		k := e.g.PortIndex(i, p)
		if e.linkLast != nil {
			at = max(at, e.linkLast[k])
			e.linkLast[k] = at
		} else {
			at = max(at, e.linkLastM[k])
			e.linkLastM[k] = at
		}
	case NewestFirst:
		e.stack = append(e.stack, delivery{to: to, port: q, msg: m})
		e.stackDepth = append(e.stackDepth, e.depth[i]+1)
		return
	}
	e.wheel.push(at, to, q, m)
}

// countSent counts one more message sent by node i (the count has 62 bits:
// at the simulator's speed, centuries of sending).
func (e *engine) countSent(i int32) { *e.st(i) += statusSent }

// sent returns how many messages node i has sent.
func (e *engine) sent(i int32) int64 { return int64(*e.st(i) / statusSent) }

// Decide implements elect.Env: it is where the monitor sees every decision.
func (e *engine) Decide(d elect.Decision) {
	i := e.current
	old := e.peers[i].decision
	if old == d {
		return
	}
	if old != elect.Undecided {
		e.violate("decision-changed", fmt.Sprintf("node %d changed its decision from %s to %s at time %s", i, old, d, e.formatTime(e.now)))
		return
	}
	e.peers[i].decision = d
	if d == elect.Elected {
		e.elected++
		if e.leader < 0 {
			e.leader = i
		}
		if e.cfg.Algorithm.Model.Elects != elect.ElectsAnyKnowsMax {
			e.knows[i] = e.ids[i] // such a leader records the maximum itself
		}
	}
	if e.trace != nil {
		e.trace.decide(i, d)
	}
}

// SetLeader implements elect.Env.
func (e *engine) SetLeader(id elect.ID) {
	e.knows[e.current] = id
	if e.trace != nil {
		e.trace.learn(e.current, id)
	}
}

// SetTimer implements elect.Env.
func (e *engine) SetTimer(rounds int64, tag int64) {
	if rounds < 1 {
		e.violate("bad-timer", fmt.Sprintf("node %d set a timer for %d rounds; timers need at least 1", e.current, rounds))
		return
	}
	if _, ok := e.peers[e.current].node.(elect.TimerNode); !ok {
		e.violate("bad-timer", fmt.Sprintf("node %d set a timer but cannot receive one", e.current))
		return
	}
	if rounds > (math.MaxInt64-e.now)/e.unit {
		e.violate("time-overflow", fmt.Sprintf("node %d set a timer %d rounds ahead, past the largest representable time", e.current, rounds))
		e.stepLimit = true
		return
	}
	e.pushTimed(e.now+rounds*e.unit, kindTimer, e.current, tag)
}

// Round implements elect.Env.
func (e *engine) Round() int64 { return e.now / e.unit }

// Rand implements elect.Env: each node has its own stream, made on first use.
func (e *engine) Rand() *rand.Rand {
	if e.rngs == nil {
		e.rngs = make([]*rand.Rand, e.n)
	}
	r := e.rngs[e.current]
	if r == nil {
		r = Stream(e.cfg.Seed, "node", uint64(e.current))
		e.rngs[e.current] = r
	}
	return r
}

// CancelTimers implements elect.TimerCanceler: the current node's pending
// timers are dropped without firing, so they are neither events nor time.
func (e *engine) CancelTimers() {
	if e.cancelSeq == nil {
		e.cancelSeq = make([]uint64, e.n)
	}
	e.cancelSeq[e.current] = e.seq
}

// cancelled reports whether t is a timer its node has cancelled.
func (e *engine) cancelled(t *timed) bool {
	return e.cancelSeq != nil && t.ord>>56 == kindTimer && t.ord&(1<<56-1) <= e.cancelSeq[t.node]
}

// Terminate implements elect.Env.
func (e *engine) Terminate() {
	*e.st(e.current) |= statusHalted
	if e.trace != nil {
		e.trace.halt(e.current)
	}
}

func (e *engine) violate(name, msg string) {
	if e.violation == "" {
		e.violation = name + ": " + msg
	}
	if e.trace != nil {
		e.trace.violation(name, msg)
	}
}

func (e *engine) formatTime(ticks int64) string {
	if e.unit == 1 {
		return fmt.Sprint(ticks)
	}
	return fmt.Sprint(float64(ticks) / float64(e.unit))
}

// checkSymmetry runs between two instants of a synchronous run: it reports
// whether the run must stop because it stayed symmetric up to a point where
// every node elected itself.
func (e *engine) checkSymmetry() bool {
	first, ok := e.peers[0].node.(elect.Fingerprinter)
	if !ok {
		e.symBroken = true
		return false
	}
	fp := first.Fingerprint()
	for i := 1; i < e.n; i++ {
		f, ok := e.peers[i].node.(elect.Fingerprinter)
		if !ok || f.Fingerprint() != fp || e.peers[i].decision != e.peers[0].decision || (*e.st(int32(i))^*e.st(0))&(statusWoken|statusHalted) != 0 {
			e.symBroken = true
			return false
		}
	}
	e.symRound = e.now / e.unit
	if e.peers[0].decision == elect.Elected && e.n > 1 {
		e.symmetric = true
		return true
	}
	return false
}
