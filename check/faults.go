package check

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/sim"
)

// Faults explored. With Options.Faults ("crash:k=F", "loss:k=L", or both
// joined with ';') the check explores every execution with at most F
// crashes and at most L lost messages, as moves of the search:
//
//   - A crash of node i is a move at every state at which something can
//     still happen (a crash does not keep a run going) while fewer than F
//     nodes have crashed: before any step of the run (crash:node=I@t=0), or
//     as part of one of node i's steps, right after it (crash:node=I@step=S,
//     S counting the node's handler calls as every engine counts them; a
//     message that wakes a node is two, its wake-up and its delivery, and
//     the crash may come between them). A crash at any other moment is
//     the same execution as one of these: the node takes no step between
//     its last step and its crash, and a crashed node only drops what
//     reaches it. A node that has terminated does not crash.
//   - The loss of a message is a move while fewer than L messages have
//     been lost: under fifo the oldest message of a link (losing a later
//     one is the same as losing it when it becomes the oldest: no step
//     reads it before), under bag any message in flight; never one to a
//     node that has halted or crashed, which drops it anyway.
//
// The crashed nodes, the losses so far, the first node elected and each
// leader's largest and smallest ID up at its election are part of the
// state. The partial-order reduction is off (a crash or a loss is
// dependent on the deliveries of its node, so one node's deliveries no
// longer stand for all). Under crashes the properties are the monitor's
// (election.Monitor): the leaders counted at the end are the elected nodes
// that are up (or the first elected, when none is), and each is judged
// against the nodes up when it was elected; a node that crashed need not
// decide or know. An execution in which every initiator crashed and no
// leader was elected is not held against the algorithm (no node up had a
// reason to start one), as the monitor says.
//
// When the shortest failure involves a fault the algorithm does not
// tolerate and the budget also holds faults it tolerates, those alone are
// checked again: a failure under them is a violation, and is reported
// rather than the expected failure.
//
// A violation's counterexample names its faults as an explicit schedule
// (FaultSchedule: "loss:msg=5;crash:node=3@step=2"), which the trace's
// header carries, so that `elect run --replay` applies them. The verdict
// is "expected-failure" when the faults of the shortest counterexample
// include one the algorithm does not declare it tolerates
// (elect.Model.Tolerates), "violation" otherwise.
//
// Synchronous algorithms run in the simulator: their fault choices are
// enumerated as explicit schedules (every node crashing at time 0 or after
// each of its steps, every message number lost), each schedule run once;
// see syncFaults.

// The fault moves of a step (step.fault).
const (
	stepCrashAfter uint8 = iota + 1 // the step, then its node crashes
	stepCrashMid                    // a message wakes the node, which crashes before it takes the message
	stepCrashNow                    // the node crashes before any step of the run
	stepLose                        // the message the step would deliver is lost
	stepDup                         // the message the step would deliver is duplicated
)

// faultBudget is what Options.Faults allows: crashes and losses.
type faultBudget struct {
	crash, loss, dup int
	text             string
}

// parseFaultBudget reads Options.Faults: only budgets (crash:k=F,
// loss:k=L), since the checker enumerates every choice.
func parseFaultBudget(text string, n int) (faultBudget, error) {
	if text == "" {
		return faultBudget{}, nil
	}
	spec, err := faults.Parse(text)
	if err != nil {
		return faultBudget{}, err
	}
	b := faultBudget{text: spec.String()}
	for _, c := range spec.Clauses {
		ok := c.K > 0 && c.By == 0 && (c.Kind == elect.FaultCrash || c.Kind == elect.FaultLoss || c.Kind == elect.FaultDup)
		if !ok {
			what := "it names one schedule"
			switch {
			case c.P > 0:
				what = "a probability cannot be enumerated (elect sweep measures its rate)"
			case c.By > 0:
				what = "by= bounds a draw; the checker takes every choice"
			case c.Kind != elect.FaultCrash && c.Kind != elect.FaultLoss && c.Kind != elect.FaultDup:
				what = c.Kind.String() + " is not explored yet"
			}
			return faultBudget{}, fmt.Errorf("faults: the checker explores every choice within a budget: use crash:k=F, loss:k=L and dup:k=D (joined with ';'); %q: %s", c.String(), what)
		}
		switch c.Kind {
		case elect.FaultCrash:
			b.crash += int(min(c.K, int64(n)))
		case elect.FaultLoss:
			b.loss += int(min(c.K, 1<<20))
		default:
			b.dup += int(min(c.K, 1<<20))
		}
	}
	b.crash = min(b.crash, n)
	return b, nil
}

