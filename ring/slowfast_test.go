package ring_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/scenario"
)

var slowFastProse = elect.Params{"variant": "prose"}

// TestSlowFastHandWorkedStaggeredWakeUps follows the slides' prose and
// pseudo-code (seed 003, slow-fast algorithm) round by round on n = 8, ids
// [9 3 7 5 2 8 4 6] (node i's clockwise neighbour is i+1), with nodes 1 and
// 6 waking at round 0, node 3 at round 1, node 5 at round 2.
//
//	round 0: node 1 (ID 3) and node 6 (ID 4) are active, send fast 3, fast 4.
//	round 1: nodes 2 and 7 wake as relays on fast 3 and fast 4 and forward
//	         them at once; node 3 (ID 5) wakes active, sends fast 5.
//	round 2: node 3 accepts 3 (< 5): slow, TIMEOUT = 2+2^3-1 = 9; node 0
//	         and node 4 wake as relays on fast 4 and fast 5, forward; node 5
//	         (ID 8) wakes active (no message yet), sends fast 8.
//	round 3: node 1 drops 4 (> 3); node 5 accepts 5: slow, TIMEOUT 34;
//	         node 6 drops 8.
//	round 9: node 3 sends slow 3. Then 3 moves one hop every 8 rounds: node 4
//	         (relay, smallest seen 5) at 10, sends at 17; node 5 at 18
//	         (replacing 5, whose timer at 34 is cancelled), sends at 25;
//	         node 6 at 26 (it turns not-elected), 33; node 7 at 34, 41;
//	         node 0 at 42, 49; node 1 gets its own ID at round 50: elected.
//
// Fast messages: 3, 4, their forwards by nodes 2 and 7, 5, 4's forward by
// node 0, 5's forward by node 4, and 8: 8. Slow: 3 sent by nodes 3, 4, 5,
// 6, 7, 0: 6. The winner is the smallest initiator ID, 3, not the smallest
// ID (2, node 4's, a relay).
func TestSlowFastHandWorkedStaggeredWakeUps(t *testing.T) {
	res := nlRun(t, election.Config{
		Algorithm: ring.SlowFast, IDs: []elect.ID{9, 3, 7, 5, 2, 8, 4, 6}, Delivery: election.Sync, Params: slowFastProse,
		Wake: []election.Wake{{Node: 1, At: 0}, {Node: 3, At: 1}, {Node: 5, At: 2}, {Node: 6, At: 0}},
	})
	if res.LeaderIndex != 1 || res.MessagesByType["fast"] != 8 || res.MessagesByType["slow"] != 6 || res.Time != 50 {
		t.Errorf("leader node %d, messages %v, time %v; want node 1, fast 8 slow 6, time 50", res.LeaderIndex, res.MessagesByType, res.Time)
	}
}

// TestSlowFastSimultaneousStartCanExceedTwoN measures Lynch's claim for
// VariableSpeeds (fewer than 2n messages when all nodes start together)
// against the slides' version, where every message's first hop is fast. On
// ids [0 2 3 1 4 5] (all active at round 0), by hand:
//
//	round 0: the six fast messages (6).
//	round 1: node 1 accepts 0: TIMEOUT = 1+2^0-1 = 1, sends slow 0 (7);
//	         node 2 accepts 2 (TIMEOUT 4), node 4 accepts 1 (TIMEOUT 2),
//	         node 5 accepts 4 (TIMEOUT 16); nodes 3 and 0 drop 3 and 5.
//	round 2: node 2 takes 0 instead of 2 and sends it (8); node 4 sends 1 (9).
//	round 3: node 3 sends 0 (10); node 5 takes 1 instead of 4 (TIMEOUT 4).
//	round 4: node 4 sends 0 (11); node 5 sends 1 (12).
//	round 5: node 5 sends 0 (13); node 0 drops 1.
//	round 6: node 0 gets 0 back: elected, 1+(n-1)2^0 = 6.
//
// 13 messages > 2n = 12: the 2n bound does not carry over; the declared
// 3n-2 for simultaneous start (n first hops, the winner's n-1 slow hops, and
// for every other ID v at most (n-2)/2^(v-m) slow hops before the winner
// overtakes it, at most n-2 in all) and the slides' 5n hold.
func TestSlowFastSimultaneousStartCanExceedTwoN(t *testing.T) {
	res := nlRun(t, election.Config{Algorithm: ring.SlowFast, IDs: []elect.ID{0, 2, 3, 1, 4, 5}, Delivery: election.Sync, Params: slowFastProse})
	if res.MessagesByType["fast"] != 6 || res.MessagesByType["slow"] != 7 || res.Time != 6 || res.LeaderIndex != 0 {
		t.Errorf("messages %v, time %v, leader node %d; want fast 6 slow 7, time 6, node 0", res.MessagesByType, res.Time, res.LeaderIndex)
	}
}

