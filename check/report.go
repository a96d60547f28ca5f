package check

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
)

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
	MessagesMax map[string]int64 `json:"messages_max,omitempty"`
	MessagesMin map[string]int64 `json:"messages_min,omitempty"`
	TimeMax     int64            `json:"time_max"`
	TimeMin     int64            `json:"time_min"`
	Property    string           `json:"property,omitempty"`  // the property violated: Broken's name
	Violation   string           `json:"violation,omitempty"` // Broken's text
	// Broken is the property violated, as a value, with the length of
	// the counterexample (its Step) and the nodes involved.
	Broken       election.Violation `json:"-"`
	ViolationIDs []elect.ID         `json:"violation_ids,omitempty"`
	// ViolationWake is the violating configuration's wake-up rounds by
	// node (-1: not an initiator), when the check chose initiators.
	ViolationWake  []int64        `json:"violation_wake,omitempty"`
	Counterexample string         `json:"counterexample,omitempty"` // the file it was written to
	Extremes       []Extreme      `json:"extremes"`
	Bounds         []BoundVerdict `json:"bounds"`
	// WakeOrder is "all" when the initiators woke in every order relative
	// to the deliveries (Options.WakeOrder), "" when they woke first.
	WakeOrder string `json:"wake_order,omitempty"`
	// SimultaneousOnly names the declared bounds that hold only when the
	// initiators start together, not checked under WakeOrder "all".
	SimultaneousOnly []string `json:"simultaneous_start_only,omitempty"`
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
	// ShortestStates and ShortestTransitions are the cost of the
	// breadth-first searches for the shortest counterexample (States and
	// Transitions are the depth-first searches'), over the configurations
	// whose counterexample the report could show (config.shorten).
	ShortestStates      int64 `json:"shortest_states,omitempty"`
	ShortestTransitions int64 `json:"shortest_transitions,omitempty"`
	// ShortestCut counts the configurations whose search for a shorter
	// counterexample its state limit cut (the first one searched may take
	// Options.MaxStates states, the others as many in all): when it is not
	// 0, the counterexample shown is the shortest of those searched to the
	// end and the short ones the others found, not surely the shortest.
	ShortestCut int64 `json:"shortest_cut,omitempty"`
	// CounterexampleSteps is the length of the counterexample: its steps
	// (deliveries, wake-ups and fault moves) in an asynchronous check, its
	// events in a synchronous one.
	CounterexampleSteps int64 `json:"counterexample_steps,omitempty"`
	// Replay is the command that replays the counterexample (set by the
	// command line, which knows its flags).
	Replay string `json:"replay,omitempty"`
	// FaultSchedules is how many distinct fault schedules a synchronous
	// check ran (States counts its runs, some of which had a fault that
	// did not happen, and so repeat a smaller schedule's run).
	FaultSchedules int64 `json:"fault_schedules,omitempty"`
	// MaxEvents is the event limit of a synchronous check's runs under
	// faults (a run that reaches it is non-termination).
	MaxEvents int64 `json:"max_events,omitempty"`

	counterexample []step
	violationCfg   *config
}

// report merges the configurations' results in their order.
func report(opt Options, base *election.Config, cfgs []*config) *Report {
	alg := base.Algorithm
	r := &Report{Algorithm: alg.Name, N: base.Graph.N, Delivery: opt.Delivery, Verdict: "ok", Configurations: len(cfgs)}
	if opt.WakeOrder == "all" {
		r.WakeOrder = "all"
	}
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
		if c.flt != nil {
			r.FaultSchedules += c.flt.schedules
		}
		r.MaxDepth = max(r.MaxDepth, c.depth)
		switch {
		case c.violation != nil && (r.Verdict != "violation" || opt.Faults != "" && shorter(c, r.violationCfg)):
			// Under faults, the shortest counterexample of all the
			// configurations; else the first configuration's.
			r.Verdict, r.ViolationIDs, r.ViolationWake = "violation", c.cfg.IDs, c.wakeRounds(opt)
			r.Broken = c.violation.AtStep(int64(len(c.bad)))
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
	if r.Broken.Found() {
		r.Property, r.Violation = r.Broken.Name(), r.Broken.String()
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
		r.Bounds, r.SimultaneousOnly = bounds(alg, cfgs, names)
		for _, b := range r.Bounds {
			if !b.Holds {
				r.Verdict = "bound-failed" // a declared bound is a promise too
				break
			}
		}
	}
	return r
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
	if c.violation.Property == election.PropNonTermination {
		// The execution to the cycle and once round it, marked so that a
		// replay can check that it comes back to where the loop began.
		return true, x.writeLoop(w, c.bad, c.loopFrom)
	}
	return true, x.writeCounterexample(w, r.counterexample, r.Broken.Property)
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

// finish completes the report: an interrupted check's verdict, the
// probabilities under --draws (with the measured rates) and the time the
// check took.
func (r *Report) finish(opt Options, cfgs []*config, sh *shared, start time.Time) (*Report, error) {
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
