package live_test

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/live"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// orderFree lists the asynchronous algorithms whose message counts do not
// depend on the order of deliveries when every node initiates on FIFO
// links: an ID travels until it meets a larger one, whatever the timing.
var orderFree = map[string]bool{"lcr": true, "chang-roberts": true}

// sizeFor is n, or for an algorithm that runs only on hypercubes (a
// general one that needs a sense of direction) the largest power of two
// up to n, or for one with a family of its own the largest square up to n.
func sizeFor(alg *elect.Algorithm, n int) int {
	if alg.Model.Topology == elect.General && alg.Model.SenseOfDirection {
		return 1 << elect.FloorLog2(n)
	}
	if alg.NaturalTopology != nil {
		// A family of its own (peterson-mesh: grids): the largest square
		// up to n, whose natural topology is the s x s grid.
		s := int(math.Sqrt(float64(n)))
		return s * s
	}
	return n
}

// TestEveryAlgorithmOnGoroutines runs each catalog algorithm on goroutines
// at n = 100 on its own topology: the leader is the simulator's, every
// check holds, and the counts equal the simulator's wherever they do not
// depend on the delivery order.
func TestEveryAlgorithmOnGoroutines(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 40
	}
	for _, alg := range catalog.Default().All() {
		t.Run(alg.Name, func(t *testing.T) {
			cfg, err := scenario.Build(scenario.Spec{Algorithm: alg.Name, N: sizeFor(alg, n), Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			want, err := sim.Run(*cfg)
			if err != nil {
				t.Fatal(err)
			}
			got, err := live.Run(*cfg)
			if err != nil {
				t.Fatal(err)
			}
			promised := alg.Model.Elects != elect.ElectsAny && alg.Model.Elects != elect.ElectsAnyKnowsMax
			if got.Outcome != want.Outcome || promised && got.LeaderID != want.LeaderID {
				t.Fatalf("goroutines: %s, leader ID %d (%s); simulator: %s, leader ID %d", got.Outcome, got.LeaderID, got.Violation, want.Outcome, want.LeaderID)
			}
			for _, c := range got.Checks {
				if !c.Holds {
					t.Errorf("check failed on goroutines: %s: %v %s %v", c.Name, c.Actual, c.Relation, c.Expected)
				}
			}
			if cfg.Delivery == election.Sync || orderFree[alg.Name] {
				if got.Messages != want.Messages || got.Time != want.Time && cfg.Delivery == election.Sync {
					t.Errorf("goroutines: %d messages, time %v; simulator: %d messages, time %v", got.Messages, got.Time, want.Messages, want.Time)
				}
				for k, v := range want.MessagesByType {
					if got.MessagesByType[k] != v {
						t.Errorf("%s messages: goroutines %d, simulator %d", k, got.MessagesByType[k], v)
					}
				}
			}
			t.Logf("%s delivery: %d messages (simulator %d), time %v (simulator %v)", cfg.Delivery, got.Messages, want.Messages, got.Time, want.Time)
		})
	}
}

// TestRecordAndReplay records runs of every catalog algorithm on goroutines
// and replays each record on the reference engine: the counts, decisions,
// events and time are the recorded run's.
func TestRecordAndReplay(t *testing.T) {
	for _, alg := range catalog.Default().All() {
		for _, n := range []int{5, 24} {
			for seed := uint64(1); seed <= 3; seed++ {
				cfg, err := scenario.Build(scenario.Spec{Algorithm: alg.Name, N: sizeFor(alg, n), Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				got, record := runTraced(t, cfg, live.Run)
				replayed, err := reference.Replay(*cfg, bytes.NewReader(record.Bytes()))
				if err != nil {
					t.Fatalf("%s n=%d seed %d: %v", alg.Name, n, seed, err)
				}
				a, b := summary(got), summary(replayed)
				if a != b {
					t.Errorf("%s n=%d seed %d:\nrecorded %s\nreplayed %s", alg.Name, n, seed, a, b)
				}
			}
		}
	}
}

// runTraced runs a copy of cfg with run (live.Run or sim.Run), its trace
// written to a buffer, and returns the result and the trace.
func runTraced(t *testing.T, cfg *election.Config, run func(election.Config) (*election.Result, error)) (*election.Result, *bytes.Buffer) {
	t.Helper()
	var trace bytes.Buffer
	c := *cfg
	c.Trace = &trace
	r, err := run(c)
	if err != nil {
		t.Fatal(err)
	}
	return r, &trace
}

// summary is what a replay must reproduce of a run. Not the event count:
// an input that changes nothing (a timer of a halted node, the wake-up of
// an awake one) counts as an event but leaves no line in the record.
func summary(r *election.Result) string {
	return fmt.Sprintf("%s leader %d (%d leaders) informed %v messages %d %v max/node %d time %v checks %v",
		r.Outcome, r.LeaderID, r.Leaders, r.AllKnowLeader, r.Messages, r.TypeCounts, r.MaxNodeMessages, r.Time, r.Checks)
}

// TestTimeSliceSkipsIdleRounds runs time-slice with IDs near 10^9 on the
// round barrier: the run needs n(m+1) rounds, about 10^11, and finishes at
// once because idle rounds are skipped; the time is exactly n(m+1).
func TestTimeSliceSkipsIdleRounds(t *testing.T) {
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "time-slice", N: 50, Seed: 3, IDs: "range:1000000000..1000001000"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := live.Run(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := cfg.IDs[0]
	for _, id := range cfg.IDs {
		m = min(m, id)
	}
	if want := float64(50 * (m + 1)); r.Outcome != election.OutcomeElected || r.Time != want || r.Messages != 50 {
		t.Fatalf("%s, time %v, %d messages; want elected, time %v, 50 messages", r.Outcome, r.Time, r.Messages, want)
	}
}

// everyoneElected is a faulty algorithm: every node elects itself when it
// wakes, and tells its neighbour. The monitor must see every leader, under
// real concurrency.
var everyoneElected = &elect.Algorithm{
	Name:     "everyone-elected",
	Model:    elect.Model{Topology: elect.BiRing, Async: true, Sync: true, Elects: elect.ElectsAny, WakeUp: elect.AnySubset},
	Messages: []elect.MessageType{{Name: "hello"}},
	New:      func(elect.NodeInfo) elect.Node { return &selfElector{} },
}

type selfElector struct{}

func (*selfElector) Wake(env elect.Env, spontaneous bool) {
	env.Decide(elect.Elected)
	env.Send(elect.Left, elect.Message{})
}

func (*selfElector) Receive(env elect.Env, from elect.Port, m elect.Message) {
	env.Decide(elect.NotElected) // a changed decision: a violation
}

func TestMonitorUnderConcurrency(t *testing.T) {
	for _, d := range []election.Delivery{election.FIFO, election.Sync} {
		cfg := election.Config{Algorithm: everyoneElected, Graph: topology.NewRing(64), IDs: make([]elect.ID, 64), Delivery: d, Seed: 1}
		for i := range cfg.IDs {
			cfg.IDs[i] = elect.ID(i)
		}
		r, err := live.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != election.OutcomeViolation || r.Leaders != 64 || !strings.HasPrefix(r.Violation, "decision-changed") || r.Messages != 64 {
			t.Errorf("%s: %s (%s), %d leaders, %d messages; want a decision-changed violation, 64 leaders, 64 messages", d, r.Outcome, r.Violation, r.Leaders, r.Messages)
		}
	}
}

// TestReplayRefusesAnotherExecution tampers with a record: the replay stops
// at the line that does not fit, and says so.
func TestReplayRefusesAnotherExecution(t *testing.T) {
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "lcr", N: 8, Seed: 2, IDs: "3,7,1,0,6,2,5,4"})
	if err != nil {
		t.Fatal(err)
	}
	_, record := runTraced(t, cfg, live.Run)
	lines := strings.Split(strings.TrimSpace(record.String()), "\n")
	k := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"ev":"deliver"`) })
	tampered := slices.Clone(lines)
	tampered[k] = strings.Replace(tampered[k], `"payload":{"j":`, `"payload":{"j":1`, 1)
	_, err = reference.Replay(*cfg, strings.NewReader(strings.Join(tampered, "\n")))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("line %d", k+1)) {
		t.Errorf("tampered payload: got %v, want an error naming line %d", err, k+1)
	}
	_, err = reference.Replay(*cfg, strings.NewReader(strings.Join(lines[:len(lines)/2], "\n")))
	if err == nil || !strings.Contains(err.Error(), "in flight") {
		t.Errorf("half a record: got %v, want messages in flight", err)
	}
	other := *cfg
	other.IDs = []elect.ID{7, 3, 1, 0, 6, 2, 5, 4}
	if _, err := reference.Replay(other, strings.NewReader(record.String())); err == nil {
		t.Errorf("another ID assignment replayed without error")
	}
}

// TestReplaySimulatorTrace replays the simulator's own trace of FIFO runs:
// the same counts and decisions.
func TestReplaySimulatorTrace(t *testing.T) {
	for _, name := range []string{"hs", "peterson", "franklin", "itai-rodeh", "echo", "afek-gafni"} {
		cfg, err := scenario.Build(scenario.Spec{Algorithm: name, N: 30, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		want, trace := runTraced(t, cfg, sim.Run)
		got, err := reference.Replay(*cfg, trace)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.Outcome != want.Outcome || got.LeaderID != want.LeaderID || !slices.Equal(got.TypeCounts, want.TypeCounts) || got.AllKnowLeader != want.AllKnowLeader {
			t.Errorf("%s: replay %s leader %d counts %v; simulator %s leader %d counts %v", name, got.Outcome, got.LeaderID, got.TypeCounts, want.Outcome, want.LeaderID, want.TypeCounts)
		}
	}
}

// TestSlowFastLiteralOnGoroutines: the literal reading of slow-fast waits
// for the end of its waking round with a timer of 0 rounds; the round
// barrier fires it after the round's messages, as the simulator does.
func TestSlowFastLiteralOnGoroutines(t *testing.T) {
	for _, wake := range []string{"0@0,1@1", "0@0,1@1,2@3"} {
		spec := scenario.Spec{Algorithm: "slow-fast", N: 5, Seed: 1, IDs: "3,1,2,5,4", Initiators: "nodes:" + wake, Params: map[string]string{"wake": "literal"}}
		cfg, err := scenario.Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := sim.Run(*cfg)
		got, err := live.Run(*cfg)
		if err != nil {
			t.Fatal(err)
		}
		if summary(got) != summary(want) {
			t.Errorf("%s:\ngoroutines %s\nsimulator  %s", wake, summary(got), summary(want))
		}
	}
}
