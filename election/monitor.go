package election

import (
	"bytes"
	"fmt"
	"math"
	"slices"

	"github.com/electkit/elect"
)

// Monitor checks the election of one run as it goes and turns the run's end
// into a Result: no decision is ever changed, at most one node is elected
// (counted, and reported as multiple-leaders at the end), and at the end
// exactly one leader exists, with the ID its algorithm promised, known to
// every node when the algorithm announces. Every engine of the toolkit
// reports a node's wake-ups, decisions, learned leaders and the violations
// it detects itself (bad ports, bad timers) to a Monitor, in the order they
// happen, so that the same run gives the same outcome and the same checks
// on every engine.
type Monitor struct {
	cfg       *Config
	alg       *elect.Algorithm
	ids       []elect.ID
	unit      int64
	decisions []elect.Decision
	knows     []elect.ID // leader ID each node has learned; -1: none
	elected   int
	leader    int32
	violation Violation
	// minSpontID is the smallest ID of a node that woke spontaneously.
	minSpontID elect.ID
	trace      *Tracer
	// Symmetry detection (Config.DetectSymmetry): broken once two nodes
	// differ; symmetric when the run stopped (or ended) symmetric, after
	// round symRound.
	symBroken, symmetric bool
	symRound             int64
	symBuf               []byte
	// faults records what Config.Faults did (faults.go).
	faults faultState
}

// NewMonitor returns the monitor of a run of cfg, which reports events to
// trace (nil: no trace). decisions and knows are its per-node arrays, of
// length n and all zero, or nil to allocate them.
func NewMonitor(cfg *Config, trace *Tracer, decisions []elect.Decision, knows []elect.ID) *Monitor {
	n := cfg.Graph.N
	if decisions == nil {
		decisions = make([]elect.Decision, n)
	}
	if knows == nil {
		knows = make([]elect.ID, n)
	}
	for i := range knows {
		knows[i] = -1
	}
	m := &Monitor{
		cfg: cfg, alg: cfg.Algorithm, ids: cfg.IDs, unit: cfg.Delivery.Unit(),
		decisions: decisions, knows: knows, leader: -1, minSpontID: math.MaxInt64, trace: trace,
	}
	if cfg.Faults != nil {
		m.initPath()
	}
	return m
}

// Clone returns a copy of the monitor that reports to trace from now on:
// an engine that snapshots its runs copies its monitor with them.
func (m *Monitor) Clone(trace *Tracer) *Monitor {
	c := *m
	c.decisions = append([]elect.Decision(nil), m.decisions...)
	c.knows = append([]elect.ID(nil), m.knows...)
	c.trace = trace
	c.symBuf = nil
	c.faults.down = slices.Clone(m.faults.down)
	c.faults.crashed = slices.Clone(m.faults.crashed)
	c.faults.elections = slices.Clone(m.faults.elections)
	c.faults.path = m.faults.path.clone()
	return &c
}

// Woke records that node i woke, spontaneously or not, at time now (ticks).
func (m *Monitor) Woke(i int32, spontaneous bool) {
	if spontaneous {
		m.minSpontID = min(m.minSpontID, m.ids[i])
	}
	if m.trace != nil {
		m.trace.Wake(i, spontaneous)
	}
}

// Decide records node i's decision d at time now (ticks).
func (m *Monitor) Decide(i int32, d elect.Decision, now int64) {
	old := m.decisions[i]
	if old == d {
		return
	}
	if old != elect.Undecided {
		m.Violate(PropDecisionChanged, fmt.Sprintf("node %d changed its decision from %s to %s at time %s", i, old, d, m.formatTime(now)), i)
		return
	}
	m.decisions[i] = d
	if d == elect.Elected {
		m.elected++
		if m.leader < 0 {
			m.leader = i
		}
		m.noteElection(i)
		if m.alg.Model.Elects != elect.ElectsAnyKnowsMax {
			m.knows[i] = m.ids[i] // such a leader records the maximum itself
		}
	}
	if m.trace != nil {
		m.trace.Decide(i, d)
	}
}

// Learn records that node i learned id is the leader's ID.
func (m *Monitor) Learn(i int32, id elect.ID) {
	m.knows[i] = id
	if m.trace != nil {
		m.trace.Learn(i, id)
	}
}

