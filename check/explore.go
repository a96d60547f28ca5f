package check

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/topology"
)

// step is one choice of the scheduler: a spontaneous wake-up, or the
// delivery of a message in flight to node Node on its port Port (under FIFO
// the link's oldest; under bag the k-th distinct message on the link).
type step struct {
	wake bool
	node int32
	port elect.Port
	k    int
	// fault, when not 0, makes the step a fault move (see faults.go):
	// a crash of node (before any step of the run, or right after the
	// step described), or the loss of the message the step would deliver.
	fault uint8
}

// flight is a message in flight with its causal depth, and the message's
// digest (messageDigest), which the hashes of links and moves take in
// place of its four words.
type flight struct {
	msg    elect.Message
	depth  int64
	digest stateKey
}

// messageDigest hashes a message's contents (the same message on any link,
// at any depth, has the same digest). Two distinct messages have the same
// digest with probability about 2^-128, so a hash that takes the digest
// in place of the message is as good as one that takes the message.
func messageDigest(m elect.Message) stateKey {
	return newHasher(messageTag, uint64(m.Type)).pair(uint64(m.ID), uint64(m.A)).pair(uint64(m.B), 0).sum()
}

// snapNode is a node whose state the checker can copy and encode (every
// shipped algorithm's; Run refuses others).
type snapNode interface {
	elect.Node
	elect.Snapshotter
}

// state is a global state of the network.
type state struct {
	nodes   []snapNode
	woken   []bool
	halted  []bool
	pending []bool // initiators that have not woken spontaneously yet
	dec     []elect.Decision
	knows   []elect.ID
	depth   []int64
	links   [][]flight // by receiving port, Graph.PortIndex
	elected int
	rngs    []rand.PCG // each node's random stream (randomized algorithms)
	drawn   int        // draws made so far (draws mode, see draws.go)
	// stopped says a node's code panicked: the execution ends there, as
	// on every engine (a violation, so the search never goes on from it).
	stopped bool
	// Fault exploration (see faults.go): the nodes crashed, the crashes
	// and losses so far, the first node elected (-1: none), and each
	// elected node's largest and smallest ID up when it was elected.
	crashed             []bool
	crashes, lost, dups int
	first               int32
	electHi, electLo    []elect.ID
	// The hashes of the state's parts (see keys): each node's and each
	// link's behaviour and depths, and their sums, which apply keeps up to
	// date for the parts a step changes and restore puts back.
	nodeH, nodeD, linkH, linkD []stateKey
	sumH, sumD                 stateKey
}

// keys returns the state's behaviour (node states, flags, decisions,
// learned leaders, random streams and every link's contents; under bag
// each link's messages sorted, as their order is no part of the state) and
// the full state (the behaviour with each node's and each message's causal
// depth). Nodes never see depths, so the behaviour says what can happen
// next: a path that returns to a behaviour it has been in can go round for
// ever.
//
// Each is the sum, word by word modulo 2^64, of the 128-bit hashes of the
// state's parts (a node's part encodes its index, a link's its key), so a
// step rehashes only the node it ran and the links it changed. Two
// distinct states have equal sums when the differences of their parts'
// hashes cancel, which for hashes with random seeds happens with
// probability about 2^-128 per pair, as for one hash of the whole state.
func (m *model) keys(s *state) (behaviour, full stateKey) { return keysOf(s.sumH, s.sumD) }

// keysOf returns the keys of a state whose parts' hashes sum to sumH
// (behaviour) and sumD (depths).
func keysOf(sumH, sumD stateKey) (behaviour, full stateKey) {
	return sumH, stateKey{sumH.a ^ sumD.a*0x9e3779b97f4a7c15, (sumH.b ^ (sumD.b<<1 | sumD.b>>63)) | 1}
}

// The kinds of a state's parts, which start their hashes.
const (
	nodeTag uint64 = iota + 1
	nodeDepthTag
	linkTag
	linkDepthTag
	drawnTag
	messageTag
	faultTag
)

// nodePart hashes node i's part of the state: behaviour and depth.
func (m *model) nodePart(s *state, i int) (h, d stateKey) {
	b := s.nodes[i].AppendState(m.buf[:0])
	flags := uint64(s.dec[i])
	if s.woken[i] {
		flags |= 4
	}
	if s.halted[i] {
		flags |= 8
	}
	if s.pending[i] {
		flags |= 16
	}
	hb := m.nodeBase[i].pair(flags, uint64(s.knows[i]))
	if m.crashK > 0 {
		if s.crashed[i] {
			flags |= 32
		}
		hb = hb.pair(flags, uint64(s.electHi[i])).pair(uint64(s.electLo[i]), 0)
	}
	if m.random {
		b, _ = s.rngs[i].AppendBinary(b)
	}
	m.buf = b
	return hb.bytes(b).sum(), m.nodeDepth(int32(i), s.depth[i])
}

