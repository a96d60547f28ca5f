package ring_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/scenario"
)

// lrPrefixes returns the random prefixes the n nodes of a run with this seed
// draw: lcrRandomNode.Wake takes the top b bits of the first Uint64 of the
// node's stream, which the simulator derives as election.Stream(seed, "node", i).
func lrPrefixes(seed uint64, n int, b uint) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(election.Stream(seed, "node", uint64(i)).Uint64() >> (64 - b))
	}
	return out
}

// lrSeedFor finds the first seed whose draws are want (b random bits each).
func lrSeedFor(t *testing.T, want []int64, b uint) uint64 {
	t.Helper()
	for seed := uint64(1); seed < 1_000_000; seed++ {
		if slices.Equal(lrPrefixes(seed, len(want), b), want) {
			return seed
		}
	}
	t.Fatalf("no seed below 10^6 draws %v", want)
	return 0
}

func lrParams(b int) elect.Params { return elect.Params{"bits": fmt.Sprint(b)} }

// TestLCRRandomHandWorkedKeyRings checks LCR on keys (seed 001 §5.2.4,
// Algorithm 5.1) on anonymous 4-rings with b = 2, synchronous delivery,
// for seeds chosen so that nodes 0..3 draw the given prefixes. A key stops
// at the first node (clockwise) whose key is at least as large; it elects
// that node when the two keys are equal.
//
//   - keys [3 2 1 0] (decreasing): 3 goes round (4 hops), 2 stops at 3 after
//     3 hops, 1 after 2, 0 after 1: 10 = n(n+1)/2 messages; node 0 alone is
//     elected, in round 4.
//   - keys [1 0 1 0]: each 1 passes a 0 and reaches the other 1 (2 hops
//     each, both nodes elected in round 2), each 0 stops at the next 1 (1
//     hop): 6 messages, 2 leaders (which one the engine sees first within
//     the round is not asserted: first = -1).
//   - keys [2 0 1 1]: node 2's 1 reaches node 3's equal 1 at once (node 3 is
//     elected in round 1, though 1 is not the maximum); node 3's 1 and node
//     1's 0 stop after 1 hop; 2 goes round: 4 hops, node 0 elected in round
//     4. 7 messages, 2 leaders, the first one node 3.
//   - keys [1 1 1 1]: every key stops at the next node and elects it: 4
//     messages, 4 leaders, every node in the same state after round 1: the
//     outcome is symmetric (the coins did not break the symmetry).
func TestLCRRandomHandWorkedKeyRings(t *testing.T) {
	cases := []struct {
		keys     []int64
		messages int64
		leaders  int
		first    int
		time     float64
		outcome  election.Outcome
	}{
		{[]int64{3, 2, 1, 0}, 10, 1, 0, 4, election.OutcomeElected},
		{[]int64{1, 0, 1, 0}, 6, 2, -1, 2, election.MultipleLeaders},
		{[]int64{2, 0, 1, 1}, 7, 2, 3, 4, election.MultipleLeaders},
		{[]int64{1, 1, 1, 1}, 4, 4, -1, 1, election.Symmetric},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.keys), func(t *testing.T) {
			seed := lrSeedFor(t, tc.keys, 2)
			res := runAny(t, election.Config{Algorithm: ring.LCRRandom, IDs: make([]elect.ID, 4), Delivery: election.Sync,
				Params: lrParams(2), Seed: seed, DetectSymmetry: true})
			if res.Outcome != tc.outcome || res.Messages != tc.messages || res.Leaders != tc.leaders ||
				(tc.first >= 0 && res.LeaderIndex != tc.first) || res.Time != tc.time {
				t.Errorf("seed %d: outcome %s, %d messages, %d leaders (first node %d), time %v; want %s, %d, %d (%d), %v",
					seed, res.Outcome, res.Messages, res.Leaders, res.LeaderIndex, res.Time,
					tc.outcome, tc.messages, tc.leaders, tc.first, tc.time)
			}
		})
	}
}

// TestLCRRandomElectsOneLeaderWithIDs is the property that prepending bits
// keeps LCR correct when IDs are distinct (seed 001 §5.2.4: "the real IDs
// act as tie-breakers"): on random rings, every delivery model, any set of
// initiators, with and without announcement, and even with b = 1 (many
// ties in the prefixes), exactly one node is elected and every declared
// bound holds.
func TestLCRRandomElectsOneLeaderWithIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 21))
	deliveries := []election.Delivery{election.Sync, election.FIFO, election.Random, election.RandomFIFO, election.NewestFirst}
	for trial := range 600 {
		n := 1 + rng.IntN(40)
		ids := make([]elect.ID, n)
		for i, v := range rng.Perm(n) {
			ids[i] = elect.ID(v)
		}
		cfg := election.Config{
			Algorithm: ring.LCRRandom, IDs: ids, Delivery: deliveries[trial%len(deliveries)],
			Params: lrParams([]int{1, 3, 32, 63}[rng.IntN(4)]), Seed: uint64(trial), Announce: rng.IntN(2) == 0,
		}
		if rng.IntN(2) == 0 {
			cfg.Wake = randomWake(rng, n, 5)
		}
		nlRun(t, cfg)
	}
}

