// Package protocols holds the population protocols of the seed documents,
// each a pp.Protocol over compact agent states, and a catalog that builds and
// runs them by name. Protocols import elect/pp; elect/pp never imports them.
package protocols

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/trace"
)

// Param is one protocol parameter: its flag name, its default and help as
// "elect pp list" shows them, and how a value given as text sets it in a
// Config. A protocol declares its parameters once, in its Entry's Params;
// the command's flags, the sweeps' grids and the traces' headers derive
// from that declaration (Names, Entry.SetParam).
type Param struct {
	Name    string // flag name without dashes
	Default string // default value, as shown by "elect pp list"
	Help    string // one line
	// set checks a value given as text and stores it in a Config.
	set func(c *Config, value string) error
}

// The parameters' defaults where the catalog's code needs them as numbers.
const (
	defaultTermM     = 4   // epidemic-term's m
	defaultFractionA = 0.6 // approx-majority's fraction-a
)

// mParam is parameter m (Config.M): an integer of at least 1 (0 in a
// Config is the protocol's default, which --m 0 must not silently give).
func mParam(def, help string) Param {
	return Param{"m", def, help, func(c *Config, v string) error {
		m, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("--m must be an integer, got %q", v)
		}
		if m < 1 {
			return fmt.Errorf("--m must be at least 1, got %d (omit --m for the protocol's default)", m)
		}
		c.M = m
		return nil
	}}
}

// variantParam is parameter variant (Config.Variant), whose values the
// protocol checks when it runs.
func variantParam(help string) Param {
	return Param{"variant", "prose", help, func(c *Config, v string) error {
		c.Variant = v
		return nil
	}}
}

var minInteractionsParam = Param{"min-interactions", "0", "interactions a declaring agent must have taken part in", func(c *Config, v string) error {
	k, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf("--min-interactions must be an integer, got %q", v)
	}
	c.MinInteractions = k
	return nil
}}

var fractionAParam = Param{"fraction-a", strconv.FormatFloat(defaultFractionA, 'g', -1, 64), "fraction of agents that start with opinion A (the others hold B)", func(c *Config, v string) error {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return fmt.Errorf("--fraction-a: %q is not a number", v)
	}
	if !(f > 0 && f <= 1) {
		return fmt.Errorf("--fraction-a must be in (0, 1], got %g", f)
	}
	c.FractionA = f
	return nil
}}

// Config is the configuration of one run of a catalog protocol.
type Config struct {
	N       int
	Seed    uint64
	Options pp.Options
	// M is seed 000's multiplier (epidemic-term) or seed 004's m (pll,
	// pll-sym); 0 means the protocol's default.
	M int
	// Variant selects a reading of the pseudo-code; "" means "prose".
	Variant string
	// MinInteractions is epidemic-term's minimum number of interactions of a
	// declaring agent (0: none).
	MinInteractions int
	// FractionA is approx-majority's fraction of agents that start with
	// opinion A (0: the default 0.6).
	FractionA float64
}

// Entry describes one protocol of the catalog.
type Entry struct {
	Name   string  // as given to "elect pp"
	Goal   string  // what "interactions" measures
	Source string  // seed, algorithm, section
	Params []Param // accepted parameters
	// Growth is what its measures are expected to grow like with n.
	Growth Growth
	// File is the path of a protocol read from a file (LoadFile), "" for
	// the built-in ones; DefaultN is the population its initial counts
	// fix (0: none).
	File     string
	DefaultN int
	// StateFields, when set, name the fields of the protocol's packed
	// states (a trace's header carries them and the viewer shows them).
	StateFields []trace.StateField
	run         func(c Config) (pp.Result, error)
}

// Growth declares what a protocol's measures are expected to grow like as n
// grows, with its default parameters: each field names a function of n as
// experiment.Growths does ("1", "lg n", "H_n", "n", ...), which experiment
// resolves for the fitted constants of summaries (a test there checks that
// every name resolves). Interactions grow like n times ParallelTime.
type Growth struct {
	ParallelTime string // parallel time to the goal
	States       string // distinct states met (states_seen)
}