// linkPart hashes link key's part of the state; an empty link's is zero.
func (m *model) linkPart(s *state, key int64) (h, d stateKey) {
	return m.linkHash(key, s.links[key])
}

// linkHash hashes link key's part of the state when it holds l.
func (m *model) linkHash(key int64, l []flight) (h, d stateKey) {
	if len(l) == 0 {
		return stateKey{}, stateKey{}
	}
	if m.bag && len(l) > 1 { // sorted in a buffer: the link's own order is kept
		m.sorted = append(m.sorted[:0], l...)
		sortFlights(m.sorted)
		l = m.sorted
	}
	hb, hd := m.linkBase[key], m.linkDepthBase[key].pair(uint64(len(l)), 0)
	for _, f := range l {
		hb = hb.pair(f.digest.a, f.digest.b)
		hd = hd.pair(uint64(f.depth), 0)
	}
	return hb.pair(uint64(len(l)), 0).sum(), hd.sum()
}

func addKey(x, y stateKey) stateKey { return stateKey{x.a + y.a, x.b + y.b} }
func subKey(x, y stateKey) stateKey { return stateKey{x.a - y.a, x.b - y.b} }

// rehashAll computes every part's hash and the sums (a new state).
func (m *model) rehashAll(s *state) {
	s.nodeH, s.nodeD = make([]stateKey, len(s.nodes)), make([]stateKey, len(s.nodes))
	s.linkH, s.linkD = make([]stateKey, len(s.links)), make([]stateKey, len(s.links))
	s.sumH, s.sumD = stateKey{}, stateKey{}
	for i := range s.nodes {
		s.nodeH[i], s.nodeD[i] = m.nodePart(s, i)
		s.sumH, s.sumD = addKey(s.sumH, s.nodeH[i]), addKey(s.sumD, s.nodeD[i])
	}
	for k := range s.links {
		s.linkH[k], s.linkD[k] = m.linkPart(s, int64(k))
		s.sumH, s.sumD = addKey(s.sumH, s.linkH[k]), addKey(s.sumD, s.linkD[k])
	}
	if m.draws > 0 {
		s.sumH = addKey(s.sumH, drawnPart(s.drawn))
	}
	if m.faulty() {
		s.sumH = addKey(s.sumH, faultPart(s))
	}
}

// rehash updates the hashes after a step of node i that changed the links
// logged from x.linkLog[from] on.
func (m *model) rehash(s *state, i int32, from int) {
	h, d := m.nodePart(s, int(i))
	s.sumH, s.sumD = addKey(subKey(s.sumH, s.nodeH[i]), h), addKey(subKey(s.sumD, s.nodeD[i]), d)
	s.nodeH[i], s.nodeD[i] = h, d
	for j := from; j < len(m.linkLog); j++ {
		key := m.linkLog[j].key
		if slices.ContainsFunc(m.linkLog[from:j], func(u linkUndo) bool { return u.key == key }) {
			continue // rehashed already
		}
		h, d := m.linkPart(s, key)
		s.sumH, s.sumD = addKey(subKey(s.sumH, s.linkH[key]), h), addKey(subKey(s.sumD, s.linkD[key]), d)
		s.linkH[key], s.linkD[key] = h, d
	}
}

// model is one configuration's transition system: what a state is, the
// steps enabled in it and what each does (faults and draws included), the
// properties every step must keep, and the hashes that name a state. It
// changes one state in place and undoes the change (save, restore); it
// knows nothing of the search that drives it (stateSpace).
type model struct {
	cfg      *election.Config
	bag      bool
	announce bool
	promise  elect.ID // the leader's ID the algorithm promises, or -1
	knowsMax elect.ID // what every node must know (ElectsAnyKnowsMax: the max ID)
	// The links a step changed, with their contents before it, so that
	// the search can undo the step (it explores with one state, changed
	// and restored in place).
	linkLog []linkUndo
	// The arrays of links' contents (see flightArena).
	arena flightArena
	// The moves known (see moves.go), by key; the messages the step being
	// made sent, and a buffer for a link's contents.
	moveIdx visitedSet
	moves   []move
	sends   []sendOn
	changed []changedLink
	scratch []flight
	sorted  []flight // linkHash's buffer under bag
	// Draws mode (see draws.go): each draw branches into draws values;
	// executions are cut after maxDraws. script is the branch being made
	// (drawPos the draws taken of it).
	draws, maxDraws int
	script          []int
	drawPos         int
	// The hashes of each node's and link's index, which start their parts'
	// hashes.
	nodeBase, depthBase, linkBase, linkDepthBase []hasher
	nodeDepths                                   [][]stateKey // see nodeDepth
	// Node i's incoming links are links[inLinks[i]:inLinks[i+1]], port
	// by port; link key comes to node linkTo[key] on its port
	// linkPort[key].
	inLinks  []int64
	linkTo   []int32
	linkPort []elect.Port
	// liveIn[i] is how many of node i's incoming links can carry
	// messages: all, but one on a unidirectional ring (its nodes send on
	// one port only, as Route allows, so receive on one).
	liveIn     []int
	quantities int    // nq
	random     bool   // the algorithm draws random numbers
	st         *state // the state whose node is running (Rand)
	cur        int32  // the node running
	buf        []byte
	rec        *elect.Recorder
	// Fault exploration (see faults.go): at most crashK crashes and lossK
	// lost messages in an execution; calls counts each node's handler
	// calls (its steps, as the engines count them for crash:node=I@step=S).
	crashK, lossK, dupK int
	calls               []int64
}