// randomWake draws between 1 and n initiators with wake-up times in 0..maxAt.
func randomWake(rng *rand.Rand, n int, maxAt int64) []election.Wake {
	k := 1 + rng.IntN(n)
	var wake []election.Wake
	for _, node := range rng.Perm(n)[:k] {
		wake = append(wake, election.Wake{Node: node, At: rng.Int64N(maxAt + 1)})
	}
	slices.SortFunc(wake, func(a, b election.Wake) int { return a.Node - b.Node })
	return wake
}

// TestLCRRandomAveragesNHnOnAnyArrangement checks seed 001 §5.2.4 (after
// Chang and Roberts' average-case analysis, seed 003 "Average case analysis
// CR-algorithm"): with random prefixes the expected number of messages is
// n*H_n whatever the IDs, the decreasing ring (LCR's worst case, n(n+1)/2)
// included.
//
// Derivation: with b = 40 and n = 64 the prefixes are distinct except with
// probability at most C(64,2)/2^40 < 2e-9; then the keys are ordered by
// their prefixes, which are i.i.d., so the ring of keys is a uniformly
// random permutation independent of the IDs. A key travels at least k hops
// (1 <= k <= n) exactly when it is the largest of itself and the k-1 keys
// that follow it, with probability 1/k; so its expected number of hops is
// sum_{k=1..n} 1/k = H_n, and the n keys send n*H_n messages on average
// (≈ 303.6 for n = 64). We compare the mean of T = 1500 runs on the
// decreasing ring (seeds 1..T) with n*H_n within 4 standard errors, SE =
// s/sqrt(T) with s the sample standard deviation of the counts. That the
// IDs do not matter at all when the prefixes are distinct is checked
// exactly: the same seed (the same prefixes) gives the same count on the
// increasing ring.
func TestLCRRandomAveragesNHnOnAnyArrangement(t *testing.T) {
	const n, trials = 64, 1500
	want := float64(n) * elect.Harmonic(n)
	dec, inc := make([]elect.ID, n), make([]elect.ID, n)
	for i := range n {
		dec[i], inc[i] = elect.ID(n-1-i), elect.ID(i)
	}
	var sum, sumSq float64
	for seed := uint64(1); seed <= trials; seed++ {
		cfg := election.Config{Algorithm: ring.LCRRandom, IDs: dec, Delivery: election.FIFO, Params: lrParams(40), Seed: seed}
		x := nlRun(t, cfg).MessagesByType["election"]
		cfg.IDs = inc
		if y := nlRun(t, cfg).MessagesByType["election"]; y != x {
			prefixes := lrPrefixes(seed, n, 40)
			slices.Sort(prefixes)
			if len(slices.Compact(prefixes)) == n {
				t.Fatalf("seed %d: %d messages on the decreasing ring, %d on the increasing one, with distinct prefixes", seed, x, y)
			}
		}
		sum += float64(x)
		sumSq += float64(x) * float64(x)
	}
	mean := sum / trials
	sd := math.Sqrt((sumSq - trials*mean*mean) / (trials - 1))
	se := sd / math.Sqrt(trials)
	t.Logf("decreasing ring, n = %d: mean %.2f messages, n*H_n = %.2f, SE %.2f (%.2f SE away)", n, mean, want, se, (mean-want)/se)
	if math.Abs(mean-want) > 4*se {
		t.Errorf("decreasing ring: mean %.2f messages over %d runs, want n*H_n = %.2f within 4 SE (SE %.2f)", mean, trials, want, se)
	}
}

// lrRulerCount is f(L, m): the number of sequences of length L over the
// values 0..m-1 in which any two equal values have a strictly larger value
// between them. Splitting on the value m-1, which can appear at most once:
// f(L, m) = f(L, m-1) + sum_{p=0}^{L-1} f(p, m-1) f(L-1-p, m-1), with
// f(0, m) = 1 and f(L, 0) = 0 for L >= 1.
func lrRulerCount(L, m int, memo map[[2]int]*big.Int) *big.Int {
	if L == 0 {
		return big.NewInt(1)
	}
	if m == 0 {
		return big.NewInt(0)
	}
	key := [2]int{L, m}
	if v, ok := memo[key]; ok {
		return v
	}
	v := new(big.Int).Set(lrRulerCount(L, m-1, memo))
	for p := range L {
		v.Add(v, new(big.Int).Mul(lrRulerCount(p, m-1, memo), lrRulerCount(L-1-p, m-1, memo)))
	}
	memo[key] = v
	return v
}