// tolerated is the part of the budget of the kinds tol holds, as a
// specification ("" when none).
func (b faultBudget) tolerated(tol elect.Faults) string {
	var parts []string
	for _, p := range []struct {
		kind elect.Faults
		k    int
	}{{elect.FaultCrash, b.crash}, {elect.FaultLoss, b.loss}, {elect.FaultDup, b.dup}} {
		if p.k > 0 && tol&p.kind != 0 {
			parts = append(parts, fmt.Sprintf("%s:k=%d", p.kind, p.k))
		}
	}
	return strings.Join(parts, ";")
}

// faulty reports whether the search explores faults.
func (m *model) faulty() bool { return m.crashK > 0 || m.lossK > 0 || m.dupK > 0 }

// faultPart hashes the state's scalar fault record: the losses so far and
// the first node elected (the crashed nodes are in the nodes' parts).
func faultPart(s *state) stateKey {
	return newHasher(faultTag, uint64(s.lost)).pair(uint64(s.first), uint64(s.dups)).sum()
}

// faultSteps adds to base (the steps enabled without faults) the fault
// moves: crashes before anything happened, a crash with each step of a
// node that runs, and the loss of each message a step would deliver. A
// state where nothing can happen has none.
func (m *model) faultSteps(s *state, base []step) []step {
	if len(base) == 0 {
		return base
	}
	n := len(base)
	if s.crashes < m.crashK {
		if !slices.Contains(s.woken, true) { // no step yet: a crash at time 0
			for i := range s.nodes {
				if !s.crashed[i] {
					base = append(base, step{node: int32(i), fault: stepCrashNow})
				}
			}
		}
		for _, st := range base[:n] {
			i := st.node
			if s.halted[i] || st.wake && (s.woken[i] || !s.pending[i]) {
				continue // the step runs no code of the node
			}
			c := st
			c.fault = stepCrashAfter
			base = append(base, c)
			if !st.wake && !s.woken[i] {
				c.fault = stepCrashMid
				base = append(base, c)
			}
		}
	}
	for _, f := range [...]struct {
		kind uint8
		room bool
	}{{stepLose, s.lost < m.lossK}, {stepDup, s.dups < m.dupK}} {
		if !f.room {
			continue
		}
		for _, st := range base[:n] {
			if !st.wake && !s.halted[st.node] {
				c := st
				c.fault = f.kind
				base = append(base, c)
			}
		}
	}
	return base
}

// crash stops node i for good.
func (m *model) crash(s *state, i int32) {
	s.crashed[i], s.halted[i], s.pending[i] = true, true, false
	s.crashes++
}

// applyFaulty is applyStep for a search that explores faults.
func (m *model) applyFaulty(s *state, st step, sent []int64) *election.Violation {
	i := st.node
	switch st.fault {
	case stepCrashNow:
		m.sends = m.sends[:0]
		m.crash(s, i)
		return nil
	case stepLose:
		m.sends = m.sends[:0]
		m.take(s, m.cfg.Graph.PortIndex(i, st.port), st.k)
		s.lost++
		return nil
	case stepDup:
		// The copy travels right behind the message, as if sent right
		// after it (the engines enqueue it so): under fifo it is the
		// link's second message; under bag the order does not matter.
		m.sends = m.sends[:0]
		key := m.cfg.Graph.PortIndex(i, st.port)
		m.touch(s, key)
		l := s.links[key]
		grown := m.arena.alloc(len(l) + 1)
		copy(grown, l[:st.k+1])
		grown[st.k+1] = l[st.k]
		copy(grown[st.k+2:], l[st.k+1:])
		s.links[key] = grown
		s.dups++
		return nil
	case stepCrashMid:
		// The message wakes the node, which crashes before taking it.
		m.sends = m.sends[:0]
		s.nodes[i] = s.nodes[i].Clone().(snapNode)
		f := m.take(s, m.cfg.Graph.PortIndex(i, st.port), st.k)
		s.depth[i] = max(s.depth[i], f.depth)
		s.woken[i], s.pending[i] = true, false
		v := m.call(s, i, func(env elect.Env) { s.nodes[i].Wake(env, false) }, sent)
		if !s.stopped && !s.halted[i] {
			m.crash(s, i)
		}
		return v
	}
	v := m.applyStep(s, st, sent)
	if st.fault == stepCrashAfter && !s.stopped && !s.halted[i] {
		m.crash(s, i)
	}
	return v
}