// TestSlowFastBoundFiveN is the slides' message analysis (types 1-4: at most
// 5n messages, at most n of them fast) and correctness ("the active
// processor with smallest id is elected") as a property over random rings
// and random wake-up schedules (any non-empty set of initiators, wake-up
// times up to 2n), and over simultaneous starts, where the time is exactly
// 1+(n-1)2^m and the messages at most 3n-2. All declared bounds are checked
// by the monitor; the largest ratio seen is logged.
func TestSlowFastBoundFiveN(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 4))
	trials := 3000
	if testing.Short() {
		trials = 500
	}
	worst := [2]float64{}
	for trial := range trials {
		n := 1 + rng.IntN(48) // IDs 0..47 keep 2^m*n far below 2^62
		ids := make([]elect.ID, n)
		offset := rng.IntN(3)
		for i, v := range rng.Perm(n) {
			ids[i] = elect.ID(v + offset)
		}
		cfg := election.Config{Algorithm: ring.SlowFast, IDs: ids, Delivery: election.Sync, Params: slowFastProse, Seed: uint64(trial)}
		simultaneous := trial%3 == 0
		if !simultaneous {
			cfg.Wake = randomWake(rng, n, int64(2*n))
		}
		res := nlRun(t, cfg)
		k := 0
		if simultaneous {
			k = 1
		}
		worst[k] = max(worst[k], float64(res.Messages)/float64(n))
	}
	t.Logf("largest messages/n: %.3f with staggered wake-ups, %.3f with simultaneous start", worst[0], worst[1])
}

// TestSlowFastLiteralActiveCaseStalls shows the transcription difference in
// ACTIVE_CASE: read literally, IF(R=TIMEOUT) SEND(OUT_BUFFER) only runs in a
// round with input. On ids [1 2 3], all active at round 0: node 1 accepts 1
// in round 1 with TIMEOUT 2, node 2 accepts 2 with TIMEOUT 4, node 0 drops
// 3; no message arrives anywhere after round 1, so nothing is ever sent
// again: 3 messages and no leader. The prose (the default) elects node 0 in
// round 1+2*2^1 = 5 with 5 messages. With winner ID 0, TIMEOUT = R for the
// winner and both readings elect it in round n; only other slow messages
// stall: on [0 2 1 3] node 3 holds 1 with TIMEOUT 2 but gets no input in
// round 2, so the literal reading sends 7 messages where the prose sends 8
// (1 goes on to node 0, which drops it).
func TestSlowFastLiteralActiveCaseStalls(t *testing.T) {
	ids := []elect.ID{1, 2, 3}
	lit := runAny(t, election.Config{Algorithm: ring.SlowFast, IDs: ids, Delivery: election.Sync, Params: elect.Params{"variant": "literal"}})
	if lit.Outcome != election.NoLeader || lit.Messages != 3 {
		t.Errorf("literal: outcome %s, %d messages; want no-leader, 3", lit.Outcome, lit.Messages)
	}
	prose := nlRun(t, election.Config{Algorithm: ring.SlowFast, IDs: ids, Delivery: election.Sync, Params: slowFastProse})
	if prose.Messages != 5 || prose.Time != 5 {
		t.Errorf("prose: %d messages, time %v; want 5, 5", prose.Messages, prose.Time)
	}
	ids0 := []elect.ID{0, 2, 1, 3}
	a := nlRun(t, election.Config{Algorithm: ring.SlowFast, IDs: ids0, Delivery: election.Sync, Params: elect.Params{"variant": "literal"}})
	b := nlRun(t, election.Config{Algorithm: ring.SlowFast, IDs: ids0, Delivery: election.Sync, Params: slowFastProse})
	if a.Messages != 7 || b.Messages != 8 || a.Time != 4 || b.Time != 4 {
		t.Errorf("winner ID 0: literal %d messages in %v rounds, prose %d in %v; want 7 and 8 in 4", a.Messages, a.Time, b.Messages, b.Time)
	}
}

