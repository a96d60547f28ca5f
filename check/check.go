package check

import (
	"fmt"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
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
	// WakeOrder is when the initiators of an asynchronous check wake:
	// "first" (or ""), all of them before any delivery, in node order (a
	// simultaneous start, as the simulator runs it); "all", at every point
	// of an execution relative to the deliveries, in every order (an
	// initiator a message reaches first is woken by it). Bounds declared
	// for a simultaneous start (elect.BoundContext.AllAtZero) are not
	// checked under "all": Report.SimultaneousOnly names them.
	WakeOrder string
	MaxStates int64 // per configuration; 0: 2 million
	Workers   int   // 0: GOMAXPROCS
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

// Run checks every configuration that opt describes: it builds them,
// searches them on the workers and merges their results in a report.
func Run(opt Options) (*Report, error) {
	base, budget, err := prepare(&opt)
	if err != nil {
		return nil, err
	}
	cfgs, err := plan(&opt, base, budget)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	sh := searchAll(opt, cfgs, start)
	for _, c := range cfgs {
		if c.err != nil {
			return nil, c.err
		}
	}
	shortenAll(opt, cfgs, sh)
	r := report(opt, base, cfgs)
	r.ShortestStates, r.ShortestTransitions, r.ShortestCut = sh.shortStates.Load(), sh.shortEdges.Load(), sh.shortCut.Load()
	if budget.text != "" {
		if tolerated := r.underFaults(opt, base, budget, sh, start); tolerated != nil {
			return tolerated, nil
		}
	}
	return r.finish(opt, cfgs, sh, start)
}

// prepare builds the configuration that opt describes (with increasing
// IDs) and checks what can be checked before the configurations are
// listed: the nodes can be copied and compared, and the fault budget
// parses and goes without --draws. It sets opt's state limit when none is
// given, and under faults a synchronous run's event limit.
func prepare(opt *Options) (*election.Config, faultBudget, error) {
	base, err := scenario.Build(withIDs(opt.Spec, "increasing", opt.Delivery))
	if err != nil {
		return nil, faultBudget{}, err
	}
	alg := base.Algorithm
	for _, nd := range []elect.Node{alg.New(elect.NodeInfo{ID: 1, N: 2, Degree: 2, Params: base.Params})} {
		if _, ok := nd.(elect.Snapshotter); !ok {
			return nil, faultBudget{}, fmt.Errorf("%s's nodes do not implement elect.Snapshotter: the checker needs to copy and compare their states", alg.Name)
		}
	}
	if opt.MaxStates <= 0 {
		opt.MaxStates = defaultMaxStates
	}
	if err := checkWakeOrder(*opt, base); err != nil {
		return nil, faultBudget{}, err
	}
	budget, err := parseFaultBudget(opt.Faults, base.Graph.N)
	if err != nil {
		return nil, faultBudget{}, err
	}
	if budget.text != "" {
		if opt.Draws != 0 {
			return nil, faultBudget{}, fmt.Errorf("--faults and --draws: exact probabilities are computed without faults; drop one")
		}
		if opt.Spec.MaxEvents == 0 {
			base.MaxEvents = faultEventLimit(base)
		}
	}
	return base, budget, nil
}

// faultEventLimit is a synchronous run's event limit under faults, where
// an algorithm may wait or loop for ever (a Bully node whose COORDINATOR
// was lost asks again and again): 100 times its message bound without
// faults, or 1000n events, and at least 1000 (the forced runs' limit
// without their floor of 10^6, which would make every such schedule of a
// small network cost a million events).
func faultEventLimit(base *election.Config) int64 {
	ctx := base.BoundContext()
	ctx.Faults = 0
	limit := 1000 * float64(base.Graph.N)
	if b, ok := scenario.MessageBound(base.Algorithm, ctx); ok {
		limit = 100 * (b + float64(base.Graph.N))
	}
	return int64(max(limit, 1000))
}

// plan lists the configurations to check, once the estimate of what they
// take is within the limits, each with the fault budget; under --draws it
// checks the draws' options and completes them in opt.
func plan(opt *Options, base *election.Config, budget faultBudget) ([]*config, error) {
	if err := estimate(*opt, base).refusal(*opt, base); err != nil {
		return nil, err
	}
	cfgs, err := configurations(*opt, base)
	if err != nil {
		return nil, err
	}
	if budget.text != "" {
		for _, c := range cfgs {
			c.flt = &configFaults{budget: budget}
		}
	}
	if opt.Draws != 0 {
		if err := checkDraws(opt, base, len(cfgs)); err != nil {
			return nil, err
		}
	}
	return cfgs, nil
}

// checkWakeOrder checks Options.WakeOrder against the rest of opt.
func checkWakeOrder(opt Options, base *election.Config) error {
	switch opt.WakeOrder {
	case "", "first":
		return nil
	case "all":
	default:
		return fmt.Errorf("--wake-order %q: use first (initiators wake before any delivery, in node order) or all (every order of wake-ups and deliveries)", opt.WakeOrder)
	}
	switch {
	case base.Delivery == election.Sync:
		return fmt.Errorf("--wake-order all applies to asynchronous checks; a synchronous check's wake-ups are rounds (--initiators times)")
	case opt.Draws != 0:
		return fmt.Errorf("--wake-order all and --draws: exact probabilities need one schedule at each state; drop one")
	case base.Algorithm.RunModel(base.Params).WakeUp == elect.AllAtOnce && !opt.Spec.Force:
		return fmt.Errorf("%s needs every node to wake up at once; --wake-order all does not apply (--force checks it all the same)", base.Algorithm.Name)
	}
	return nil
}
