package reference_test

import (
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/conformance"
	"github.com/electkit/elect/scenario"
)

// faultSpecs are the fault specifications the differential test runs with:
// every kind, alone and together, timed and by step.
var faultSpecs = []string{
	"loss:k=1", "loss:p=0.05", "loss:k=3,by=40", "dup:p=0.1", "dup:msg=2", "delay:p=0.1,d=2", "delay:msg=1,d=1",
	"partition:0-1|2-4@1-3", "crash:k=1", "crash:k=2,by=3", "crash:node=0@t=0", "crash:node=1@step=1", "crash:node=2@step=3",
	"loss:p=0.05;dup:p=0.1;delay:p=0.1,d=2;crash:k=2,by=5",
	"dup:p=0.2;crash:node=1@step=2;loss:msg=4",
	// The rules of docs/faults.md ("The schedule, step by step") that
	// only a mix of clauses shows: k distinct duplicates, delays that add
	// up, a drawn crash passing over a node a named one crashes, the first
	// clause to lose a message naming the cause, the smaller of two steps.
	"delay:msg=2,d=1;delay:p=0.3,d=2;dup:k=1,by=4;loss:p=0.05",
	"crash:node=2@t=1;crash:k=2;partition:0-2|3-4@0-2;loss:p=0.1",
	"crash:node=1@step=4;crash:node=1@step=2;loss:msg=2;partition:0|1@0-9;dup:p=0.3",
}

// TestReferenceMatchesSimulatorUnderFaults runs every catalog algorithm
// under every fault specification, delivery model and a few sizes and
// seeds on both engines: results (with their fault reports) and traces
// (with their lose, dup, delay and crash lines) must be identical. It
// stops at the third difference: one is a complete bug report, and the
// mutant check (mutant_test.go) needs no more.
func TestReferenceMatchesSimulatorUnderFaults(t *testing.T) {
	compared, differences := 0, 0
	for _, alg := range catalog.All() {
		topo := ""
		if alg.Model.Topology == elect.General {
			topo = "grid:2x3"
		}
		for k, spec := range faultSpecs {
			for _, delivery := range []string{"sync", "fifo", "random", "random-fifo", "newest-first"} {
				for _, n := range []int{5, 6, 13} {
					seed := uint64(k + n)
					s := scenario.Spec{Algorithm: alg.Name, N: n, Topology: topo, Delivery: delivery, Seed: seed,
						Faults: spec, MaxEvents: 50_000}
					if topo != "" && n != 6 {
						continue
					}
					cfg, err := scenario.Build(s)
					if err != nil {
						continue // the model refuses it, or time-based faults under newest-first
					}
					if err := conformance.SameOnBothEngines(*cfg); err != nil {
						t.Errorf("%+v: %v", s, err)
						if differences++; differences == 3 {
							t.Fatalf("stopped at the third difference, after %d configurations", compared+1)
						}
					}
					compared++
				}
			}
		}
	}
	t.Logf("%d configurations compared", compared)
	if compared < 1000 {
		t.Errorf("only %d configurations compared", compared)
	}
}

// FuzzDifferentialFaults drives both engines with random fault
// specifications built from the vocabulary's pieces.
func FuzzDifferentialFaults(f *testing.F) {
	f.Add(uint8(0), uint8(5), uint64(1), uint8(1), uint16(7))
	f.Add(uint8(3), uint8(9), uint64(7), uint8(2), uint16(300))
	algs := catalog.All()
	deliveries := []string{"sync", "fifo", "random", "random-fifo", "newest-first"}
	f.Fuzz(func(t *testing.T, a, n uint8, seed uint64, d uint8, mask uint16) {
		alg := algs[int(a)%len(algs)]
		spec := ""
		for k, c := range faultSpecs {
			if mask&(1<<(k%16)) != 0 {
				if spec != "" {
					spec += ";"
				}
				spec += c
			}
		}
		if spec == "" {
			return
		}
		s := scenario.Spec{Algorithm: alg.Name, N: 5 + int(n)%12, Seed: seed, Delivery: deliveries[int(d)%len(deliveries)],
			Faults: spec, MaxEvents: 20_000}
		if alg.Model.Topology == elect.General {
			s.Topology = "ring"
		}
		cfg, err := scenario.Build(s)
		if err != nil {
			return
		}
		if err := conformance.SameOnBothEngines(*cfg); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	})
}
