package ring_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// Helpers shared by the tests of package ring: running a ring and requiring
// the promised election, the ID arrangements and wake-ups of the property
// tests, and driving one node by hand.

// nlDeliveries are the delivery models the O(n log n) ring algorithms run
// under: synchronous rounds and every asynchronous model (random and
// newest-first reorder messages on a link).
var nlDeliveries = []election.Delivery{election.Sync, election.FIFO, election.Random, election.RandomFIFO, election.NewestFirst}

// nlIDs returns the named arrangement on n nodes.
func nlIDs(t testing.TB, arrangement string, n int, seed uint64) []elect.ID {
	t.Helper()
	spec, err := ids.Parse(arrangement)
	if err != nil {
		t.Fatal(err)
	}
	out, err := spec.Generate(n, election.Stream(seed, "ids", 0))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// nlRun runs cfg (on a ring when no graph is given) and checks that the
// monitor is satisfied: exactly one leader, the promised one, every declared
// bound.
func nlRun(t testing.TB, cfg election.Config) *election.Result {
	t.Helper()
	res := runAny(t, cfg)
	requireElected(t, res, nlDescribe(cfg, res))
	return res
}

// runAny runs cfg whatever its outcome.
func runAny(t testing.TB, cfg election.Config) *election.Result {
	t.Helper()
	if cfg.Graph == nil {
		cfg.Graph = topology.NewRing(len(cfg.IDs))
	}
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// runRing runs alg on the ring of idList, whatever the outcome.
func runRing(t testing.TB, alg *elect.Algorithm, idList []elect.ID, d election.Delivery, wake []election.Wake, announce bool, seed uint64) *election.Result {
	t.Helper()
	return runAny(t, election.Config{Algorithm: alg, IDs: idList, Delivery: d, Wake: wake, Announce: announce, Seed: seed})
}

// requireElected fails unless the run elected as promised with every check held.
func requireElected(t testing.TB, res *election.Result, what string) {
	t.Helper()
	if res.Outcome != election.OutcomeElected {
		t.Fatalf("%s: outcome %s %s", what, res.Outcome, res.Violation)
	}
	for _, c := range res.Checks {
		if !c.Holds {
			t.Fatalf("%s: check failed: %s: %v %s %v", what, c.Name, c.Actual, c.Relation, c.Expected)
		}
	}
}

func nlDescribe(cfg election.Config, res *election.Result) string {
	s := fmt.Sprintf("%s n=%d delivery=%s seed=%d wake=%v: outcome %s %s, messages %v, time %v",
		cfg.Algorithm.Name, len(cfg.IDs), cfg.Delivery, cfg.Seed, cfg.Wake, res.Outcome, res.Violation, res.MessagesByType, res.Time)
	if len(cfg.IDs) <= 32 {
		s += fmt.Sprintf(", ids %v", cfg.IDs)
	}
	return s
}

// nlRandomWake draws a random non-empty set of initiators with wake-up times
// in 0..maxAt (nil, everyone at time 0, one time in four).
func nlRandomWake(rng *rand.Rand, n int, maxAt int64) []election.Wake {
	if rng.IntN(4) == 0 {
		return nil
	}
	k := 1 + rng.IntN(n)
	perm := rng.Perm(n)[:k]
	wake := make([]election.Wake, k)
	for i, node := range perm {
		wake[i] = election.Wake{Node: node, At: rng.Int64N(maxAt + 1)}
	}
	return wake
}

// nlFloorLog2 is floor(lg n).
func nlFloorLog2(n int) int { return bits.Len(uint(n)) - 1 }

// nlSizes are the ring sizes of the property tests: 1, 2, 3, powers of two
// and their neighbours.
var nlSizes = []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 100}

// propertySizes are the ring sizes of the property tests that run the
// conformance kit's elects check beyond its defaults.
var propertySizes = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 16, 17, 23, 31, 32, 33, 47, 64, 65, 89, 97}

// nlSeeds is the number of seeds per ring size in the property tests of
// HS, Peterson and Franklin: 6, or 2 with -short.
func nlSeeds() int {
	if testing.Short() {
		return 2
	}
	return 6
}

