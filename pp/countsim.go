package pp

import (
	"fmt"
	"math"

	"github.com/electkit/elect/election"
)

// Engine names a simulation engine; every Result records the one that ran.
type Engine string

// The engines.
const (
	// AgentArray is the exact reference engine: one state per agent (Run).
	AgentArray Engine = EngineName
	// Batched is the count-based engine of Berenbrink et al. (ESA 2020):
	// Theta(sqrt n) interactions per batch (see batched.go).
	Batched Engine = "batched"
	// NullSkipping is the count-based engine that jumps over null
	// interactions (see nullskip.go).
	NullSkipping Engine = "null-skipping"
	// Hybrid is the count-based engine that switches between batches and
	// null-skipping by the fraction of non-null pairs; results of auto
	// runs that used both record it.
	Hybrid Engine = "batched+null-skipping"
	// Auto chooses an engine (see ChooseEngine).
	Auto Engine = "auto"
)

// EngineNames lists the names accepted by ParseEngine.
func EngineNames() []string {
	return []string{string(AgentArray), string(Batched), string(NullSkipping), string(Auto)}
}

// ParseEngine returns the engine with the given name ("" means auto).
func ParseEngine(name string) (Engine, error) {
	switch Engine(name) {
	case "", Auto:
		return Auto, nil
	case AgentArray, Batched, NullSkipping:
		return Engine(name), nil
	}
	return "", fmt.Errorf("pp: unknown engine %q; engines: agent-array, batched, null-skipping, auto", name)
}

// countStream is the PCG stream selector of the count-based engines.
const countStream = 0x656c6563742d6374 // "elect-ct"

// CountSim is one run of a count-based engine. Mode Batched runs batches
// only, NullSkipping only null-skipping steps, Hybrid switches between them.
// Every mode stops at the exact step at which the goal first holds (or a
// monitored property first fails), and at exactly the step limit.
type CountSim[S comparable, P Protocol[S]] struct {
	c        *counter[S, P]
	g        rng
	seed     uint64
	opt      Options
	mode     Engine
	skipping bool // the hybrid is currently null-skipping
	step     int64
	maxSteps int64
	leaderWatch
	done     bool
	rep      reporter
	silent   bool // no non-null pair exists: nothing can change again
	exactCfg bool // the counts are the configuration at step (false after a stop inside a batch replay that did not rebuild them)

	usedBatch, usedSkip bool
	batches, events     int64

	// Auto's move onto the agent array (autoswitch.go): the array once
	// moved, whether it may move, the work counted and the window's start.
	arr              *Sim[S, P]
	usedArray        bool
	arrayOK, noArray bool
	work             int64
	winWork, winStep int64
	windows          int64
	cost             [2]float64 // the last measured cost per interaction of batches [0] and null-skipping [1]
	costAt, backoff  [2]int64   // the window it was measured in; windows it stays valid

	b  batchScratch
	cm classScratch
	qt quietState // quiet stretches (quiet.go)
	ns skipState
	// biasHook, when set (tests only), replaces the number of fresh pairs
	// sampled for a batch; it exists to show that the equivalence tests
	// detect a biased collision-length sampler.
	biasHook func(l, n int64) int64
	// noEpochs disables multibatch epochs (tests compare both).
	noEpochs bool
	// forceArrayAt, when positive (tests only), moves a hybrid run onto
	// the agent array at its first decision from that step on, whatever
	// the costs, so that the move's law can be tested at small n.
	forceArrayAt int64

	// Auto's small-n mode (autoswitch.go): the run starts on the agent
	// array and moves between it and null-skipping both ways; seen is the
	// array's record of the states met, kept across the moves.
	twoWay    bool
	seen      *stateSet[S]
	probe     rng
	arrCheck  int64 // the step of the next check on the array
	arrWin    int64 // interactions between two checks on the array
	winEvents int64 // s.events at the start of the window
	eventNs   float64
	// pingPong (tests only) makes every check leave the array and every
	// decision of null-skipping go back to it, whatever the costs.
	pingPong bool
}

// NewCountSim sets up a run of a count-based engine (mode Batched,
// NullSkipping or Hybrid) on n agents. It fails when the protocol has no
// census and n > MaxInitCalls, or n is out of range.
func NewCountSim[S comparable, P Protocol[S]](p P, n int64, seed uint64, opt Options, mode Engine) (*CountSim[S, P], error) {
	if n < 2 || n > MaxCountN {
		return nil, fmt.Errorf("pp: n must be between 2 and %d for the count-based engines, got %d", int64(MaxCountN), n)
	}
	if opt.Scheduler != Ordered && opt.Scheduler != Symmetric {
		return nil, fmt.Errorf("pp: the count-based engines simulate the ordered (equivalently symmetric) scheduler, not %s", opt.Scheduler)
	}
	switch mode {
	case Batched, NullSkipping, Hybrid:
	default:
		return nil, fmt.Errorf("pp: %q is not a count-based engine", mode)
	}
	c, err := newCounter(p, n)
	if err != nil {
		return nil, err
	}
	s := &CountSim[S, P]{c: c, g: newRNG(seed, countStream), seed: seed, opt: opt, mode: mode, leaderWatch: leaderWatch{oneStep: -1}, exactCfg: true, rep: reporter{fn: opt.Progress}}
	c.grow = s.grow
	s.grow(len(c.states))
	s.maxSteps = opt.MaxSteps
	if s.maxSteps <= 0 {
		s.maxSteps = saturatingSteps(c.spec.DefaultMaxSteps, n)
	}
	if c.leaders == 1 {
		s.oneStep = 0
	}
	s.done = s.reached()
	s.skipping = mode == NullSkipping
	s.arrayOK = s.arrayAllowed()
	s.backoff = [2]int64{4, 4}
	return s, nil
}

