// Package conformance is the test kit for election algorithms: one call in
// an algorithm's own test runs it through every check the shipped catalog's
// algorithms pass, whether the algorithm lives in this repository or in a
// user's module.
//
//	func TestMyAlgorithmConforms(t *testing.T) {
//		conformance.Run(t, MyAlgorithm, conformance.Options{})
//	}
//
// Run runs these checks, each a subtest named after it (Checks lists them;
// each is also a function of its own, to call alone):
//
//   - declaration (Declaration): the nodes copy and encode their state
//     (elect.Snapshotter); Init, when declared, builds what New builds; and
//     Model.Randomized tells the truth (a deterministic algorithm's runs do
//     not depend on the seed, a randomized one's do).
//   - states (States): AppendState sees every field of a node's state, and
//     a clone shares nothing with its original.
//   - elects (Elects): on random networks of the algorithm's topology class
//     and many sizes, under every delivery model its model allows, with
//     random ID arrangements, initiator sets and wake-up times, with and
//     without the announcement, each run elects as the model declares and
//     every declared bound holds (the monitor's verdict, on the fast
//     simulator).
//   - engines (Engines): the fast simulator and the reference engine give
//     identical results and identical traces, in the model and forced off
//     it (equal IDs, the wrong timing or delivery).
//   - snapshots (Snapshots): a run on the reference engine stopped at
//     several points, snapshotted and continued, by the engine stopped and
//     by copies restored from the snapshot, ends exactly as the run that
//     went straight through, trace included.
//   - exhaustive (Exhaustive): the exhaustive checker explores every
//     schedule, ID assignment and set of initiators of small networks (4
//     nodes under FIFO delivery, 3 with every set of initiators and every
//     non-FIFO order, by default) and finds no violation of the election's
//     properties and no declared bound broken.
//
// Every failure is reported with t.Errorf as one message that starts with
// "conformance: ALGORITHM: CHECK:" and, for a run, the command line that
// repeats it (the elect command's, or the user's own built with
// cli.MainWith): every run is a function of its configuration and seed,
// so a failing run is a complete bug report. A check stops after a few
// failures.
//
// The default Options keep the whole suite to a few seconds per algorithm.
package conformance

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/scenario"
)

// Options tune the checks. The zero value is the default, fast suite.
type Options struct {
	// Params are parameter sets (by name, as on the command line) to run
	// besides the declared defaults, each on its own: a variant that
	// assumes another model (Algorithm.ModelFor) gets the deliveries that
	// model allows.
	Params []map[string]string
	// EngineParams are parameter sets that only the engines check runs:
	// variants that may fail to elect (a literal reading of a source that
	// stalls, a diameter bound set too small), which both engines must
	// then fail alike.
	EngineParams []map[string]string
	// Sizes are the network sizes of the elects check (nil:
	// DefaultSizes). Sizes a network cannot have (a hypercube of 5 nodes,
	// or what the algorithm's CheckRun refuses) are skipped.
	Sizes []int
	// Seeds is the number of seeds per size, delivery model and parameter
	// set in the elects and engines checks (0: 3).
	Seeds int
	// EngineSizes are the network sizes of the engines check (nil:
	// DefaultEngineSizes).
	EngineSizes []int
	// Topologies are the networks an algorithm of the general class runs on
	// in the elects, engines and snapshots checks (nil: DefaultTopologies).
	// An algorithm with a natural topology of its own
	// (Algorithm.NaturalTopology), or with a sense of direction, runs on
	// that alone.
	Topologies []string
	// CheckN is the number of nodes of the exhaustive check under FIFO
	// delivery (with the checker's partial-order reduction) or synchronous
	// rounds, every node initiating (0: 4; below 0: no exhaustive check).
	CheckN int
	// SmallN is the number of nodes of the exhaustive searches that branch
	// most (0: 3; below 0: none): every non-empty set of initiators, when
	// any subset may start, and every order of non-FIFO links (a bag per
	// link), when the algorithm does not need FIFO links.
	SmallN int
	// CheckTopologies are the networks of the exhaustive check for an
	// algorithm of the general class without a natural topology (nil:
	// ring, line and star).
	CheckTopologies []string
	// MaxStates is the exhaustive checker's limit of states per
	// configuration (0: 500,000). A search that reaches it fails the check:
	// it proves nothing.
	MaxStates int64
	// MaxEvents is the event limit of every run (0: 1,000,000). A run that
	// reaches it fails the elects check (outcome step-limit).
	MaxEvents int64
	// Skip names checks (of Checks) to leave out.
	Skip []string
}

// Checks are the names of the checks Run runs, in order.
var Checks = []string{"declaration", "states", "elects", "engines", "snapshots", "exhaustive"}

// DefaultSizes are the network sizes of the elects check: the smallest
// networks, powers of two and their neighbours, squares and a few others.
var DefaultSizes = []int{1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 25, 32, 33, 64}

// DefaultEngineSizes are the network sizes of the engines check.
var DefaultEngineSizes = []int{1, 2, 3, 4, 5, 8, 9, 13}

// DefaultTopologies are the networks general-graph algorithms run on.
var DefaultTopologies = []string{"ring", "line", "star", "tree", "complete", "gnp:0.4", "grid:3x4", "torus:3x3", "hypercube"}

// maxFailures is how many failures a check reports before it stops.
const maxFailures = 3

