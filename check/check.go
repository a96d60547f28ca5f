// Package check is the exhaustive checker behind `elect check`: it runs
// the very node code the simulator and the real runtimes run, over every
// schedule of a small network, and reports whether the election's
// properties hold in all of them, and the exact extremes of the messages
// sent (by type and in all) and of the time.
//
// # What is explored
//
// A state is the whole network: every node's state (elect.Snapshotter's
// encoding, so the checker needs nothing from an algorithm beyond its
// declaration), its flags, decision and learned leader, its causal depth,
// and every link's messages in flight, each with its causal depth (under
// bag delivery a link's contents as a multiset). The choices at a state
// are which message is delivered next: under fifo the oldest message of
// any link, under bag any message in flight. Initiators wake at time 0,
// before any message can arrive (as in the simulator); a node that is not
// an initiator wakes when its first message comes (--initiators subsets
// checks every set of initiators). Wake-ups commute with one another, so
// one order of them is explored. A depth-first search visits every
// reachable state once (states are known by a 128-bit hash of their
// parts; see keys and hashSeeds), and computes for each state, over every
// execution from it, the largest and smallest number of messages still to
// come and the final time; the extremes of the initial state are the
// extremes over all executions, and following, from each state, a step
// whose extreme is the state's gives an execution that reaches each one
// (schedule).
//
// Time is the causal depth (the longest chain of messages each caused by
// the previous one), the time of an execution in which every message took
// one unit: it is a function of the state because depths are part of it.
//
// # Properties
//
// At every state: no decision changes, at most one leader, and a leader
// holds the promised ID. At every terminal state (nothing can happen):
// exactly one leader (a terminal state without one is a deadlock), and
// when the algorithm announces, every node decided and knows the leader's
// ID (without an announcement, nodes other than the leader need not learn
// the outcome: LCR's do not). A state the search returns to while
// still exploring from it is a cycle: an infinite execution, reported as
// non-termination with the path to it. A node whose code panics breaks
// the property "panic" (as on every engine), and its execution ends there.
// A violated property is reported with the shortest execution that
// reaches it (found breadth-first once the depth-first search has found
// one), written as a trace that `elect run --replay` replays to the same
// property: the step that breaks it is whole (every effect of the node's
// handler), and the execution is completed to the end of a run when that
// run still breaks the property, or else ends where it broke (a "cut"
// line of reason "violation", at which the replay stops). The declared
// bounds are checked against the exact extremes: a bound that fails in
// some execution makes the verdict "bound-failed".
//
// # Reductions, and what is not reduced
//
// ID assignments: with --ids all every assignment of the IDs 1..n is
// checked, up to rotation on rings: rotating the assignment and the node
// indexes together gives an isomorphic network (a ring's ports are the
// same at every node), and node code sees only its ID, its ports and its
// own random stream, so every execution of a rotated assignment is an
// execution of the original with nodes renamed, with the same counts and
// outcome. That last step needs deterministic nodes: for a randomized
// algorithm every assignment is checked.
//
// Randomized algorithms are checked with their seeds fixed: node i draws
// from election.StreamSource(seed, "node", i) as on every runtime, and the
// stream's position is part of the state, so the check covers every
// schedule of the draws that one seed gives (the report says so), not
// every coin flip.
//
// Partial-order reduction (under fifo; --reduction none turns it off):
// steps of different nodes are independent (delivering to node i and
// delivering to node j, i != j, can be taken in either order, reach the
// same state, and neither disables the other: a send only appends to a
// link, and under FIFO the head of a non-empty link stays its head). Under
// FIFO a node's deliveries are one per non-empty incoming link, each "take
// the next message of that link". At a state, let T be the deliveries to
// the first node (by index) that has a message on every incoming link that
// can carry one (on a unidirectional ring there is one such link, so T is
// any single delivery), or a single delivery to a halted node (which only
// drops messages, so commutes with its other deliveries too). T is a
// persistent set: on a path from the state that avoids T, every step is
// of another node (the node has no other deliveries to take: its links'
// heads stay the same until it takes them), so independent of T, and T
// stays enabled along it. Hence every maximal execution from the state is
// equivalent (the same events at each node, in the same order; only
// independent steps swapped) to one that starts with a step of T: it
// cannot avoid T and end, so it contains a first step of T, which every
// step before it commutes with. By induction every execution of the full
// graph has an equivalent in the reduced one, whose steps at a state are
// T (the choice depends on the state alone, so the state cache is sound).
// Equivalent executions send the same messages of each type, have the
// same causal depths (the happens-before order is the same), pass each
// node through the same decisions and end in the same state, so the exact
// extremes and the properties (decisions that change, a second leader or
// a wrong one: all irrevocable, so visible at the end) are those of the
// full graph. An infinite execution is kept too: if it contains a step of
// T, that step moves to its front; if not, T stays enabled along it and
// one of its steps can be put in front of it; so the reduced graph has an
// infinite path, a cycle. Where no node qualifies, every step is taken.
// Wake-ups of initiators commute likewise and are taken in one order.
// Under bag delivery a message arriving later on a non-empty link is a
// new step of its node, dependent on the others, so there the search
// explores every interleaving. The state cache makes each diamond cost its
// states, not its paths; what is left is the number of states, which
// --max-states bounds: a search that reaches it ends with the verdict
// "incomplete", never "ok". A test (TestReductionKeepsExtremes) requires
// equal extremes and verdicts with and without the reduction on
// unidirectional and bidirectional rings, complete graphs and general
// graphs.
//
// Synchronous algorithms have no scheduling choices: given IDs and
// wake-up times an execution is determined, so each configuration is run
// once in the simulator. Their choices are the IDs and the initiators'
// wake-up rounds: --initiators times (Options.Initiators "times") takes
// every round in 0..WakeRounds, or none, for each node, the earliest at 0
// (nothing happens before the first wake-up, so a run whose initiators
// all start k rounds later is the same run shifted by k).
//
// Configurations (ID assignments and initiator sets) are checked in
// parallel, one search per configuration; the results are merged in a
// fixed order, so the report does not depend on the number of workers.
package check

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// Options describe a check.
type Options struct {
	Spec       scenario.Spec // algorithm, n, topology, announce, parameters (IDs from IDs below)
	IDs        string        // "all", or an ids arrangement for a single assignment
	Delivery   string        // "fifo", "bag" or "sync"
	Initiators string        // "all", "subsets" (every non-empty set of initiators) or "times" (sync: every wake-up round of every node)
	// WakeRounds is the latest spontaneous wake-up round of --initiators
	// times (0: n-1).
	WakeRounds int
	MaxStates  int64 // per configuration; 0: 2 million
	Workers    int   // 0: GOMAXPROCS
	// NoReduction explores every interleaving even where the
	// partial-order reduction is sound (to measure it, or to distrust it).
	NoReduction bool
	// Draws, when not 0, branches every draw of a randomized algorithm
	// into Draws equally likely values (below 0: the range the algorithm
	// declares, Algorithm.DrawRange, which Draws must equal) and computes
	// exact probabilities (see draws.go), cutting executions after
	// MaxDraws draws (0: 3n);
	// Trials runs of the simulator (0: 10,000; below 0: none) measure the
	// same rates.
	Draws, MaxDraws, Trials int
	// MemLimit is the memory guard (0: scenario.DefaultMemLimit): a check
	// whose Estimate exceeds it is refused before anything is listed or
	// explored.
	MemLimit int64
	// Progress, when not nil, is called about every ProgressInterval
	// while the check runs (from another goroutine; never after Run
	// returns).
	Progress func(Progress)
	// Faults is a fault budget ("crash:k=F", "loss:k=L", or both joined
	// with ';'): every execution with at most F crashes and L lost
	// messages is explored (see faults.go). "" explores none.
	Faults string
	// Stop, when it is closed, ends the check early: no configuration is
	// started after it, the running searches stop within a few thousand
	// states, and the report (of what finished) has the verdict
	// incomplete and Interrupted set, unless a violation was found.
	Stop <-chan struct{}
}