// Violate records that property p broke, as detail says, with the nodes
// involved; the first violation is the run's.
func (m *Monitor) Violate(p Property, detail string, nodes ...int32) {
	m.Report(NewViolation(p, detail, nodes...))
}

// Report records the violation v; the first violation is the run's.
func (m *Monitor) Report(v Violation) {
	if !m.violation.Found() {
		m.violation = v
	}
	if m.trace != nil {
		m.trace.Violation(v)
	}
}

// Decision returns node i's decision so far.
func (m *Monitor) Decision(i int32) elect.Decision { return m.decisions[i] }

// Elected returns how many nodes have been elected so far.
func (m *Monitor) Elected() int { return m.elected }

func (m *Monitor) formatTime(ticks int64) string {
	if m.unit == 1 {
		return fmt.Sprint(ticks)
	}
	return fmt.Sprint(float64(ticks) / float64(m.unit))
}

// End is what an engine measured in a run, for Finish.
type End struct {
	TypeCounts      []int64 // messages sent by MsgType
	MaxNodeMessages int64   // the most messages one node sent
	Time            float64 // rounds or time units (causal depth under newest-first)
	Events          int64
	StepLimit       bool // a limit stopped the run
	MemoryLimit     bool // Config.MaxQueueBytes stopped the run
	Stopped         bool // Config.Progress stopped the run
}

// Finish turns the run's end into a Result: the outcome with the end-of-run
// checks, the measures, and every declared bound checked.
func (m *Monitor) Finish(end End) *Result {
	leader, elected := m.leader, m.elected
	if m.faults.down != nil {
		leader, elected = m.survivingLeader()
	}
	r := &Result{
		LeaderIndex:     int(leader),
		LeaderID:        -1,
		Leaders:         elected,
		MessagesByType:  make(map[string]int64, len(end.TypeCounts)),
		Events:          end.Events,
		TypeCounts:      end.TypeCounts,
		MaxNodeMessages: end.MaxNodeMessages,
		Time:            end.Time,
	}
	bitCtx := elect.BitContext{N: len(m.ids), IDBits: idBits(m.ids), Types: len(m.alg.Messages), Params: m.cfg.Params}
	typeBits := make([]int64, len(m.alg.Messages))
	for t, mt := range m.alg.Messages {
		c := end.TypeCounts[t]
		r.MessagesByType[mt.Name] = c
		r.Messages += c
		typeBits[t] = int64(elect.DefaultBits(mt, bitCtx))
		r.Bits += c * typeBits[t]
	}
	if leader >= 0 {
		r.LeaderID = m.ids[leader]
	}

	// The leader the algorithm promised, and what everyone must know.
	model := m.alg.Model
	promisedKnown := r.LeaderID
	if model.Elects == elect.ElectsAnyKnowsMax {
		promisedKnown = maxID(m.ids)
	}
	r.AllKnowLeader = leader >= 0
	uninformed := 0
	for i := range m.knows {
		if m.knows[i] != promisedKnown && m.up(i) { // a crashed node need not know
			uninformed++
		}
	}
	if uninformed > 0 {
		r.AllKnowLeader = false
	}
	announcing := model.Announce == elect.AlwaysAnnounce || (model.Announce == elect.OptionalAnnounce && m.cfg.Announce)

	r.SetViolation(m.violation)
	r.Checks = append(r.Checks, Check{Name: "exactly one leader", Relation: "==", Expected: 1, Actual: float64(elected), Holds: elected == 1})
	var wrongLeader Violation
	if elected == 1 {
		if want, ok := m.promisedLeaderID(leader); ok {
			holds := r.LeaderID == want
			r.Checks = append(r.Checks, Check{Name: "leader holds the " + model.Elects.String(), Relation: "==", Expected: float64(want), Actual: float64(r.LeaderID), Holds: holds})
			if !holds {
				wrongLeader = NewViolation(PropWrongLeader, fmt.Sprintf("node %d with ID %d was elected, but the algorithm promises the %s, %d", leader, r.LeaderID, model.Elects, want), leader)
			}
		}
		if model.Elects == elect.ElectsAnyKnowsMax {
			got := m.knows[leader]
			holds := got == promisedKnown
			r.Checks = append(r.Checks, Check{Name: "leader knows the max ID", Relation: "==", Expected: float64(promisedKnown), Actual: float64(got), Holds: holds})
			if !holds && !wrongLeader.Found() {
				wrongLeader = NewViolation(PropWrongLeaderID, fmt.Sprintf("the leader (node %d) recorded %d as leader ID, but the algorithm promises the max ID, %d", leader, got, promisedKnown), leader)
			}
		}
		if announcing {
			r.Checks = append(r.Checks, Check{Name: "nodes not knowing the leader", Relation: "==", Expected: 0, Actual: float64(uninformed), Holds: uninformed == 0})
			if uninformed > 0 && !wrongLeader.Found() {
				wrongLeader = NewViolation(PropNotInformed, fmt.Sprintf("%d of %d nodes do not know the leader's ID after the announcement", uninformed, len(m.ids)))
			}
			// An announcement tells every node the outcome: one that
			// never decided is a failure too (as the checker reports it).
			undecided := 0
			for i, d := range m.decisions {
				if d == elect.Undecided && m.up(i) { // a crashed node need not decide
					undecided++
				}
			}
			if undecided > 0 && !wrongLeader.Found() && !end.StepLimit && !end.Stopped && !end.MemoryLimit {
				wrongLeader = NewViolation(PropDeadlockUndecided, fmt.Sprintf("%d of %d nodes never decided after the announcement", undecided, len(m.ids)))
			}
		}
	}
	r.Checks = append(r.Checks, m.boundChecks(r, end.TypeCounts, typeBits)...)

	switch {
	case m.violation.Found():
		r.Outcome = OutcomeViolation
	case m.symmetric:
		// Checked before multiple-leaders: a run that stayed symmetric has
		// every node in the same state, so all of them are elected or none
		// is (Leaders says which); symmetric names the cause (Lemma 5.1.1).
		r.Outcome = Symmetric
		r.SymmetricRound = m.symRound
	case elected > 1:
		r.Outcome = MultipleLeaders
	case end.MemoryLimit:
		r.Outcome = MemoryLimit
	case end.Stopped:
		r.Outcome = Stopped
	case end.StepLimit:
		r.Outcome = StepLimit
	case elected == 0:
		r.Outcome = NoLeader
	case wrongLeader.Found():
		r.Outcome = OutcomeViolation
		r.SetViolation(wrongLeader)
	default:
		r.Outcome = OutcomeElected
	}
	if m.cfg.Faults != nil {
		m.faultReport(r)
	}
	r.TraceTruncated = m.trace.Truncated()
	return r
}