// noteElection records, under crashes, node i's election: the first node
// elected, and the largest and smallest IDs of the nodes up then.
func (m *model) noteElection(s *state, i int32) {
	if s.first < 0 {
		s.first = i
	}
	hi, lo := elect.ID(-1), elect.ID(math.MaxInt64)
	for k, id := range m.cfg.IDs {
		if !s.crashed[k] {
			hi, lo = max(hi, id), min(lo, id)
		}
	}
	s.electHi[i], s.electLo[i] = hi, lo
}

// terminalCrashed is terminal under crashes, as the monitor judges a run
// whose nodes crashed (election.Monitor.Finish).
func (m *model) terminalCrashed(s *state) *election.Violation {
	leader, up := int32(-1), 0
	for i, d := range s.dec {
		if d == elect.Elected && !s.crashed[i] {
			up++
			if leader < 0 {
				leader = int32(i)
			}
		}
	}
	if up == 0 && s.elected > 0 {
		leader, up = s.first, 1
	}
	switch {
	case up > 1:
		return broke(election.PropMultipleLeaders, fmt.Sprintf("%d nodes that are up were elected", up))
	case up == 0 && !m.initiatorUp(s):
		return nil // every initiator crashed: no node up had a reason to start
	case up == 0:
		return broke(election.PropNoLeader, fmt.Sprintf("the execution ended with 0 leaders (%d crashed)", s.crashes))
	}
	id := m.cfg.IDs[leader]
	model := m.cfg.Algorithm.RunModel(m.cfg.Params)
	want := m.promise
	switch model.Elects {
	case elect.ElectsMax:
		want = s.electHi[leader]
	case elect.ElectsMin:
		want = s.electLo[leader]
	}
	if want >= 0 && id != want {
		return broke(election.PropWrongLeader, fmt.Sprintf("node %d with ID %d was elected, but the algorithm promises %d among the nodes up", leader, id, want), leader)
	}
	known := id
	if m.knowsMax >= 0 {
		known = m.knowsMax
		if s.knows[leader] != known {
			return broke(election.PropWrongLeaderID, fmt.Sprintf("the leader (node %d) recorded %d, not the max ID %d", leader, s.knows[leader], known), leader)
		}
	}
	if !m.announce {
		return nil
	}
	for i, k := range s.knows {
		if !s.crashed[i] && k != known {
			return broke(election.PropNotInformed, fmt.Sprintf("node %d knows %d as the leader's ID, not %d, after the announcement", i, k, known), int32(i))
		}
	}
	for i, d := range s.dec {
		if !s.crashed[i] && d == elect.Undecided {
			return broke(election.PropDeadlockUndecided, fmt.Sprintf("the execution ended with node %d undecided", i), int32(i))
		}
	}
	return nil
}

// initiatorUp reports whether an initiator has not crashed.
func (m *model) initiatorUp(s *state) bool {
	if m.cfg.Wake == nil {
		return slices.Contains(s.crashed, false)
	}
	for _, w := range m.cfg.Wake {
		if !s.crashed[w.Node] {
			return true
		}
	}
	return false
}

// faultSchedule returns the explicit fault schedule of an execution
// ("crash:node=3@step=2;loss:msg=5", in the order the faults happen), which
// the engines apply to give the same faults, and the kinds of fault in it.
func (m *model) faultSchedule(steps []step) (string, elect.Faults) {
	if !m.faulty() {
		return "", 0
	}
	s := m.initial()
	sent := make([]int64, m.nq()-2)
	nums := make([][]int64, len(s.links)) // each message's number in sending order, by link
	var sentNo int64
	var clauses []string
	var kinds elect.Faults
	for _, st := range steps {
		i := st.node
		if !st.wake && st.fault != stepCrashNow {
			key := m.cfg.Graph.PortIndex(i, st.port)
			no := nums[key][st.k]
			nums[key] = slices.Delete(nums[key], st.k, st.k+1)
			switch st.fault {
			case stepLose:
				clauses = append(clauses, fmt.Sprintf("loss:msg=%d", no))
				kinds |= elect.FaultLoss
			case stepDup:
				clauses = append(clauses, fmt.Sprintf("dup:msg=%d", no))
				kinds |= elect.FaultDup
				nums[key] = slices.Insert(nums[key], st.k, no, no) // the message stays, its copy behind it
			}
		}
		was := s.crashed[i]
		m.apply(s, st, sent)
		m.linkLog = m.linkLog[:0]
		for _, so := range m.sends {
			sentNo++
			nums[so.key] = append(nums[so.key], sentNo)
		}
		if s.crashed[i] && !was {
			kinds |= elect.FaultCrash
			if st.fault == stepCrashNow {
				clauses = append(clauses, fmt.Sprintf("crash:node=%d@t=0", i))
			} else {
				clauses = append(clauses, fmt.Sprintf("crash:node=%d@step=%d", i, m.calls[i]))
			}
		}
	}
	return strings.Join(clauses, ";"), kinds
}