// ProgressInterval is how often Options.Progress is called.
const ProgressInterval = 250 * time.Millisecond

// defaultMaxStates is Options.MaxStates when it is 0.
const defaultMaxStates = 2_000_000

func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

// Extreme is the largest or smallest value of a quantity over every
// execution of every configuration, with one that reaches it.
type Extreme struct {
	Quantity string     `json:"quantity"` // a message type, "messages", or "time"
	Max      int64      `json:"max"`
	MaxIDs   []elect.ID `json:"max_ids"`
	Min      int64      `json:"min"`
	MinIDs   []elect.ID `json:"min_ids"`
	// MaxWake and MinWake are the initiators' wake-up rounds that reach
	// the extremes, by node (-1: not an initiator), when the check chose
	// initiators (--initiators subsets or times).
	MaxWake []int64 `json:"max_wake,omitempty"`
	MinWake []int64 `json:"min_wake,omitempty"`
	maxCfg  *config
	minCfg  *config
}

// BoundVerdict is a declared bound against the extremes.
type BoundVerdict struct {
	Name     string  `json:"name"`
	Relation string  `json:"relation"`
	Holds    bool    `json:"holds"`
	Worst    float64 `json:"worst"` // the extreme measured in the configuration closest to the bound
	Bound    float64 `json:"bound"` // the bound's value there
	// Tightest is worst / bound (AtMost, Exactly) or bound / worst
	// (AtLeast); 1 when both are 0, the largest float64 when the divisor
	// alone is 0.
	Tightest float64 `json:"tightest"`
	Checked  int     `json:"configurations"`
	// WorstIDs is the ID assignment of the configuration closest to the
	// bound (where it fails, if it fails).
	WorstIDs []elect.ID `json:"worst_ids"`
}

