package ring_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/runner"
	"github.com/electkit/elect/scenario"
)

// TestTimeSliceSmallRingsExactCounts follows the slides (seed 003, "A
// Θ(n)-messages Synchronous Algorithm") by hand; node i's clockwise
// neighbour is i+1.
//
//   - ids [5 3 7 4], n = 4: phases are 4 rounds long; nothing happens in
//     phases 0..2; node 1 (ID 3) starts phase 3 at round 12, elects itself
//     and sends its ID; nodes 2, 3, 0 get it in rounds 13, 14, 15 (long
//     before their phases at rounds 28, 16, 20) and pass it on; it is back
//     at node 1 in round 16 = n(m+1): 4 messages.
//   - ids [2 0 1], n = 3: node 1 starts at round 0; 3 messages; round 3.
//   - ids [9], n = 1: the node starts at round 9, its message comes back in
//     round 10: 1 message.
func TestTimeSliceSmallRingsExactCounts(t *testing.T) {
	cases := []struct {
		ids    []elect.ID
		leader int
		time   float64
	}{
		{[]elect.ID{5, 3, 7, 4}, 1, 16},
		{[]elect.ID{2, 0, 1}, 1, 3},
		{[]elect.ID{9}, 0, 10},
	}
	for _, tc := range cases {
		res := nlRun(t, election.Config{Algorithm: ring.TimeSlice, IDs: tc.ids, Delivery: election.Sync, Announce: true})
		if res.LeaderIndex != tc.leader || res.Messages != int64(len(tc.ids)) || res.Time != tc.time || !res.AllKnowLeader {
			t.Errorf("ids %v: leader node %d, %d messages, time %v, all know %v; want node %d, %d, %v, true",
				tc.ids, res.LeaderIndex, res.Messages, res.Time, res.AllKnowLeader, tc.leader, len(tc.ids), tc.time)
		}
	}
}

// TestTimeSliceExactlyNMessagesOnRandomRings is the slides' "Total number of
// messages: n" and "The node with smallest id is elected leader" as a
// property: random sizes and ID sets (small or sparse and large), exactly n
// messages, time n(m+1), the minimum elected and known to all (the declared
// Exactly bounds and the monitor's checks).
func TestTimeSliceExactlyNMessagesOnRandomRings(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 8))
	for trial := range 300 {
		n := 1 + rng.IntN(60)
		base := []int64{0, 1, 1000, 1 << 40}[trial%4]
		seen := map[int64]bool{}
		ids := make([]elect.ID, n)
		for i := range ids {
			for {
				v := base + rng.Int64N(int64(4*n))
				if !seen[v] {
					seen[v] = true
					ids[i] = elect.ID(v)
					break
				}
			}
		}
		nlRun(t, election.Config{Algorithm: ring.TimeSlice, IDs: ids, Delivery: election.Sync, Announce: true, Seed: uint64(trial)})
	}
}

// TestTimeSliceSkipsIdleRounds checks that a minimum ID of 10^9 costs no
// more than a small one: n = 1000 nodes with IDs in 10^9..10^9+1000 run to
// round n(m+1) ≈ 10^12 with a handful of events per node (wake-up, the
// notification, the leader's timer), because the engine jumps over idle
// rounds (seed 003: "Time complexity: Θ(n·m)").
func TestTimeSliceSkipsIdleRounds(t *testing.T) {
	rec, err := runner.Run(scenario.Spec{Algorithm: "time-slice", N: 1000, IDs: "range:1000000000..1000001000", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Succeeded() {
		t.Fatalf("outcome %s %s, checks %+v", rec.Outcome, rec.Violation, rec.Checks)
	}
	if want := 1000 * float64(rec.LeaderID+1); rec.Time != want || rec.LeaderID < 1_000_000_000 {
		t.Errorf("leader ID %d, time %v; want the minimum (>= 10^9) and n(m+1) = %v", rec.LeaderID, rec.Time, want)
	}
	if rec.Events > 4*1000 {
		t.Errorf("%d events for n = 1000: idle rounds are not skipped", rec.Events)
	}
}

// TestTimeSliceRefusesIDsPastTheLastRound checks CheckRun: the node with ID
// k sets a timer for round k*n, so with n = 40000 IDs near 2^48 (above
// MaxInt64/n - 1 ≈ 2.3*10^14) cannot be represented; the error says which
// IDs are allowed. --force does not override it.
func TestTimeSliceRefusesIDsPastTheLastRound(t *testing.T) {
	const n = 40000
	hi := int64(1)<<48 - 1
	spec := scenario.Spec{Algorithm: "time-slice", N: n, IDs: fmt.Sprintf("range:%d..%d", hi-n, hi), Force: true}
	_, err := scenario.Build(spec)
	if err == nil {
		t.Fatal("IDs near 2^48 on 40000 nodes were accepted")
	}
	limit := fmt.Sprint(int64(^uint64(0)>>1)/n - 1)
	if !strings.Contains(err.Error(), "IDs must be at most "+limit) {
		t.Errorf("error %q does not say IDs must be at most %s", err, limit)
	}
	spec.IDs = fmt.Sprintf("range:0..%s", limit)
	if _, err := scenario.Build(spec); err != nil {
		t.Errorf("IDs up to the limit were refused: %v", err)
	}
}
