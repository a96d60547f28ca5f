package check

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
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

// model is one configuration's transition system: what a state is, the
// steps enabled in it and what each does (faults and draws included), the
// properties every step must keep, and the hashes that name a state. It
// changes one state in place and undoes the change (save, restore); it
// knows nothing of the search that drives it (stateSpace).
type model struct {
	cfg      *election.Config
	bag      bool
	announce bool
	// freeWake: an initiator wakes at any point of an execution, before
	// or after any delivery (Options.WakeOrder "all"), unless a message
	// wakes it first; otherwise initiators wake first, in node order.
	freeWake bool
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
	// open marks, by link, the links that deliver nothing: the open edge
	// of an open execution (see openline.go); nil: none.
	open []bool
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

// quantities: one per message type, then all messages, then time.
func (m *model) nq() int { return m.quantities }

// drawAll turns on draws mode: every draw branches into k values, and
// executions are cut after maxDraws draws.
func (m *model) drawAll(k, maxDraws int) {
	m.draws, m.maxDraws = k, maxDraws
	m.random = false // the draws are part of the nodes' states, not a stream's position
	m.rec = elect.NewRecorder(func() *rand.Rand { return rand.New(drawSource{m}) })
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

// enabled lists the steps possible in s, in a fixed order.
func (m *model) enabled(s *state, out []step) []step {
	out = out[:0]
	if s.stopped {
		return out
	}
	if m.freeWake {
		return m.enabledFreeWake(s, out)
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
	out = m.deliveries(s, out, 0, len(s.links))
	if m.faulty() {
		out = m.faultSteps(s, out)
	}
	return out
}

// enabledFreeWake is enabled when initiators wake in any order relative to
// deliveries: node by node, an initiator's wake-up (while it has not woken)
// and then its deliveries.
func (m *model) enabledFreeWake(s *state, out []step) []step {
	for i := range int32(len(s.nodes)) {
		if s.pending[i] && !s.woken[i] && !s.halted[i] {
			out = append(out, step{wake: true, node: i})
		}
		out = m.deliveries(s, out, int(m.inLinks[i]), int(m.inLinks[i+1]))
	}
	if m.faulty() {
		out = m.faultSteps(s, out)
	}
	return out
}

// deliveries appends to out the deliveries of links[from:to] (in order: by
// receiving node, then port).
func (m *model) deliveries(s *state, out []step, from, to int) []step {
	for key := from; key < to; key++ {
		l := s.links[key]
		switch {
		case len(l) == 0, m.open != nil && m.open[key]:
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
	return out
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
// type in sent, and rehashes the parts it changed; it returns the property
// the step broke, if any.
func (m *model) apply(s *state, st step, sent []int64) *election.Violation {
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
func (m *model) applyStep(s *state, st step, sent []int64) *election.Violation {
	i := st.node
	m.sends = m.sends[:0]
	s.nodes[i] = s.nodes[i].Clone().(snapNode) // its own copy, to change
	if st.wake {
		s.pending[i] = false
		if s.woken[i] || s.halted[i] {
			return nil
		}
		s.woken[i] = true
		return m.call(s, i, func(env elect.Env) { s.nodes[i].Wake(env, true) }, sent)
	}
	f := m.take(s, m.cfg.Graph.PortIndex(i, st.port), st.k)
	s.depth[i] = max(s.depth[i], f.depth)
	if s.halted[i] {
		return nil
	}
	if !s.woken[i] {
		s.woken[i], s.pending[i] = true, false // an initiator woken by a message does not wake again
		// A violation in the wake-up does not stop the delivery that
		// caused it (as on every engine); a panic or a halt does.
		v := m.call(s, i, func(env elect.Env) { s.nodes[i].Wake(env, false) }, sent)
		if s.stopped || s.halted[i] {
			return v
		}
		if w := m.call(s, i, func(env elect.Env) { s.nodes[i].Receive(env, st.port, f.msg) }, sent); v == nil {
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
// (election.PropPanic, as every engine reports it); what the node asked
// for before it is carried out, and the execution stops there (see
// stopped).
func (m *model) call(s *state, i int32, handler func(elect.Env), sent []int64) (v *election.Violation) {
	if m.calls != nil {
		m.calls[i]++
	}
	m.rec.ClearEffects()
	m.st, m.cur = s, i
	if p, panicked := runRecovered(handler, m.rec); panicked {
		v = broke(election.PropPanic, election.PanicMessage(i, p), i)
		s.stopped = true
	}
	violate := func(w *election.Violation) {
		if v == nil {
			v = w
		}
	}
	for _, f := range m.rec.Effects() {
		switch f.Kind {
		case elect.EffectSend:
			to, q, ok := m.cfg.Route(i, f.Port)
			if !ok {
				w := m.cfg.RouteViolation(i, f.Port)
				violate(&w)
				continue
			}
			if int(f.Msg.Type) >= len(m.cfg.Algorithm.Messages) {
				violate(broke(election.PropBadMessageType, fmt.Sprintf("node %d sent undeclared message type %d", i, f.Msg.Type), i))
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
				violate(broke(election.PropDecisionChanged, fmt.Sprintf("node %d changed its decision from %s to %s", i, old, f.Decision), i))
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
					violate(broke(election.PropMultipleLeaders, fmt.Sprintf("node %d (ID %d) is the second node elected", i, m.cfg.IDs[i]), i))
				}
				if m.promise >= 0 && m.cfg.IDs[i] != m.promise && s.elected == 1 {
					violate(broke(election.PropWrongLeader, fmt.Sprintf("node %d with ID %d was elected, but the algorithm promises ID %d", i, m.cfg.IDs[i], m.promise), i))
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
			violate(broke(election.PropBadTimer, fmt.Sprintf("node %d set a timer; timers exist only in the synchronous model (check it with --delivery sync)", i), i))
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