// stateSpace searches the states of one configuration's model: depth
// first, each state once, keeping each state's extremes (visit), with the
// partial-order reduction (choices) and the state limit; it finds the
// executions the report shows (shortest, schedule).
type stateSpace struct {
	model
	reduce bool       // one node's deliveries stand for all where they can (see persistent)
	memo   visitedSet // visited states, by key, to their index
	onPath *pathSet   // the states of the current path, without depths, by their place on it
	// The extremes of each visited state (by index, nq values each): over
	// every execution from it, the messages of each type and in all still
	// to come and the time at the end. The step that leads to each is not
	// kept: schedule finds it again for the few it writes out.
	max, min []int64
	// Draws mode (see draws.go): scriptBufs is a buffer of draw scripts
	// by depth, and weights each visited state's probabilities.
	scriptBufs [][]int
	weights    []weights
	limit      int64
	states     int64
	edges      int64
	longest    int // the longest path visited
	// The first property violated, with the path that reaches it.
	violation string
	path      []step
	badPath   []step
	// Buffers by depth on the path, reused: the steps enabled at a state
	// and the messages a step sent.
	stepBufs [][]step
	sentBufs [][]int64
	loopFrom int  // non-termination: badPath returns to the state after its first loopFrom steps
	full     bool // the state limit was reached
	// shared is the check's progress and stop flag (nil: none), which the
	// search reads every progressEvery states; interrupted says the stop
	// flag ended the search.
	shared      *shared
	interrupted bool
}

type linkUndo struct {
	key        int64
	old        []flight
	oldH, oldD stateKey
}

// undo is what a step may change besides links: node i's part of the state.
type undo struct {
	i                      int32
	node                   snapNode
	arena                  arenaMark
	rng                    rand.PCG
	woken, halted, pending bool
	crashed                bool
	crashes, lost, dups    int
	first                  int32
	electHi, electLo       elect.ID
	dec                    elect.Decision
	knows                  elect.ID
	depth                  int64
	elected, drawn         int
	links                  int // len(linkLog) before the step
	nodeH, nodeD           stateKey
	sumH, sumD             stateKey
}

// save records in u what a step of node i may change.
func (m *model) save(u *undo, s *state, i int32) {
	*u = undo{i: i, node: s.nodes[i], rng: s.rngs[i], woken: s.woken[i], halted: s.halted[i], pending: s.pending[i],
		dec: s.dec[i], knows: s.knows[i], depth: s.depth[i], elected: s.elected, drawn: s.drawn, links: len(m.linkLog), arena: m.arena.mark(),
		nodeH: s.nodeH[i], nodeD: s.nodeD[i], sumH: s.sumH, sumD: s.sumD}
	if s.crashed != nil {
		u.crashed, u.crashes, u.lost, u.dups, u.first, u.electHi, u.electLo = s.crashed[i], s.crashes, s.lost, s.dups, s.first, s.electHi[i], s.electLo[i]
	}
}

// restore undoes a step.
func (m *model) restore(s *state, u *undo) {
	i := u.i
	s.nodes[i], s.rngs[i], s.woken[i], s.halted[i], s.pending[i] = u.node, u.rng, u.woken, u.halted, u.pending
	s.dec[i], s.knows[i], s.depth[i], s.elected, s.drawn = u.dec, u.knows, u.depth, u.elected, u.drawn
	s.nodeH[i], s.nodeD[i], s.sumH, s.sumD = u.nodeH, u.nodeD, u.sumH, u.sumD
	if s.crashed != nil {
		s.crashed[i], s.crashes, s.lost, s.dups, s.first, s.electHi[i], s.electLo[i] = u.crashed, u.crashes, u.lost, u.dups, u.first, u.electHi, u.electLo
	}
	for k := len(m.linkLog) - 1; k >= u.links; k-- {
		l := &m.linkLog[k]
		s.links[l.key], s.linkH[l.key], s.linkD[l.key] = l.old, l.oldH, l.oldD
	}
	m.linkLog = m.linkLog[:u.links]
	m.arena.release(u.arena)
}

