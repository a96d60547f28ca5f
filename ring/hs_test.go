package ring_test

import (
	"math/rand/v2"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// TestHSSmallRingsExactCounts checks the slides' pseudo-code (seed 003, "HS
// algorithm: pseudo-code for a generic processor") message by message on
// rings small enough to work out by hand. Node i's left (clockwise)
// neighbour is i+1. Counts do not depend on the delivery model: which probes
// die where depends on the IDs only. Time is in rounds (sync, all start at 0).
//
//   - n=1, ids [0]: the two phase-0 probes come straight back: 2 ELECTION,
//     0 REPLY; elected in round 1.
//   - n=2, ids [0 1]: phase 0: 2 probes each (4); node 0 replies to both of
//     node 1's (2 REPLY), node 1 swallows node 0's. Phase 1: node 1's probes
//     go 1 hop, node 0 relays them (d=1<2) back to node 1: 4 more ELECTION,
//     8 in all; elected in round 2+2=4.
//   - n=3, ids [0 1 2]: phase 0: 6 ELECTION; node 2 gets replies from 0 and
//     1, node 1 only from 0 (node 2 swallows its other probe): 3 REPLY.
//     Phase 1 (node 2): 2 probes x 2 hops, 2 replies x 2 hops: 4+4. Phase 2
//     = ceil(lg 3): probes go 3 hops each way: 6. ELECTION 6+4+6=16, REPLY
//     3+4=7; rounds 2+4+3=9 = 2^3-2+3, the time bound exactly.
//   - n=4, ids [0 1 2 3]: phase 0: 8 ELECTION; node 3 gets 2 replies, nodes
//     2 and 1 one each: 4 REPLY. Phase 1 (node 3): 4+4. Phase 2: 4 hops each
//     way: 8. ELECTION 20, REPLY 8; rounds 2+4+4=10 = 2^3-2+4.
//   - n=4, bit-reversal ids [0 2 1 3]: phase 0: 8 ELECTION; nodes 1 (ID 2)
//     and 3 (ID 3) each get 2 replies: 4 REPLY. Phase 1: node 1's probes
//     pass one node and die at node 3 (4 ELECTION, no reply); node 3's are
//     answered by node 1 (4 ELECTION, 4 REPLY). Phase 2: 8. ELECTION
//     8+4+4+8=24, REPLY 8; rounds 10.
//
// With --announce the leader's message goes round once more: n leader
// messages.
func TestHSSmallRingsExactCounts(t *testing.T) {
	cases := []struct {
		ids             []elect.ID
		election, reply int64
		leader          int
		rounds          float64
	}{
		{[]elect.ID{0}, 2, 0, 0, 1},
		{[]elect.ID{0, 1}, 8, 2, 1, 4},
		{[]elect.ID{0, 1, 2}, 16, 7, 2, 9},
		{[]elect.ID{0, 1, 2, 3}, 20, 8, 3, 10},
		{[]elect.ID{0, 2, 1, 3}, 24, 8, 3, 10},
	}
	for _, tc := range cases {
		eachDeliveryAnnounce(t, tc.ids, func(t *testing.T, d election.Delivery, announce bool) {
			res := nlRun(t, election.Config{Algorithm: ring.HS, IDs: tc.ids, Delivery: d, Announce: announce, Seed: 7})
			n := int64(len(tc.ids))
			want := map[string]int64{"ELECTION": tc.election, "REPLY": tc.reply, "leader": 0}
			if announce {
				want["leader"] = n
			}
			for k, v := range want {
				if res.MessagesByType[k] != v {
					t.Errorf("%s messages = %d, want %d", k, res.MessagesByType[k], v)
				}
			}
			if res.LeaderIndex != tc.leader {
				t.Errorf("leader index %d, want %d", res.LeaderIndex, tc.leader)
			}
			if d == election.Sync && !announce && res.Time != tc.rounds {
				t.Errorf("time %v rounds, want %v", res.Time, tc.rounds)
			}
			if announce && !res.AllKnowLeader {
				t.Errorf("announcement did not reach every node")
			}
		})
	}
}

// TestHSElectsMaxOnRandomRings is the property test: on random rings of many
// sizes, under every delivery model and random initiator sets with random
// wake-up times, HS elects exactly the maximum and every declared bound holds
// (8n(1+ceil(lg n)) messages, the lower bound, n leader messages, time when
// everyone starts at 0). Since every node competes, initiator or not, the
// message counts must equal those of the all-start FIFO run on the same IDs.
func TestHSElectsMaxOnRandomRings(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	for _, n := range nlSizes {
		for s := range nlSeeds() {
			idList := nlIDs(t, "random", n, uint64(1000*n+s))
			ref := nlRun(t, election.Config{Algorithm: ring.HS, IDs: idList, Delivery: election.FIFO})
			for _, d := range nlDeliveries {
				wake := nlRandomWake(rng, n, 3)
				cfg := election.Config{Algorithm: ring.HS, IDs: idList, Delivery: d, Wake: wake, Seed: uint64(s), Announce: s%2 == 0}
				res := nlRun(t, cfg)
				for _, typ := range []string{"ELECTION", "REPLY"} {
					if res.MessagesByType[typ] != ref.MessagesByType[typ] {
						t.Fatalf("%s: %s = %d, but %d when all start at once under fifo", nlDescribe(cfg, res), typ, res.MessagesByType[typ], ref.MessagesByType[typ])
					}
				}
			}
		}
	}
}

// TestHSBoundEightNLogN checks seed 003's message bound, 8n(1+ceil(lg n)),
// on the arrangements that stress it (increasing, decreasing, bit-reversal)
// and random ones up to n = 4096, and that it is not wildly loose: the
// measured count stays above the declared lower bound 4*2^ceil(lg n)+4n-6
// (checked by the monitor) and, on bit-reversal rings, grows like n lg n
// (at least n lg n messages, more than any O(n) algorithm could send).
func TestHSBoundEightNLogN(t *testing.T) {
	for _, arrangement := range []string{"increasing", "decreasing", "bit-reversal", "random"} {
		for _, n := range []int{8, 64, 512, 4096} {
			res := nlRun(t, election.Config{Algorithm: ring.HS, IDs: nlIDs(t, arrangement, n, 1), Delivery: election.FIFO})
			bound := 8 * float64(n) * float64(1+elect.CeilLog2(n))
			if float64(res.Messages) > bound {
				t.Errorf("%s n=%d: %d messages > 8n(1+ceil(lg n)) = %v", arrangement, n, res.Messages, bound)
			}
			if arrangement == "bit-reversal" && res.Messages < int64(n*elect.CeilLog2(n)) {
				t.Errorf("bit-reversal n=%d: %d messages < n lg n", n, res.Messages)
			}
		}
	}
}

// TestHSWokenNodeCompetes: "Every processor which wakes-up (either
// spontaneously or by a message arrival) tries to elect itself" (seed 003).
// With a single initiator, the smallest ID, every other node is woken by a
// probe and competes, so the run sends exactly the messages of the all-start
// run, and the maximum is elected.
func TestHSWokenNodeCompetes(t *testing.T) {
	for _, n := range []int{2, 5, 16, 33} {
		idList := nlIDs(t, "random", n, 9)
		minNode := 0
		for i, id := range idList {
			if id < idList[minNode] {
				minNode = i
			}
		}
		all := nlRun(t, election.Config{Algorithm: ring.HS, IDs: idList, Delivery: election.FIFO})
		one := nlRun(t, election.Config{Algorithm: ring.HS, IDs: idList, Delivery: election.FIFO, Wake: []election.Wake{{Node: minNode}}})
		if one.Messages != all.Messages {
			t.Errorf("n=%d: one initiator sent %d messages, all-start %d", n, one.Messages, all.Messages)
		}
	}
}

// TestHSAnonymousRingStaysSymmetric: on an anonymous synchronous ring every
// node's probe reaches a node with its own ID, so all elect themselves in
// round 1, as the impossibility theorem says (seed 001 §5.1, seed 003); the
// engine reports the symmetric outcome (the run must be forced past the
// unique-IDs assumption).
func TestHSAnonymousRingStaysSymmetric(t *testing.T) {
	if _, err := scenario.Build(scenario.Spec{Algorithm: "hs", N: 8, IDs: "anonymous", Timing: "sync"}); err == nil {
		t.Fatal("anonymous hs run was not refused")
	}
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "hs", N: 8, IDs: "anonymous", Timing: "sync", Force: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != election.Symmetric || res.SymmetricRound != 1 {
		t.Errorf("outcome %s at round %d, want symmetric at round 1", res.Outcome, res.SymmetricRound)
	}
}

// TestHSStateSeesState: the state encoding changes with every part of
// the state (the symmetry detector relies on it): the first reply of a
// phase, the move to the next phase, being elected.
func TestHSStateSeesState(t *testing.T) {
	driveDistinct(t, ring.HS.New(elect.NodeInfo{ID: 5}), []handStep{
		{"first reply", elect.Left, elect.Message{Type: 1, ID: 5, A: 0}},
		{"second reply (phase 1)", elect.Left, elect.Message{Type: 1, ID: 5, A: 0}},
		{"own probe back (elected)", elect.Left, elect.Message{Type: 0, ID: 5, A: 1, B: 2}},
	})
	q := ring.HS.New(elect.NodeInfo{ID: 6})
	if nlState(q) == nlState(ring.HS.New(elect.NodeInfo{ID: 5})) {
		t.Error("nodes with different IDs have equal fingerprints")
	}
}
