// Package pp is the population-protocol engine of elect: protocols are
// transition functions over compact agent states, and the exact agent-array
// engine runs them under a uniformly random scheduler.
//
// Model (seed 004, Section 2; seed 000, Section I): n agents, each in a state;
// at every step the scheduler picks an ordered pair (initiator, responder) of
// distinct agents uniformly at random and the protocol's transition function
// replaces their two states. Parallel time is steps / n.
//
// The engine keeps one state per agent in a flat slice and counts, exactly and
// incrementally, the agents whose output is L (leaders) and the protocol's
// goal counter, so a stop condition is detected at the very step at which it
// first holds. A monitor checks, for protocols that promise it, that the
// number of leaders never increases and never reaches zero. Protocols live in
// elect/pp/protocols; this package never imports them.
//
// Determinism: every random choice comes from one math/rand/v2 PCG stream
// seeded by the run's seed; the same protocol, parameters, n, scheduler and
// seed give the same run on any machine.
package pp

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/electkit/elect/election"
)

// Delta is what one interaction changed in the engine's counters, as reported
// by the protocol's transition function.
type Delta struct {
	// Leaders is the change in the number of agents whose output is L.
	Leaders int32
	// Goal is the change in the protocol's goal counter (see Spec.Goal).
	Goal int32
	// Events is a protocol-defined bit set of events that happened in this
	// interaction; the engine records the first step of each (Result.EventSteps).
	Events uint8
	// Tally is a protocol-defined bit set of counters this interaction adds
	// one to; the agent array keeps their sums (Result.Tallies), so that a
	// protocol value holds no counters of its own.
	Tally uint8
}

// GoalKind says when a run has reached what its protocol is for.
type GoalKind int

const (
	// GoalOneLeader: the run's goal is reached when exactly one agent outputs L.
	GoalOneLeader GoalKind = iota
	// GoalCount: the run's goal is reached when the protocol's goal counter
	// (the number of agents for which Goaler.InGoal holds, kept up to date by
	// Delta.Goal) reaches Spec.Target.
	GoalCount
)

// Spec is what the engine needs to know about a protocol instance besides
// its transition function.
type Spec struct {
	// Name is the protocol's name, as listed by "elect pp list".
	Name string
	// Goal and Target define the step the run stops at (see GoalKind).
	Goal   GoalKind
	Target int64
	// Monotone is true when the protocol promises that the number of leaders
	// never increases and never reaches zero; the monitor then checks it at
	// every step.
	Monotone bool
	// StateSpace, when non-zero, bounds Protocol.Index: distinct states are
	// then recorded in a bitset instead of a map.
	StateSpace uint64
	// DefaultMaxSteps is the step limit used when Options.MaxSteps is 0.
	DefaultMaxSteps int64
	// NoElection is true for protocols that elect no leader (consensus,
	// majority): a run that reaches their goal ends as GoalReached, not by
	// its number of leaders.
	NoElection bool
	// TallyTargets[b], when positive, asks the agent array to record the
	// step at which tally b (Delta.Tally) first reaches it, in
	// Result.TallyReached[b]: a count that only the whole run knows (all n-1
	// other agents have adopted the maximum), kept by the engine rather
	// than the protocol.
	TallyTargets [8]int64
}

// Protocol is a population protocol instance for one population size: the
// small core every engine needs, its initial states, its transition function
// and its output function. Implementations must be deterministic functions
// of their arguments. Everything else a protocol may offer is an optional
// capability, listed in capabilities.go.
type Protocol[S comparable] interface {
	// Spec describes the instance.
	Spec() Spec
	// Init returns the initial state of agent i (0 <= i < n). Anonymous
	// protocols ignore i; numbered ones derive the agent's ID from it.
	Init(i int) S
	// Interact applies the transition function to the states of the
	// initiator a and the responder b and reports how the counters changed.
	Interact(a, b *S) Delta
	// IsLeader is the output function: true for L, false for F.
	IsLeader(s S) bool
}

// Outcome is how a run ended: the outcomes of every run of the toolkit,
// declared once in package election.
type Outcome = election.Outcome

// The outcomes of a population protocol's run.
const (
	// Elected: the goal was reached with exactly one leader and every
	// promised property held.
	Elected = election.OutcomeElected
	// NoLeader: the goal was reached with no agent outputting L.
	NoLeader = election.NoLeader
	// MultipleLeaders: the goal was reached with more than one leader.
	MultipleLeaders = election.MultipleLeaders
	// StepLimit: the step limit stopped the run before its goal.
	StepLimit = election.StepLimit
	// Violation: a promised property failed; Result.Violation names it.
	Violation = election.OutcomeViolation
	// GoalReached: a protocol that elects no leader (Spec.NoElection)
	// reached its goal.
	GoalReached = election.OutcomeGoalReached
)