// Report is the outcome of a check.
type Report struct {
	Algorithm string `json:"algorithm"`
	N         int    `json:"n"`
	// Seed is the seed that fixed a randomized algorithm's draws (0: the
	// algorithm draws nothing).
	Seed     uint64 `json:"seed,omitempty"`
	Delivery string `json:"delivery"`
	// Reduction is "partial-order" when the search took one node's
	// deliveries for all where it could (under fifo), else "none".
	Reduction string `json:"reduction"`
	// Verdict is ok, violation (a property failed), bound-failed (every
	// property held, but a declared bound fails in some execution: Bounds
	// says which) or incomplete (a state limit or an interruption cut the
	// search).
	Verdict        string `json:"verdict"`
	Configurations int    `json:"configurations"`
	// Finished is how many configurations' searches ended with extremes
	// (not cut by the state limit or a violation): the extremes are over
	// those.
	Finished     int     `json:"finished"`
	States       int64   `json:"states"`
	Transitions  int64   `json:"transitions"`
	MaxDepth     int     `json:"max_depth"` // the longest execution explored, in steps
	Seconds      float64 `json:"seconds"`
	StatesPerSec float64 `json:"states_per_second"`
	// MessagesMax and MessagesMin are the extremes by message type, with
	// "total"; TimeMax and TimeMin those of the time.
	MessagesMax  map[string]int64 `json:"messages_max,omitempty"`
	MessagesMin  map[string]int64 `json:"messages_min,omitempty"`
	TimeMax      int64            `json:"time_max"`
	TimeMin      int64            `json:"time_min"`
	Property     string           `json:"property,omitempty"` // the property violated
	Violation    string           `json:"violation,omitempty"`
	ViolationIDs []elect.ID       `json:"violation_ids,omitempty"`
	// ViolationWake is the violating configuration's wake-up rounds by
	// node (-1: not an initiator), when the check chose initiators.
	ViolationWake  []int64        `json:"violation_wake,omitempty"`
	Counterexample string         `json:"counterexample,omitempty"` // the file it was written to
	Extremes       []Extreme      `json:"extremes"`
	Bounds         []BoundVerdict `json:"bounds"`
	// Probabilities are exact probabilities over every draw (Draws).
	Probabilities *Probabilities `json:"probabilities,omitempty"`
	// Interrupted says Options.Stop ended the check: the report is of
	// the configurations that finished before it.
	Interrupted bool `json:"interrupted,omitempty"`
	// Faults is the fault budget explored (Options.Faults, canonical);
	// Tolerates what the algorithm declares it tolerates. A violation
	// under faults the algorithm does not tolerate has the verdict
	// expected-failure.
	Faults    string `json:"faults,omitempty"`
	Tolerates string `json:"tolerates,omitempty"`
	// FaultSchedule is the counterexample's faults as an explicit
	// schedule (--faults form: "loss:msg=5;crash:node=3@step=2"), which
	// its trace's header carries and a replay applies.
	FaultSchedule string `json:"fault_schedule,omitempty"`
	// CounterexampleSteps is the length of the counterexample: its steps
	// (deliveries, wake-ups and fault moves) in an asynchronous check, its
	// events in a synchronous one.
	CounterexampleSteps int64 `json:"counterexample_steps,omitempty"`
	// Replay is the command that replays the counterexample (set by the
	// command line, which knows its flags).
	Replay string `json:"replay,omitempty"`
	// MaxEvents is the event limit of a synchronous check's runs under
	// faults (a run that reaches it is non-termination).
	MaxEvents int64 `json:"max_events,omitempty"`

	counterexample []step
	violationCfg   *config
}

// config is one configuration: an ID assignment and initiators.
type config struct {
	cfg *election.Config
	// results
	states    int64
	edges     int64
	violation string
	bad       []step
	loopFrom  int // non-termination: bad returns to the state after its first loopFrom steps
	max, min  []int64
	syncRes   *election.Result
	limit     int64
	depth     int // the longest path of its search
	probs     *Probabilities
	// flt is the fault budget explored and what it found (nil: none).
	flt    *configFaults
	full   bool
	bag    bool
	reduce bool // explored with the partial-order reduction
}

