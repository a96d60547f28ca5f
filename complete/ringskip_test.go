package complete

import (
	"fmt"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

func ringSkipConfig(t testing.TB, ids []elect.ID, wake []election.Wake, spec string) election.Config {
	g, err := topology.Parse("complete:chordal", len(ids), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := election.Config{Algorithm: RingSkip, Graph: g, IDs: ids, Delivery: election.Sync, Wake: wake, MaxEvents: 100_000}
	if spec != "" {
		if cfg.Faults, err = faults.Parse(spec); err != nil {
			t.Fatal(err)
		}
	}
	return cfg
}

// TestRingSkipWithoutFaultsIsLCR: without crashes the ELECTIONs are LCR's
// (seed 001 §5.2.1.1): n(n+1)/2 when the IDs decrease clockwise, 2n-1 when
// they increase; n LEADERs; one ACK for each; time 2n+1 with every node
// awake at round 0.
func TestRingSkipWithoutFaultsIsLCR(t *testing.T) {
	if res := runOK(t, ringSkipConfig(t, []elect.ID{5}, nil, "")); res.Messages != 0 || res.Time != 0 {
		t.Fatalf("n = 1: %d messages, time %v", res.Messages, res.Time)
	}
	for n := 2; n <= 20; n++ {
		dec := make([]elect.ID, n)
		for i := range dec {
			dec[i] = elect.ID(n - 1 - i)
		}
		for _, c := range []struct {
			ids      []elect.ID
			election int64
		}{{dec, int64(n * (n + 1) / 2)}, {increasingIDs(n), int64(max(2*n-1, 1))}} {
			res := runOK(t, ringSkipConfig(t, c.ids, nil, ""))
			el, le, ack := res.MessagesByType["ELECTION"], res.MessagesByType["LEADER"], res.MessagesByType["ACK"]
			if el != c.election || le != int64(n) || ack != el+le || res.Time != float64(2*n+1) {
				t.Fatalf("n = %d, ids %v: ELECTION %d (want %d), LEADER %d, ACK %d, time %v", n, c.ids, el, c.election, le, ack, res.Time)
			}
		}
	}
}

// TestRingSkipSkipsACrashedSuccessor: n = 4, IDs 0..3 clockwise, node 3
// (the largest) crashed at round 0. Node 2's ELECTION to node 3 goes
// unanswered, so two rounds later node 2 skips to node 0; node 2 (ID 2) is
// elected, and every node up learns it.
func TestRingSkipSkipsACrashedSuccessor(t *testing.T) {
	res, err := sim.Run(ringSkipConfig(t, increasingIDs(4), nil, "crash:node=3@t=0"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != election.OutcomeElected || res.LeaderIndex != 2 || !res.AllKnowLeader || res.Faults.Verdict != election.VerdictSurvived {
		t.Fatalf("%s (%s): leader %d, %+v", res.Outcome, res.Violation, res.LeaderIndex, *res.Faults)
	}
}

// TestRingSkipEveryCrashChoiceUpToTwo: at n = 2..5, every ID arrangement
// with the smallest ID at node 0 (the ring is symmetric under rotation),
// every node initiating or node 0 alone, and every choice of at most two
// crashing nodes, each at a round 0..2n or after its step 1..4, on the
// simulator's synchronous order: one leader (the largest ID up at its
// election, known to every node up) every time, but when every initiator
// crashed (an expected failure).
func TestRingSkipEveryCrashChoiceUpToTwo(t *testing.T) {
	runs, expected := 0, 0
	for n := 2; n <= 5; n++ {
		var whens []string
		for r := range 2*n + 1 {
			whens = append(whens, fmt.Sprintf("t=%d", r))
		}
		for s := 1; s <= 4; s++ {
			whens = append(whens, fmt.Sprintf("step=%d", s))
		}
		choices := []string{""}
		for i := range n {
			for _, w := range whens {
				choices = append(choices, fmt.Sprintf("crash:node=%d@%s", i, w))
				for j := i + 1; j < n; j++ {
					for _, v := range whens {
						choices = append(choices, fmt.Sprintf("crash:node=%d@%s;crash:node=%d@%s", i, w, j, v))
					}
				}
			}
		}
		for _, ids := range permutationsFixingFirst(n) {
			for _, set := range []int{1<<n - 1, 1} {
				var wake []election.Wake
				for i := range n {
					if set&(1<<i) != 0 {
						wake = append(wake, election.Wake{Node: i})
					}
				}
				for _, c := range choices {
					res, err := sim.Run(ringSkipConfig(t, ids, wake, c))
					if err != nil {
						t.Fatal(err)
					}
					runs++
					if c != "" && res.Faults.Verdict == election.VerdictExpected && res.Leaders == 0 {
						expected++
						continue
					}
					if res.Outcome != election.OutcomeElected || !res.AllKnowLeader {
						t.Fatalf("n = %d, ids %v, initiators %b, %q: %s (%s), %+v", n, ids, set, c, res.Outcome, res.Violation, res.Faults)
					}
				}
			}
		}
	}
	t.Logf("%d runs, %d expected failures (every initiator crashed)", runs, expected)
}

// permutationsFixingFirst lists the arrangements of IDs 0..n-1 with 0 at
// node 0.
func permutationsFixingFirst(n int) [][]elect.ID {
	var out [][]elect.ID
	var rec func(prefix []elect.ID, rest []elect.ID)
	rec = func(prefix, rest []elect.ID) {
		if len(rest) == 0 {
			out = append(out, append([]elect.ID(nil), prefix...))
			return
		}
		for k := range rest {
			next := append(append([]elect.ID(nil), rest[:k]...), rest[k+1:]...)
			rec(append(prefix, rest[k]), next)
		}
	}
	rest := make([]elect.ID, n-1)
	for i := range rest {
		rest[i] = elect.ID(i + 1)
	}
	rec([]elect.ID{0}, rest)
	return out
}

// TestRingSkipSurvivesRandomCrashes: n = 2..12, 100 seeds, 1 to n-1
// crashes at random rounds in 0..2n, random IDs, all or one initiator, on
// both engines.
func TestRingSkipSurvivesRandomCrashes(t *testing.T) {
	runs := 0
	for n := 2; n <= 12; n++ {
		for seed := range uint64(100) {
			k := 1 + int(seed)%(n-1)
			rng := election.Stream(seed, "test", uint64(n))
			cfg := ringSkipConfig(t, permutedIDs(n, rng), nil, fmt.Sprintf("crash:k=%d,by=%d", k, 2*n))
			cfg.Seed = seed
			if seed%2 == 1 {
				cfg.Wake = []election.Wake{{Node: rng.IntN(n), At: int64(rng.IntN(3))}}
			}
			for _, run := range []func(election.Config) (*election.Result, error){sim.Run, reference.Run} {
				res, err := run(cfg)
				if err != nil {
					t.Fatal(err)
				}
				runs++
				if res.Faults.Verdict == election.VerdictExpected && res.Leaders == 0 {
					continue
				}
				if res.Outcome != election.OutcomeElected || !res.AllKnowLeader {
					t.Fatalf("n = %d, seed %d: %s (%s), %+v", n, seed, res.Outcome, res.Violation, *res.Faults)
				}
			}
		}
	}
	t.Logf("%d runs", runs)
}
