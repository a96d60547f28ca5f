package conformance

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/runner"
	"github.com/electkit/elect/scenario"
)

// Declaration checks what the declaration promises about the nodes, for
// every parameter set: they implement elect.Snapshotter; Init, when
// declared, sets up a zero node exactly as New builds one, for several
// NodeInfos (IDs, degrees, sizes, announcement); and Model.Randomized
// tells the truth (for the declared defaults; with other parameters, that a
// deterministic algorithm is): on 16 nodes with fixed IDs (decreasing), every node
// initiating and the algorithm's own deterministic delivery (synchronous,
// or FIFO with unit delays), the seed reaches the nodes only through
// Env.Rand, so a deterministic algorithm gives the same run for seeds
// 1..8, and a randomized one a different run for at least one of them.
func Declaration(t testing.TB, alg *elect.Algorithm, opt Options) {
	t.Helper()
	o := opt.withDefaults()
	r := newReporter(t, alg, "declaration")
	if alg.New == nil {
		r.fail("no New: the algorithm cannot build its nodes")
		return
	}
	cat := catalogOf(t, alg)
	infos := []elect.NodeInfo{
		{ID: 5, Degree: 2, N: 3},
		{ID: 0, Degree: 2, N: 3, Announce: true},
		{ID: 1 << 40, Degree: 2, N: 3},
		{ID: 9, Degree: 3, N: 2},
		{ID: 3, Degree: 1, N: 2, Announce: true},
	}
	for pi, p := range o.paramSets() {
		params := resolved(alg, p)
		one := alg.New(elect.NodeInfo{ID: 1, N: 2, Degree: 2, Params: params})
		if _, ok := one.(elect.Snapshotter); !ok {
			r.fail("parameters %v: its nodes (%T) do not implement elect.Snapshotter (Clone and AppendState): the reference engine's snapshots, the symmetry detection and the exhaustive checker need them", params, one)
		}
		if alg.Init != nil {
			for _, info := range infos {
				info.Params = params
				one := alg.New(info)
				zero := reflect.New(reflect.TypeOf(one).Elem()).Interface().(elect.Node)
				alg.Init(zero, info)
				if !reflect.DeepEqual(one, zero) {
					r.fail("Init set up %+v for %+v, New built %+v", zero, info, one)
				}
			}
		}
		randomizedTruly(r, alg, cat, p, pi == 0)
	}
}

// randomizedTruly checks Model.Randomized against runs with seeds 1..8.
// With parameters other than the defaults, a randomized declaration allows
// runs that draw nothing (a variant may be deterministic).
func randomizedTruly(r *reporter, alg *elect.Algorithm, cat *catalog.Catalog, p map[string]string, defaults bool) {
	r.t.Helper()
	runs := map[string]bool{}
	var spec scenario.Spec
	for seed := uint64(1); seed <= 8; seed++ {
		spec = scenario.Spec{Catalog: cat, Algorithm: alg.Name, N: 16, IDs: "decreasing", Seed: seed, Params: p, MaxEvents: 1_000_000}
		rec, err := runner.Run(spec)
		if err != nil {
			// A network of 16 the algorithm does not take (a grid of its
			// own): the check needs another size.
			spec.N = 9
			if rec, err = runner.Run(spec); err != nil {
				r.fail("parameters %v: %v\nthe run: %s", p, err, commandLine(spec))
				return
			}
		}
		if rec.Delivery != "sync" && rec.Delivery != "fifo" {
			r.fail("it runs with %s delivery by default, which draws from the seed", rec.Delivery)
			return
		}
		runs[fmt.Sprintf("%s leader %d, %d messages %v, %d bits, time %g, %d events, at most %d per node",
			rec.Outcome, rec.LeaderIndex, rec.Messages, rec.MessagesByType, rec.Bits, rec.Time, rec.Events, rec.MaxNodeMessages)] = true
	}
	model := alg.RunModel(resolved(alg, p))
	switch {
	case model.Randomized && defaults && len(runs) == 1:
		r.fail("parameters %v: declared randomized (Model.Randomized), but seeds 1..8 gave the same run: %s", p, commandLine(spec))
	case !model.Randomized && len(runs) > 1:
		r.fail("parameters %v: declared deterministic (Model.Randomized false), but seeds 1..8 gave %d different runs: %s", p, len(runs), commandLine(spec))
	}
}