// configFaults is a configuration's fault budget (Options.Faults) and the
// counterexample's explicit schedule, with (synchronous) its verdict and
// events.
type configFaults struct {
	budget       faultBudget
	faultSpec    string
	faultVerdict string
	faultEvents  int64
}

// newStateSpace is a search of c's configuration with its fault budget.
func (c *config) newStateSpace() *stateSpace {
	x := newStateSpace(c.cfg, c.bag, c.limit)
	if c.flt != nil {
		x.crashK, x.lossK, x.dupK = c.flt.budget.crash, c.flt.budget.loss, c.flt.budget.dup
	}
	return x
}

// searchAgain searches c again (a search keeps every state it visits, so the
// checker drops it after each configuration and redoes the few it
// reports on).
func (c *config) searchAgain() *stateSpace {
	x := c.newStateSpace()
	x.reduce = c.reduce
	x.visit(x.initial())
	return x
}

// Run checks every configuration that opt describes.
func Run(opt Options) (*Report, error) {
	base, err := scenario.Build(withIDs(opt.Spec, "increasing", opt.Delivery))
	if err != nil {
		return nil, err
	}
	alg := base.Algorithm
	for _, nd := range []elect.Node{alg.New(elect.NodeInfo{ID: 1, N: 2, Degree: 2, Params: base.Params})} {
		if _, ok := nd.(elect.Snapshotter); !ok {
			return nil, fmt.Errorf("%s's nodes do not implement elect.Snapshotter: the checker needs to copy and compare their states", alg.Name)
		}
	}
	if opt.MaxStates <= 0 {
		opt.MaxStates = defaultMaxStates
	}
	budget, err := parseFaultBudget(opt.Faults, base.Graph.N)
	if err != nil {
		return nil, err
	}
	if budget.text != "" {
		if opt.Draws != 0 {
			return nil, fmt.Errorf("--faults and --draws: exact probabilities are computed without faults; drop one")
		}
		if opt.Spec.MaxEvents == 0 {
			// Under faults a synchronous algorithm may wait or loop for
			// ever (a Bully node whose COORDINATOR was lost asks again
			// and again): 100 times its message bound without faults, or
			// 1000n events, and at least 1000 (the forced runs' limit
			// without their floor of 10^6, which would make every such
			// schedule of a small network cost a million events).
			ctx := base.BoundContext()
			ctx.Faults = 0
			limit := 1000 * float64(base.Graph.N)
			if b, ok := scenario.MessageBound(alg, ctx); ok {
				limit = 100 * (b + float64(base.Graph.N))
			}
			base.MaxEvents = int64(max(limit, 1000))
		}
	}
	if err := estimate(opt, base).refusal(opt, base); err != nil {
		return nil, err
	}
	cfgs, err := configurations(opt, base)
	if err != nil {
		return nil, err
	}
	if budget.text != "" {
		for _, c := range cfgs {
			c.flt = &configFaults{budget: budget}
		}
	}
	if opt.Draws != 0 {
		if err := checkDraws(&opt, base, len(cfgs)); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	workers := opt.Workers
	if workers <= 0 {
		workers = defaultWorkers()
	}
	// The configurations wait in a full channel, so that taking the next
	// one never puts a worker to sleep.
	next := make(chan *config, len(cfgs))
	for _, c := range cfgs {
		next <- c
	}
	close(next)
	sh := &shared{}
	finished := make(chan struct{})
	var watchers sync.WaitGroup
	if opt.Stop != nil {
		watchers.Go(func() {
			select {
			case <-opt.Stop:
				sh.stop.Store(true)
			case <-finished:
			}
		})
	}
	if opt.Progress != nil {
		watchers.Go(func() {
			tick := time.NewTicker(ProgressInterval)
			defer tick.Stop()
			for {
				select {
				case <-tick.C:
					opt.Progress(Progress{Configurations: int64(len(cfgs)), Done: sh.done.Load(), States: sh.states.Load(), Elapsed: time.Since(start)})
				case <-finished:
					return
				}
			}
		})
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var spare *stateSpace // the last search's memory, reused
			for c := range next {
				select {
				case <-opt.Stop: // nil: never
					sh.stop.Store(true)
				default:
				}
				if sh.stop.Load() {
					continue // interrupted: the rest are not started
				}
				spare = c.run(opt, spare, sh)
				sh.states.Add(c.states % progressEvery)
				sh.done.Add(1)
			}
		})
	}
	wg.Wait()
	close(finished)
	watchers.Wait()
	r := report(opt, base, cfgs)
	if budget.text != "" {
		tol := alg.RunModel(base.Params).Tolerates
		r.faultReport(tol, budget)
		if base.Delivery == election.Sync {
			r.MaxEvents = base.MaxEvents
		}
		if part := budget.tolerated(tol); r.Verdict == "expected-failure" && part != "" && part != budget.text && !sh.stop.Load() {
			// The shortest failure involves a fault the algorithm does
			// not tolerate; one under the faults it tolerates alone, if
			// any, is a violation and is what the check reports.
			sub := opt
			sub.Faults = part
			if r2, err := Run(sub); err == nil && r2.Verdict == "violation" {
				r2.Faults = budget.text
				r2.Seconds += time.Since(start).Seconds()
				return r2, nil
			}
		}
	}
	if sh.stop.Load() {
		r.Interrupted = true
		if r.Verdict != "violation" && r.Verdict != "expected-failure" {
			r.Verdict, r.Bounds = "incomplete", nil
		}
	}
	if opt.Draws > 0 {
		r.Seed = 0 // no stream: every draw is branched on
	}
	if opt.Draws > 0 && cfgs[0].probs != nil {
		r.Probabilities = cfgs[0].probs
		r.Extremes, r.Bounds = nil, nil // over the executions within the cap only: not reported
		if err := measureRates(r.Probabilities, cfgs[0].cfg, opt.Trials); err != nil {
			return nil, err
		}
	}
	r.Seconds = time.Since(start).Seconds()
	if r.Seconds > 0 {
		r.StatesPerSec = float64(r.States) / r.Seconds
	}
	return r, nil
}

