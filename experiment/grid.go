// Package experiment runs sweeps: grids of algorithm x n x ID arrangement x
// delivery model x initiator set (population protocols: protocol x n x
// parameters) x trials, on a pool of workers, and summarises the results.
//
// A sweep's output does not depend on the number of workers: trial t of every
// grid point runs with a seed derived from the master seed alone (message
// passing: seed+t, as 'elect run --trials'; population protocols:
// pp.TrialSeed(seed, t), as 'elect pp --trials'), and lines are written in
// grid order whatever order the runs finish in. Each line is exactly the JSON
// record 'elect run --json' or 'elect pp --json' prints for that run, so any
// line can be rerun alone with the configuration and seed it names.
package experiment

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/protocols"
	"github.com/electkit/elect/scenario"
)

// Kind says which engine runs a grid point.
type Kind int

const (
	// MessagePassing points run on the discrete-event simulator (sim).
	MessagePassing Kind = iota
	// Population points run a population protocol (pp).
	Population
)

// Grid is the description of a sweep in the words of the command line.
type Grid struct {
	Algorithms []string // message-passing algorithms or population protocols (pp:NAME forces the latter)
	Sizes      []int
	IDs        []string // message passing only; default random
	Deliveries []string // message passing only; default: the algorithm's own
	Initiators []string // message passing only; default all
	Timing     string
	Topology   string
	Announce   bool
	Force      bool
	// Faults is the fault specification of every message-passing cell
	// (scenario.Spec.Faults; "" is none).
	Faults string
	// Runtime runs the message-passing cells (scenario.Spec.Runtime; ""
	// is the simulator).
	Runtime   string
	MaxEvents int64
	MaxTime   int64
	// MemLimit is each run's memory limit (scenario.Spec.MemLimit) and
	// KeptBytes what the caller keeps of all the runs (Spec.KeptBytes).
	MemLimit, KeptBytes int64
	// Strict refuses the whole grid when a cell breaks its algorithm's
	// model; otherwise such cells are left out and listed in Skipped.
	Strict bool
	// Skipped lists, after Points, the groups of cells left out because
	// they break their algorithm's model.
	Skipped []Skip
	// Params are algorithm or protocol parameters, each with a list of
	// values; a parameter applies to the algorithms that declare it.
	Params map[string][]string
	// Scheduler and MaxSteps configure population runs.
	Scheduler pp.Scheduler
	Engine    pp.Engine // "" is the agent array (as pp.Options); the CLI's default is auto
	MaxSteps  int64
	NoStates  bool
	Trials    int
	Seed      uint64
	// Catalog is where message-passing algorithms are looked up (nil:
	// catalog.Default()).
	Catalog *catalog.Catalog
}

// catalog returns the grid's catalog.
func (g *Grid) catalog() *catalog.Catalog {
	if g.Catalog == nil {
		return catalog.Default()
	}
	return g.Catalog
}

// Point is one configuration of a grid, run Trials times.
type Point struct {
	Index int
	Kind  Kind
	// Spec is the message-passing configuration (Seed set per trial).
	Spec scenario.Spec
	// Protocol and PP are the population configuration (Seed set per trial).
	Protocol protocols.Entry
	PP       protocols.Config
}

// Job is one run: trial Trial of point Point; Index is its place in grid
// order.
type Job struct {
	Index int
	Point *Point
	Trial int
}

// Seed returns the job's seed.
func (j Job) Seed(master uint64) uint64 {
	if j.Point.Kind == Population {
		return pp.TrialSeed(master, j.Trial)
	}
	return master + uint64(j.Trial)
}