// Options configure one run.
type Options struct {
	// Scheduler chooses the pairs; the zero value is Ordered.
	Scheduler Scheduler
	// MaxSteps stops the run after that many steps; 0 uses the protocol's
	// default limit.
	MaxSteps int64
	// TrackStates records the distinct states met (Result.StatesSeen). It
	// costs a set insertion per changed state, so benchmarks leave it off.
	TrackStates bool
	// NoBatch makes the engine call Interact once per interaction even for
	// protocols that implement Batcher (used to check that both agree).
	NoBatch bool
	// Engine selects the engine of Simulate (see ChooseEngine); the zero
	// value is the agent-array engine. Run always uses the agent array.
	Engine Engine
	// Sample, when set, makes Simulate record snapshots of the
	// configuration over the run (sample.go). The agent array's run is the
	// same with or without it; a count engine's run advances in the
	// sample's steps, which draws its random numbers differently (the same
	// law, the same run for the same seed and sample).
	Sample *Sampler
	// Progress, when set, is called about ten times a second with the
	// run's progress (for a progress bar); returning false stops the run
	// with outcome Stopped. It does not change the run otherwise.
	Progress func(Progress) bool
}

// Detail is one protocol-specific figure of a result.
type Detail struct {
	Key   string
	Value any
}

// Details is an ordered list of protocol-specific figures; it marshals to a
// JSON object whose keys keep their order.
type Details []Detail