// TestSlowFastReplacedMessagesAreCancelled checks that a slow message
// replaced by a smaller ID neither fires later nor stretches the run: on ids
// [0 40 50 60], node 2 holds 40 with TIMEOUT 2^40 and node 3 holds 50, both
// replaced by 0 in rounds 2 and 3; the run ends when 0 is back, at round
// 1+3*2^0 = 4, after a handful of events.
func TestSlowFastReplacedMessagesAreCancelled(t *testing.T) {
	res := nlRun(t, election.Config{Algorithm: ring.SlowFast, IDs: []elect.ID{0, 40, 50, 60}, Delivery: election.Sync, Params: slowFastProse})
	if res.Time != 4 || res.Events > 20 {
		t.Errorf("time %v, %d events; want 4 and no stale timer", res.Time, res.Events)
	}
	// IDs whose delay does not even fit in 64 bits are parked and replaced
	// the same way.
	res = nlRun(t, election.Config{Algorithm: ring.SlowFast, IDs: []elect.ID{0, 70, 100, 1 << 40}, Delivery: election.Sync, Params: slowFastProse})
	if res.Time != 4 {
		t.Errorf("time %v with huge IDs; want 4", res.Time)
	}
}

// TestSlowFastRefusesRunsPastTheLastRound checks CheckRun: the winner's
// message takes up to n*2^m rounds, so the smallest (initiator) ID m must be
// at most 62 - ceil(lg n); the error says so, --force or not. When the
// refusal cannot see it coming (an initiator woken early by a message
// leaves a larger winner), a parked winner is reported as a time-overflow
// violation, never as a silent no-leader.
func TestSlowFastRefusesRunsPastTheLastRound(t *testing.T) {
	for _, tc := range []struct{ ids, initiators, want string }{
		{"61,62,63,64", "all", "smallest ID must be at most 62 - ceil(lg n) = 60; got 61"},
		{"0,70,71,72", "nodes:1,2", "smallest initiator ID must be at most 62 - ceil(lg n) = 60; got 70"},
	} {
		_, err := scenario.Build(scenario.Spec{Algorithm: "slow-fast", N: 4, IDs: tc.ids, Initiators: tc.initiators, Force: true})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ids %s, initiators %s: error %v, want it to say %q", tc.ids, tc.initiators, err, tc.want)
		}
	}
	if _, err := scenario.Build(scenario.Spec{Algorithm: "slow-fast", N: 4, IDs: "60,61,62,63"}); err != nil {
		t.Errorf("smallest ID 60 on 4 nodes was refused: %v", err)
	}
	// Nodes 0 (ID 70) and 1 (ID 71) are active; node 1 makes 70 slow with a
	// delay of 2^70 rounds, which no 64-bit round can hold.
	res := runAny(t, election.Config{Algorithm: ring.SlowFast, IDs: []elect.ID{70, 71, 5}, Delivery: election.Sync, Params: slowFastProse,
		Wake: []election.Wake{{Node: 0}, {Node: 1}}})
	if res.Outcome != election.OutcomeViolation || !strings.Contains(res.Violation, "time-overflow") {
		t.Errorf("parked winner: outcome %s %q; want a time-overflow violation", res.Outcome, res.Violation)
	}
}