// nlEnv is an Env for driving one node by hand.
func nlEnv() *elect.Recorder {
	return elect.NewRecorder(func() *rand.Rand { return rand.New(rand.NewPCG(1, 1)) })
}

// nlState is the node's state encoding (elect.Snapshotter), which every
// ring algorithm has.
func nlState(p elect.Node) string { return string(p.(elect.Snapshotter).AppendState(nil)) }

// eachDeliveryAnnounce runs check as a subtest, named after ids, under every
// delivery model of nlDeliveries, without and with the announcement.
func eachDeliveryAnnounce(t *testing.T, ids []elect.ID, check func(t *testing.T, d election.Delivery, announce bool)) {
	t.Helper()
	for _, d := range nlDeliveries {
		for _, announce := range []bool{false, true} {
			t.Run(fmt.Sprintf("ids=%v/%s/announce=%v", ids, d, announce), func(t *testing.T) { check(t, d, announce) })
		}
	}
}

// handStep is one message delivered to a node driven by hand.
type handStep struct {
	name string // what the step does; "" names it by its message
	from elect.Port
	m    elect.Message
}

// driveDistinct wakes p as an initiator on a Recorder of its own, then
// delivers the steps in order, and fails the test when the state encoding
// after a step equals one seen before (after the wake-up or an earlier
// step). It returns the messages p sent, in order.
func driveDistinct(t *testing.T, p elect.Node, steps []handStep) []elect.Message {
	t.Helper()
	env := nlEnv()
	p.Wake(env, true)
	seen := map[string]string{nlState(p): "woken"}
	for _, st := range steps {
		p.Receive(env, st.from, st.m)
		name := st.name
		if name == "" {
			name = fmt.Sprintf("%+v", st.m)
		}
		s := nlState(p)
		if prev, dup := seen[s]; dup {
			t.Errorf("after %s the state equals the one after %s", name, prev)
		}
		seen[s] = name
	}
	var sent []elect.Message
	for _, f := range env.Effects() {
		if f.Kind == elect.EffectSend {
			sent = append(sent, f.Msg)
		}
	}
	return sent
}

// typeIDs lists messages as type:ID.
func typeIDs(ms []elect.Message) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = fmt.Sprintf("%d:%d", m.Type, m.ID)
	}
	return fmt.Sprint(s)
}

// probeRing is a run of Franklin or Peterson worked out by hand: the ring's
// IDs, the probes sent, the leader's index and the time in rounds when the
// run is synchronous and every node starts at 0.
type probeRing struct {
	ids    []elect.ID
	probes int64
	leader int
	rounds float64
}

// checkProbeRings runs cfg (its algorithm, parameters and seed) on each of
// the rings under every delivery model, without and with the announcement,
// and checks the probes and the leader; the time without the announcement
// when synchronous; with the announcement, n leader messages and every
// node knowing the leader.
func checkProbeRings(t *testing.T, cfg election.Config, rings []probeRing) {
	t.Helper()
	for _, tc := range rings {
		eachDeliveryAnnounce(t, tc.ids, func(t *testing.T, d election.Delivery, announce bool) {
			cfg := cfg
			cfg.IDs, cfg.Delivery, cfg.Announce = tc.ids, d, announce
			res := nlRun(t, cfg)
			if got := res.MessagesByType["probe"]; got != tc.probes {
				t.Errorf("probes = %d, want %d", got, tc.probes)
			}
			if res.LeaderIndex != tc.leader {
				t.Errorf("leader is node %d, want node %d", res.LeaderIndex, tc.leader)
			}
			if announce && (res.MessagesByType["leader"] != int64(len(tc.ids)) || !res.AllKnowLeader) {
				t.Errorf("announcement: %d leader messages, all know: %v", res.MessagesByType["leader"], res.AllKnowLeader)
			}
			if d == election.Sync && !announce && res.Time != tc.rounds {
				t.Errorf("time %v rounds, want %v", res.Time, tc.rounds)
			}
		})
	}
}
