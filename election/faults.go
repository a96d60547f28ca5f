package election

import (
	"fmt"
	"slices"

	"github.com/electkit/elect"
)

// FaultReport is what a run with Config.Faults says about them: what was
// injected, what it did, and the verdict that sets the run's outcome
// against what the algorithm declares it tolerates (elect.Model.Tolerates).
type FaultReport struct {
	// Injected names the kinds of fault that happened in the run ("loss",
	// "crash", ...; "none" when the schedule hit nothing).
	Injected string `json:"injected"`
	// Tolerated names the kinds the algorithm declares it tolerates.
	Tolerated  string `json:"tolerated"`
	Lost       int64  `json:"lost"`
	Duplicated int64  `json:"duplicated"`
	Delayed    int64  `json:"delayed"`
	// Crashed lists the nodes that crashed, by index, in crash order.
	Crashed []int32 `json:"crashed"`
	// Undecided counts, for an algorithm that announces its leader (and so
	// decides every node), the nodes that had not crashed and never
	// decided: waiting for ever.
	Undecided int `json:"undecided"`
	// Cause is the fault a failed run is traced back to: the first fault
	// on the path of the promised leader (docs/faults.md, "What the report
	// says"), prefixed "on the path of node L (ID ...): "; when no fault
	// met that path, or the run did not fail, the first fault of the run,
	// prefixed "first fault: ". A message is named by its number in
	// sending order, type, payload, link and time; a crash by its node and
	// time.
	Cause string `json:"cause,omitempty"`
	// Verdict is "none-injected" (the schedule hit nothing: an ordinary
	// run), "survived" (faults happened and the election held),
	// "expected-failure" (the election failed under a fault the algorithm
	// does not tolerate: the outcome says how, and it is not held against
	// the algorithm), "violation" (it failed under faults it declares it
	// tolerates; the outcome is then violation) or "cut-short" (a limit
	// stopped the run before it could be judged; under a fault the
	// algorithm does not tolerate, running on for ever is an expected
	// failure, but not passing the memory limit, outcome memory-limit).
	Verdict string `json:"verdict"`
	// Spec is the run's fault specification (canonical form), which the
	// record carries as faults_spec: a replay takes it from its record.
	Spec string `json:"-"`
}

// The verdicts of a run with faults.
const (
	VerdictNone     = "none-injected"
	VerdictSurvived = "survived"
	VerdictExpected = "expected-failure"
	VerdictViolated = "violation"
	VerdictCut      = "cut-short" // a limit stopped the run: not judged
)

// faultState is the monitor's record of the faults of a run.
type faultState struct {
	kinds              elect.Faults
	lost, dup, delayed int64
	crashed            []int32
	down               []bool // by node
	cause              string // the first fault of the run
	path               pathState
	// elections records, in a run with faults, every node's election
	// and the nodes up then.
	elections []electionRecord
}

// electionRecord is one node's election in a run with faults: the largest
// and smallest IDs of the nodes up then, and whether any had crashed.
type electionRecord struct {
	node               int32
	aliveMax, aliveMin elect.ID
	afterCrash         bool
}

func (m *Monitor) describe(no int64, from, to int32, msg elect.Message, now int64) string {
	return fmt.Sprintf("message %d (%s) from node %d to node %d at time %s", no, m.content(msg), from, to, m.formatTime(now))
}

// content is a message's type and payload: "election j=7".
func (m *Monitor) content(msg elect.Message) string {
	mt := m.alg.Messages[msg.Type]
	payload := ""
	vals := [3]int64{int64(msg.ID), msg.A, msg.B}
	for k, f := range mt.Fields {
		if k > 0 {
			payload += ","
		}
		payload += fmt.Sprintf("%s=%d", f, vals[k])
	}
	what := mt.Name
	if payload != "" {
		what += " " + payload
	}
	return what
}