// TestSlowFastVariantParameter checks --variant.
func TestSlowFastVariantParameter(t *testing.T) {
	_, err := scenario.Build(scenario.Spec{Algorithm: "slow-fast", N: 4, Params: map[string]string{"variant": "fast"}})
	if err == nil || !strings.Contains(err.Error(), "prose and literal") {
		t.Errorf("--variant fast: %v", err)
	}
}

// TestSlowFastWakeReadings: the two readings of MAIN's waking round differ
// (issue 21). n = 3, ids [3 1 2], node 0 wakes at round 0 and node 1 at
// round 1, when node 0's fast 3 reaches it.
//
//   - prose (default): node 1 woke spontaneously, so it is active; it drops
//     3 (> 1) and sends fast 1, which node 2 (a relay, woken by it in round
//     2) forwards and node 0 (active) slows: 2^1 rounds per hop, home at
//     round 5. ID 1 is elected with 3 fast messages and 1 slow.
//   - literal: IN_BUFFER is not empty in node 1's waking round, so node 1 is
//     a relay and forwards 3 at once; node 2 (woken by it) too; node 0 gets
//     its own ID back in round 3: ID 3 is elected with 3 fast messages,
//     which breaks the promise of the smallest initiator ID (the monitor
//     reports wrong-leader), since node 1 did wake spontaneously.
func TestSlowFastWakeReadings(t *testing.T) {
	cfg := func(wake string) election.Config {
		return election.Config{Algorithm: ring.SlowFast, IDs: []elect.ID{3, 1, 2}, Delivery: election.Sync,
			Params: elect.Params{"variant": "prose", "wake": wake}, Wake: []election.Wake{{Node: 0, At: 0}, {Node: 1, At: 1}}}
	}
	prose := nlRun(t, cfg("prose"))
	if prose.LeaderID != 1 || prose.MessagesByType["fast"] != 3 || prose.MessagesByType["slow"] != 1 || prose.Time != 5 {
		t.Errorf("prose: leader ID %d, messages %v, time %v; want ID 1, fast 3 slow 1, time 5", prose.LeaderID, prose.MessagesByType, prose.Time)
	}
	literal := runAny(t, cfg("literal"))
	if literal.Leaders != 1 || literal.LeaderID != 3 || literal.Messages != 3 || literal.Time != 3 || literal.Outcome != election.OutcomeViolation {
		t.Errorf("literal: %d leaders, leader ID %d, %d messages, time %v, outcome %s; want ID 3 alone, 3 messages, time 3, violation",
			literal.Leaders, literal.LeaderID, literal.Messages, literal.Time, literal.Outcome)
	}
	// With every node waking at round 0 no message arrives in a waking
	// round: the readings are the same run.
	all := func(wake string) election.Config {
		c := cfg(wake)
		c.Wake = nil
		return c
	}
	a, b := nlRun(t, all("prose")), nlRun(t, all("literal"))
	if a.LeaderID != b.LeaderID || a.Messages != b.Messages || a.Time != b.Time {
		t.Errorf("all at round 0: prose %d/%d/%v, literal %d/%d/%v (leader, messages, time)", a.LeaderID, a.Messages, a.Time, b.LeaderID, b.Messages, b.Time)
	}
	if _, err := scenario.Build(scenario.Spec{Algorithm: "slow-fast", N: 4, Params: map[string]string{"wake": "late"}}); err == nil || !strings.Contains(err.Error(), "prose and literal") {
		t.Errorf("--wake late: %v", err)
	}
}