// Run validates c against the entry and runs one trial.
func (e Entry) Run(c Config) (pp.Result, error) {
	if c.Options.Engine == "" || c.Options.Engine == pp.AgentArray {
		if err := pp.Validate(c.N); err != nil {
			return pp.Result{}, err
		}
	}
	return e.run(c)
}

// HasParam says whether the entry accepts the named parameter.
func (e Entry) HasParam(name string) bool {
	return slices.ContainsFunc(e.Params, func(p Param) bool { return p.Name == name })
}

// SetParam checks value, given as text for the entry's parameter name, and
// stores it in c. The error says what the parameter accepts, or that the
// entry has no such parameter and which it has.
func (e Entry) SetParam(c *Config, name, value string) error {
	for _, p := range e.Params {
		if p.Name == name {
			return p.set(c, value)
		}
	}
	var names []string
	for _, p := range e.Params {
		names = append(names, "--"+p.Name)
	}
	have := "none"
	if len(names) > 0 {
		have = strings.Join(names, ", ")
	}
	return fmt.Errorf("%s has no parameter --%s; its parameters: %s", e.Name, name, have)
}

// ParamNames returns the names of the parameters the catalog's protocols
// declare, sorted, each once.
func ParamNames() []string {
	var names []string
	for _, e := range Catalog {
		for _, p := range e.Params {
			names = append(names, p.Name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// ParamHelp describes parameter name for a flag's help: each protocol that
// takes it, with its help and default.
func ParamHelp(name string) string {
	var parts []string
	for _, e := range Catalog {
		for _, p := range e.Params {
			if p.Name == name {
				parts = append(parts, fmt.Sprintf("%s: %s (default %s)", e.Name, p.Help, p.Default))
			}
		}
	}
	return strings.Join(parts, "; ")
}

// Catalog lists the protocols in the order "elect pp list" shows them.
var Catalog = []Entry{
	{
		Name:   "angluin",
		Goal:   "one leader remains (two leaders meet: the responder becomes a follower)",
		Source: "Angluin et al. (seed 000 ref. [1], seed 004 ref. [3])",
		// Two states (leader, follower); k leaders meet after n(n-1)/(k(k-1))
		// steps on average: (n-1)^2 steps in all.
		Growth: Growth{ParallelTime: "n", States: "1"},
		run: func(c Config) (pp.Result, error) {
			return pp.Simulate(NewAngluin(c.N), c.N, c.Seed, c.Options)
		},
	},
	{
		Name:   "numbered-known",
		Goal:   "every agent holds the maximum ID (IDs 1..n known: step 0)",
		Source: "seed 000, Algorithm 1",
		// The goal holds at step 0; the states are leader = n with or without
		// isLeader.
		Growth: Growth{ParallelTime: "1", States: "1"},
		run: func(c Config) (pp.Result, error) {
			return pp.Simulate(NewNumberedKnown(c.N), c.N, c.Seed, c.Options)
		},
	},
	{
		Name:   "epidemic",
		Goal:   "every agent holds the maximum ID (the larger leader value spreads)",
		Source: "seed 000, Algorithm 2, Theorems 1-3",
		// Theorem 1: (n-1)H(n-1) interactions; the states are the n IDs, each
		// with or without isLeader.
		Growth: Growth{ParallelTime: "H_n", States: "n"},
		Params: []Param{variantParam("reading of the pseudo-code: prose or literal")},
		run: func(c Config) (pp.Result, error) {
			if err := checkVariant(c.Variant, []string{"prose", "literal"}); err != nil {
				return pp.Result{}, err
			}
			return pp.Simulate(NewEpidemic(c.N, c.Variant), c.N, c.Seed, c.Options)
		},
	},
	{
		Name:   "epidemic-term",
		Goal:   "the eventual leader declares the election complete (correct if every agent held the maximum)",
		Source: "seed 000, Algorithm 3, Section IV (Figure 1)",
		// Figure 1: O(n ln n) interactions; the states are the n IDs with
		// their counters (which add a slowly growing factor).
		Growth: Growth{ParallelTime: "H_n", States: "n"},
		Params: []Param{
			mParam(strconv.Itoa(defaultTermM), "multiplier of the termination test"),
			minInteractionsParam,
			variantParam("reading of the pseudo-code: prose or literal"),
		},
		run: func(c Config) (pp.Result, error) {
			if err := checkVariant(c.Variant, []string{"prose", "literal"}); err != nil {
				return pp.Result{}, err
			}
			m := c.M
			if m == 0 {
				m = defaultTermM
			}
			if m < 1 || m > 1<<20 {
				return pp.Result{}, fmt.Errorf("m must be between 1 and %d; got %d", 1<<20, m)
			}
			if c.MinInteractions < 0 || c.MinInteractions > 1<<30 {
				return pp.Result{}, fmt.Errorf("min-interactions must be between 0 and %d; got %d", 1<<30, c.MinInteractions)
			}
			return pp.Simulate(NewEpidemicTerm(c.N, m, c.MinInteractions, c.Variant), c.N, c.Seed, c.Options)
		},
	},
	pllEntry("pll", false),
	pllEntry("pll-sym", true),
	{
		Name:   "approx-majority",
		Goal:   "every agent holds opinion A (consensus; elects no leader: the outcome is goal-reached)",
		Source: "Angluin, Aspnes and Eisenstat (Distributed Computing 2008), the three-state protocol",
		// Theorem 1: O(log n) parallel time w.h.p. from a large enough gap;
		// three states (A, B, blank).
		Growth: Growth{ParallelTime: "lg n", States: "1"},
		Params: []Param{fractionAParam},
		run: func(c Config) (pp.Result, error) {
			f := c.FractionA
			if f == 0 {
				f = defaultFractionA
			}
			if !(f > 0 && f <= 1) {
				return pp.Result{}, fmt.Errorf("fraction-a must be in (0, 1]; got %g", f)
			}
			a := int64(math.Round(f * float64(c.N)))
			if a < 1 {
				return pp.Result{}, fmt.Errorf("fraction-a %g of n = %d leaves no agent with opinion A", f, c.N)
			}
			p := NewApproxMajority(int64(c.N), a)
			p.FractionA = f
			return pp.Simulate(p, c.N, c.Seed, c.Options)
		},
	},
}

func pllEntry(name string, sym bool) Entry {
	src := "seed 004, Algorithms 1-5 (Section 3)"
	goal := "one leader remains (QuickElimination, Tournament, BackUp; c_max = 41m)"
	if sym {
		src = "seed 004, Section 4 and Algorithm 6"
		goal = "one leader remains (symmetric transitions: statuses X/Y, coins J/K/F0/F1, Algorithm 6)"
	}
	return Entry{
		Name:   name,
		Goal:   goal,
		Source: src,
		// Seed 004, abstract and Section 4: O(log n) parallel time and O(log n)
		// states, for both variants.
		Growth:      Growth{ParallelTime: "lg n", States: "lg n"},
		StateFields: pllFields,
		Params: []Param{
			mParam("ceil(lg n)", "knowledge of n: m >= lg n, c_max = 41m"),
			variantParam("prose, literal-epoch, literal-relay or literal"),
		},
		run: func(c Config) (pp.Result, error) {
			if sym && c.N < 3 {
				return pp.Result{}, fmt.Errorf("n must be at least 3: with two agents a symmetric protocol can never break the tie; got %d", c.N)
			}
			p, err := NewPLL(c.N, c.M, sym, c.Variant)
			if err != nil {
				return pp.Result{}, err
			}
			return pp.Simulate(p, c.N, c.Seed, c.Options)
		},
	}
}

func checkVariant(v string, allowed []string) error {
	if v == "" || slices.Contains(allowed, v) {
		return nil
	}
	return fmt.Errorf("unknown variant %q; variants: %s", v, strings.Join(allowed, ", "))
}

// Lookup returns the catalog entry with the given name.
func Lookup(name string) (Entry, bool) {
	for _, e := range Catalog {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Names returns the protocol names in catalog order.
func Names() []string {
	names := make([]string, len(Catalog))
	for i, e := range Catalog {
		names[i] = e.Name
	}
	return names
}
