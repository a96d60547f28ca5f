package conformance

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/check"
	"github.com/electkit/elect/scenario"
)

// search is one exhaustive search of the Exhaustive check.
type search struct {
	delivery, initiators string
	n                    int
}

// searches are the exhaustive searches of a model: every node initiating
// on n nodes under FIFO delivery (synchronous rounds for an algorithm that
// runs only synchronously); on small nodes, every set of initiators when
// any subset may start, and every order of non-FIFO links when the
// algorithm does not need FIFO.
func searches(model elect.Model, n, small int) []search {
	first := "fifo"
	if !model.Async {
		first = "sync"
	}
	var out []search
	if n >= 1 {
		out = append(out, search{first, "all", n})
	}
	if small < 1 {
		return out
	}
	initiators := "all"
	if model.WakeUp == elect.AnySubset {
		initiators = "subsets"
		out = append(out, search{first, initiators, small})
	}
	if model.Async && !model.FIFO {
		out = append(out, search{"bag", initiators, small})
	}
	return out
}

// Exhaustive runs the exhaustive checker on small networks, for every
// parameter set: every ID assignment of 1..n, and every schedule, on
// opt.CheckN nodes (4 by default) under FIFO delivery with every node
// initiating (the one execution of each assignment under synchronous
// rounds, for an algorithm that runs only synchronously), and on
// opt.SmallN nodes (3 by default) with every non-empty set of initiators
// when any subset may start and under every order of non-FIFO links (a bag
// per link) when the algorithm does not need FIFO; on the algorithm's
// natural network, or the networks of opt.CheckTopologies for a
// general-graph algorithm without one, taking the largest network of at
// most n nodes the topology has (a hypercube has none of 3). No execution
// may violate the election's properties (no decision changed, at most one
// leader, the promised one, exactly one at the end, every node informed
// when the algorithm announces, no infinite execution) or break a declared
// bound, and every search must finish within opt.MaxStates states per
// configuration. A randomized algorithm is checked with its seed fixed
// (seed 1): every schedule of the draws that seed gives. A violation is
// reported with its configuration and the counterexample, a trace that
// 'elect run --replay' replays.
func Exhaustive(t testing.TB, alg *elect.Algorithm, opt Options) {
	t.Helper()
	o := opt.withDefaults()
	if o.CheckN < 0 {
		return
	}
	r := newReporter(t, alg, "exhaustive")
	cat := catalogOf(t, alg)
	topologies := []string{""}
	if alg.Model.Topology == elect.General && alg.NaturalTopology == nil && !alg.Model.SenseOfDirection {
		topologies = o.CheckTopologies
	}
	checked := 0
	var lastErr error
	for _, p := range o.paramSets() {
		model := alg.RunModel(resolved(alg, p))
		for _, topo := range topologies {
			for _, s := range searches(model, o.CheckN, o.SmallN) {
				co := check.Options{
					Spec: scenario.Spec{Catalog: cat, Algorithm: alg.Name, Topology: topo, Params: p, Seed: 1,
						Announce: model.Announce == elect.OptionalAnnounce},
					IDs: "all", Delivery: s.delivery, Initiators: s.initiators, MaxStates: o.MaxStates,
				}
				var rep *check.Report
				var err error
				for co.Spec.N = s.n; co.Spec.N >= 1; co.Spec.N-- {
					if rep, err = check.Run(co); err == nil || !scenario.IsUserError(err) {
						break
					}
				}
				if err != nil {
					lastErr = err
					continue
				}
				checked++
				if err := rep.Failure(); err != nil {
					if !r.fail("%s", exhaustiveFailure(alg, rep, co, err, o.MaxStates)) {
						return
					}
				}
			}
		}
	}
	if checked == 0 {
		r.fail("no check of 1..%d nodes could be made: %v (set Options.CheckN, or skip \"exhaustive\")", o.CheckN, lastErr)
	}
}

// exhaustiveFailure describes a failed search.
func exhaustiveFailure(alg *elect.Algorithm, rep *check.Report, co check.Options, err error, maxStates int64) string {
	msg := fmt.Sprintf("n = %d, %s delivery, initiators %s, parameters %v", co.Spec.N, co.Delivery, co.Initiators,
		resolved(alg, co.Spec.Params))
	if co.Spec.Topology != "" {
		msg += ", topology " + co.Spec.Topology
	}
	msg += fmt.Sprintf(": %v", err)
	switch rep.Verdict {
	case "violation":
		msg += fmt.Sprintf("\nthe IDs: %s", check.IDsFlag(rep.ViolationIDs))
		if rep.ViolationWake != nil {
			msg += fmt.Sprintf(", wake-up rounds by node (-1: none) %v", rep.ViolationWake)
		}
		var trace bytes.Buffer
		if ok, err := rep.WriteCounterexample(&trace); ok && err == nil {
			msg += "\nthe counterexample (a trace for 'elect run --replay FILE'):\n" + trace.String()
		}
	case "incomplete":
		msg += fmt.Sprintf("\n(a configuration reached %d states: lower Options.CheckN or Options.SmallN, or raise Options.MaxStates)", maxStates)
	}
	return msg
}