// take removes the k-th message in flight on link key and returns it. The
// link's slice may be shared with other states, so the rest is a copy.
func (m *model) take(s *state, key int64, k int) flight {
	m.touch(s, key)
	l := s.links[key]
	f := l[k]
	if len(l) == 1 {
		s.links[key] = nil
	} else {
		rest := m.arena.alloc(len(l) - 1)
		copy(rest, l[:k])
		copy(rest[k:], l[k+1:])
		s.links[key] = rest
	}
	return f
}

// touch records link key's contents before a step changes it.
func (m *model) touch(s *state, key int64) {
	m.linkLog = append(m.linkLog, linkUndo{key: key, old: s.links[key], oldH: s.linkH[key], oldD: s.linkD[key]})
}

// quantities: one per message type, then all messages, then time.
func (m *model) nq() int { return m.quantities }

func newStateSpace(cfg *election.Config, bag bool, limit int64) *stateSpace {
	x := &stateSpace{limit: limit, onPath: &pathSet{}}
	x.model.init(cfg, bag)
	return x
}

// init sets m up for cfg (bag: under bag delivery). The node's random
// streams are read through m, which must stay where it is (in its
// stateSpace).
func (m *model) init(cfg *election.Config, bag bool) {
	m.cfg, m.bag, m.promise, m.quantities = cfg, bag, -1, len(cfg.Algorithm.Messages)+2
	// A randomized node draws from its own stream, seeded as in every
	// runtime (election.StreamSource(seed, "node", i)); the stream's position is
	// part of the state, so each schedule sees the draws that seed gives.
	m.random = cfg.Algorithm.RunModel(cfg.Params).Randomized
	m.rec = elect.NewRecorder(func() *rand.Rand { return rand.New(&m.st.rngs[m.cur]) })
	rm := cfg.Algorithm.RunModel(cfg.Params)
	m.announce = rm.Announce == elect.AlwaysAnnounce || rm.Announce == elect.OptionalAnnounce && cfg.Announce
	maxID, minID := elect.ID(-1), elect.ID(math.MaxInt64)
	for _, id := range cfg.IDs {
		maxID, minID = max(maxID, id), min(minID, id)
	}
	m.knowsMax = -1
	switch rm.Elects {
	case elect.ElectsMax:
		m.promise = maxID
	case elect.ElectsMin:
		m.promise = minID
	case elect.ElectsMinInitiator:
		m.promise = math.MaxInt64
		for _, w := range cfg.Wake {
			m.promise = min(m.promise, cfg.IDs[w.Node])
		}
		if cfg.Wake == nil {
			m.promise = minID
		}
	case elect.ElectsAnyKnowsMax:
		m.knowsMax = maxID
	}
}

// drawAll turns on draws mode: every draw branches into k values, and
// executions are cut after maxDraws draws.
func (m *model) drawAll(k, maxDraws int) {
	m.draws, m.maxDraws = k, maxDraws
	m.random = false // the draws are part of the nodes' states, not a stream's position
	m.rec = elect.NewRecorder(func() *rand.Rand { return rand.New(drawSource{m}) })
}

// reuseMemory takes over the maps and buffers of a finished search, so
// that checking many small configurations does not allocate them anew.
func (x *stateSpace) reuseMemory(old *stateSpace) {
	if old == nil || old.nq() != x.nq() {
		return
	}
	old.memo.reset()
	x.memo, x.onPath = old.memo, old.onPath // the path is empty after a search
	x.max, x.min = old.max[:0], old.min[:0]
	x.stepBufs, x.sentBufs = old.stepBufs, old.sentBufs
	x.buf, x.linkLog, x.path = old.buf[:0], old.linkLog[:0], old.path[:0]
	x.arena = old.arena
	x.weights, x.scriptBufs = old.weights[:0], old.scriptBufs
	// A move is a function of a node's part and a message, the same in
	// every configuration of a check (same algorithm, graph and
	// parameters), so the moves are kept.
	x.moveIdx, x.moves, x.changed = old.moveIdx, old.moves, old.changed[:0]
	// So are the graph's tables (the same graph).
	x.nodeDepths, x.nodeBase, x.depthBase, x.linkBase, x.linkDepthBase = old.nodeDepths, old.nodeBase, old.depthBase, old.linkBase, old.linkDepthBase
	x.inLinks, x.liveIn, x.linkTo, x.linkPort = old.inLinks, old.liveIn, old.linkTo, old.linkPort
}

