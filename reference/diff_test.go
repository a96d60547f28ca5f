package reference_test

import (
	"fmt"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/conformance"
	"github.com/electkit/elect/scenario"
)

// The differential test of every catalog algorithm, in its model and forced
// off it, is the engines check of the conformance kit, which
// conformance/catalog_test.go runs over the catalog (and users run over
// their own algorithms). Here: larger rings, the regressions the fuzzer
// found, and the fuzzer.

// generalTopologies are the networks general-graph algorithms run on.
var generalTopologies = conformance.DefaultTopologies

// TestReferenceMatchesSimulatorOnLargerRings: the ring algorithms with the
// most messages in flight, on 150 nodes under every asynchronous delivery
// model, give identical results and traces on both engines.
func TestReferenceMatchesSimulatorOnLargerRings(t *testing.T) {
	for _, name := range []string{"lcr", "hs", "peterson", "franklin", "chang-roberts"} {
		for _, delivery := range []string{"fifo", "random", "random-fifo", "newest-first"} {
			compareSpec(t, scenario.Spec{Algorithm: name, N: 150, Delivery: delivery, Seed: 5})
		}
	}
}

// TestDifferentialRegressions are configurations on which the engines once
// differed, named by algorithm (the fuzzer's inputs name it by its place
// in the catalog, which moves when an algorithm is added).
func TestDifferentialRegressions(t *testing.T) {
	for _, s := range []scenario.Spec{
		// A node's panic in the middle of an instant's deliveries: the
		// simulator counted 15 events, the reference 14 (f37e01d).
		{Algorithm: "dolev-klawe-rodeh", N: 11, Seed: 29, Delivery: "random", IDs: "increasing", Announce: true, Force: true, MaxEvents: 50_000},
	} {
		compareSpec(t, s)
	}
}

// compareSpec builds s and requires the same result and trace on both
// engines.
func compareSpec(t *testing.T, s scenario.Spec) {
	t.Helper()
	cfg, err := scenario.Build(s)
	if err != nil {
		t.Fatalf("%+v: %v", s, err)
	}
	if err := conformance.SameOnBothEngines(*cfg); err != nil {
		t.Errorf("%+v: %v", s, err)
	}
}

// FuzzDifferential drives both engines with random configurations: any
// algorithm, size, seed, delivery, ID arrangement, initiators, announcement
// and forcing. Every configuration the builder accepts must give the same
// result and trace on both.
func FuzzDifferential(f *testing.F) {
	f.Add(uint8(0), uint8(5), uint64(1), uint8(1), uint8(0), uint8(0), false, false)
	f.Add(uint8(3), uint8(9), uint64(7), uint8(2), uint8(2), uint8(1), true, false)
	f.Add(uint8(11), uint8(6), uint64(2), uint8(4), uint8(3), uint8(2), false, true)
	algs := catalog.All()
	deliveries := []string{"sync", "fifo", "random", "random-fifo", "newest-first"}
	arrangements := []string{"random", "increasing", "decreasing", "anonymous", "bit-reversal", "list:3,1,2,1"}
	f.Fuzz(func(t *testing.T, a, n uint8, seed uint64, d, ids, topo uint8, announce, force bool) {
		alg := algs[int(a)%len(algs)]
		s := scenario.Spec{Algorithm: alg.Name, N: 1 + int(n)%24, Seed: seed, Delivery: deliveries[int(d)%len(deliveries)],
			IDs: arrangements[int(ids)%len(arrangements)], Announce: announce, Force: force, MaxEvents: 50_000}
		if alg.Model.Topology == elect.General {
			s.Topology = generalTopologies[int(topo)%len(generalTopologies)]
		}
		if int(topo)%3 == 1 && s.N > 1 {
			s.Initiators = "1"
		}
		cfg, err := scenario.Build(s)
		if err != nil {
			return
		}
		if err := conformance.SameOnBothEngines(*cfg); err != nil {
			t.Errorf("%s: %v", fmt.Sprintf("%+v", s), err)
		}
	})
}