// Error is a problem with a grid: the user's to fix.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// resolve says which engine runs name and returns its bare name.
func resolve(cat *catalog.Catalog, name string) (Kind, string, error) {
	if file, ok := strings.CutPrefix(name, "pp:"); (ok && protocols.IsFile(file)) || protocols.IsFile(name) {
		if !ok {
			file = name
		}
		return Population, file, nil
	}
	if rest, ok := strings.CutPrefix(name, "pp:"); ok {
		if _, ok := protocols.Lookup(rest); !ok {
			return 0, "", errorf("unknown population protocol %q%s; 'elect pp list' shows them", rest, scenario.Suggest(rest, protocols.Names()))
		}
		return Population, rest, nil
	}
	_, mp := cat.Lookup(name)
	_, pop := protocols.Lookup(name)
	switch {
	case mp && pop:
		return 0, "", errorf("%q names both an algorithm and a population protocol; write pp:%s for the protocol", name, name)
	case mp:
		return MessagePassing, name, nil
	case pop:
		return Population, name, nil
	}
	all := append(cat.Names(), protocols.Names()...)
	return 0, "", errorf("unknown algorithm or protocol %q%s; 'elect list' and 'elect pp list' show them", name, scenario.Suggest(name, all))
}

// ppEntry returns the population protocol called name: a catalog entry,
// or the protocol read from a file (name ending in .yaml, .yml or .json).
func ppEntry(name string) (protocols.Entry, error) {
	if protocols.IsFile(name) {
		e, err := protocols.LoadFile(name)
		if err != nil {
			return protocols.Entry{}, &Error{Msg: err.Error()}
		}
		return e, nil
	}
	e, _ := protocols.Lookup(name)
	return e, nil
}

// Allowed is the value of --delivery and --initiators that expands, per
// algorithm, to every choice its model allows: every delivery model (those
// of the grid's timing when one is given), and for initiators all nodes
// and a single random one.
const Allowed = "allowed"

// allowedDeliveries and allowedInitiators are what Allowed expands to
// before each cell is checked against its algorithm's model.
func (g *Grid) allowedDeliveries() []string {
	switch g.Timing {
	case "sync":
		return []string{"sync"}
	case "async":
		return []string{"fifo", "random", "random-fifo", "newest-first"}
	}
	return []string{"fifo", "random", "random-fifo", "newest-first", "sync"}
}

var allowedInitiators = []string{"all", "1"}

