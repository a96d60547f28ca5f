package conformance

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// run is one configuration of the elects or engines check.
type run struct {
	spec scenario.Spec
	cfg  *election.Config
}

// modelRuns returns the runs of alg that its model allows, on the networks
// of o.topologies and the given sizes, under every delivery model it allows,
// for every parameter set: o.Seeds seeds each, the seed choosing the ID
// arrangement (random, increasing, decreasing, and anonymous when the model
// does not need unique IDs), the initiators when any subset may start (all
// of them, one, or a random set with random wake-up times) and the
// announcement when it is optional. Configurations the network or the
// algorithm's CheckRun refuses (a grid of 5 nodes) are left out; a delivery
// model the algorithm allows but no configuration ran under is reported.
func modelRuns(r *reporter, alg *elect.Algorithm, cat *catalog.Catalog, o Options, params []map[string]string, sizes []int) []run {
	var out []run
	for pi, p := range params {
		model := alg.RunModel(resolved(alg, p))
		arrangements := []string{"random", "increasing", "decreasing"}
		if !model.UniqueIDs {
			arrangements = append(arrangements, "anonymous")
		}
		announce := []bool{false}
		if model.Announce == elect.OptionalAnnounce {
			announce = append(announce, true)
		}
		for _, delivery := range allowedDeliveries(alg, p) {
			built := 0
			var lastErr error
			for _, topo := range o.topologies(alg) {
				for _, n := range sizes {
					for seed := uint64(1); seed <= uint64(o.Seeds); seed++ {
						k := int(seed) + n + pi
						s := scenario.Spec{Catalog: cat, Algorithm: alg.Name, N: n, Topology: topo, Delivery: delivery,
							IDs: arrangements[k%len(arrangements)], Params: p, Announce: announce[k%len(announce)],
							Seed: seed, MaxEvents: o.MaxEvents}
						if model.WakeUp == elect.AnySubset {
							s.Initiators = initiators(n, seed)
						}
						cfg, err := scenario.Build(s)
						if err != nil {
							lastErr = err
							continue
						}
						built++
						out = append(out, run{s, cfg})
					}
				}
			}
			if built == 0 {
				r.fail("parameters %v: no run under %s delivery, which the model allows, could be built (sizes %v): %v",
					resolved(alg, p), delivery, sizes, lastErr)
			}
		}
	}
	return out
}

// initiators chooses the initiators of a run on n nodes by its seed: all
// nodes, one node, or a random set of nodes waking at random times in
// 0..3.
func initiators(n int, seed uint64) string {
	switch {
	case n == 1 || seed%3 == 1:
		return "all"
	case seed%3 == 2:
		return "1"
	}
	rng := election.Stream(seed, "conformance-initiators", uint64(n))
	perm := rng.Perm(n)[:1+rng.IntN(n)]
	slices.Sort(perm)
	parts := make([]string, len(perm))
	for i, node := range perm {
		parts[i] = fmt.Sprintf("%d@%d", node, rng.IntN(4))
	}
	return "nodes:" + strings.Join(parts, ",")
}

// Elects runs alg on the fast simulator over random networks of its
// topology class, every size of opt.Sizes, every delivery model its model
// allows, and the ID arrangements, initiators and announcements described
// at modelRuns: every run must elect as the model declares (one leader, the
// promised one, known to every node when the algorithm announces) with
// every declared bound holding.
func Elects(t testing.TB, alg *elect.Algorithm, opt Options) {
	t.Helper()
	o := opt.withDefaults()
	r := newReporter(t, alg, "elects")
	runs := modelRuns(r, alg, catalogOf(t, alg), o, o.paramSets(), o.Sizes)
	for _, ru := range runs {
		if r.stopped() {
			return
		}
		res, err := sim.Run(*ru.cfg)
		if err != nil {
			r.fail("%v\nthe run: %s", err, commandLine(ru.spec))
			continue
		}
		if problem := notElected(res); problem != "" {
			r.fail("%s\nthe run: %s", problem, commandLine(ru.spec))
		}
	}
	if testing.Verbose() {
		t.Logf("conformance: %s: elects: %d runs", alg.Name, len(runs))
	}
}