// withIDs is spec with an ID arrangement and the delivery the check asks.
func withIDs(s scenario.Spec, ids, delivery string) scenario.Spec {
	s.IDs = ids
	s.Delivery = delivery
	if delivery == "bag" {
		s.Delivery = "random" // the model check wants a non-FIFO model
	}
	s.Timing = ""
	return s
}

// configurations lists the ID assignments and initiator sets to check.
func configurations(opt Options, base *election.Config) ([]*config, error) {
	n := base.Graph.N
	var assignments [][]elect.ID
	if opt.IDs == "all" {
		ids := make([]elect.ID, n)
		for i := range ids {
			ids[i] = elect.ID(i + 1)
		}
		ring := base.Graph.Kind == topology.Ring && !base.Algorithm.RunModel(base.Params).Randomized
		permute(ids, 0, func(p []elect.ID) {
			if !ring || p[0] == 1 { // rotation symmetry: ID 1 at node 0
				assignments = append(assignments, slices.Clone(p))
			}
		})
	} else {
		c, err := scenario.Build(withIDs(opt.Spec, opt.IDs, opt.Delivery))
		if err != nil {
			return nil, err
		}
		assignments = append(assignments, c.IDs)
	}
	var wakes [][]election.Wake
	switch opt.Initiators {
	case "", "all":
		wakes = [][]election.Wake{nil}
	case "subsets":
		if base.Algorithm.Model.WakeUp == elect.AllAtOnce {
			return nil, fmt.Errorf("%s needs every node to wake up; --initiators subsets does not apply", base.Algorithm.Name)
		}
		for mask := 1; mask < 1<<n; mask++ {
			var w []election.Wake
			for i := range n {
				if mask&(1<<i) != 0 {
					w = append(w, election.Wake{Node: i})
				}
			}
			if len(w) == n {
				w = nil
			}
			wakes = append(wakes, w)
		}
	case "times":
		if base.Delivery != election.Sync {
			return nil, fmt.Errorf("--initiators times applies to synchronous checks (--delivery sync); an asynchronous check has no rounds, and --initiators subsets covers its orders of events")
		}
		if base.Algorithm.RunModel(base.Params).WakeUp == elect.AllAtOnce {
			return nil, fmt.Errorf("%s needs every node to wake at round 0; --initiators times does not apply", base.Algorithm.Name)
		}
		w := opt.WakeRounds
		if w <= 0 {
			w = n - 1
		}
		wakes = wakeTimes(n, w)
	default:
		return nil, fmt.Errorf("--initiators %q: use all, subsets or times", opt.Initiators)
	}
	var out []*config
	for _, ids := range assignments {
		for _, w := range wakes {
			c := *base
			c.IDs, c.Wake = ids, w
			if c.Delivery != election.Sync && opt.Delivery != "bag" {
				c.Delivery = election.FIFO
			}
			c.CausalTime = c.Delivery != election.Sync
			if err := c.CheckModel(); err != nil && !opt.Spec.Force {
				return nil, err
			}
			out = append(out, &config{cfg: &c})
		}
	}
	return out, nil
}