// expandAllowed replaces Allowed in values by what it stands for, keeping
// the order and dropping repeats.
func expandAllowed(values, allowed []string) []string {
	var out []string
	for _, v := range values {
		add := []string{v}
		if v == Allowed {
			add = allowed
		}
		for _, a := range add {
			if !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// Skip is a group of grid cells left out because they break their
// algorithm's model: one algorithm and one broken assumption.
type Skip struct {
	Algorithm  string
	Assumption string // the model's assumption the cells break (election.AssumptionError)
	Detail     string // the first cell's explanation
	Count      int    // cells left out
	Sizes      []int
	// Choices are the values of --ids, --delivery, --initiators and the
	// parameters among the cells left out, by flag in the order met.
	Choices [][2]string
}

func (s Skip) String() string {
	var with []string
	for _, c := range s.Choices {
		with = append(with, "--"+c[0]+" "+c[1])
	}
	sizes := make([]string, len(s.Sizes))
	for i, n := range s.Sizes {
		sizes[i] = strconv.Itoa(n)
	}
	with = append(with, "n = "+strings.Join(sizes, ","))
	what := fmt.Sprintf("%d configurations", s.Count)
	verb := "break"
	if s.Count == 1 {
		what, verb = "1 configuration", "breaks"
	}
	return fmt.Sprintf("skipped %s of %s (%s) that %s its assumption of %s: %s", what, s.Algorithm, strings.Join(with, ", "), verb, s.Assumption, s.Detail)
}

// skip records that the cell s of the grid breaks its model (err).
func (g *Grid) skip(s scenario.Spec, err *election.AssumptionError) {
	choices := [][2]string{{"ids", s.IDs}, {"delivery", s.Delivery}, {"initiators", s.Initiators}}
	for _, k := range slices.Sorted(maps.Keys(s.Params)) {
		choices = append(choices, [2]string{k, s.Params[k]})
	}
	var k *Skip
	for i := range g.Skipped {
		if g.Skipped[i].Algorithm == s.Algorithm && g.Skipped[i].Assumption == err.Assumption {
			k = &g.Skipped[i]
		}
	}
	if k == nil {
		g.Skipped = append(g.Skipped, Skip{Algorithm: s.Algorithm, Assumption: err.Assumption, Detail: err.Detail})
		k = &g.Skipped[len(g.Skipped)-1]
	}
	k.Count++
	if !slices.Contains(k.Sizes, s.N) {
		k.Sizes = append(k.Sizes, s.N)
	}
	for _, c := range choices {
		if c[1] == "" || c[0] == "ids" && c[1] == "random" || c[0] == "initiators" && c[1] == "all" && len(g.Initiators) == 0 {
			continue
		}
		i := slices.IndexFunc(k.Choices, func(x [2]string) bool { return x[0] == c[0] })
		switch {
		case i < 0:
			k.Choices = append(k.Choices, c)
		case !slices.Contains(strings.Split(k.Choices[i][1], ","), c[1]):
			k.Choices[i][1] += "," + c[1]
		}
	}
}

// Points expands the grid in grid order: algorithms as listed, then sizes,
// ID arrangements, delivery models, initiator sets and parameter values, each
// in the order given. Every point is validated; the error is the user's.
func (g *Grid) Points() ([]*Point, error) {
	if len(g.Algorithms) == 0 {
		return nil, errorf("no algorithm given; 'elect list' and 'elect pp list' show them")
	}
	if len(g.Sizes) == 0 {
		return nil, errorf("no size given")
	}
	if g.Trials < 1 {
		return nil, errorf("--trials must be at least 1, got %d", g.Trials)
	}
	if err := g.checkRepeats(); err != nil {
		return nil, err
	}
	ids := orDefault(g.IDs, "random")
	deliveries := expandAllowed(orDefault(g.Deliveries, ""), g.allowedDeliveries())
	inits := expandAllowed(orDefault(g.Initiators, "all"), allowedInitiators)
	g.Skipped = nil
	paramNames := make([]string, 0, len(g.Params))
	for k := range g.Params {
		paramNames = append(paramNames, k)
	}
	slices.Sort(paramNames)
	used := map[string]bool{}
	anyMP := false
	var points []*Point
	for _, raw := range g.Algorithms {
		var pe protocols.Entry
		kind, name, err := resolve(g.catalog(), raw)
		if err != nil {
			return nil, err
		}
		// The parameters this algorithm declares, in name order.
		var mine []string
		if kind == MessagePassing {
			anyMP = true
			alg, _ := g.catalog().Lookup(name)
			for _, p := range paramNames {
				for _, q := range alg.Params {
					if q.Name == p {
						mine = append(mine, p)
					}
				}
			}
		} else {
			if pe, err = ppEntry(name); err != nil {
				return nil, err
			}
			e := pe
			for _, p := range paramNames {
				if e.HasParam(p) {
					mine = append(mine, p)
				}
			}
		}
		for _, p := range mine {
			used[p] = true
		}
		combos := paramCombos(mine, g.Params)
		for _, n := range g.Sizes {
			if kind == Population {
				e := pe
				for _, c := range combos {
					cfg, err := ppConfig(g, e, n, c)
					if err != nil {
						return nil, errorf("%s: %v", name, err)
					}
					// One step validates the configuration cheaply.
					probe := cfg
					probe.Options.MaxSteps = 1
					probe.Options.TrackStates = false
					if _, err := e.Run(probe); err != nil {
						return nil, errorf("%s, n = %d: %v", name, n, err)
					}
					points = append(points, &Point{Kind: Population, Protocol: e, PP: cfg})
				}
				continue
			}
			for _, id := range ids {
				for _, d := range deliveries {
					for _, in := range inits {
						for _, c := range combos {
							s := scenario.Spec{Catalog: g.Catalog,
								Algorithm: name, N: n, IDs: id, Topology: g.Topology,
								Timing: g.Timing, Delivery: d, Initiators: in,
								Announce: g.Announce, Seed: g.Seed, Force: g.Force, Runtime: g.Runtime, Faults: g.Faults,
								MaxEvents: g.MaxEvents, MaxTime: g.MaxTime, Params: c,
								MemLimit: g.MemLimit, KeptBytes: g.KeptBytes,
							}
							points = append(points, &Point{Kind: MessagePassing, Spec: s})
						}
					}
				}
			}
		}
	}
	for _, p := range paramNames {
		if !used[p] {
			return nil, errorf("no algorithm of the sweep takes --%s", p)
		}
	}
	points, err := g.build(points)
	if err != nil {
		return nil, err
	}
	if !anyMP && (len(g.IDs) > 0 || len(g.Deliveries) > 0 || len(g.Initiators) > 0) {
		return nil, errorf("--ids, --delivery and --initiators apply to message-passing algorithms; the sweep has only population protocols")
	}
	if len(points) == 0 && len(g.Skipped) > 0 {
		return nil, errorf("every configuration breaks its algorithm's model: %s; use --force to run them anyway", g.Skipped[0])
	}
	return points, nil
}

// build checks every message-passing point by building its run, the
// largest networks first, so that a point that cannot run (one too large
// for memory, say) is refused at once, not after the smaller ones have
// been built; it returns the points that remain, in grid order, numbered,
// with those that break their algorithm's model left out (or refused,
// with Strict).
func (g *Grid) build(points []*Point) ([]*Point, error) {
	order := make([]int, len(points))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return points[b].Spec.N - points[a].Spec.N })
	broken := make([]*election.AssumptionError, len(points))
	for _, i := range order {
		p := points[i]
		if p.Kind != MessagePassing {
			continue
		}
		if _, err := scenario.Build(p.Spec); err != nil {
			if !g.Strict && errors.As(err, &broken[i]) {
				continue
			}
			return nil, &Error{Msg: err.Error()}
		}
	}
	kept := points[:0]
	for i, p := range points {
		if broken[i] != nil {
			g.skip(p.Spec, broken[i])
			continue
		}
		p.Index = len(kept)
		kept = append(kept, p)
	}
	return kept, nil
}

func orDefault(xs []string, d string) []string {
	if len(xs) == 0 {
		return []string{d}
	}
	return xs
}

// paramCombos returns every assignment of the given parameters' values, the
// first parameter varying slowest; one empty assignment when there are none.
func paramCombos(names []string, values map[string][]string) []map[string]string {
	combos := []map[string]string{{}}
	for _, p := range names {
		var next []map[string]string
		for _, c := range combos {
			for _, v := range values[p] {
				d := make(map[string]string, len(c)+1)
				for k, x := range c {
					d[k] = x
				}
				d[p] = v
				next = append(next, d)
			}
		}
		combos = next
	}
	return combos
}

// ppConfig is the configuration of protocol e on n agents with the
// parameters c (each checked and set by e's declaration of it).
func ppConfig(g *Grid, e protocols.Entry, n int, c map[string]string) (protocols.Config, error) {
	cfg := protocols.Config{
		N:       n,
		Options: pp.Options{Scheduler: g.Scheduler, MaxSteps: g.MaxSteps, TrackStates: !g.NoStates, Engine: g.Engine},
	}
	for _, k := range slices.Sorted(maps.Keys(c)) {
		if err := e.SetParam(&cfg, k, c[k]); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// Jobs returns the jobs of the shard in grid order: trial t of point p is
// job p*Trials + t.
func (g *Grid) Jobs(points []*Point, shard Shard) []Job {
	var jobs []Job
	for _, p := range points {
		for t := range g.Trials {
			j := p.Index*g.Trials + t
			if shard.Contains(j) {
				jobs = append(jobs, Job{Index: j, Point: p, Trial: t})
			}
		}
	}
	return jobs
}