// notElected says what is wrong with a run that should have elected, or "".
func notElected(res *election.Result) string {
	if res.Outcome != election.OutcomeElected {
		s := fmt.Sprintf("outcome %s", res.Outcome)
		if res.Violation != "" {
			s += ": " + res.Violation
		}
		return s + fmt.Sprintf(" (%d leaders, %d messages %v, %d events)", res.Leaders, res.Messages, res.MessagesByType, res.Events)
	}
	for _, c := range res.Checks {
		if !c.Holds {
			return fmt.Sprintf("elected node %d, but the check %q fails: %v %s %v", res.LeaderIndex, c.Name, c.Actual, c.Relation, c.Expected)
		}
	}
	return ""
}

// Engines runs alg on the fast simulator and on the reference engine, in
// the configurations of the elects check on the sizes opt.EngineSizes (with
// the parameter sets of opt.EngineParams too), and
// forced off its model (equal IDs on 3 and 6 nodes under synchronous,
// FIFO, random and newest-first delivery, where the run may fail in any
// way, or never end): the two engines must give identical results and
// identical traces (SameOnBothEngines).
func Engines(t testing.TB, alg *elect.Algorithm, opt Options) {
	t.Helper()
	o := opt.withDefaults()
	r := newReporter(t, alg, "engines")
	cat := catalogOf(t, alg)
	params := append(o.paramSets(), o.EngineParams...)
	runs := modelRuns(r, alg, cat, o, params, o.EngineSizes)
	for _, delivery := range []string{"sync", "fifo", "random", "newest-first"} {
		for _, n := range []int{3, 6} {
			for _, p := range params {
				s := scenario.Spec{Catalog: cat, Algorithm: alg.Name, N: n, Topology: o.topologies(alg)[0], IDs: "anonymous",
					Delivery: delivery, Params: p, Seed: 3, Force: true, MaxEvents: 20_000}
				if cfg, err := scenario.Build(s); err == nil {
					runs = append(runs, run{s, cfg})
				}
			}
		}
	}
	for _, ru := range runs {
		if r.stopped() {
			return
		}
		if err := SameOnBothEngines(*ru.cfg); err != nil {
			r.fail("%v\nthe run: %s", err, commandLine(ru.spec))
		}
	}
	if testing.Verbose() {
		t.Logf("conformance: %s: engines: %d configurations compared", alg.Name, len(runs))
	}
}

// SameOnBothEngines runs cfg on the fast simulator and on the reference
// engine, each writing a trace, and returns an error unless the results
// (outcome, violation, leader, messages by type, bits, time, events, the
// monitor's and the bounds' checks) and the traces are identical (but for
// the header's name of the runtime). cfg.Trace is ignored.
func SameOnBothEngines(cfg election.Config) error {
	var fastTrace, refTrace bytes.Buffer
	cfg.Trace = &fastTrace
	fast, err := sim.Run(cfg)
	if err != nil {
		return fmt.Errorf("simulator: %v", err)
	}
	cfg.Trace = &refTrace
	ref, err := reference.Run(cfg)
	if err != nil {
		return fmt.Errorf("reference engine: %v", err)
	}
	if !reflect.DeepEqual(fast, ref) {
		return fmt.Errorf("the engines' results differ\nsimulator %+v\nreference %+v", *fast, *ref)
	}
	fastBytes := bytes.Replace(fastTrace.Bytes(), []byte(`"runtime":"sim"`), []byte(`"runtime":"reference"`), 1)
	if !bytes.Equal(fastBytes, refTrace.Bytes()) {
		return fmt.Errorf("the engines' traces differ (%d and %d bytes); first difference near %s",
			len(fastBytes), refTrace.Len(), firstDifference(fastBytes, refTrace.Bytes()))
	}
	return nil
}

// firstDifference shows the first line where two traces differ.
func firstDifference(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return fmt.Sprintf("line %d:\n  simulator %s\n  reference %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("the end of the shorter one (%d and %d lines)", len(la), len(lb))
}