func (s *CountSim[S, P]) grow(q int) {
	s.b.grow(q)
	s.ns.grow(q)
	if s.seen != nil && s.seen.on && s.seen.has(s.c.states[q-1]) {
		s.c.reached[q-1] = true // met on the agent array (counted in seen)
	}
}

func (s *CountSim[S, P]) reached() bool {
	if s.c.spec.Goal == GoalOneLeader {
		return s.c.leaders == 1
	}
	return s.c.goal >= s.c.spec.Target
}

// Steps returns the number of interactions simulated so far.
func (s *CountSim[S, P]) Steps() int64 { return s.step }

// Stopped reports whether the run reached its goal or a violation.
func (s *CountSim[S, P]) Stopped() bool { return s.done || s.violation.Found() || s.rep.halted }

// Leaders returns the current number of agents outputting L.
func (s *CountSim[S, P]) Leaders() int64 { return s.c.leaders }

// Count returns the number of agents currently in state st.
func (s *CountSim[S, P]) Count(st S) int64 {
	s.syncCounts()
	if i, ok := s.c.index[st]; ok {
		return s.c.counts[i]
	}
	return 0
}

// Counts lists the configuration (discovery order, zero counts omitted).
func (s *CountSim[S, P]) Counts() []StateCount[S] {
	s.syncCounts()
	return s.c.census()
}

// Advance simulates up to k more interactions (never beyond the step limit)
// and stops at the exact step at which the goal first holds or a monitored
// property fails. It reports whether the run has stopped for those reasons.
func (s *CountSim[S, P]) Advance(k int64) bool {
	end := s.step + min(k, s.maxSteps-s.step)
	for !s.Stopped() && s.step < end {
		if s.arr != nil {
			if s.advanceArray(end) {
				break
			}
			continue // auto's small-n mode left the array for null-skipping
		}
		if s.rep.fn != nil && s.rep.due(64) && !s.rep.report(s.progress()) {
			break
		}
		if s.silent {
			s.step = end
			break
		}
		if s.skipping {
			s.usedSkip = true
			s.skipStep(end)
		} else {
			s.usedBatch = true
			s.batch(end)
		}
		if s.mode == Hybrid && !s.silent {
			s.decide()
		}
	}
	return s.Stopped()
}

// account records a change of the counters at the current step (after one
// interaction or a resolved batch prefix).
func (s *CountSim[S, P]) account(dl int64) {
	if dl != 0 {
		s.leadersChanged(s.c.spec.Monotone, s.c.leaders-dl, s.c.leaders, s.step)
	}
	s.done = s.reached()
}

// Result reports the run as it stands.
func (s *CountSim[S, P]) Result() Result {
	c := s.c
	if s.twoWay && s.arr != nil && !s.usedBatch && !s.usedSkip {
		// Never left the agent array it started on: the agent array's
		// own result, with the details only it records.
		return s.arr.Result()
	}
	s.syncCounts()
	eng := s.mode
	if s.mode == Hybrid {
		eng = hybridName(s.usedBatch, s.usedSkip, s.usedArray)
	}
	res := Result{Protocol: c.spec.Name, N: int(c.n), Seed: s.seed, Engine: string(eng), Scheduler: s.opt.Scheduler.String(),
		Interactions: s.step, Leaders: int(c.leaders), OneLeaderStep: s.oneStep}
	for b := range res.EventSteps {
		res.EventSteps[b], res.EventLeaders[b] = -1, -1
	}
	if s.opt.TrackStates {
		res.StatesSeen = c.nReached
	}
	leaders, goal, total := c.recount()
	var mismatch election.Violation
	if s.exactCfg && (leaders != c.leaders || (c.spec.Goal == GoalCount && goal != c.goal) || total != c.n) {
		mismatch = election.NewViolation(election.PropCounterMismatch, fmt.Sprintf("engine counted %d leaders and goal %d, recount gives %d and %d (%d agents)", c.leaders, c.goal, leaders, goal, total))
	}
	res.settle(s.violation, mismatch, s.done, c.leaders, c.spec.NoElection)
	res = stoppedUnless(s.rep.halted, res)
	res.ParallelTime = float64(res.Interactions) / float64(c.n)
	res.Details = Details{{"batches", s.batches}, {"non_null_events", s.events}}
	if s.qt.used {
		res.Details = append(res.Details, Detail{"quiet_steps", s.qt.steps}, Detail{"quiet_windows", s.qt.windows})
	}
	if f, ok := any(c.p).(CountFinisher[S]); ok {
		f.FinishCounts(c.census(), &res)
	}
	return res
}

// hybridName names the parts of a hybrid run that ran, in the order
// batched, null-skipping, agent-array, joined by '+'.
func hybridName(batch, skip, array bool) Engine {
	var name string
	for _, part := range []struct {
		used bool
		e    Engine
	}{{batch, Batched}, {skip, NullSkipping}, {array, AgentArray}} {
		if part.used {
			if name != "" {
				name += "+"
			}
			name += string(part.e)
		}
	}
	if name == "" {
		return Hybrid
	}
	return Engine(name)
}

// RunCount runs protocol p on a count-based engine until its goal holds, a
// monitored property fails or the step limit is reached.
func RunCount[S comparable, P Protocol[S]](p P, n int64, seed uint64, opt Options, mode Engine) (Result, error) {
	s, err := NewCountSim[S](p, n, seed, opt, mode)
	if err != nil {
		return Result{}, err
	}
	s.Advance(math.MaxInt64)
	return s.Result(), nil
}