// lrTwoLeaderProbability is the derived probability that anonymous
// lcr-random elects two or more nodes on n nodes with b bits (FIFO links);
// see TestLCRRandomAnonymousTwoLeaderProbability.
func lrTwoLeaderProbability(n, b int) float64 {
	K := 1 << b
	memo := map[[2]int]*big.Int{}
	one := new(big.Int)
	for M := range K {
		one.Add(one, lrRulerCount(n-1, M, memo))
	}
	one.Mul(one, big.NewInt(int64(n)))
	total := new(big.Int).Exp(big.NewInt(int64(K)), big.NewInt(int64(n)), nil)
	p, _ := new(big.Rat).SetFrac(one, total).Float64()
	return 1 - p
}

// lrElectedByRule counts the nodes the rule of the derivation elects on one
// ring of keys: node w is elected iff the nearest node counterclockwise
// (w-1, w-2, ..., w itself after a full turn) whose key is >= key[w] holds
// exactly key[w].
func lrElectedByRule(keys []int) int {
	n, elected := len(keys), 0
	for w := range n {
		for d := 1; d <= n; d++ {
			if v := keys[((w-d)%n+n)%n]; v >= keys[w] {
				if v == keys[w] {
					elected++
				}
				break
			}
		}
	}
	return elected
}

// TestLCRRandomAnonymousTwoLeaderProbability checks seed 001 §5.2.4's
// caveat ("we can run it without any initial IDs at all, as long as we are
// willing to accept a small probability of accidentally electing two
// leaders") against a derived value of that probability.
//
// Derivation. Without IDs a node's key is its prefix, uniform on 0..K-1
// (K = 2^b), independently. On FIFO links a node sends its own key before
// anything it forwards, so keys never overtake one another: the key of v
// travels clockwise until the first node w whose key is >= v's (a node with
// a smaller key has not yet seen anything larger when v's key arrives, since
// such a key would have had to overtake it), and elects w when the keys are
// equal. So node w is elected iff the nearest node counterclockwise whose key
// is >= key[w] holds exactly key[w] (w itself when no other key is that
// large). The holders of the maximum key are always elected, but so is a
// smaller key whose nearest at-least-as-large predecessor is an equal key:
// on [2 0 1 1] both the 2 and the second 1 win. Counting rings with exactly
// one leader: the maximum M must be unique (n positions, M in 0..K-1), and
// the n-1 keys after it, all < M, read clockwise, must never elect: any two
// equal keys must have a strictly larger key between them. lrRulerCount
// counts those sequences, so
//
//	P(one leader) = n * sum_{M=0}^{K-1} f(n-1, M) / K^n,
//
// and P(two or more) is the complement (the longest such sequence over m
// values has length 2^m - 1, so for b = 1 and n >= 3 two leaders are
// certain). The run where all keys are equal (probability K^(1-n)) stays
// symmetric and elects everybody; its outcome is symmetric, the others'
// multiple-leaders; both count here, by res.Leaders >= 2. The naive guess,
// "two leaders iff the maximum key is not unique", is far lower (e.g. 0.232
// instead of 0.685 for n = 8, b = 4); the test checks it is rejected.
//
// The recursion is checked against lrElectedByRule on every ring of keys for
// small n and b; each estimate from T runs (seeds 1..T) must be within 4
// binomial standard errors sqrt(p(1-p)/T) of the derived p.
func TestLCRRandomAnonymousTwoLeaderProbability(t *testing.T) {
	// The recursion against the rule itself, exhaustively.
	for _, nb := range [][2]int{{2, 1}, {3, 1}, {3, 2}, {4, 2}, {5, 2}, {4, 3}, {6, 2}} {
		n, b := nb[0], nb[1]
		K := 1 << b
		keys := make([]int, n)
		several, total := 0, 0
		var walk func(i int)
		walk = func(i int) {
			if i == n {
				total++
				if lrElectedByRule(keys) >= 2 {
					several++
				}
				return
			}
			for v := range K {
				keys[i] = v
				walk(i + 1)
			}
		}
		walk(0)
		if got, want := float64(several)/float64(total), lrTwoLeaderProbability(n, b); math.Abs(got-want) > 1e-12 {
			t.Fatalf("n=%d b=%d: enumeration gives %v, recursion %v", n, b, got, want)
		}
	}
	trials := 3000
	if testing.Short() {
		trials = 1000
	}
	cases := []struct {
		n, b     int
		delivery election.Delivery
	}{
		{2, 1, election.Sync}, // 1/2
		{3, 1, election.Sync}, // 1
		{3, 2, election.Sync}, // 0.625
		{4, 3, election.FIFO}, // 0.535
		{8, 4, election.Sync}, // 0.685
		{8, 2, election.RandomFIFO},
	}
	for _, tc := range cases {
		p := lrTwoLeaderProbability(tc.n, tc.b)
		naive := lrNaiveTwoLeaderProbability(tc.n, tc.b)
		several, symmetric := 0, 0
		for seed := range uint64(trials) {
			res := runAny(t, election.Config{Algorithm: ring.LCRRandom, IDs: make([]elect.ID, tc.n), Delivery: tc.delivery,
				Params: lrParams(tc.b), Seed: seed + 1, DetectSymmetry: tc.delivery == election.Sync})
			if res.Leaders >= 2 {
				several++
				if res.Outcome != election.MultipleLeaders && res.Outcome != election.Symmetric {
					t.Fatalf("n=%d b=%d seed %d: %d leaders but outcome %s", tc.n, tc.b, seed+1, res.Leaders, res.Outcome)
				}
			}
			if res.Outcome == election.Symmetric {
				symmetric++
			}
		}
		got := float64(several) / float64(trials)
		se := math.Sqrt(p * (1 - p) / float64(trials))
		t.Logf("n=%d b=%d %s: two or more leaders in %.4f of %d runs; derived %.4f (SE %.4f), naive %.4f", tc.n, tc.b, tc.delivery, got, trials, p, se, naive)
		if se == 0 {
			if got != p {
				t.Errorf("n=%d b=%d: two or more leaders in %.4f of the runs, derived %v exactly", tc.n, tc.b, got, p)
			}
		} else if math.Abs(got-p) > 4*se {
			t.Errorf("n=%d b=%d: two or more leaders in %.4f of %d runs, derived %.4f, more than 4 SE (%.4f) away", tc.n, tc.b, got, trials, p, se)
		}
		if math.Abs(naive-p) > 10*se && math.Abs(got-naive) <= 4*se {
			t.Errorf("n=%d b=%d: the estimate %.4f also fits the naive %.4f: the test does not discriminate", tc.n, tc.b, got, naive)
		}
		if tc.delivery == election.Sync {
			// All keys equal: the symmetric outcome, probability K^(1-n).
			ps := math.Pow(2, -float64(tc.b*(tc.n-1)))
			gs := float64(symmetric) / float64(trials)
			if se := math.Sqrt(ps * (1 - ps) / float64(trials)); math.Abs(gs-ps) > 4*se+1e-12 && !(ps < 1e-4 && symmetric <= 1) {
				t.Errorf("n=%d b=%d: symmetric in %.4f of the runs, want K^(1-n) = %.4g (SE %.4f)", tc.n, tc.b, gs, ps, se)
			}
		}
	}
}

