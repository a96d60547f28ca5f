package complete

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

func increasingIDs(n int) []elect.ID {
	out := make([]elect.ID, n)
	for i := range out {
		out[i] = elect.ID(i)
	}
	return out
}

func permutedIDs(n int, rng *rand.Rand) []elect.ID {
	out := make([]elect.ID, n)
	for i, v := range rng.Perm(n) {
		out[i] = elect.ID(v)
	}
	return out
}

func bullyConfig(n int, wake []election.Wake, spec string) election.Config {
	cfg := election.Config{Algorithm: Bully, Graph: topology.NewComplete(n), IDs: increasingIDs(n), Delivery: election.Sync, Wake: wake}
	if spec != "" {
		s, err := faults.Parse(spec)
		if err != nil {
			panic(err)
		}
		cfg.Faults = s
	}
	return cfg
}

// TestBullySmallestAloneSendsNSquaredMinus1: Garcia-Molina's worst case,
// the smallest ID starting the election alone, draws every node into an
// election; in this variant (complete/bully.go) that is n(n-1)/2
// ELECTIONs, as many ANSWERs and n-1 COORDINATORs: n^2 - 1 messages,
// exactly, in 3 rounds.
func TestBullySmallestAloneSendsNSquaredMinus1(t *testing.T) {
	for n := 2; n <= 24; n++ {
		res := runOK(t, bullyConfig(n, []election.Wake{{Node: 0}}, ""))
		half := int64(n * (n - 1) / 2)
		if res.Messages != int64(n*n-1) || res.MessagesByType["ELECTION"] != half || res.MessagesByType["ANSWER"] != half ||
			res.MessagesByType["COORDINATOR"] != int64(n-1) {
			t.Fatalf("n = %d: %d messages %v, want n^2-1 = %d", n, res.Messages, res.MessagesByType, n*n-1)
		}
		if want := map[bool]float64{true: 2, false: 3}[n == 2]; res.Time != want {
			t.Fatalf("n = %d: time %v, want %v", n, res.Time, want)
		}
		if res.LeaderID != elect.ID(n-1) {
			t.Fatalf("n = %d: leader %d", n, res.LeaderID)
		}
	}
}

// TestBullyEveryNodeAtOnceAlsoSendsNSquaredMinus1: with every node awake
// at round 0 each still starts exactly one election, so the count is the
// same n^2 - 1, whatever the IDs; time 2 (the declared bound).
func TestBullyEveryNodeAtOnceAlsoSendsNSquaredMinus1(t *testing.T) {
	for n := 2; n <= 16; n++ {
		for seed := range uint64(3) {
			cfg := bullyConfig(n, nil, "")
			cfg.IDs = permutedIDs(n, election.Stream(seed, "ids", 0))
			res := runOK(t, cfg)
			if res.Messages != int64(n*n-1) || res.Time != 2 {
				t.Fatalf("n = %d, seed %d: %d messages in time %v, want %d in 2", n, seed, res.Messages, res.Time, n*n-1)
			}
		}
	}
}

// TestBullyBestCase: the largest ID alone sends only its n-1 COORDINATORs;
// the textbook's best case, the second largest electing itself when the
// largest has failed, costs here one ELECTION to the crashed node more than
// the textbook's n-2 (it cannot know the node crashed before its timeout):
// n-1 messages as well, with the second largest elected.
func TestBullyBestCase(t *testing.T) {
	for n := 2; n <= 24; n++ {
		res := runOK(t, bullyConfig(n, []election.Wake{{Node: n - 1}}, ""))
		if res.Messages != int64(n-1) || res.Time != 1 {
			t.Fatalf("n = %d, largest alone: %d messages in time %v, want n-1 = %d in 1", n, res.Messages, res.Time, n-1)
		}
		if n < 3 {
			continue
		}
		cfg := bullyConfig(n, []election.Wake{{Node: n - 2}}, fmt.Sprintf("crash:node=%d@t=0", n-1))
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != election.OutcomeElected || res.LeaderIndex != n-2 || res.Messages != int64(n-1) ||
			res.MessagesByType["COORDINATOR"] != int64(n-2) || res.Faults.Verdict != election.VerdictSurvived {
			t.Fatalf("n = %d, second largest alone, largest crashed: %s leader %d, %d messages %v, verdict %s",
				n, res.Outcome, res.LeaderIndex, res.Messages, res.MessagesByType, res.Faults.Verdict)
		}
	}
}