// initial is the state before anything happened.
func (m *model) initial() *state {
	n := m.cfg.Graph.N
	m.arena.release(arenaMark{}) // every earlier state is dropped
	if len(m.inLinks) != n+1 {   // else reuseMemory gave the tables of this graph
		m.graphTables()
	}
	s := &state{
		nodes: make([]snapNode, n), woken: make([]bool, n), halted: make([]bool, n), pending: make([]bool, n),
		dec: make([]elect.Decision, n), knows: make([]elect.ID, n), depth: make([]int64, n),
		links: make([][]flight, m.cfg.Graph.Ports()),
	}
	info := m.cfg.NodeInfos()
	s.rngs = make([]rand.PCG, n)
	for i := range n {
		s.rngs[i] = *election.StreamSource(m.cfg.Seed, "node", uint64(i))
		s.nodes[i] = m.cfg.Algorithm.New(info(i)).(snapNode) // Run checked
		s.knows[i] = -1
		s.pending[i] = m.cfg.Wake == nil
	}
	for _, w := range m.cfg.Wake {
		s.pending[w.Node] = true
	}
	if m.faulty() {
		s.crashed, s.first = make([]bool, n), -1
		s.electHi, s.electLo = make([]elect.ID, n), make([]elect.ID, n)
		m.calls = make([]int64, n)
	}
	m.rehashAll(s)
	return s
}

// graphTables computes the tables of the network's graph, the same for
// every configuration of a check: its parts' hash bases and how links
// meet nodes.
func (m *model) graphTables() {
	n := m.cfg.Graph.N
	m.nodeBase, m.depthBase, m.inLinks = make([]hasher, n), make([]hasher, n), make([]int64, n+1)
	for i := range n {
		m.nodeBase[i], m.depthBase[i] = newHasher(nodeTag, uint64(i)), newHasher(nodeDepthTag, uint64(i))
		m.inLinks[i] = m.cfg.Graph.PortIndex(int32(i), 0)
	}
	ports := m.cfg.Graph.Ports()
	m.liveIn = make([]int, n)
	for i := range n {
		m.liveIn[i] = m.cfg.Graph.Degree(i)
		if m.cfg.Graph.Kind == topology.Ring && m.cfg.Algorithm.Model.Topology == elect.UniRing {
			m.liveIn[i] = 1
		}
	}
	m.inLinks[n] = int64(ports)
	if len(m.nodeDepths) != n {
		m.nodeDepths = make([][]stateKey, n)
	}
	m.linkTo, m.linkPort = make([]int32, ports), make([]elect.Port, ports)
	for i := range n {
		for key := m.inLinks[i]; key < m.inLinks[i+1]; key++ {
			m.linkTo[key], m.linkPort[key] = int32(i), elect.Port(key-m.inLinks[i])
		}
	}
	m.linkBase, m.linkDepthBase = make([]hasher, ports), make([]hasher, ports)
	for k := range ports {
		m.linkBase[k], m.linkDepthBase[k] = newHasher(linkTag, uint64(k)), newHasher(linkDepthTag, uint64(k))
	}
}

// enabled lists the steps possible in s, in a fixed order.
func (m *model) enabled(s *state, out []step) []step {
	out = out[:0]
	if s.stopped {
		return out
	}
	// Initiators wake at time 0, before any message can arrive; wake-ups
	// of different nodes commute, so one order of them stands for all.
	for i := range s.nodes {
		if s.pending[i] {
			out = append(out, step{wake: true, node: int32(i)})
			if m.faulty() {
				out = m.faultSteps(s, out)
			}
			return out
		}
	}
	// The links in order: by receiving node, then port.
	for key, l := range s.links {
		switch {
		case len(l) == 0:
		case !m.bag:
			out = append(out, step{node: m.linkTo[key], port: m.linkPort[key]})
		default:
			for k := range l {
				if !seenBefore(l, k) {
					out = append(out, step{node: m.linkTo[key], port: m.linkPort[key], k: k})
				}
			}
		}
	}
	if m.faulty() {
		out = m.faultSteps(s, out)
	}
	return out
}

// reducible says whether the partial-order reduction applies: links are
// FIFO, so that the deliveries a node can take are one per non-empty
// incoming link, each "take the next message of that link" (under bag a
// message arriving later on a non-empty link is a new step).
func reducible(bag bool) bool { return !bag }

// choices returns the steps the search takes at s: every enabled step, or
// with the reduction the first persistent set found, the deliveries to
// one node (see the package doc for why they stand for all).
func (x *stateSpace) choices(s *state, buf []step) []step {
	steps := x.enabled(s, buf)
	if x.reduce && len(steps) > 1 {
		return x.persistent(s, steps)
	}
	return steps
}

// persistent returns the steps of the first node whose steps form a
// persistent set at s: a node with a message on every incoming link (no
// other node's step can add one of its steps, so all of them are
// independent of the steps left out), or one delivery to a halted node
// (which only drops it); or all steps when no node's do. enabled lists
// steps node by node, port by port.
func (x *stateSpace) persistent(s *state, steps []step) []step {
	for a := 0; a < len(steps); {
		i := steps[a].node
		b := a + 1
		for b < len(steps) && steps[b].node == i {
			b++
		}
		switch {
		case steps[a].wake:
		case s.halted[i]:
			return steps[a : a+1]
		case b-a == x.liveIn[i]:
			return steps[a:b]
		}
		a = b
	}
	return steps
}

