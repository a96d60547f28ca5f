package ring_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
)

// pfRounds replays the draws of a ring of n <= 3 processes, where every
// active process's two nearest active neighbours are all the others: each
// round the active processes draw 1 + Int64N(k) from their own streams
// (election.Stream(seed, "node", i), as the simulator hands them out) and those
// holding the largest id survive; the round with one active process is the
// last. It returns the rounds and the last process.
func pfRounds(seed uint64, n int, k int64) (rounds, leader int) {
	rngs := make([]*rand.Rand, n)
	active := make([]int, n)
	for i := range rngs {
		rngs[i] = election.Stream(seed, "node", uint64(i))
		active[i] = i
	}
	for {
		rounds++
		ids := make([]int64, len(active))
		best := int64(0)
		for j, i := range active {
			ids[j] = 1 + rngs[i].Int64N(k)
			best = max(best, ids[j])
		}
		if len(active) == 1 {
			return rounds, active[0]
		}
		var next []int
		for j, i := range active {
			if ids[j] == best {
				next = append(next, i)
			}
		}
		active = next
	}
}

// TestProbFranklinSmallRingsFollowTheDraws: on rings of 2 and 3 processes
// the run is determined by the draws (Bakhshi et al.'s rules): 2n election
// messages per round, the rounds and the leader as pfRounds replays them,
// under every delivery (non-FIFO ones too: the round bit keeps the rounds
// apart) and for k = n and k = 2.
func TestProbFranklinSmallRingsFollowTheDraws(t *testing.T) {
	for _, n := range []int{2, 3} {
		for _, k := range []int64{int64(n), 2} {
			for seed := uint64(1); seed <= 60; seed++ {
				rounds, leader := pfRounds(seed, n, k)
				for _, d := range nlDeliveries {
					cfg := election.Config{Algorithm: ring.ProbabilisticFranklin, IDs: make([]elect.ID, n), Delivery: d, Seed: seed,
						Params: elect.Params{"k": itoa(k)}}
					res := nlRun(t, cfg)
					if res.MessagesByType["election"] != int64(2*n*rounds) || res.LeaderIndex != leader || res.MessagesByType["leader"] != int64(n) {
						t.Fatalf("n=%d k=%d seed %d %s: %v messages, leader %d; the draws give %d rounds (%d messages), leader %d",
							n, k, seed, d, res.MessagesByType, res.LeaderIndex, rounds, 2*n*rounds, leader)
					}
				}
			}
		}
	}
}

func itoa(k int64) string { return strconv.FormatInt(k, 10) }

// TestProbFranklinMeanRoundsOnSmallRings compares the mean number of rounds
// (election messages / 2n) over 1500 seeded runs with its exact expectation
// (ProbabilisticFranklinExpectedRounds: 3 rounds for n = k = 2), within 4 standard errors.
func TestProbFranklinMeanRoundsOnSmallRings(t *testing.T) {
	const trials = 1500
	for _, n := range []int{2, 3} {
		var sum, sq float64
		for seed := uint64(1); seed <= trials; seed++ {
			res := nlRun(t, election.Config{Algorithm: ring.ProbabilisticFranklin, IDs: make([]elect.ID, n), Delivery: election.Random,
				Seed: 7000 + seed, Params: elect.Params{"k": "n"}})
			r := float64(res.MessagesByType["election"]) / float64(2*n)
			sum += r
			sq += r * r
		}
		mean := sum / trials
		se := math.Sqrt((sq/trials - mean*mean) / trials)
		want := ring.ProbabilisticFranklinExpectedRounds(n, int64(n))
		t.Logf("n=%d: mean rounds %.4f, expected %.4f, SE %.4f", n, mean, want, se)
		if math.Abs(mean-want) > 4*se {
			t.Errorf("n=%d: mean rounds %.4f, expected %.4f: more than 4 SE (%.4f) apart", n, mean, want, se)
		}
	}
}

// TestProbFranklinOnAnonymousRings is the property test: anonymous rings of
// many sizes, every delivery (random and newest-first reorder messages on a
// link), random initiator sets and wake-up times: one leader, every bound,
// a whole number of rounds of 2n messages, n leader messages.
func TestProbFranklinOnAnonymousRings(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 4))
	for _, n := range nlSizes {
		for s := range 3 {
			for _, d := range nlDeliveries {
				cfg := election.Config{Algorithm: ring.ProbabilisticFranklin, IDs: make([]elect.ID, n), Delivery: d,
					Wake: nlRandomWake(rng, n, 3), Seed: uint64(100*n + s), Params: elect.Params{"k": "n"}}
				res := nlRun(t, cfg)
				if e := res.MessagesByType["election"]; e%int64(2*n) != 0 || res.MessagesByType["leader"] != int64(n) {
					t.Fatalf("%s: %v: not whole rounds of 2n, or not n leader messages", nlDescribe(cfg, res), res.MessagesByType)
				}
			}
		}
	}
}

// FuzzProbabilisticFranklinK: the --k parameter's check never panics; a
// value it accepts ("n" or an integer >= 2) builds a node whose first
// identity lies in 1..k (k = n for "n"), and it accepts every integer >= 2.
func FuzzProbabilisticFranklinK(f *testing.F) {
	for _, s := range []string{"n", "2", "3", "1000000", "1", "0", "-5", "", "N", "2x", " 3", "9223372036854775807", "9223372036854775808"} {
		f.Add(s)
	}
	check := ring.ProbabilisticFranklin.Params[0].Check
	f.Fuzz(func(t *testing.T, v string) {
		err := check(v)
		k, perr := strconv.ParseInt(v, 10, 64)
		if wantOK := v == "n" || (perr == nil && k >= 2); (err == nil) != wantOK {
			t.Fatalf("check(%q) = %v, want accepted = %v", v, err, wantOK)
		}
		if err != nil {
			return
		}
		const n = 5
		if v == "n" {
			k = n
		}
		p := ring.ProbabilisticFranklin.New(elect.NodeInfo{N: n, Params: elect.Params{"k": v}})
		env := nlEnv()
		p.Wake(env, true)
		for _, e := range env.Effects() {
			if e.Kind == elect.EffectSend && (int64(e.Msg.ID) < 1 || int64(e.Msg.ID) > k) {
				t.Fatalf("k=%q: drew identity %d outside 1..%d", v, e.Msg.ID, k)
			}
		}
	})
}