// Lost records that message number no (in sending order), m, sent by node
// from on its port p to node to at time now (ticks), was lost: by a loss
// clause (cause FaultLoss) or a partition (FaultPartition).
func (m *Monitor) Lost(no int64, from int32, p elect.Port, to int32, msg elect.Message, cause elect.Faults, now int64) {
	m.faults.kinds |= cause
	m.faults.lost++
	first, onPath := m.faults.cause == "", m.onPath(from)
	if first || onPath && m.faults.path.removal == "" {
		how := "lost"
		if cause == elect.FaultPartition {
			how = "lost to a partition"
		}
		what := m.describe(no, from, to, msg, now) + ", " + how
		if first {
			m.faults.cause = "first fault: " + what
		}
		if onPath {
			m.pathFault(what, true)
		}
	}
	if m.trace != nil {
		m.trace.Fault("lose", no, from, p, to, msg, cause.String(), 0)
	}
}

// Duplicated records that message number no was delivered twice.
func (m *Monitor) Duplicated(no int64, from int32, p elect.Port, to int32, msg elect.Message, now int64) {
	m.faults.kinds |= elect.FaultDup
	m.faults.dup++
	first, onPath := m.faults.cause == "", m.onPath(from)
	if first || onPath && m.faults.path.alteration == "" {
		what := m.describe(no, from, to, msg, now) + ", duplicated"
		if first {
			m.faults.cause = "first fault: " + what
		}
		if onPath {
			m.pathFault(what, false)
		}
	}
	if m.trace != nil {
		m.trace.Fault("dup", no, from, p, to, msg, "", 0)
	}
}

// Delayed records that message number no is late by d more time units.
func (m *Monitor) Delayed(no int64, from int32, p elect.Port, to int32, msg elect.Message, d, now int64) {
	m.faults.kinds |= elect.FaultDelay
	m.faults.delayed++
	first, onPath := m.faults.cause == "", m.onPath(from)
	if first || onPath && m.faults.path.alteration == "" {
		what := m.describe(no, from, to, msg, now) + fmt.Sprintf(", delayed by %d", d)
		if first {
			m.faults.cause = "first fault: " + what
		}
		if onPath {
			m.pathFault(what, false)
		}
	}
	if m.trace != nil {
		m.trace.Fault("delay", no, from, p, to, msg, "", d)
	}
}

// Crash records that node i crashed at time now (ticks).
func (m *Monitor) Crash(i int32, now int64) {
	f := &m.faults
	if f.down == nil {
		f.down = make([]bool, len(m.ids))
	}
	f.down[i] = true
	f.kinds |= elect.FaultCrash
	f.crashed = append(f.crashed, i)
	what := fmt.Sprintf("node %d (ID %d) crashed at time %s", i, m.ids[i], m.formatTime(now))
	if f.cause == "" {
		f.cause = "first fault: " + what
	}
	if f.path.crashedAt == nil {
		f.path.crashedAt = make([]string, len(m.ids))
	}
	f.path.crashedAt[i] = what
	if m.onPath(i) {
		m.pathFault(what, true)
	}
	if m.trace != nil {
		m.trace.Crash(i)
	}
}

// noteElection records node i's election, in a run with faults, with the
// largest and smallest IDs of the nodes up then: what a crash-tolerant
// algorithm promises to elect from.
func (m *Monitor) noteElection(i int32) {
	if m.cfg.Faults == nil {
		return
	}
	f := &m.faults
	rec := electionRecord{node: i, aliveMax: -1, aliveMin: elect.ID(1<<63 - 1), afterCrash: f.down != nil}
	for k, id := range m.ids {
		if m.up(k) {
			rec.aliveMax, rec.aliveMin = max(rec.aliveMax, id), min(rec.aliveMin, id)
		}
	}
	f.elections = append(f.elections, rec)
}

// electionOf returns the record of node i's election.
func (m *Monitor) electionOf(i int32) (electionRecord, bool) {
	for _, rec := range m.faults.elections {
		if rec.node == i {
			return rec, true
		}
	}
	return electionRecord{}, false
}

