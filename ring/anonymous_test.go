package ring_test

import (
	"fmt"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/runner"
	"github.com/electkit/elect/scenario"
)

// ringAlgorithms returns the names of the catalog's ring algorithms
// (unidirectional or bidirectional) that are randomized or not, as their
// declarations say (Model.Randomized).
func ringAlgorithms(t *testing.T, randomized bool) []*elect.Algorithm {
	var algs []*elect.Algorithm
	for _, a := range catalog.All() {
		ring := a.Model.Topology == elect.UniRing || a.Model.Topology == elect.BiRing
		if ring && a.Model.Randomized == randomized {
			algs = append(algs, a)
		}
	}
	if len(algs) == 0 {
		t.Fatalf("the catalog has no ring algorithm with Randomized = %v", randomized)
	}
	return algs
}

// TestAnonymousSynchronousRingStaysSymmetric is Lemma 5.1.1 of seed 001
// ("a symmetric deterministic message-passing system that starts in an
// initial configuration in which equivalent processes have the same state
// has a synchronous execution in which equivalent processes continue to have
// the same state") and the slides' impossibility theorem (seed 003: "If one
// node is elected leader, then every node is elected leader"), made visible:
// every deterministic ring algorithm, run with --ids anonymous on a
// synchronous ring (forced past its unique-IDs assumption where it has one),
// ends with outcome symmetric, and every node is elected or none is.
func TestAnonymousSynchronousRingStaysSymmetric(t *testing.T) {
	for _, alg := range ringAlgorithms(t, false) {
		for _, n := range []int{2, 3, 5, 8, 16} {
			t.Run(fmt.Sprintf("%s/n=%d", alg.Name, n), func(t *testing.T) {
				rec, err := runner.Run(scenario.Spec{Algorithm: alg.Name, N: n, IDs: "anonymous", Timing: "sync", Force: true, Seed: uint64(n)})
				if err != nil {
					t.Fatal(err)
				}
				if rec.Outcome != election.Symmetric || (rec.Leaders != n && rec.Leaders != 0) {
					t.Errorf("outcome %s with %d leaders (round %d); want symmetric with all or none of %d elected",
						rec.Outcome, rec.Leaders, rec.SymmetricRound, n)
				}
			})
		}
	}
}

// TestRandomizationBreaksSymmetry is the other half of seed 001 §5.1 ("with
// randomization ... we can break symmetry by having my coin-flips come up
// differently from yours"): the same anonymous synchronous runs of every
// randomized ring algorithm of the catalog (lcr-random, with its default 32
// random bits, so that two nodes draw the same prefix with probability
// below n^2/2^33, and itai-rodeh) are never symmetric and elect exactly one
// node. Their nodes expose their states (elect.Snapshotter), so the engine
// really compares states; with a single random bit on two nodes the coins of lcr-random
// come up equal in about half the runs, and those runs are reported
// symmetric (both nodes elected), the others elect one node.
func TestRandomizationBreaksSymmetry(t *testing.T) {
	for _, alg := range ringAlgorithms(t, true) {
		if _, ok := alg.New(elect.NodeInfo{N: 4, Params: elect.Params{"bits": "32"}}).(elect.Snapshotter); !ok {
			t.Fatalf("%s nodes have no state encoding: symmetry would be broken by default, not by coins", alg.Name)
		}
		for _, n := range []int{2, 3, 5, 8, 16} {
			for seed := uint64(1); seed <= 40; seed++ {
				rec, err := runner.Run(scenario.Spec{Algorithm: alg.Name, N: n, IDs: "anonymous", Timing: "sync", Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				if rec.Outcome != election.OutcomeElected || rec.Leaders != 1 {
					t.Fatalf("%s n=%d seed %d: outcome %s with %d leaders; want one node elected", alg.Name, n, seed, rec.Outcome, rec.Leaders)
				}
			}
		}
	}
	symmetric := 0
	const trials = 400
	for seed := uint64(1); seed <= trials; seed++ {
		rec, err := runner.Run(scenario.Spec{Algorithm: "lcr-random", N: 2, IDs: "anonymous", Timing: "sync", Seed: seed,
			Params: map[string]string{"bits": "1"}})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case rec.Outcome == election.Symmetric && rec.Leaders == 2:
			symmetric++
		case rec.Outcome == election.OutcomeElected:
		default:
			t.Fatalf("seed %d: outcome %s with %d leaders", seed, rec.Outcome, rec.Leaders)
		}
	}
	// P(equal coins) = 1/2; 4 standard errors of 400 runs are 0.1.
	if p := float64(symmetric) / trials; p < 0.4 || p > 0.6 {
		t.Errorf("one random bit, two nodes: symmetric in %.3f of the runs, want 1/2 within 0.1", p)
	}
}

// TestStatesSeeTheIDs checks that the state encodings of lcr-random,
// time-slice, slow-fast, lcr and chang-roberts tell nodes with different IDs
// apart: with distinct IDs and the symmetry check forced on, no synchronous
// run is reported symmetric.
func TestStatesSeeTheIDs(t *testing.T) {
	for _, alg := range []*elect.Algorithm{ring.LCRRandom, ring.TimeSlice, ring.SlowFast, ring.LCR, ring.ChangRoberts} {
		params := elect.Params{}
		for _, p := range alg.Params {
			params[p.Name] = p.Default
		}
		res := nlRun(t, election.Config{Algorithm: alg, IDs: []elect.ID{3, 1, 2, 0}, Delivery: election.Sync, Params: params,
			Announce: alg.Model.Announce == elect.AlwaysAnnounce, DetectSymmetry: true})
		if res.SymmetricRound != 0 {
			t.Errorf("%s: symmetric round %d with distinct IDs", alg.Name, res.SymmetricRound)
		}
	}
}