// Run runs every check of Checks (but those opt.Skip names) on alg, each
// as a subtest.
func Run(t *testing.T, alg *elect.Algorithm, opt Options) {
	t.Helper()
	funcs := map[string]func(testing.TB, *elect.Algorithm, Options){
		"declaration": Declaration, "states": States, "elects": Elects,
		"engines": Engines, "snapshots": Snapshots, "exhaustive": Exhaustive,
	}
	for _, s := range opt.Skip {
		if !slices.Contains(Checks, s) {
			t.Fatalf("conformance: Options.Skip names %q; the checks are %s", s, strings.Join(Checks, ", "))
		}
	}
	for _, name := range Checks {
		if slices.Contains(opt.Skip, name) {
			continue
		}
		t.Run(name, func(t *testing.T) { funcs[name](t, alg, opt) })
	}
}

// withDefaults fills in the zero fields of o.
func (o Options) withDefaults() Options {
	if o.Sizes == nil {
		o.Sizes = DefaultSizes
	}
	if o.EngineSizes == nil {
		o.EngineSizes = DefaultEngineSizes
	}
	if o.Topologies == nil {
		o.Topologies = DefaultTopologies
	}
	if o.Seeds <= 0 {
		o.Seeds = 3
	}
	if o.CheckN == 0 {
		o.CheckN = 4
	}
	if o.SmallN == 0 {
		o.SmallN = 3
	}
	if o.CheckTopologies == nil {
		o.CheckTopologies = []string{"ring", "line", "star"}
	}
	if o.MaxStates <= 0 {
		o.MaxStates = 500_000
	}
	if o.MaxEvents <= 0 {
		o.MaxEvents = 1_000_000
	}
	return o
}

// paramSets are the parameter sets of a run: the defaults (nil), then
// o.Params.
func (o Options) paramSets() []map[string]string {
	return append([]map[string]string{nil}, o.Params...)
}

// reporter reports one check's failures on one algorithm.
type reporter struct {
	t        testing.TB
	alg      string
	check    string
	failures int
}

func newReporter(t testing.TB, alg *elect.Algorithm, check string) *reporter {
	return &reporter{t: t, alg: alg.Name, check: check}
}

// fail reports one failure; it returns false when the check should stop.
func (r *reporter) fail(format string, args ...any) bool {
	r.t.Helper()
	r.failures++
	if r.failures > maxFailures {
		return false
	}
	msg := fmt.Sprintf(format, args...)
	if r.failures == maxFailures {
		msg += fmt.Sprintf("\n(%d failures: the %s check stops here)", maxFailures, r.check)
	}
	r.t.Errorf("conformance: %s: %s: %s", r.alg, r.check, msg)
	return r.failures < maxFailures
}

// stopped reports whether the check has reported all it will.
func (r *reporter) stopped() bool { return r.failures >= maxFailures }

// catalogOf returns a catalog that holds alg under its name: the default
// one when alg is shipped in it, else one of alg alone.
func catalogOf(t testing.TB, alg *elect.Algorithm) *catalog.Catalog {
	t.Helper()
	if a, ok := catalog.Lookup(alg.Name); ok && a == alg {
		return catalog.Default()
	}
	cat, err := new(catalog.Catalog).With(alg)
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	return cat
}

// commandLine is the elect command line of a run described by s.
func commandLine(s scenario.Spec) string {
	var b strings.Builder
	fmt.Fprintf(&b, "elect run %s --n %d", s.Algorithm, s.N)
	add := func(flag, v string) {
		if v != "" {
			fmt.Fprintf(&b, " --%s %s", flag, v)
		}
	}
	add("topology", s.Topology)
	add("ids", s.IDs)
	add("timing", s.Timing)
	add("delivery", s.Delivery)
	add("initiators", s.Initiators)
	for _, k := range slices.Sorted(maps.Keys(s.Params)) {
		add(k, s.Params[k])
	}
	fmt.Fprintf(&b, " --seed %d", s.Seed)
	if s.Announce {
		b.WriteString(" --announce")
	}
	if s.Force {
		b.WriteString(" --force")
	}
	if s.MaxEvents != 0 {
		fmt.Fprintf(&b, " --max-events %d", s.MaxEvents)
	}
	return b.String()
}

// resolved returns the parameters of a run with the given ones: the
// declared defaults, overridden.
func resolved(alg *elect.Algorithm, given map[string]string) elect.Params {
	p := elect.Params{}
	for _, d := range alg.Params {
		p[d.Name] = d.Default
	}
	maps.Copy(p, given)
	return p
}

// allowedDeliveries are the delivery models the model of a run with
// parameters p allows, by command-line name.
func allowedDeliveries(alg *elect.Algorithm, p map[string]string) []string {
	m := alg.RunModel(resolved(alg, p))
	var out []string
	if m.Sync {
		out = append(out, "sync")
	}
	if m.Async {
		out = append(out, "fifo", "random-fifo")
		if !m.FIFO {
			out = append(out, "random", "newest-first")
		}
	}
	return out
}

// topologies are the networks alg runs on in the elects, engines and
// snapshots checks ("" is the algorithm's natural one).
func (o Options) topologies(alg *elect.Algorithm) []string {
	if alg.Model.Topology != elect.General || alg.NaturalTopology != nil || alg.Model.SenseOfDirection {
		return []string{""}
	}
	return o.Topologies
}