// promisedLeaderID returns the ID the algorithm promises to elect, if it
// promises one.
func (m *Monitor) promisedLeaderID(leader int32) (elect.ID, bool) {
	if rec, ok := m.electionOf(leader); ok && rec.afterCrash {
		// Nodes crashed before the election: the promise is over the nodes
		// that were up when the leader was elected.
		switch m.alg.Model.Elects {
		case elect.ElectsMax:
			return rec.aliveMax, true
		case elect.ElectsMin:
			return rec.aliveMin, true
		}
	}
	switch m.alg.Model.Elects {
	case elect.ElectsMax:
		return maxID(m.ids), true
	case elect.ElectsMin:
		return minID(m.ids), true
	case elect.ElectsMinInitiator:
		// The initiators are the nodes that woke spontaneously: a node
		// scheduled to wake late that a message woke first is not one.
		return m.minSpontID, true
	}
	return 0, false
}

// NodeView is how the monitor reads an engine's nodes when it checks
// symmetry: node(i) returns node i, and sameStatus(i) whether node i is
// woken and halted as node 0 is.
type NodeView struct {
	N          int
	Node       func(i int) elect.Node
	SameStatus func(i int) bool
}

// SymmetryBetweenRounds is called by the engine of a run with
// Config.DetectSymmetry between two instants, before the first event of a
// later time (round is the last instant's): while every node is in the same
// state (equal elect.Snapshotter encodings, decisions and statuses; seed
// 001, Lemma 5.1.1), it reports whether the run must stop because every
// node has elected itself. Once two nodes differ, symmetry is broken for
// good and it reports false at once. A node without elect.Snapshotter
// breaks it.
func (m *Monitor) SymmetryBetweenRounds(round int64, v NodeView) (stop bool) {
	if m.symBroken || !m.sameState(v) {
		m.symBroken = true
		return false
	}
	m.symRound = round
	if m.decisions[0] == elect.Elected && v.N > 1 {
		m.symmetric = true
		return true
	}
	return false
}

