package check

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// config is one configuration: an ID assignment and initiators.
type config struct {
	cfg *election.Config
	// results
	states    int64
	edges     int64
	violation *election.Violation
	// err is why the simulator refused a run of a synchronous check (a
	// failure of the check, not of the algorithm).
	err      error
	bad      []step
	loopFrom int // non-termination: bad returns to the state after its first loopFrom steps
	max, min []int64
	limit    int64
	depth    int // the longest path of its search
	probs    *Probabilities
	// flt is the fault budget explored and what it found (nil: none).
	flt      *configFaults
	full     bool
	bag      bool
	reduce   bool // explored with the partial-order reduction
	freeWake bool // initiators wake in every order (Options.WakeOrder "all")
	// shortenable says the search stopped at a violation that shortenAll
	// may shorten.
	shortenable bool
}

// configFaults is a configuration's fault budget (Options.Faults) and the
// counterexample's explicit schedule, with (synchronous) its verdict and
// events.
type configFaults struct {
	budget faultBudget
	// schedules counts the distinct fault schedules a synchronous check
	// ran: the runs in which every fault of the schedule happened (a run
	// one of whose faults did not is that of a smaller schedule).
	schedules    int64
	faultSpec    string
	faultVerdict string
	faultEvents  int64
}

// newStateSpace is a search of c's configuration with its fault budget.
func (c *config) newStateSpace() *stateSpace {
	x := newStateSpace(c.cfg, c.bag, c.limit)
	x.freeWake = c.freeWake
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
	x.search()
	return x
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
			out = append(out, &config{cfg: &c, freeWake: opt.WakeOrder == "all"})
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

// permute calls f with every permutation of a[k:] (a[:k] fixed), in place:
// f must copy what it keeps.
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

// runViolation is the property that a synchronous run r of the checker
// (the simulator's, with event limit maxEvents; 0: the default) broke, nil
// when it elected: its monitor's violation; no-leader or multiple-leaders
// by its outcome (a run that stayed symmetric by its leaders); or
// non-termination when the event limit stopped it. A run the memory guard
// stopped is not judged (nil: the check is incomplete, see ranOut).
func runViolation(r *election.Result, maxEvents int64) *election.Violation {
	ended := fmt.Sprintf("the run ended with %d leaders", r.Leaders)
	switch {
	case r.Outcome == election.OutcomeElected || r.Outcome == election.Stopped || r.Outcome == election.MemoryLimit:
		return nil
	case r.Broken.Found():
		v := r.Broken
		return &v
	case r.Outcome == election.StepLimit:
		return broke(election.PropNonTermination, fmt.Sprintf("the run did not end within %d events", cmp.Or(maxEvents, election.DefaultMaxEvents)))
	case r.Outcome == election.Symmetric && r.Leaders > 1:
		return broke(election.PropMultipleLeaders, "the run stayed symmetric: "+ended)
	case r.Outcome == election.Symmetric:
		return broke(election.PropNoLeader, "the run stayed symmetric: "+ended)
	case r.Outcome.Property() == election.PropNone:
		return nil // no outcome of the simulator's is left
	}
	return broke(r.Outcome.Property(), ended)
}

// ranOut reports whether the memory guard stopped the synchronous run r
// (Config.MaxQueueBytes): its configuration was not checked to the end.
func ranOut(r *election.Result) bool { return r.Outcome == election.MemoryLimit }

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
			c.err = fmt.Errorf("check: the simulator refused the run with IDs %s: %w", idsText(c.cfg.IDs), err)
			return spare
		}
		c.states, c.edges = 1, r.Events
		c.violation = runViolation(r, c.cfg.MaxEvents)
		c.full = c.full || ranOut(r)
		c.max = append(append([]int64(nil), r.TypeCounts...), r.Messages, int64(r.Time))
		c.min = c.max
		return spare
	}
	c.bag, c.limit = opt.Delivery == "bag", opt.MaxStates
	x := c.newStateSpace()
	x.reuseMemory(spare)
	x.shared = sh
	c.reduce = !opt.NoReduction && reducible(x.bag) && !x.faulty()
	x.reduce = c.reduce
	if opt.Draws > 0 {
		x.drawAll(opt.Draws, opt.MaxDraws) // as checkDraws set them
	}
	id, err := x.search()
	c.states, c.edges, c.full, c.depth = x.states, x.edges, x.full, x.longest
	if err != nil {
		c.violation, c.bad, c.loopFrom = x.violation, x.badPath, x.loopFrom
		// A state limit is no violation: nothing to shorten. An
		// execution without end is its cycle.
		c.shortenable = err == errViolation && c.violation.Property != election.PropNonTermination && opt.Draws == 0
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

// shortenAll replaces the counterexamples the depth-first searches found
// with shortest ones (breadth-first), where the report can show them, and
// names the faults of each. Without faults the report shows the first
// configuration's violation (in their order): only that configuration's is
// shortened. Under faults it shows the shortest counterexample of all the
// configurations, the first of them on a tie, and no longer one can be
// shown: the configuration with the shortest depth-first counterexample
// (where a short one is likeliest) is shortened first, and then the others
// look only for one no longer than the shortest known then (a search cut
// at that depth finds what the uncut one finds up to it, in the same
// order, so the one shown is the one the uncut searches show). The bound
// is fixed before the others start, so that what they cost does not
// depend on which finishes first.
func shortenAll(opt Options, cfgs []*config, sh *shared) {
	var todo []*config
	for _, c := range cfgs {
		if c.violation == nil {
			continue
		}
		sh.found(len(c.bad))
		if c.shortenable && (opt.Faults != "" || len(todo) == 0) {
			todo = append(todo, c)
		}
		if opt.Faults == "" {
			break
		}
	}
	slices.SortStableFunc(todo, func(a, b *config) int { return cmp.Compare(len(a.bad), len(b.bad)) })
	if len(todo) > 0 {
		within := -1
		if opt.Faults != "" {
			within = sh.shortest()
		}
		todo[0].shorten(within, opt.MaxStates, sh)
		todo = todo[1:]
	}
	within := sh.shortest()
	// The others share a budget of opt.MaxStates states, in equal parts
	// (a part fixed before they start, so that which are cut does not
	// depend on which finishes first); one cut keeps the shortest it found,
	// or its own, and the report says how many were.
	share := opt.MaxStates / int64(max(len(todo), 1))
	next := make(chan *config, len(todo))
	for _, c := range todo {
		next <- c
	}
	close(next)
	workers := opt.Workers
	if workers <= 0 {
		workers = defaultWorkers()
	}
	var wg sync.WaitGroup
	for range min(workers, len(todo)) {
		wg.Go(func() {
			for c := range next {
				if !sh.stop.Load() {
					c.shorten(within, share, sh)
				}
			}
		})
	}
	wg.Wait()
	for _, c := range cfgs {
		if c.flt != nil && c.bad != nil && c.cfg.Delivery != election.Sync {
			c.flt.faultSpec, _ = c.newStateSpace().faultSchedule(c.bad)
		}
	}
}

// shorten replaces c's counterexample with a shortest one, or one no
// longer than within steps when within >= 0 (see shortenAll), searching at
// most limit states, and adds what its search cost to sh.
func (c *config) shorten(within int, limit int64, sh *shared) {
	x := c.newStateSpace()
	x.shared, x.limit = sh, limit
	v, path, whole := x.shortest(within)
	sh.shortStates.Add(x.states)
	sh.shortEdges.Add(x.edges)
	if !whole {
		sh.shortCut.Add(1)
	}
	if v != nil && (whole || len(path) < len(c.bad)) {
		c.violation, c.bad = v, path
		sh.found(len(path))
	}
}
