package cli

import (
	"flag"
	"strings"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/check"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/pp/protocols"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/topology"
)

// checkFlags are the flags of elect check (of a message-passing
// algorithm).
type checkFlags struct {
	n, wakeRounds, workers, maxDraws, trials                int
	ids, delivery, initiators, topo, counter, worst, faults string
	reduction, wakeOrder                                    string
	announce, force, json, draws                            bool
	maxStates, memLimit                                     int64
	seed                                                    uint64
	params                                                  map[string]*string
}

func (f *checkFlags) register(fs *flag.FlagSet, cat *catalog.Catalog) {
	sizeVar(fs, &f.n, "n", 4, "number of nodes (keep it small: the states grow exponentially)")
	fs.StringVar(&f.ids, "ids", "", "all (every assignment of 1..n; the default for n <= 6) or an arrangement: "+ids.Usage)
	fs.StringVar(&f.delivery, "delivery", "", "fifo, bag (any message in flight may come next) or sync (default: fifo, or sync for synchronous algorithms)")
	fs.StringVar(&f.initiators, "initiators", "all", "all; subsets: every non-empty set of initiators; or times (--delivery sync): every node's wake-up round in 0..--wake-rounds, or none")
	fs.StringVar(&f.wakeOrder, "wake-order", "first", "first: initiators wake before any delivery, in node order (a simultaneous start); all: every order of wake-ups and deliveries (asynchronous checks)")
	fs.IntVar(&f.wakeRounds, "wake-rounds", 0, "the latest wake-up round of --initiators times (default n-1)")
	fs.StringVar(&f.topo, "topology", "", "network: "+topology.Usage+" (default: the algorithm's own)")
	fs.BoolVar(&f.announce, "announce", false, "announce the leader (algorithms with optional announcement)")
	fs.BoolVar(&f.force, "force", false, "check a configuration that breaks the algorithm's model (to find the counterexample)")
	fs.Int64Var(&f.maxStates, "max-states", 2_000_000, "stop a configuration's search after this many states (verdict incomplete)")
	fs.BoolVar(&f.json, "json", false, "print the report as one JSON object")
	fs.Uint64Var(&f.seed, "seed", 1, "fixes a randomized algorithm's draws (node i's stream, as in every runtime)")
	fs.IntVar(&f.workers, "workers", 0, "configurations checked at once (default: every core)")
	fs.StringVar(&f.counter, "counterexample", "", "write the execution that violates a property to this file, as a trace")
	fs.StringVar(&f.worst, "worst", "", "write an execution with the most messages to this file, as a trace")
	fs.BoolVar(&f.draws, "draws", false, "exact probabilities: every draw of a randomized algorithm branches into each of the values of its declared range (itai-rodeh: 1..n; lcr-random: 2^bits)")
	fs.IntVar(&f.maxDraws, "max-draws", 0, "with --draws: cut executions after this many draws (default 3n)")
	fs.IntVar(&f.trials, "trials", 10_000, "with --draws: simulator runs (seeds 1..trials) whose measured rates are printed next to the exact probabilities")
	fs.StringVar(&f.faults, "faults", "", "explore every choice of faults within a budget: crash:k=F (at most F crashes, of any node at any step), loss:k=L (at most L lost messages), dup:k=D (at most D duplicated), joined with ';'")
	fs.StringVar(&f.reduction, "reduction", "por", "por: under fifo, one node's deliveries stand for all where that is sound (a node with a message on every incoming link: on a unidirectional ring, any one delivery), or none: every interleaving")
	memLimitVar(fs, &f.memLimit)
	f.params = registerParams(fs, cat)
}

// options checks the flags and makes the checker's options for algorithm
// name.
func (f *checkFlags) options(fs *flag.FlagSet, cat *catalog.Catalog, name string) (check.Options, error) {
	var opt check.Options
	if f.n < 1 || f.n > 12 {
		return opt, usagef("--n %d: the checker explores every state; use 1..12 (and expect n <= 6 to be practical)", f.n)
	}
	if f.maxStates < 1 {
		return opt, usagef("--max-states must be at least 1, got %d", f.maxStates)
	}
	spec := scenario.Spec{Catalog: cat, Algorithm: name, N: f.n, Topology: f.topo, Announce: f.announce, Force: f.force, Seed: f.seed, Params: map[string]string{}}
	setParamsAndN(fs, f.params, &spec)
	alg, ok := cat.Lookup(name)
	if _, pop := protocols.Lookup(name); !ok && pop {
		var names []string
		for _, e := range check.Populations {
			names = append(names, e.Name)
		}
		return opt, usagef("%s is a population protocol the checker does not take; it checks the population protocols %s over their configurations ('elect check angluin --n 8'); 'elect pp %s' runs %s", name, strings.Join(names, ", "), name, name)
	}
	if !ok {
		return opt, usagef("unknown algorithm %q%s; 'elect list' shows them all", name, scenario.Suggest(name, cat.Names()))
	}
	d := f.delivery
	switch {
	case d == "" && alg.Model.Async:
		d = "fifo"
	case d == "":
		d = "sync"
	case d != "fifo" && d != "bag" && d != "sync":
		return opt, usagef("--delivery %q: use fifo, bag or sync", d)
	}
	idText := f.ids
	if idText == "" {
		idText = "all"
		if n, ok := scenario.SpecNodes(spec.Topology); spec.N > 6 || spec.N == 0 && ok && n > 6 {
			idText = "random"
		}
		if f.draws {
			idText = "increasing" // one configuration: the probabilities are of one ring
		}
	}
	switch {
	case (f.maxDraws != 0 || flagGiven(fs, "trials")) && !f.draws:
		return opt, usagef("--max-draws and --trials go with --draws (exact probabilities)")
	case f.trials < 0:
		return opt, usagef("--trials %d: use 0 or more", f.trials)
	case f.reduction != "por" && f.reduction != "none":
		return opt, usagef("--reduction %q: use por or none", f.reduction)
	case f.wakeRounds < 0 || f.wakeRounds > 0 && f.initiators != "times":
		return opt, usagef("--wake-rounds %d: it goes with --initiators times, and counts rounds from 0", f.wakeRounds)
	}
	opt = check.Options{Spec: spec, IDs: idText, Delivery: d, Initiators: f.initiators, WakeRounds: f.wakeRounds, MaxStates: f.maxStates, Workers: f.workers,
		WakeOrder: f.wakeOrder, NoReduction: f.reduction == "none", MaxDraws: f.maxDraws, Trials: f.trials, MemLimit: f.memLimit, Faults: f.faults}
	if f.draws {
		opt.Draws = -1 // the algorithm's declared range
		if f.trials == 0 {
			opt.Trials = -1 // none
		}
	}
	return opt, nil
}