// lrNaiveTwoLeaderProbability is P(the maximum key is not unique), the wrong
// guess: 1 - n * sum_M (1/K) (M/K)^(n-1).
func lrNaiveTwoLeaderProbability(n, b int) float64 {
	K := float64(int(1) << b)
	one := 0.0
	for M := range 1 << b {
		one += float64(n) / K * math.Pow(float64(M)/K, float64(n-1))
	}
	return 1 - one
}

// TestLCRRandomMessageBitsIncludeThePrefix checks the declared size: a
// message carries the type tag (1 bit for 2 types), the b random bits and
// the ID (ceil(lg 8) = 3 bits for IDs 0..7).
func TestLCRRandomMessageBitsIncludeThePrefix(t *testing.T) {
	for _, b := range []int{1, 5, 63} {
		res := nlRun(t, election.Config{Algorithm: ring.LCRRandom, IDs: []elect.ID{7, 6, 5, 4, 3, 2, 1, 0}, Delivery: election.FIFO,
			Params: lrParams(b), Seed: 3, Announce: true})
		if per := int64(1 + b + 3); res.Bits != res.Messages*per {
			t.Errorf("b=%d: %d bits for %d messages, want %d each", b, res.Bits, res.Messages, per)
		}
	}
}

// TestLCRRandomBitsParameter checks that --bits is validated with a message
// saying what is allowed.
func TestLCRRandomBitsParameter(t *testing.T) {
	for _, v := range []string{"0", "64", "-3", "x", ""} {
		_, err := scenario.Build(scenario.Spec{Algorithm: "lcr-random", N: 4, Params: map[string]string{"bits": v}})
		if err == nil || !strings.Contains(err.Error(), "1..63") {
			t.Errorf("--bits %q: got %v, want an error naming 1..63", v, err)
		}
	}
	if _, err := scenario.Build(scenario.Spec{Algorithm: "lcr-random", N: 4, IDs: "anonymous", Params: map[string]string{"bits": "8"}}); err != nil {
		t.Errorf("anonymous lcr-random must run without --force (no unique IDs needed): %v", err)
	}
}