// seenBefore reports whether l[k] equals an earlier message of l: under bag
// delivering either is the same step.
func seenBefore(l []flight, k int) bool {
	for j := range k {
		if l[j] == l[k] {
			return true
		}
	}
	return false
}

// apply performs st on s (in place), counting the messages it sent by
// type in sent, and rehashes the parts it changed; a property violated is
// returned as a message.
func (m *model) apply(s *state, st step, sent []int64) string {
	from := len(m.linkLog)
	if m.faulty() {
		before := faultPart(s)
		v := m.applyFaulty(s, st, sent)
		m.rehash(s, st.node, from)
		s.sumH = addKey(subKey(s.sumH, before), faultPart(s))
		return v
	}
	v := m.applyStep(s, st, sent)
	m.rehash(s, st.node, from)
	return v
}

// applyStep is apply without the hashes.
func (m *model) applyStep(s *state, st step, sent []int64) string {
	i := st.node
	m.sends = m.sends[:0]
	s.nodes[i] = s.nodes[i].Clone().(snapNode) // its own copy, to change
	if st.wake {
		s.pending[i] = false
		if s.woken[i] || s.halted[i] {
			return ""
		}
		s.woken[i] = true
		return m.call(s, i, func(env elect.Env) { s.nodes[i].Wake(env, true) }, sent)
	}
	f := m.take(s, m.cfg.Graph.PortIndex(i, st.port), st.k)
	s.depth[i] = max(s.depth[i], f.depth)
	if s.halted[i] {
		return ""
	}
	if !s.woken[i] {
		s.woken[i] = true
		// A violation in the wake-up does not stop the delivery that
		// caused it (as on every engine); a panic or a halt does.
		v := m.call(s, i, func(env elect.Env) { s.nodes[i].Wake(env, false) }, sent)
		if s.stopped || s.halted[i] {
			return v
		}
		if w := m.call(s, i, func(env elect.Env) { s.nodes[i].Receive(env, st.port, f.msg) }, sent); v == "" {
			v = w
		}
		return v
	}
	return m.call(s, i, func(env elect.Env) { s.nodes[i].Receive(env, st.port, f.msg) }, sent)
}

// call runs one handler of node i and carries out its effects, checking
// the properties that every state must keep. It returns the first
// property violated, but carries out every effect of the handler all the
// same, as every engine does (a send after the decision that breaks a
// property is still sent), so that the step recorded is the whole step and
// its trace replays. A panic of the node's code is a violation too
// ("panic", as every engine reports it); what the node asked for before it
// is carried out, and the execution stops there (see stopped).
func (m *model) call(s *state, i int32, handler func(elect.Env), sent []int64) (v string) {
	if m.calls != nil {
		m.calls[i]++
	}
	m.rec.ClearEffects()
	m.st, m.cur = s, i
	if p, panicked := runRecovered(handler, m.rec); panicked {
		v = "panic: " + election.PanicMessage(i, p)
		s.stopped = true
	}
	violate := func(msg string) {
		if v == "" {
			v = msg
		}
	}
	for _, f := range m.rec.Effects() {
		switch f.Kind {
		case elect.EffectSend:
			to, q, ok := m.cfg.Route(i, f.Port)
			if !ok {
				name, msg := m.cfg.RouteViolation(i, f.Port)
				violate(name + ": " + msg)
				continue
			}
			if int(f.Msg.Type) >= len(m.cfg.Algorithm.Messages) {
				violate(fmt.Sprintf("bad-message-type: node %d sent undeclared message type %d", i, f.Msg.Type))
				continue
			}
			sent[f.Msg.Type]++
			key := m.cfg.Graph.PortIndex(to, q)
			m.touch(s, key)
			l := s.links[key]
			digest := messageDigest(f.Msg)
			m.sends = append(m.sends, sendOn{key: key, msg: f.Msg, digest: digest})
			grown := m.arena.alloc(len(l) + 1) // a new array: the undo log keeps the old
			copy(grown, l)
			grown[len(l)] = flight{msg: f.Msg, depth: s.depth[i] + 1, digest: digest}
			s.links[key] = grown
		case elect.EffectDecide:
			old := s.dec[i]
			if old == f.Decision {
				continue
			}
			if old != elect.Undecided {
				violate(fmt.Sprintf("decision-changed: node %d changed its decision from %s to %s", i, old, f.Decision))
				continue
			}
			s.dec[i] = f.Decision
			if f.Decision == elect.Elected && m.crashK > 0 {
				// Under crashes the monitor judges the leaders at the
				// end, against the nodes up at each one's election.
				s.elected++
				m.noteElection(s, i)
				if m.knowsMax < 0 {
					s.knows[i] = m.cfg.IDs[i]
				}
			} else if f.Decision == elect.Elected {
				s.elected++
				if s.elected > 1 {
					violate(fmt.Sprintf("multiple-leaders: node %d (ID %d) is the second node elected", i, m.cfg.IDs[i]))
				}
				if m.promise >= 0 && m.cfg.IDs[i] != m.promise && s.elected == 1 {
					violate(fmt.Sprintf("wrong-leader: node %d with ID %d was elected, but the algorithm promises ID %d", i, m.cfg.IDs[i], m.promise))
				}
				if m.knowsMax < 0 {
					s.knows[i] = m.cfg.IDs[i]
				}
			}
		case elect.EffectLearn:
			s.knows[i] = f.Leader()
		case elect.EffectTerminate:
			s.halted[i] = true
		case elect.EffectSetTimer, elect.EffectCancelTimers:
			violate(fmt.Sprintf("bad-timer: node %d set a timer; timers exist only in the synchronous model (check it with --delivery sync)", i))
		}
	}
	m.rec.ClearEffects()
	return v
}

