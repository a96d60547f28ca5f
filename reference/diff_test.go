package reference_test

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// variants are the parameter values the differential test runs besides the
// defaults, by algorithm and parameter.
var variants = map[string]map[string][]string{
	"lcr-random":    {"bits": {"1", "3"}},
	"peterson":      {"variant": {"untagged"}},
	"slow-fast":     {"variant": {"literal"}, "wake": {"literal"}},
	"afek-gafni":    {"order": {"rotate", "index"}, "variant": {"wait", "literal"}},
	"flood-max":     {"variant": {"on-change"}, "diam": {"2"}},
	"itai-rodeh":    {},
	"all-to-all":    {},
	"echo":          {},
	"time-slice":    {},
	"hs":            {},
	"franklin":      {},
	"lcr":           {},
	"chang-roberts": {},
}

// generalTopologies are the networks general-graph algorithms run on.
var generalTopologies = []string{"ring", "line", "star", "tree", "complete", "gnp:0.4", "grid:3x4", "torus:3x3", "hypercube"}

// diffSpecs lists the configurations of the differential test: every
// catalog algorithm under every delivery model, at several sizes and seeds,
// ID arrangements, initiator sets, with and without announcement, each
// parameter variant, general algorithms on several topologies; configurations
// that break a model are forced on a few sizes (violations, step limits).
func diffSpecs() []scenario.Spec {
	sizes := []int{1, 2, 3, 5, 8, 13, 32}
	seeds := []uint64{1, 2}
	var out []scenario.Spec
	for _, alg := range catalog.All() {
		topologies := []string{""}
		if alg.Model.Topology == elect.General {
			topologies = generalTopologies
		}
		params := []map[string]string{nil}
		for name, values := range variants[alg.Name] {
			for _, v := range values {
				params = append(params, map[string]string{name: v})
			}
		}
		announce := []bool{false}
		if alg.Model.Announce == elect.OptionalAnnounce {
			announce = append(announce, true)
		}
		for _, topo := range topologies {
			for _, delivery := range []string{"sync", "fifo", "random", "random-fifo", "newest-first"} {
				for _, n := range sizes {
					for _, seed := range seeds {
						for k, ids := range []string{"random", "increasing", "decreasing"} {
							s := scenario.Spec{Algorithm: alg.Name, N: n, IDs: ids, Topology: topo, Delivery: delivery,
								Seed: seed, Params: params[(int(seed)+k+n)%len(params)], Announce: announce[(n+k)%len(announce)],
								MaxEvents: 200_000}
							if alg.Model.WakeUp == elect.AnySubset && n > 2 && k == 1 {
								s.Initiators = "2"
							}
							if alg.Model.WakeUp == elect.AnySubset && n > 4 && k == 2 {
								s.Initiators = fmt.Sprintf("nodes:0@%d,%d@1,%d@0", seed, n/2, n-1)
							}
							out = append(out, s)
						}
					}
				}
			}
		}
		// Forced off the model: equal IDs, the wrong timing or delivery.
		for _, delivery := range []string{"sync", "fifo", "random", "newest-first"} {
			for _, n := range []int{3, 6} {
				out = append(out, scenario.Spec{Algorithm: alg.Name, N: n, IDs: "anonymous", Delivery: delivery, Seed: 3, Force: true, MaxEvents: 20_000})
			}
		}
	}
	// Algorithms with a family of their own (peterson-mesh: grids) on a
	// few members of it, every delivery model, some initiators late.
	for _, alg := range catalog.All() {
		if alg.NaturalTopology == nil {
			continue
		}
		for _, n := range []int{1, 4, 9, 12, 15, 24} {
			for _, delivery := range []string{"sync", "fifo", "random", "random-fifo", "newest-first"} {
				for k, ids := range []string{"random", "increasing", "decreasing"} {
					s := scenario.Spec{Algorithm: alg.Name, N: n, IDs: ids, Delivery: delivery, Seed: uint64(k + 1), MaxEvents: 200_000}
					if k == 2 && n > 4 && delivery != "sync" {
						s.Initiators = fmt.Sprintf("nodes:0@2,%d@0", n-1)
					}
					out = append(out, s)
				}
			}
		}
	}
	// A few larger rings.
	for _, name := range []string{"lcr", "hs", "peterson", "franklin", "chang-roberts"} {
		for _, delivery := range []string{"fifo", "random", "random-fifo", "newest-first"} {
			out = append(out, scenario.Spec{Algorithm: name, N: 150, Delivery: delivery, Seed: 5})
		}
	}
	return out
}

// TestReferenceMatchesSimulator runs every configuration of diffSpecs that
// its algorithm's model allows (and the forced ones) on both engines: the
// results (outcome, violation, leader, messages by type, bits, time, events,
// the monitor's and the bounds' checks) and the traces must be identical.
func TestReferenceMatchesSimulator(t *testing.T) {
	compared := 0
	for _, s := range diffSpecs() {
		cfg, err := scenario.Build(s)
		if err != nil {
			continue // the model refuses it (not forced), or the size does not fit the topology
		}
		compareEngines(t, fmt.Sprintf("%+v", s), *cfg)
		compared++
	}
	t.Logf("%d configurations compared", compared)
	if compared < 2000 {
		t.Errorf("only %d configurations compared; the list lost most of its cases", compared)
	}
}

// compareEngines runs cfg on the simulator and on the reference engine.
func compareEngines(t *testing.T, name string, cfg election.Config) {
	t.Helper()
	var fastTrace, refTrace bytes.Buffer
	cfg.Trace = &fastTrace
	fast, err := sim.Run(cfg)
	if err != nil {
		t.Fatalf("%s: simulator: %v", name, err)
	}
	cfg.Trace = &refTrace
	ref, err := reference.Run(cfg)
	if err != nil {
		t.Fatalf("%s: reference: %v", name, err)
	}
	if !reflect.DeepEqual(fast, ref) {
		t.Errorf("%s: results differ\nsimulator %+v\nreference %+v", name, *fast, *ref)
		return
	}
	// The headers differ in the runtime they name, and in nothing else.
	fastBytes := bytes.Replace(fastTrace.Bytes(), []byte(`"runtime":"sim"`), []byte(`"runtime":"reference"`), 1)
	if !bytes.Equal(fastBytes, refTrace.Bytes()) {
		t.Errorf("%s: traces differ (%d and %d bytes)\nfirst difference near: %s", name, len(fastBytes), refTrace.Len(),
			firstDifference(string(fastBytes), refTrace.String()))
	}
}

// firstDifference shows the first line where two traces differ.
func firstDifference(a, b string) string {
	la, lb := bytes.Split([]byte(a), []byte("\n")), bytes.Split([]byte(b), []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return fmt.Sprintf("line %d:\n  simulator %s\n  reference %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("one trace is a prefix of the other (%d and %d lines)", len(la), len(lb))
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
		compareEngines(t, fmt.Sprintf("%+v", s), *cfg)
	})
}