// wakeTimes lists every choice of spontaneous wake-up rounds for n nodes:
// each node wakes at a round in 0..last or not at all (it then wakes when
// its first message comes), and the earliest wakes at round 0 (a run whose
// initiators all wake later is the same run, later: nothing happens
// before the first wake-up).
func wakeTimes(n, last int) [][]election.Wake {
	var out [][]election.Wake
	choice := make([]int, n) // a round, or last+1 for none
	for {
		var w []election.Wake
		first := last + 1
		for i, r := range choice {
			if r <= last {
				w = append(w, election.Wake{Node: i, At: int64(r)})
				first = min(first, r)
			}
		}
		if first == 0 {
			out = append(out, w)
		}
		i := 0
		for i < n && choice[i] == last+1 {
			choice[i] = 0
			i++
		}
		if i == n {
			return out
		}
		choice[i]++
	}
}

func permute(a []elect.ID, k int, f func([]elect.ID)) {
	if k == len(a) {
		f(a)
		return
	}
	for i := k; i < len(a); i++ {
		a[k], a[i] = a[i], a[k]
		permute(a, k+1, f)
		a[k], a[i] = a[i], a[k]
	}
}

// wakeRounds is c's initiators' wake-up rounds by node (-1: none), when
// the check chose initiators; nil otherwise.
func (c *config) wakeRounds(opt Options) []int64 {
	if opt.Initiators != "subsets" && opt.Initiators != "times" {
		return nil
	}
	out := make([]int64, c.cfg.Graph.N)
	for i := range out {
		out[i] = -1
		if c.cfg.Wake == nil {
			out[i] = 0
		}
	}
	for _, w := range c.cfg.Wake {
		out[w.Node] = w.At
	}
	return out
}

// run checks one configuration.
// run checks configuration c; spare, when not nil, is a finished search
// whose memory the new one may reuse. It returns its own search (nil for
// synchronous runs).
func (c *config) run(opt Options, spare *stateSpace, sh *shared) *stateSpace {
	if c.cfg.Delivery == election.Sync && c.flt != nil {
		c.syncFaults(opt, c.flt.budget)
		if sh != nil { // the progress line counts states by progressEvery, the rest at the end
			sh.states.Add(c.states - c.states%progressEvery)
		}
		return spare
	}
	if c.cfg.Delivery == election.Sync {
		r, err := sim.Run(*c.cfg)
		if err != nil {
			c.violation = err.Error()
			return spare
		}
		c.syncRes = r
		c.states, c.edges = 1, r.Events
		if r.Outcome != election.OutcomeElected {
			c.violation = fmt.Sprintf("%s: %s", r.Outcome, cmp.Or(r.Violation, fmt.Sprintf("the run ended with %d leaders", r.Leaders)))
		}
		c.max = append(append([]int64(nil), r.TypeCounts...), r.Messages, int64(r.Time))
		c.min = c.max
		return spare
	}
	x := newStateSpace(c.cfg, opt.Delivery == "bag", opt.MaxStates)
	if c.flt != nil {
		x.crashK, x.lossK, x.dupK = c.flt.budget.crash, c.flt.budget.loss, c.flt.budget.dup
	}
	x.reuseMemory(spare)
	x.shared = sh
	c.reduce = !opt.NoReduction && reducible(x.bag) && !x.faulty()
	x.reduce = c.reduce
	if opt.Draws > 0 {
		x.drawAll(opt.Draws, opt.MaxDraws) // as checkDraws set them
	}
	id, err := x.visit(x.initial())
	c.states, c.edges, c.full, c.depth = x.states, x.edges, x.full, x.longest
	c.bag, c.limit = x.bag, opt.MaxStates
	if err != nil {
		c.violation, c.bad, c.loopFrom = x.violation, x.badPath, x.loopFrom
		if err == errViolation && !strings.HasPrefix(c.violation, "non-termination") && opt.Draws == 0 {
			// A state limit is no violation: nothing to shorten.
			// Report the shortest execution that breaks a property.
			if v, path := c.newStateSpace().shortest(); v != "" {
				c.violation, c.bad = v, path
			}
		}
		if x.faulty() && c.bad != nil {
			c.flt.faultSpec, _ = c.newStateSpace().faultSchedule(c.bad)
		}
		return x
	}
	hi, lo := x.extremes(id)
	c.max, c.min = slices.Clone(hi), slices.Clone(lo)
	if opt.Draws > 0 && hi[len(hi)-2] < noEndMax/2 {
		c.max, c.min = nil, nil // every execution was cut at the draws' cap
	}
	if opt.Draws > 0 {
		c.probs = x.probabilities(id)
	}
	return x
}