// runRecovered runs handler on env and returns the value of its panic, if
// it panicked.
func runRecovered(handler func(elect.Env), env elect.Env) (p any, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			p, panicked = r, true
		}
	}()
	handler(env)
	return nil, false
}

// terminal checks the properties of a state where nothing can happen, in
// the order in which every engine's monitor reports them at a run's end
// (election.Monitor.Finish), so that a counterexample replays to the
// property the check names: the number of leaders, the leader's recorded
// ID, what the other nodes know; then, when announcing, that every node
// decided.
func (m *model) terminal(s *state) string {
	if m.crashK > 0 {
		return m.terminalCrashed(s)
	}
	if s.elected != 1 {
		return fmt.Sprintf("no-leader: the execution ended with %d leaders", s.elected)
	}
	if m.knowsMax >= 0 {
		for i, d := range s.dec {
			if d == elect.Elected && s.knows[i] != m.knowsMax {
				return fmt.Sprintf("wrong-leader-id: the leader (node %d) recorded %d, not the max ID %d", i, s.knows[i], m.knowsMax)
			}
		}
	}
	want := m.knowsMax
	for i, k := range s.knows {
		if want < 0 {
			want = m.leaderID(s)
		}
		if m.announce && k != want {
			return fmt.Sprintf("not-informed: node %d knows %d as the leader's ID, not %d, after the announcement", i, k, want)
		}
	}
	var undecided []string
	for i, d := range s.dec {
		if d == elect.Undecided {
			undecided = append(undecided, fmt.Sprint(i))
		}
	}
	if len(undecided) > 0 && m.announce {
		return fmt.Sprintf("deadlock-undecided: the execution ended with node(s) %s undecided", strings.Join(undecided, ", "))
	}
	return ""
}

func (m *model) leaderID(s *state) elect.ID {
	for i, d := range s.dec {
		if d == elect.Elected {
			return m.cfg.IDs[i]
		}
	}
	return -1
}

func maxDepth(s *state) int64 {
	m := int64(0)
	for _, d := range s.depth {
		m = max(m, d)
	}
	return m
}

// sortFlights puts l's messages in a canonical order (a multiset's
// encoding).
func sortFlights(l []flight) {
	slices.SortFunc(l, func(a, b flight) int {
		return cmp.Or(cmp.Compare(a.msg.Type, b.msg.Type), cmp.Compare(a.msg.ID, b.msg.ID),
			cmp.Compare(a.msg.A, b.msg.A), cmp.Compare(a.msg.B, b.msg.B), cmp.Compare(a.depth, b.depth))
	})
}

// writeSchedule writes an execution as a trace (format version 2), which
// `elect run --replay` replays and `elect view` shows: the schedule (wake
// and deliver lines, with decisions) is replayed on the reference engine,
// whose trace has every send, state and violation, and whose header names
// the runtime "check". An execution that does not replay as a whole run
// (one cut because it never ends) is written as its schedule alone.
func (m *model) writeSchedule(w io.Writer, steps []step) error {
	var schedule, full bytes.Buffer
	if err := m.writeSteps(&schedule, steps, -1, ""); err != nil {
		return err
	}
	cfg := *m.cfg
	cfg.Trace, cfg.TraceLimit = &full, 0
	out := schedule.Bytes()
	if _, err := reference.Replay(cfg, bytes.NewReader(out)); err == nil {
		out = full.Bytes()
	}
	out = bytes.Replace(out, []byte(`"runtime":"reference"`), []byte(`"runtime":"check"`), 1)
	out = bytes.Replace(out, []byte(`"runtime":"sim"`), []byte(`"runtime":"check"`), 1)
	_, err := w.Write(out)
	return err
}