// survivingLeader is, in a run where nodes crashed, the leader the monitor
// judges and how many leaders count: the nodes elected that are still up
// (the first of them is the leader); when none is, the first node elected,
// whose election stands although it crashed after it (one leader). A
// leader that crashed before anyone learned of it and was replaced by a
// node up is not a second leader: the survivors have one.
func (m *Monitor) survivingLeader() (leader int32, elected int) {
	leader = -1
	for _, rec := range m.faults.elections {
		if m.up(int(rec.node)) {
			if leader < 0 {
				leader = rec.node
			}
			elected++
		}
	}
	if elected == 0 && m.elected > 0 {
		return m.leader, 1
	}
	return leader, elected
}

// initiatorUp reports whether a node that woke spontaneously, or is
// scheduled to, has not crashed.
func (m *Monitor) initiatorUp() bool {
	if m.cfg.Wake == nil {
		for i := range m.ids {
			if m.up(i) {
				return true
			}
		}
		return false
	}
	for _, w := range m.cfg.Wake {
		if m.up(w.Node) {
			return true
		}
	}
	return false
}

// up reports whether node i has not crashed.
func (m *Monitor) up(i int) bool { return m.faults.down == nil || !m.faults.down[i] }

// faultReport sets r's fault report and, when the algorithm fails under
// faults it declares it tolerates, its outcome to violation.
func (m *Monitor) faultReport(r *Result) {
	f := &m.faults
	tol := m.alg.RunModel(m.cfg.Params).Tolerates
	rep := &FaultReport{
		Injected: f.kinds.String(), Tolerated: tol.String(),
		Lost: f.lost, Duplicated: f.dup, Delayed: f.delayed,
		Crashed: slices.Clip(append([]int32{}, f.crashed...)),
		Spec:    m.cfg.Faults.String(),
	}
	model := m.alg.RunModel(m.cfg.Params)
	if model.Announce == elect.AlwaysAnnounce || model.Announce == elect.OptionalAnnounce && m.cfg.Announce {
		// Only an announcing algorithm decides every node.
		for i, d := range m.decisions {
			if d == elect.Undecided && m.up(i) {
				rep.Undecided++
			}
		}
	}
	failed := r.Outcome != OutcomeElected
	for _, c := range r.Checks {
		failed = failed || !c.Holds
	}
	rep.Cause = f.cause
	if failed {
		rep.Cause = m.pathCause(r)
	}
	switch {
	case f.kinds == 0:
		rep.Verdict = VerdictNone
	case r.Outcome == MemoryLimit:
		// The memory the run's messages took stopped it, whatever faults
		// it meets: not judged.
		rep.Verdict = VerdictCut
	case (r.Outcome == StepLimit || r.Outcome == Stopped) && f.kinds&^tol == 0:
		rep.Verdict = VerdictCut
	case !failed:
		rep.Verdict = VerdictSurvived
	case f.kinds&^tol != 0:
		rep.Verdict = VerdictExpected
	case f.down != nil && r.Leaders == 0 && !m.initiatorUp():
		// Every initiator crashed (some before they woke): no node that
		// is up had a reason to start an election, which no algorithm can
		// help.
		rep.Verdict = VerdictExpected
		rep.Cause += "; every initiator crashed, so no node that is up started an election"
	default:
		rep.Verdict = VerdictViolated
		if r.Outcome != OutcomeViolation {
			what := string(r.Outcome)
			if r.Outcome == OutcomeElected {
				for _, c := range r.Checks {
					if !c.Holds {
						what = "check " + c.Name + " failed"
						break
					}
				}
			}
			r.SetViolation(NewViolation(PropFaultTolerance, fmt.Sprintf("%s under %s, which %s declares it tolerates (%s)", what, f.kinds, m.alg.Name, rep.Cause)))
			r.Outcome = OutcomeViolation
		}
	}
	r.Faults = rep
}