// report merges the configurations' results in their order.
func report(opt Options, base *election.Config, cfgs []*config) *Report {
	alg := base.Algorithm
	r := &Report{Algorithm: alg.Name, N: base.Graph.N, Delivery: opt.Delivery, Verdict: "ok", Configurations: len(cfgs)}
	if alg.RunModel(base.Params).Randomized {
		r.Seed = base.Seed
	}
	names := make([]string, 0, len(alg.Messages)+2)
	for _, m := range alg.Messages {
		names = append(names, m.Name)
	}
	names = append(names, "messages", "time")
	r.Extremes = make([]Extreme, len(names))
	for q := range names {
		r.Extremes[q] = Extreme{Quantity: names[q], Max: math.MinInt64, Min: math.MaxInt64}
	}
	r.Reduction = "none"
	if len(cfgs) > 0 && cfgs[0].reduce {
		r.Reduction = "partial-order"
	}
	for _, c := range cfgs {
		r.States += c.states
		r.Transitions += c.edges
		r.MaxDepth = max(r.MaxDepth, c.depth)
		switch {
		case c.violation != "" && (r.Verdict != "violation" || opt.Faults != "" && shorter(c, r.violationCfg)):
			// Under faults, the shortest counterexample of all the
			// configurations; else the first configuration's.
			r.Verdict, r.Violation, r.ViolationIDs, r.ViolationWake = "violation", c.violation, c.cfg.IDs, c.wakeRounds(opt)
			r.counterexample, r.violationCfg = c.bad, c
		case c.full && r.Verdict == "ok":
			r.Verdict = "incomplete"
		}
		if c.max == nil {
			continue
		}
		for q := range names {
			e := &r.Extremes[q]
			if c.max[q] > e.Max {
				e.Max, e.MaxIDs, e.MaxWake, e.maxCfg = c.max[q], c.cfg.IDs, c.wakeRounds(opt), c
			}
			if c.min[q] < e.Min {
				e.Min, e.MinIDs, e.MinWake, e.minCfg = c.min[q], c.cfg.IDs, c.wakeRounds(opt), c
			}
		}
	}
	if r.Violation != "" {
		r.Property, _, _ = strings.Cut(r.Violation, ":")
	}
	for _, c := range cfgs {
		if c.max != nil {
			r.Finished++
		}
	}
	if r.Finished == 0 {
		r.Extremes = nil // no search ended: nothing to report
		return r
	}
	r.MessagesMax, r.MessagesMin = map[string]int64{}, map[string]int64{}
	for q, e := range r.Extremes {
		switch name := names[q]; {
		case q == len(names)-1:
			r.TimeMax, r.TimeMin = e.Max, e.Min
		case q == len(names)-2:
			r.MessagesMax["total"], r.MessagesMin["total"] = e.Max, e.Min
		default:
			r.MessagesMax[name], r.MessagesMin[name] = e.Max, e.Min
		}
	}
	if r.Verdict == "ok" {
		r.Bounds = bounds(alg, cfgs, names)
		for _, b := range r.Bounds {
			if !b.Holds {
				r.Verdict = "bound-failed" // a declared bound is a promise too
				break
			}
		}
	}
	return r
}

// bounds evaluates every declared bound in every configuration against
// that configuration's extremes.
func bounds(alg *elect.Algorithm, cfgs []*config, names []string) []BoundVerdict {
	var out []BoundVerdict
	for _, b := range alg.Bounds {
		if b.Quantity == elect.Bits {
			continue // bits follow from the counts by type
		}
		if b.Quantity == elect.Time && cfgs[0].cfg.CausalTime {
			// Time bounds speak of executions whose messages take at most
			// one unit; an asynchronous schedule has no durations, and the
			// checker's time is the causal depth, which such a bound does
			// not limit (a chain may pass a node twice).
			continue
		}
		v := BoundVerdict{Name: fmt.Sprintf("%s %s %s", b.Name, b.Relation, b.Formula), Relation: b.Relation.String(), Holds: true}
		for _, c := range cfgs {
			ctx := c.cfg.BoundContext()
			if b.Applies != nil && !b.Applies(ctx) {
				continue
			}
			if len(c.max) == 0 || len(c.min) == 0 {
				// An interrupted check stops configurations before
				// any of their executions ended: they have no extremes.
				continue
			}
			hi, lo := quantity(b, alg, c.max), quantity(b, alg, c.min)
			want := b.Value(ctx)
			v.Checked++
			var ratio float64
			var worst float64
			switch b.Relation {
			case elect.AtMost:
				worst, ratio = hi, ratioOf(hi, want)
				v.Holds = v.Holds && hi <= want
			case elect.AtLeast:
				worst, ratio = lo, ratioOf(want, lo)
				v.Holds = v.Holds && lo >= want
			default:
				worst, ratio = hi, ratioOf(hi, want)
				if lo != hi || hi != want {
					ratio = math.Max(ratio, ratioOf(want, lo))
					if ratioOf(want, lo) > ratioOf(hi, want) {
						worst = lo
					}
				}
				v.Holds = v.Holds && lo == want && hi == want
			}
			if v.Checked == 1 || ratio > v.Tightest {
				v.Tightest, v.Worst, v.Bound, v.WorstIDs = ratio, worst, want, c.cfg.IDs
			}
		}
		if v.Checked > 0 {
			out = append(out, v)
		}
	}
	return out
}