// MarshalJSON writes the details as one JSON object, keys in order.
func (d Details) MarshalJSON() ([]byte, error) {
	out := []byte{'{'}
	for i, kv := range d {
		if i > 0 {
			out = append(out, ',')
		}
		k, err := json.Marshal(kv.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(kv.Value)
		if err != nil {
			return nil, err
		}
		out = append(append(append(out, k...), ':'), v...)
	}
	return append(out, '}'), nil
}

// Get returns the value of key, or nil when absent.
func (d Details) Get(key string) any {
	for _, kv := range d {
		if kv.Key == key {
			return kv.Value
		}
	}
	return nil
}

// Result is the record of one run: the protocol, n, the run's seed, the
// engine and scheduler names, the outcome, and the figures below. Field
// names in JSON are part of the public interface of "elect pp --json".
type Result struct {
	Protocol  string  `json:"protocol"`
	N         int     `json:"n"`
	Seed      uint64  `json:"seed"`
	Engine    string  `json:"engine"`
	Scheduler string  `json:"scheduler"`
	Outcome   Outcome `json:"outcome"`
	// Violation names the failed property when Outcome is Violation: the
	// text of Broken.
	Violation string `json:"violation,omitempty"`
	// Broken is the failed property as a value (SetViolation).
	Broken election.Violation `json:"-"`
	// Interactions is the step at which the goal first held (the number of
	// interactions performed up to and including it), or the number of steps
	// run when the goal was not reached.
	Interactions int64 `json:"interactions"`
	// ParallelTime is Interactions / N.
	ParallelTime float64 `json:"parallel_time"`
	// Leaders is the number of agents outputting L when the run stopped.
	Leaders int `json:"leaders"`
	// OneLeaderStep is the step from which exactly one leader remained until
	// the run stopped, or -1.
	OneLeaderStep int64 `json:"one_leader_step"`
	// StatesSeen is the number of distinct agent states met (0 when not
	// tracked).
	StatesSeen int `json:"states_seen"`
	// Details holds protocol-specific figures.
	Details Details `json:"details"`
	// EventSteps[b] is the first step at which the protocol reported event
	// bit b (see Delta.Events), or -1. Protocols read it in Finish.
	EventSteps [8]int64 `json:"-"`
	// EventLeaders[b] is the number of leaders right after that step (-1
	// when the event did not happen): the engine keeps the run's counts, so
	// that a protocol value holds no counters of its own.
	EventLeaders [8]int64 `json:"-"`
	// Tallies[b] is the number of interactions that reported tally bit b
	// (see Delta.Tally), on the agent array (0 on the count engines), and
	// TallyReached[b] the step at which it reached Spec.TallyTargets[b]
	// (-1: it did not, or no target). Protocols read them in Finish.
	Tallies      [8]int64 `json:"-"`
	TallyReached [8]int64 `json:"-"`
}

// Add appends a protocol-specific figure.
func (r *Result) Add(key string, value any) { r.Details = append(r.Details, Detail{key, value}) }

// EngineName is the name of the exact agent-array engine in results.
const EngineName = "agent-array"

// MaxN is the largest population the engine accepts.
const MaxN = 1 << 31

// Validate checks the population size.
func Validate(n int) error {
	if n < 2 || n > MaxN {
		return fmt.Errorf("pp: n must be between 2 and %d, got %d", MaxN, n)
	}
	return nil
}

// batch is the number of pairs drawn ahead of their interactions; drawing
// them first lets the processor overlap the memory accesses of consecutive
// interactions.
const batch = 256

// Run executes protocol p on n agents with the given seed until its goal
// holds, a monitored property fails, or the step limit is reached. It is
// the exact reference engine: one state per agent, one interaction per step.
func Run[S comparable, P Protocol[S]](p P, n int, seed uint64, opt Options) Result {
	sim := NewSim[S](p, n, seed, opt)
	sim.Advance(sim.maxSteps)
	return sim.Result()
}

// Sim is one run of the agent-array engine that can be advanced step by
// step; Run is NewSim, Advance to the step limit, Result.
type Sim[S comparable, P Protocol[S]] struct {
	p        P
	spec     Spec
	n        int
	seed     uint64
	opt      Options
	states   []S
	leaders  int64
	goal     int64
	step     int64
	maxSteps int64
	leaderWatch
	done      bool
	rep       reporter
	events    [8]int64
	eventLead [8]int64
	tallies   [8]int64
	tallyAt   [8]int64 // Result.TallyReached
	seen      *stateSet[S]
	src       *pairSource
	buf       [batch]Pair
	touch     [batch]S
}

// NewSim sets up a run: every agent in its initial state, counters
// initialised, no step taken.
func NewSim[S comparable, P Protocol[S]](p P, n int, seed uint64, opt Options) *Sim[S, P] {
	s := &Sim[S, P]{p: p, spec: p.Spec(), n: n, seed: seed, opt: opt, leaderWatch: leaderWatch{oneStep: -1}, rep: reporter{fn: opt.Progress}}
	for b := range s.events {
		s.events[b] = -1
		s.eventLead[b] = -1
		s.tallyAt[b] = -1
	}
	s.states = make([]S, n)
	adviseHugePages(s.states)
	g, hasGoal := any(p).(Goaler[S]) // asserted once, not per agent
	for i := range s.states {
		st := p.Init(i)
		s.states[i] = st
		if p.IsLeader(st) {
			s.leaders++
		}
		if hasGoal && g.InGoal(st) {
			s.goal++
		}
	}
	s.seen = newStateSet(p, s.spec.StateSpace, opt.TrackStates)
	if opt.TrackStates {
		for _, st := range s.states {
			s.seen.add(st)
		}
	}
	s.maxSteps = opt.MaxSteps
	if s.maxSteps <= 0 {
		s.maxSteps = s.spec.DefaultMaxSteps
	}
	if s.maxSteps <= 0 {
		s.maxSteps = math.MaxInt64
	}
	if s.leaders == 1 {
		s.oneStep = 0
	}
	s.done = s.reached()
	s.src = newPairSource(n, seed, opt.Scheduler)
	return s
}

func (s *Sim[S, P]) reached() bool {
	if s.spec.Goal == GoalOneLeader {
		return s.leaders == 1
	}
	return s.goal >= s.spec.Target
}

// Steps returns the number of steps taken so far.
func (s *Sim[S, P]) Steps() int64 { return s.step }

// Stopped reports whether the run has reached its goal or a violation.
func (s *Sim[S, P]) Stopped() bool { return s.done || s.violation.Found() || s.rep.halted }

// Advance takes up to k more steps (never beyond the step limit) and stops
// at the exact step at which the goal first holds or a monitored property
// fails. It reports whether the run has stopped for one of those reasons.
func (s *Sim[S, P]) Advance(k int64) bool {
	end := s.step + min(k, s.maxSteps-s.step)
	p, states, track := s.p, s.states, s.opt.TrackStates
	for !s.Stopped() && s.step < end {
		if s.rep.fn != nil && s.rep.due(1024) && !s.rep.report(s.progress()) {
			break
		}
		m := min(int64(batch), end-s.step)
		s.src.fill(s.buf[:m])
		// Read the batch's agents once, in a tight loop of independent loads,
		// so that their cache misses overlap; the interactions below then
		// find them in cache. The copies are not used.
		for i := int64(0); i < m; i++ {
			s.touch[i] = states[s.buf[i].U]
		}
		for i := int64(0); i < m; i++ {
			s.touch[i] = states[s.buf[i].V]
		}
		if bt, ok := any(p).(Batcher[S]); ok && !track && !s.opt.NoBatch {
			sm, summer := any(p).(Summer[S])
			for i := int64(0); i < m; {
				if rem := m - i; summer && (s.spec.Goal != GoalCount || s.goal+2*rem < s.spec.Target) && s.farFromTallyTargets(rem) {
					// No prefix of the rest of the batch reaches the goal
					// or a tally target; while the leader count stays above
					// 1 + 2 rem, no prefix makes it 1 or 0 either.
					j, sum, last := sm.InteractSum(states, s.buf[i:m], s.leaders-2*rem <= 1, &s.tallies)
					s.step += int64(j)
					s.addSum(sum)
					if j == int(rem) {
						break
					}
					i += int64(j) + 1
					s.step++
					s.account(last)
					if s.Stopped() {
						break
					}
					continue
				}
				j, d := bt.InteractUntil(states, s.buf[i:m])
				if j == int(m-i) {
					s.step += m - i
					break
				}
				i += int64(j) + 1
				s.step += int64(j) + 1
				s.account(d)
				if s.Stopped() {
					break
				}
			}
			continue
		}
		for i := int64(0); i < m; i++ {
			pr := s.buf[i]
			s.step++
			if pr.U == pr.V { // with-repeats: an agent meeting itself changes nothing
				continue
			}
			a, b := &states[pr.U], &states[pr.V]
			var oa, ob S
			if track {
				oa, ob = *a, *b
			}
			d := p.Interact(a, b)
			if track {
				if *a != oa {
					s.seen.add(*a)
				}
				if *b != ob {
					s.seen.add(*b)
				}
			}
			if d == (Delta{}) {
				continue
			}
			s.account(d)
			if s.Stopped() {
				break
			}
		}
	}
	return s.Stopped()
}

// farFromTallyTargets reports whether no prefix of the next rem
// interactions can bring a tally to its target (each adds at most one), so
// that a Summer may add them up.
func (s *Sim[S, P]) farFromTallyTargets(rem int64) bool {
	for b, target := range s.spec.TallyTargets {
		if target > 0 && s.tallies[b] < target && s.tallies[b]+rem >= target {
			return false
		}
	}
	return true
}

// addSum adds the Deltas of a stretch of interactions that InteractSum
// summed: the leader count only decreased and stayed above 1, and the goal
// was not reached, so only the counters and the one-leader step change.
func (s *Sim[S, P]) addSum(d Delta) {
	if d.Leaders != 0 {
		s.leaders += int64(d.Leaders)
		s.oneStep = -1
	}
	s.goal += int64(d.Goal)
}

// leaderWatch is what both kinds of engine monitor on the leader count:
// the step since which exactly one leader remains (-1 when not one), and
// the first violation of a monotone protocol (the count grew, or fell to 0).
type leaderWatch struct {
	oneStep   int64
	violation election.Violation
}

// leadersChanged records that the leader count went from before to after at
// step.
func (w *leaderWatch) leadersChanged(monotone bool, before, after, step int64) {
	if monotone && after > before && !w.violation.Found() {
		w.violation = leadersIncreased(before, after, step)
	}
	if monotone && after == 0 && !w.violation.Found() {
		w.violation = lastLeaderEliminated(step)
	}
	if after == 1 {
		w.oneStep = step
	} else {
		w.oneStep = -1
	}
}

// account updates the counters and the monitor after an interaction that
// changed something.
func (s *Sim[S, P]) account(d Delta) {
	if d.Leaders != 0 {
		s.leaders += int64(d.Leaders)
		s.leadersChanged(s.spec.Monotone, s.leaders-int64(d.Leaders), s.leaders, s.step)
	}
	s.goal += int64(d.Goal)
	if d.Events != 0 {
		for bit := range s.events {
			if d.Events&(1<<bit) != 0 && s.events[bit] < 0 {
				s.events[bit] = s.step
				s.eventLead[bit] = s.leaders
			}
		}
	}
	if d.Tally != 0 {
		for bit := range s.tallies {
			if d.Tally&(1<<bit) != 0 {
				s.tallies[bit]++
				if s.tallies[bit] == s.spec.TallyTargets[bit] {
					s.tallyAt[bit] = s.step
				}
			}
		}
	}
	s.done = s.reached()
}

// Result reports the run as it stands: its outcome, counters and the
// protocol's details. It recounts the leaders and the goal from the agent
// array and reports a violation if the incremental counters disagree.
func (s *Sim[S, P]) Result() Result {
	p := s.p
	res := Result{Protocol: s.spec.Name, N: s.n, Seed: s.seed, Engine: EngineName, Scheduler: s.opt.Scheduler.String(),
		Interactions: s.step, Leaders: int(s.leaders), OneLeaderStep: s.oneStep, StatesSeen: s.seen.len(), EventSteps: s.events, EventLeaders: s.eventLead,
		Tallies: s.tallies, TallyReached: s.tallyAt}
	var recount, regoal int64
	g, hasGoal := any(p).(Goaler[S])
	for _, st := range s.states {
		if p.IsLeader(st) {
			recount++
		}
		if hasGoal && g.InGoal(st) {
			regoal++
		}
	}
	var mismatch election.Violation
	if recount != s.leaders || (s.spec.Goal == GoalCount && regoal != s.goal) {
		mismatch = election.NewViolation(election.PropCounterMismatch, fmt.Sprintf("engine counted %d leaders and goal %d, recount gives %d and %d", s.leaders, s.goal, recount, regoal))
	}
	res.settle(s.violation, mismatch, s.done, s.leaders, s.spec.NoElection)
	res = stoppedUnless(s.rep.halted, res)
	res.ParallelTime = float64(res.Interactions) / float64(s.n)
	if f, ok := any(p).(Finisher[S]); ok {
		f.Finish(s.states, &res)
	}
	if res.Details == nil {
		res.Details = Details{}
	}
	return res
}

// settle sets the outcome of a run that has stopped: the first violation
// the engine saw, else a mismatch between its counters and a recount of
// the final configuration, else the step limit when the goal was not
// reached, else GoalReached for a protocol that elects no leader, else what
// the number of leaders says.
func (res *Result) settle(violation, mismatch election.Violation, done bool, leaders int64, noElection bool) {
	switch {
	case violation.Found():
		res.Outcome = Violation
		res.SetViolation(violation)
	case mismatch.Found():
		res.Outcome = Violation
		res.SetViolation(mismatch)
	case !done:
		res.Outcome = StepLimit
	case noElection:
		res.Outcome = GoalReached
	case leaders == 1:
		res.Outcome = Elected
	case leaders == 0:
		res.Outcome = NoLeader
	default:
		res.Outcome = MultipleLeaders
	}
}

// SetViolation sets the property the run broke, and its text.
func (res *Result) SetViolation(v election.Violation) {
	res.Broken, res.Violation = v, v.String()
}

// leadersIncreased is the violation of a monotone protocol whose leaders
// went from before to after at step.
func leadersIncreased(before, after, step int64) election.Violation {
	v := election.NewViolation(election.PropLeadersIncreased, fmt.Sprintf("from %d to %d at step %d", before, after, step))
	return v.AtStep(step)
}

// lastLeaderEliminated is the violation of a monotone protocol whose last
// leader was eliminated at step.
func lastLeaderEliminated(step int64) election.Violation {
	v := election.NewViolation(election.PropNoLeader, fmt.Sprintf("the last leader was eliminated at step %d", step))
	return v.AtStep(step)
}

// stateSet records distinct states, in a bitset when the protocol bounds its
// state space (an Indexer) and in a map otherwise. Only its size is ever
// read, so map iteration order cannot leak into results.
type stateSet[S comparable] struct {
	on    bool
	index Indexer[S]
	bits  []uint64
	m     map[S]struct{}
	n     int
}

func newStateSet[S comparable](p Protocol[S], space uint64, on bool) *stateSet[S] {
	s := &stateSet[S]{on: on}
	if !on {
		return s
	}
	if ix, ok := p.(Indexer[S]); ok && space > 0 && space <= 1<<30 {
		s.index = ix
		s.bits = make([]uint64, (space+63)/64)
	} else {
		s.m = make(map[S]struct{})
	}
	return s
}

func (s *stateSet[S]) add(st S) {
	if s.bits != nil {
		i := s.index.Index(st)
		w, b := i/64, uint64(1)<<(i%64)
		if s.bits[w]&b == 0 {
			s.bits[w] |= b
			s.n++
		}
		return
	}
	if _, ok := s.m[st]; !ok {
		s.m[st] = struct{}{}
		s.n++
	}
}

func (s *stateSet[S]) len() int { return s.n }
