package ring_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/scenario"
)

// irDraws returns the first k ids node i of an n-ring draws in a run with
// this seed: itaiRodehNode takes 1 + Int64N(n) from its stream, which the
// simulator derives as election.Stream(seed, "node", i).
func irDraws(seed uint64, i, n, k int) []int64 {
	rng := election.Stream(seed, "node", uint64(i))
	out := make([]int64, k)
	for j := range out {
		out[j] = 1 + rng.Int64N(int64(n))
	}
	return out
}

// irSeedFor finds the first seed whose nodes draw the given ids (want[i] is
// node i's sequence).
func irSeedFor(t *testing.T, n int, want [][]int64) uint64 {
	t.Helper()
search:
	for seed := uint64(1); seed < 1_000_000; seed++ {
		for i, w := range want {
			if !slices.Equal(irDraws(seed, i, n, len(w)), w) {
				continue search
			}
		}
		return seed
	}
	t.Fatalf("no seed below 10^6 draws %v", want)
	return 0
}

// TestItaiRodehHandWorkedRuns follows the rules (Fokkink §9.1) round by
// round on anonymous synchronous rings, for seeds chosen so that the nodes
// draw the given ids; node i's clockwise neighbour is i+1.
//
//   - n = 1: the node's (1, 0, 1, true) comes back after 1 hop: elected in
//     round 1 with 1 message.
//   - n = 3, draws 3, 1, 2: round 1: node 1 turns passive on (3,0) > (0,1)
//     and forwards it; node 2 purges 1; node 0 purges 2. Round 2: node 2
//     turns passive on 3 and forwards it. Round 3: node 0 gets (3, 0, 3,
//     true): elected. 3+1+1 = 5 messages.
//   - n = 2, node 0 draws 2 then 1, node 1 draws 2 then 2: round 1: each gets
//     the other's (2, 0, 1, true), equal to its own: forwards it with bit
//     false. Round 2: each gets its own back (hop 2 = n) with bit false:
//     round 1, node 0 draws 1, node 1 draws 2, both send. Round 3: node 1
//     purges (1,1) < (1,2); node 0 turns passive and forwards 2. Round 4:
//     node 1 gets (2, 1, 2, true): elected. 2+2+2+1 = 7 messages.
func TestItaiRodehHandWorkedRuns(t *testing.T) {
	cases := []struct {
		draws    [][]int64
		messages int64
		leader   int
		time     float64
	}{
		{[][]int64{{1}}, 1, 0, 1},
		{[][]int64{{3}, {1}, {2}}, 5, 0, 3},
		{[][]int64{{2, 1}, {2, 2}}, 7, 1, 4},
	}
	for _, tc := range cases {
		n := len(tc.draws)
		seed := irSeedFor(t, n, tc.draws)
		res := nlRun(t, election.Config{Algorithm: ring.ItaiRodeh, IDs: make([]elect.ID, n), Delivery: election.Sync, Seed: seed})
		if res.Messages != tc.messages || res.LeaderIndex != tc.leader || res.Time != tc.time {
			t.Errorf("draws %v (seed %d): %d messages, leader node %d, time %v; want %d, %d, %v",
				tc.draws, seed, res.Messages, res.LeaderIndex, res.Time, tc.messages, tc.leader, tc.time)
		}
	}
}

// TestItaiRodehElectsExactlyOneWithProbabilityOne is Itai and Rodeh's
// theorem as a property: on anonymous rings of every size up to 40, under
// every FIFO delivery model, with any set of initiators waking at any times,
// every run elects exactly one node (the monitor checks it at every step)
// and the declared bounds hold.
func TestItaiRodehElectsExactlyOneWithProbabilityOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 2))
	deliveries := []election.Delivery{election.Sync, election.FIFO, election.RandomFIFO}
	for trial := range 1500 {
		n := 1 + rng.IntN(40)
		cfg := election.Config{Algorithm: ring.ItaiRodeh, IDs: make([]elect.ID, n), Delivery: deliveries[trial%3], Seed: uint64(trial)}
		if rng.IntN(2) == 0 {
			cfg.Wake = randomWake(rng, n, 3)
		}
		nlRun(t, cfg)
	}
}

// TestItaiRodehFirstRoundSuccessProbability checks the first round against
// its exact probability. All n nodes are active and draw ids uniformly from
// 1..n; the round elects iff the largest id is unique: its holder (n
// choices) draws m and the n-1 others draw below m, so
//
//	P1 = sum_{m=1..n} n * (1/n) * ((m-1)/n)^(n-1) = sum_{m=1..n} ((m-1)/n)^(n-1).
//
// Synchronously, a run that ends in round 0 ends at time exactly n (the
// winner's message is back after n hops and nothing else moves), and one
// that needs another round ends at time >= 2n; so P(time = n) = P1 (354/625
// = 0.5664 for n = 5; 0.5756 for n = 12). Estimated from T = 3000 runs
// (seeds 1..T) within 4 binomial standard errors sqrt(P1(1-P1)/T).
func TestItaiRodehFirstRoundSuccessProbability(t *testing.T) {
	const trials = 3000
	for _, n := range []int{5, 12} {
		p1 := 0.0
		for m := 1; m <= n; m++ {
			p1 += math.Pow(float64(m-1)/float64(n), float64(n-1))
		}
		hits := 0
		for seed := uint64(1); seed <= trials; seed++ {
			res := nlRun(t, election.Config{Algorithm: ring.ItaiRodeh, IDs: make([]elect.ID, n), Delivery: election.Sync, Seed: seed})
			switch {
			case res.Time == float64(n):
				hits++
			case res.Time < float64(2*n):
				t.Fatalf("n=%d seed %d: time %v, neither n nor at least 2n", n, seed, res.Time)
			}
		}
		got := float64(hits) / trials
		se := math.Sqrt(p1 * (1 - p1) / trials)
		t.Logf("n=%d: elected in the first round in %.4f of %d runs; P1 = %.4f (SE %.4f)", n, got, trials, p1, se)
		if math.Abs(got-p1) > 4*se {
			t.Errorf("n=%d: first-round elections in %.4f of the runs, want P1 = %.4f within 4 SE (%.4f)", n, got, p1, se)
		}
	}
}

// TestItaiRodehMessageBits checks the declared size: id and hop counter in
// ceil(lg(n+1)) bits each (4 for n = 8), a 32-bit round number and the bit.
func TestItaiRodehMessageBits(t *testing.T) {
	res := nlRun(t, election.Config{Algorithm: ring.ItaiRodeh, IDs: make([]elect.ID, 8), Delivery: election.FIFO, Seed: 4})
	if res.Bits != res.Messages*(4+32+4+1) {
		t.Errorf("%d bits for %d messages, want 41 each", res.Bits, res.Messages)
	}
}

// TestItaiRodehNeedsFIFO checks that the model's FIFO assumption is
// enforced: random (non-FIFO) delivery is refused unless forced.
func TestItaiRodehNeedsFIFO(t *testing.T) {
	_, err := scenario.Build(scenario.Spec{Algorithm: "itai-rodeh", N: 6, IDs: "anonymous", Delivery: "random"})
	var ae *election.AssumptionError
	if !errors.As(err, &ae) || ae.Assumption != "FIFO channels" {
		t.Errorf("random delivery: got %v, want the FIFO assumption named", err)
	}
}