// ratioOf is a/b as a tightness: 1 when both are 0, and the largest
// finite float when only b is (a bound of 0 exceeded), so that the report
// stays finite (JSON has no infinities).
func ratioOf(a, b float64) float64 {
	switch {
	case a == b:
		return 1
	case b == 0:
		return math.MaxFloat64
	}
	return a / b
}

// quantity is what bound b measures, from a configuration's extremes
// (messages of its types, or all, or time).
func quantity(b elect.Bound, alg *elect.Algorithm, ext []int64) float64 {
	types := len(alg.Messages)
	switch b.Quantity {
	case elect.Time:
		return float64(ext[types+1])
	case elect.Messages:
		if len(b.Types) == 0 {
			return float64(ext[types])
		}
		var s int64
		for t, m := range alg.Messages {
			if slices.Contains(b.Types, m.Name) {
				s += ext[t]
			}
		}
		return float64(s)
	}
	return math.NaN() // bits: not checked here
}

// Failure returns nil when the check found no violation, explored every
// state and saw every declared bound hold; otherwise an error that says
// what failed first.
func (r *Report) Failure() error {
	if r.Verdict != "ok" && r.Verdict != "bound-failed" {
		return fmt.Errorf("%s %s: verdict %s: %s", r.Algorithm, r.Delivery, r.Verdict, cmp.Or(r.Violation, "a configuration reached the state limit"))
	}
	for _, b := range r.Bounds {
		if !b.Holds {
			return fmt.Errorf("%s %s: bound %s fails in some schedule (%v against %v)", r.Algorithm, r.Delivery, b.Name, b.Worst, b.Bound)
		}
	}
	return nil
}

// WriteCounterexample writes the execution that violates a property as a
// trace; false when there is none.
func (r *Report) WriteCounterexample(w io.Writer) (bool, error) {
	if r.Probabilities != nil {
		return false, errNoTraceWithDraws
	}
	c := r.violationCfg
	if c == nil || c.cfg.Delivery == election.Sync {
		return false, nil
	}
	x := c.newStateSpace()
	if c.flt != nil {
		x.cfg = withFaults(c.cfg, c.flt.faultSpec)
	}
	if strings.HasPrefix(c.violation, "non-termination") {
		// The execution to the cycle and once round it, marked so that a
		// replay can check that it comes back to where the loop began.
		return true, x.writeLoop(w, c.bad, c.loopFrom)
	}
	return true, x.writeCounterexample(w, r.counterexample, r.Property)
}

// WriteExtreme writes an execution that reaches the largest (or smallest)
// value of quantity q (an index of Extremes) as a trace; false when there
// is none (synchronous runs: rerun the simulator with the IDs).
func (r *Report) WriteExtreme(w io.Writer, q int, largest bool) (bool, error) {
	if r.Probabilities != nil {
		return false, errNoTraceWithDraws
	}
	if q < 0 || q >= len(r.Extremes) {
		return false, nil // no configuration's search ended: no extremes
	}
	e := r.Extremes[q]
	if r.Faults != "" {
		return false, nil // an execution with faults: not written (see WriteCounterexample)
	}
	c := e.minCfg
	if largest {
		c = e.maxCfg
	}
	if c == nil || c.cfg.Delivery == election.Sync {
		return false, nil
	}
	x := c.searchAgain()
	return true, x.writeSchedule(w, x.schedule(q, largest))
}

// IDsFlag writes an assignment as the --ids list that reproduces it.
func IDsFlag(ids []elect.ID) string { return idsText(ids) }

// idsText writes an assignment as the --ids list that reproduces it.
func idsText(ids []elect.ID) string {
	b := []byte("list:")
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(id), 10)
	}
	return string(b)
}