// writeCounterexample writes the execution steps, which breaks property,
// as a trace that replays to that property: completed to the end of a run
// (complete) when the completion's replay reports the same property, and
// otherwise (every completion would break another property first, as a
// decision changed after a second leader) cut where the property broke,
// with a "cut" line of reason "violation" that the replay stops at.
func (m *model) writeCounterexample(w io.Writer, steps []step, property string) error {
	var out bytes.Buffer
	if err := m.writeSchedule(&out, m.complete(steps)); err != nil {
		return err
	}
	if m.replaysTo(out.Bytes(), property) {
		_, err := w.Write(out.Bytes())
		return err
	}
	var schedule, full bytes.Buffer
	if err := m.writeSteps(&schedule, steps, -1, "violation"); err != nil {
		return err
	}
	cfg := *m.cfg
	cfg.Trace, cfg.TraceLimit = &full, 0
	data := schedule.Bytes()
	if _, err := reference.Replay(cfg, bytes.NewReader(data)); err == nil {
		data = full.Bytes()
	}
	data = bytes.Replace(data, []byte(`"runtime":"reference"`), []byte(`"runtime":"check"`), 1)
	_, err := w.Write(data)
	return err
}

// replaysTo says whether trace replays to a run that breaks property.
func (m *model) replaysTo(trace []byte, property string) bool {
	res, err := reference.Replay(*m.cfg, bytes.NewReader(trace))
	if err != nil {
		return false
	}
	got := string(res.Outcome)
	if res.Outcome == election.OutcomeViolation {
		got, _, _ = strings.Cut(res.Violation, ":")
	}
	return got == property
}

// writeLoop writes an execution that never ends as its schedule: steps
// return to the state after their first loopFrom steps, marked with a
// "loop" line there and a "cut" line at the end; the replay checks that
// the two states are equal.
func (m *model) writeLoop(w io.Writer, steps []step, loopFrom int) error {
	return m.writeSteps(w, steps, loopFrom, "non-termination")
}

// writeSteps writes an execution's schedule as trace lines: wake-ups,
// deliveries and decisions, with a "loop" line before step loopFrom (when
// it is >= 0) and a "cut" line with reason cut at the end (when it is not
// "").
func (m *model) writeSteps(w io.Writer, steps []step, loopFrom int, cut string) error {
	var now int64
	tr := election.NewTracer(w, m.cfg, func() int64 { return now })
	tr.SetRuntime("check") // a replay applies the header's explicit faults to a checker's record
	s := m.initial()
	sent := make([]int64, m.nq()-2)
	for i, st := range steps {
		if i == loopFrom {
			tr.Loop()
		}
		switch {
		case st.fault == stepLose || st.fault == stepDup || st.fault == stepCrashNow:
			// The engine applies the fault from the trace's schedule.
		case st.wake:
			if s.pending[st.node] && !s.woken[st.node] && !s.halted[st.node] {
				tr.Wake(st.node, true)
			}
		default:
			f := s.links[m.cfg.Graph.PortIndex(st.node, st.port)][st.k]
			now = f.depth
			tr.Deliver(st.node, st.port, f.msg, s.halted[st.node])
		}
		before := slices.Clone(s.dec)
		m.apply(s, st, sent)
		for i, d := range s.dec {
			if d != before[i] {
				tr.Decide(int32(i), d)
			}
		}
	}
	if cut != "" {
		tr.Cut(cut)
	}
	return tr.Flush()
}

// complete extends a counterexample to a whole execution, so that its
// trace replays as a run: the properties it violated stay violated
// (decisions are irrevocable). At each state it takes the first step that
// breaks no other property (a second leader after a wrong one would
// replay as multiple-leaders), or the first step when every one does. An
// execution that a panic stopped ends there, as a run does; one that
// never ends is cut after as many steps again.
func (m *model) complete(steps []step) []step {
	s := m.initial()
	sent := make([]int64, m.nq()-2)
	for _, st := range steps {
		m.apply(s, st, sent)
	}
	m.linkLog = m.linkLog[:0]
	out := append([]step(nil), steps...)
	for range len(steps) + 1000 {
		next := m.enabled(s, nil)
		if len(next) == 0 {
			break
		}
		next = slices.DeleteFunc(next, func(st step) bool { return st.fault != 0 }) // no more faults
		pick := next[0]
		for _, st := range next {
			var u undo
			m.save(&u, s, st.node)
			v := m.apply(s, st, sent)
			stopped := s.stopped
			m.restore(s, &u)
			s.stopped = false
			if v == "" && !stopped {
				pick = st
				break
			}
		}
		m.apply(s, pick, sent)
		m.linkLog = m.linkLog[:0]
		out = append(out, pick)
	}
	return out
}