// SymmetryAtEnd is called by the engine of a run with Config.DetectSymmetry
// when the run has ended, before Finish: a run that ended with every node
// in the same state stayed symmetric. One node is no symmetry (Lemma 5.1.1
// needs a non-trivial class), and a run a limit stopped is not judged.
func (m *Monitor) SymmetryAtEnd(round int64, stepLimit bool, v NodeView) {
	if v.N > 1 && !m.symBroken && !m.symmetric && !stepLimit {
		m.SymmetryBetweenRounds(round, v)
		if !m.symBroken {
			m.symmetric = true
		}
	}
}

// sameState reports whether every node is in node 0's state, with its
// decision and status.
func (m *Monitor) sameState(v NodeView) bool {
	first, ok := v.Node(0).(elect.Snapshotter)
	if !ok {
		return false
	}
	m.symBuf = first.AppendState(m.symBuf[:0])
	k := len(m.symBuf)
	for i := 1; i < v.N; i++ {
		s, ok := v.Node(i).(elect.Snapshotter)
		if !ok {
			return false
		}
		m.symBuf = s.AppendState(m.symBuf[:k])
		if !bytes.Equal(m.symBuf[:k], m.symBuf[k:]) || m.decisions[i] != m.decisions[0] || !v.SameStatus(i) {
			return false
		}
	}
	return true
}

// BoundContext describes cfg for evaluating bounds.
func (cfg *Config) BoundContext() elect.BoundContext {
	initiators, allAtZero := cfg.Graph.N, true
	minInit := minID(cfg.IDs)
	if cfg.Wake != nil {
		seen := make([]bool, cfg.Graph.N)
		initiators = 0
		minInit = math.MaxInt64
		for _, w := range cfg.Wake {
			if !seen[w.Node] {
				seen[w.Node] = true
				initiators++
			}
			allAtZero = allAtZero && w.At == 0
			minInit = min(minInit, cfg.IDs[w.Node])
		}
		allAtZero = allAtZero && initiators == cfg.Graph.N
	}
	return elect.BoundContext{
		N: cfg.Graph.N, Edges: int(cfg.Graph.Edges()), Initiators: initiators,
		Announce: cfg.Announce, Sync: cfg.Delivery == Sync, AllAtZero: allAtZero,
		CausalTime: cfg.Delivery == NewestFirst || cfg.CausalTime,
		MinID:      minID(cfg.IDs), MaxID: maxID(cfg.IDs), MinInitiatorID: minInit, Params: cfg.Params,
		Faults: cfg.Faults.Kinds(),
	}
}

// boundChecks evaluates every declared bound that applies to the run.
func (m *Monitor) boundChecks(r *Result, typeCounts, typeBits []int64) []Check {
	ctx := m.cfg.BoundContext()
	var out []Check
	for _, b := range m.alg.Bounds {
		if b.Applies != nil && !b.Applies(ctx) {
			continue
		}
		var actual float64
		switch b.Quantity {
		case elect.Time:
			actual = r.Time
		case elect.Messages, elect.Bits:
			for t, mt := range m.alg.Messages {
				if len(b.Types) > 0 && !contains(b.Types, mt.Name) {
					continue
				}
				if b.Quantity == elect.Messages {
					actual += float64(typeCounts[t])
				} else {
					actual += float64(typeCounts[t] * typeBits[t])
				}
			}
		}
		expected := b.Value(ctx)
		out = append(out, Check{
			Name:     fmt.Sprintf("%s %s %s", b.Name, b.Relation, b.Formula),
			Relation: b.Relation.String(), Expected: expected, Actual: actual,
			Holds: b.Relation.Holds(actual, expected),
		})
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func maxID(ids []elect.ID) elect.ID {
	m := elect.ID(-1)
	for _, id := range ids {
		m = max(m, id)
	}
	return m
}

func minID(ids []elect.ID) elect.ID {
	m := elect.ID(math.MaxInt64)
	for _, id := range ids {
		m = min(m, id)
	}
	return m
}

// idBits is the number of bits needed to write the largest ID.
func idBits(ids []elect.ID) int {
	return max(1, elect.CeilLog2(int(maxID(ids))+1))
}

// Arrays returns the per-node arrays the monitor was made with (decisions
// and learned leader IDs), so that an engine that runs many elections can
// clear them and hand them to its next run's NewMonitor.
func (m *Monitor) Arrays() ([]elect.Decision, []elect.ID) { return m.decisions, m.knows }