// withFaults is cfg with the explicit fault schedule spec ("" : none).
func withFaults(cfg *election.Config, spec string) *election.Config {
	c := *cfg
	c.Faults = nil
	if spec != "" {
		c.Faults, _ = faults.Parse(spec) // made by faultSchedule: valid
	}
	return &c
}

// syncFaults checks a synchronous configuration under every fault
// schedule within the budget. A synchronous run is determined by its IDs,
// wake-ups and faults, so each schedule is run once in the simulator: a
// crash of each node at time 0 or right after each of its steps, and the
// loss of each message by its number in sending order. Schedules are
// built one fault at a time from a run that had the others (a node's
// first S steps, and the first M messages, are the same in a run with
// more faults that come later): every schedule is reached in the order
// its faults happen, and each is run once (losses are added in increasing
// numbers; a schedule one of whose faults does not happen is the smaller
// schedule). Each run is judged by the monitor's fault verdict; a
// failure with fewer faults, then fewer events, is the one reported.
func (c *config) syncFaults(opt Options, b faultBudget) {
	type outcome struct {
		happened bool    // every fault of the schedule happened
		crashed  []int32 // the nodes that crashed
	}
	seen := map[string]outcome{}
	type failure struct {
		spec, verdict string
		violation     *election.Violation
		faults        int
		events        int64
	}
	var worst *failure
	nq := len(c.cfg.Algorithm.Messages) + 2
	// run runs a schedule once; fresh says it had not been run and every
	// fault happened (its result is then r).
	run := func(clauses []string) (o outcome, r *election.Result, fresh bool) {
		key := strings.Join(slices.Sorted(slices.Values(clauses)), ";")
		if o, ok := seen[key]; ok {
			return o, nil, false
		}
		if c.states >= opt.MaxStates {
			c.full = true
			return outcome{}, nil, false
		}
		spec := strings.Join(clauses, ";")
		cfg := withFaults(c.cfg, spec)
		r, err := sim.Run(*cfg)
		c.states++
		if err != nil {
			seen[key] = outcome{}
			if c.err == nil {
				c.err = fmt.Errorf("check: the simulator refused the run with faults %s: %w", spec, err)
			}
			return outcome{}, nil, false
		}
		c.edges += r.Events
		o = outcome{happened: true}
		if r.Faults != nil {
			o.crashed = r.Faults.Crashed
			o.happened = int(r.Faults.Lost+r.Faults.Duplicated)+len(r.Faults.Crashed) == len(clauses)
		}
		seen[key] = o
		if !o.happened {
			return o, nil, false
		}
		c.flt.schedules++
		q := append(append([]int64(nil), r.TypeCounts...), r.Messages, int64(r.Time))
		if c.max == nil {
			c.max, c.min = slices.Clone(q), slices.Clone(q)
		}
		for k := range nq {
			c.max[k], c.min[k] = max(c.max[k], q[k]), min(c.min[k], q[k])
		}
		verdict := election.VerdictNone
		if r.Faults != nil {
			verdict = r.Faults.Verdict
		}
		// The election is judged, not the declared bounds (promises of
		// runs without faults).
		var fail *election.Violation
		what := runViolation(r, cfg.MaxEvents)
		c.full = c.full || ranOut(r)
		switch {
		case what == nil:
		case verdict == election.VerdictExpected && strings.Contains(r.Faults.Cause, "every initiator crashed"):
			// No node up had a reason to start: not held against it.
		case verdict == election.VerdictExpected:
			fail = what
		default:
			fail, verdict = what, election.VerdictViolated
		}
		if fail != nil {
			f := &failure{spec: spec, violation: fail, verdict: verdict, faults: len(clauses), events: r.Events}
			if worst == nil || f.faults < worst.faults || f.faults == worst.faults && f.events < worst.events {
				worst = f
			}
		}
		return o, r, true
	}
	var explore func(clauses []string, r *election.Result, crashes, losses int, lastMsg int64)
	explore = func(clauses []string, r *election.Result, crashes, losses int, lastMsg int64) {
		// losses counts lost and duplicated messages together (each kind
		// within its budget, counted from the clauses), and lastMsg is the
		// last message number either hit: each schedule is built with its
		// messages in increasing numbers.
		if crashes < b.crash {
			var down []int32
			if r.Faults != nil {
				down = r.Faults.Crashed
			}
			for node := range c.cfg.Graph.N {
				if slices.Contains(down, int32(node)) {
					continue
				}
				for k := 0; !c.full; k++ {
					clause := fmt.Sprintf("crash:node=%d@step=%d", node, k)
					if k == 0 {
						clause = fmt.Sprintf("crash:node=%d@t=0", node)
					}
					next := append(slices.Clone(clauses), clause)
					o, child, fresh := run(next)
					if fresh {
						explore(next, child, crashes+1, losses, lastMsg)
					}
					if !slices.Contains(o.crashed, int32(node)) {
						break // it takes fewer than k steps, or halted first: no later crash happens
					}
				}
			}
		}
		lost, duped := 0, 0
		for _, cl := range clauses {
			lost += boolInt(strings.HasPrefix(cl, "loss:"))
			duped += boolInt(strings.HasPrefix(cl, "dup:"))
		}
		for _, kind := range []struct {
			name string
			room bool
		}{{"loss", lost < b.loss}, {"dup", duped < b.dup}} {
			if !kind.room {
				continue
			}
			for m := lastMsg + 1; m <= r.Messages && !c.full; m++ {
				next := append(slices.Clone(clauses), fmt.Sprintf("%s:msg=%d", kind.name, m))
				if _, child, fresh := run(next); fresh {
					explore(next, child, crashes, losses+1, m)
				}
			}
		}
	}
	if _, r0, fresh := run(nil); fresh {
		explore(nil, r0, 0, 0, 0)
	}
	if worst != nil {
		c.violation, c.flt.faultSpec, c.flt.faultVerdict = worst.violation, worst.spec, worst.verdict
		c.flt.faultEvents = worst.events
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// shorter reports whether c's counterexample is shorter than d's: fewer
// steps (asynchronous), or fewer faults and then fewer events (synchronous).
func shorter(c, d *config) bool {
	if c.cfg.Delivery == election.Sync {
		cf, df := strings.Count(c.flt.faultSpec, ";"), strings.Count(d.flt.faultSpec, ";")
		if c.flt.faultSpec == "" {
			cf = -1
		}
		if d.flt.faultSpec == "" {
			df = -1
		}
		return cf < df || cf == df && c.flt.faultEvents < d.flt.faultEvents
	}
	return len(c.bad) < len(d.bad)
}

// faultReport completes a report of a check that explored faults: the
// budget, what the algorithm tolerates, the counterexample's schedule
// and length, and the verdict expected-failure when the counterexample's
// faults include one the algorithm does not tolerate. The declared
// bounds are promises of runs without faults: they are not evaluated.
func (r *Report) faultReport(tol elect.Faults, b faultBudget) {
	r.Faults, r.Tolerates = b.text, tol.String()
	r.Bounds = nil
	if r.Verdict == "bound-failed" {
		r.Verdict = "ok"
	}
	c := r.violationCfg
	if c == nil {
		return
	}
	r.FaultSchedule = c.flt.faultSpec
	var kinds elect.Faults
	if c.flt.faultSpec != "" {
		if spec, err := faults.Parse(c.flt.faultSpec); err == nil {
			kinds = spec.Kinds()
		}
	}
	if c.cfg.Delivery == election.Sync {
		r.CounterexampleSteps = c.flt.faultEvents
		if c.flt.faultVerdict == election.VerdictExpected {
			r.Verdict = "expected-failure"
		}
		return
	}
	r.CounterexampleSteps = int64(len(r.counterexample))
	if kinds&^tol != 0 {
		r.Verdict = "expected-failure"
	}
}

// underFaults completes the report of a check under the fault budget. When
// the shortest failure involves a fault the algorithm does not tolerate,
// one under the faults it tolerates alone, if any, is a violation and is
// what the check reports: underFaults returns that check's report then,
// and nil otherwise.
func (r *Report) underFaults(opt Options, base *election.Config, budget faultBudget, sh *shared, start time.Time) *Report {
	tol := base.Algorithm.RunModel(base.Params).Tolerates
	r.faultReport(tol, budget)
	if base.Delivery == election.Sync {
		r.MaxEvents = base.MaxEvents
	}
	if part := budget.tolerated(tol); r.Verdict == "expected-failure" && part != "" && part != budget.text && !sh.stop.Load() {
		sub := opt
		sub.Faults = part
		if r2, err := Run(sub); err == nil && r2.Verdict == "violation" {
			r2.Faults = budget.text
			r2.Seconds += time.Since(start).Seconds()
			return r2
		}
	}
	return nil
}