// TestBullyCrashedAnswererIsOutwaited: n = 3, node 0 (the smallest ID)
// initiates; node 2 has crashed at round 0; node 1 answers node 0 at round 1
// and crashes right after that step. Node 0, waiting for node 1's
// COORDINATOR, times out at round 4, starts over (ELECTION to both, round
// 4), hears nothing by round 6 and elects itself: the only node up.
// Messages: 2 + 1 + 1 (node 1's ANSWER and ELECTION) + 2 = 6.
func TestBullyCrashedAnswererIsOutwaited(t *testing.T) {
	cfg := bullyConfig(3, []election.Wake{{Node: 0}}, "crash:node=2@t=0;crash:node=1@step=2")
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != election.OutcomeElected || res.LeaderIndex != 0 || res.Messages != 6 || res.Time != 6 ||
		res.Faults.Verdict != election.VerdictSurvived {
		t.Fatalf("%s (%s): leader %d, %d messages %v in time %v, faults %+v", res.Outcome, res.Violation, res.LeaderIndex,
			res.Messages, res.MessagesByType, res.Time, *res.Faults)
	}
}

// TestBullySurvivesRandomCrashes: on complete graphs of 2 to 12 nodes, with
// 1 to n-1 crashes at random times (crash:k=K,by=6: the election's first
// rounds, where they matter), random IDs and initiators, both engines elect
// exactly one node, holding the largest ID among the nodes up when it was
// elected, and every node that did not crash learns it: verdict survived
// (or none-injected when the crashes came after the run ended), never a
// violation, in 2200 runs.
func TestBullySurvivesRandomCrashes(t *testing.T) {
	runs, crashedRuns, leaderCrashed := 0, 0, 0
	for n := 2; n <= 12; n++ {
		for seed := range uint64(100) {
			k := 1 + int(seed)%(n-1)
			spec, _ := faults.Parse(fmt.Sprintf("crash:k=%d,by=6", k))
			rng := election.Stream(seed, "test", uint64(n))
			cfg := election.Config{Algorithm: Bully, Graph: topology.NewComplete(n), Delivery: election.Sync, Seed: seed, Faults: spec,
				IDs: permutedIDs(n, rng)}
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
					continue // the only initiator crashed before it woke: no election started
				}
				if res.Outcome != election.OutcomeElected || res.Faults.Verdict == election.VerdictViolated || !res.AllKnowLeader {
					t.Fatalf("n = %d, seed %d, %s: %s (%s), faults %+v", n, seed, spec, res.Outcome, res.Violation, *res.Faults)
				}
				if len(res.Faults.Crashed) > 0 {
					crashedRuns++
					for _, c := range res.Faults.Crashed {
						if int(c) == res.LeaderIndex {
							leaderCrashed++
						}
					}
				}
			}
		}
	}
	t.Logf("%d runs, %d with crashes, %d whose leader crashed after its election", runs, crashedRuns, leaderCrashed)
	if crashedRuns < runs/2 {
		t.Errorf("only %d of %d runs had a crash", crashedRuns, runs)
	}
}

// TestBullyEveryCrashChoiceUpToTwo enumerates, at n = 2..5 (IDs
// increasing: the complete graph is symmetric, so ranks are all that
// matter), every non-empty set of initiators waking at round 0 and every
// choice of at most two crashing nodes, each crashing at a round 0..7 or
// right after its step 1..5: 74,858 runs of the simulator's synchronous
// order (the enumeration is over fault choices, not over the orders of
// deliveries within a round, which the exhaustive checker would add).
// Every run elects exactly one node, the largest ID up at its election,
// known to every node up, unless every initiator crashed (an expected
// failure): never a violation.
func TestBullyEveryCrashChoiceUpToTwo(t *testing.T) {
	var whens []string
	for r := range 8 {
		whens = append(whens, fmt.Sprintf("t=%d", r))
	}
	for s := 1; s <= 5; s++ {
		whens = append(whens, fmt.Sprintf("step=%d", s))
	}
	runs, expected := 0, 0
	for n := 2; n <= 5; n++ {
		var choices []string
		choices = append(choices, "")
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
		for set := 1; set < 1<<n; set++ {
			var wake []election.Wake
			for i := range n {
				if set&(1<<i) != 0 {
					wake = append(wake, election.Wake{Node: i})
				}
			}
			for _, c := range choices {
				cfg := bullyConfig(n, wake, c)
				res, err := sim.Run(cfg)
				if err != nil {
					t.Fatal(err)
				}
				runs++
				if c == "" {
					if res.Outcome != election.OutcomeElected {
						t.Fatalf("n = %d, initiators %b, no crash: %s", n, set, res.Outcome)
					}
					continue
				}
				if res.Faults.Verdict == election.VerdictExpected && res.Leaders == 0 {
					expected++
					continue
				}
				if res.Outcome != election.OutcomeElected || !res.AllKnowLeader || res.Faults.Verdict == election.VerdictViolated {
					t.Fatalf("n = %d, initiators %b, %s: %s (%s), %+v", n, set, c, res.Outcome, res.Violation, *res.Faults)
				}
			}
		}
	}
	t.Logf("%d runs, %d expected failures (every initiator crashed)", runs, expected)
}
