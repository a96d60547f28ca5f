package sim_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// scripted is a test algorithm whose nodes follow a script given per node
// index through the ID: it lets a test provoke each outcome of the monitor.
type scripted struct {
	id    elect.ID
	onW   func(env elect.Env, id elect.ID)
	onR   func(env elect.Env, id elect.ID, from elect.Port, m elect.Message)
	onT   func(env elect.Env, id elect.ID, tag int64)
	state uint64
}

func (s *scripted) Wake(env elect.Env, spontaneous bool) {
	if s.onW != nil {
		s.onW(env, s.id)
	}
}

func (s *scripted) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if s.onR != nil {
		s.onR(env, s.id, from, m)
	}
}

func (s *scripted) Timer(env elect.Env, tag int64) {
	if s.onT != nil {
		s.onT(env, s.id, tag)
	}
}

func (s *scripted) Clone() elect.Node { c := *s; return &c }

func (s *scripted) AppendState(b []byte) []byte { return elect.AppendUint(b, s.state) }

// script returns an algorithm on a bidirectional ring whose nodes run the
// given handlers.
func script(elects elect.Elects, onW func(elect.Env, elect.ID), onR func(elect.Env, elect.ID, elect.Port, elect.Message), onT func(elect.Env, elect.ID, int64)) *elect.Algorithm {
	return &elect.Algorithm{
		Name:     "script",
		Model:    elect.Model{Topology: elect.BiRing, Sync: true, Async: true, WakeUp: elect.AnySubset, Elects: elects},
		Messages: []elect.MessageType{{Name: "m", Fields: []string{"x", "seq"}}},
		New: func(info elect.NodeInfo) elect.Node {
			return &scripted{id: info.ID, onW: onW, onR: onR, onT: onT}
		},
	}
}

func ringIDs(n int) []elect.ID {
	out := make([]elect.ID, n)
	for i := range out {
		out[i] = elect.ID(i)
	}
	return out
}

func run(t *testing.T, cfg election.Config) *election.Result {
	t.Helper()
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestMonitorOutcomes(t *testing.T) {
	electIf := func(pred func(elect.ID) bool) func(elect.Env, elect.ID) {
		return func(env elect.Env, id elect.ID) {
			if pred(id) {
				env.Decide(elect.Elected)
			}
		}
	}
	cases := []struct {
		name      string
		alg       *elect.Algorithm
		want      election.Outcome
		violation string
	}{
		{"the maximum elects itself", script(elect.ElectsMax, electIf(func(id elect.ID) bool { return id == 4 }), nil, nil), election.OutcomeElected, ""},
		{"two nodes elect themselves", script(elect.ElectsMax, electIf(func(id elect.ID) bool { return id >= 3 }), nil, nil), election.MultipleLeaders, ""},
		{"nobody is elected", script(elect.ElectsMax, nil, nil, nil), election.NoLeader, ""},
		{"the minimum is elected but the maximum promised", script(elect.ElectsMax, electIf(func(id elect.ID) bool { return id == 0 }), nil, nil), election.OutcomeViolation, "wrong-leader"},
		{"the minimum is elected and promised", script(elect.ElectsMin, electIf(func(id elect.ID) bool { return id == 0 }), nil, nil), election.OutcomeElected, ""},
		{"a decision changes", script(elect.ElectsAny, func(env elect.Env, id elect.ID) {
			if id == 2 {
				env.Decide(elect.Elected)
				env.Decide(elect.NotElected)
			}
		}, nil, nil), election.OutcomeViolation, "decision-changed"},
		{"a node sends on a port it lacks", script(elect.ElectsAny, func(env elect.Env, id elect.ID) {
			env.Send(7, elect.Message{})
		}, nil, nil), election.OutcomeViolation, "bad-port"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, election.Config{Algorithm: c.alg, Graph: topology.NewRing(5), IDs: ringIDs(5), Delivery: election.FIFO})
			if res.Outcome != c.want {
				t.Fatalf("outcome %s (%s), want %s", res.Outcome, res.Violation, c.want)
			}
			if !strings.HasPrefix(res.Violation, c.violation) {
				t.Fatalf("violation %q, want prefix %q", res.Violation, c.violation)
			}
		})
	}
}

// TestEndlessRunStopsAtStepLimit: a node that ping-pongs forever is stopped
// by the event limit and reported as such, not looped on.
func TestEndlessRunStopsAtStepLimit(t *testing.T) {
	alg := script(elect.ElectsAny, func(env elect.Env, id elect.ID) {
		if id == 0 {
			env.Send(elect.Left, elect.Message{})
		}
	}, func(env elect.Env, id elect.ID, from elect.Port, m elect.Message) {
		env.Send(from, m)
	}, nil)
	res := run(t, election.Config{Algorithm: alg, Graph: topology.NewRing(3), IDs: ringIDs(3), Delivery: election.FIFO, MaxEvents: 1000})
	if res.Outcome != election.StepLimit || res.Events != 1000 {
		t.Fatalf("outcome %s after %d events, want step-limit after 1000", res.Outcome, res.Events)
	}
	res = run(t, election.Config{Algorithm: alg, Graph: topology.NewRing(3), IDs: ringIDs(3), Delivery: election.Random, MaxTime: 50})
	if res.Outcome != election.StepLimit || res.Time > 50 {
		t.Fatalf("outcome %s at time %v, want step-limit by time 50", res.Outcome, res.Time)
	}
}

// TestIdleRoundsAreSkipped: a synchronous node that waits 10^9 rounds costs
// one event, not 10^9 (DESIGN: idle time is skipped, never looped over).
func TestIdleRoundsAreSkipped(t *testing.T) {
	const wait = 1_000_000_000
	alg := script(elect.ElectsMax, func(env elect.Env, id elect.ID) {
		if id == 2 {
			env.SetTimer(wait, 7)
		}
	}, nil, func(env elect.Env, id elect.ID, tag int64) {
		if tag == 7 && env.Round() == wait {
			env.Decide(elect.Elected)
		}
	})
	res := run(t, election.Config{Algorithm: alg, Graph: topology.NewRing(3), IDs: ringIDs(3), Delivery: election.Sync})
	if res.Outcome != election.OutcomeElected || res.Time != wait || res.Events != 4 {
		t.Fatalf("outcome %s, time %v, %d events; want elected at round %d after 4 events (3 wake-ups, 1 timer)", res.Outcome, res.Time, res.Events, wait)
	}
}

// senderScript makes node 0 send count messages numbered 0..count-1 on Left,
// all at once, and node 1 record their arrival order.
func senderScript(count int, got *[]int64) *elect.Algorithm {
	return script(elect.ElectsAny, func(env elect.Env, id elect.ID) {
		if id == 0 {
			for k := range count {
				env.Send(elect.Left, elect.Message{A: int64(k)})
			}
		}
	}, func(env elect.Env, id elect.ID, from elect.Port, m elect.Message) {
		*got = append(*got, m.A)
	}, nil)
}

// TestDeliveryOrders: fifo, sync and random-fifo keep a link's order;
// newest-first reverses it; random reorders it.
func TestDeliveryOrders(t *testing.T) {
	const count = 64
	for _, d := range []election.Delivery{election.Sync, election.FIFO, election.RandomFIFO, election.Random, election.NewestFirst} {
		var got []int64
		run(t, election.Config{Algorithm: senderScript(count, &got), Graph: topology.NewRing(3), IDs: ringIDs(3), Delivery: d, Seed: 5})
		if len(got) != count {
			t.Fatalf("%s: %d deliveries, want %d", d, len(got), count)
		}
		inOrder, reversed := true, true
		for k := range got {
			inOrder = inOrder && got[k] == int64(k)
			reversed = reversed && got[k] == int64(count-1-k)
		}
		switch d {
		case election.NewestFirst:
			if !reversed {
				t.Errorf("%s: order %v, want newest first", d, got)
			}
		case election.Random:
			if inOrder {
				t.Errorf("%s: 64 messages with random delays arrived in order", d)
			}
		default:
			if !inOrder {
				t.Errorf("%s: order %v, want the sending order", d, got)
			}
		}
	}
}

// TestSyncRoundsAndTimers: a message sent in round r arrives in round r+1,
// and a timer for round r fires after that round's messages.
func TestSyncRoundsAndTimers(t *testing.T) {
	var log []string
	alg := script(elect.ElectsAny, func(env elect.Env, id elect.ID) {
		if id == 0 {
			env.Send(elect.Left, elect.Message{})
			env.SetTimer(1, 0)
		}
		if id == 1 {
			env.SetTimer(1, 1)
		}
	}, func(env elect.Env, id elect.ID, from elect.Port, m elect.Message) {
		log = append(log, "deliver to "+string(rune('0'+id))+" in round "+string(rune('0'+env.Round())))
	}, func(env elect.Env, id elect.ID, tag int64) {
		log = append(log, "timer of "+string(rune('0'+id))+" in round "+string(rune('0'+env.Round())))
	})
	run(t, election.Config{Algorithm: alg, Graph: topology.NewRing(3), IDs: ringIDs(3), Delivery: election.Sync})
	want := "deliver to 1 in round 1|timer of 0 in round 1|timer of 1 in round 1"
	if got := strings.Join(log, "|"); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

// TestZeroRoundTimerEndsTheRound: a timer of 0 rounds fires at the end of
// the round it is set in, after that round's messages, on the fast and the
// reference engine alike, whether it is set at a wake-up at round 0 (before
// any instant has run) or later. Node 0 sends at round 0 and sets one; node
// 1, scheduled to wake at round 1, sets one at its wake-up, before the
// message of round 1 reaches it; a 0-round timer set by a timer fires in the
// same round too.
func TestZeroRoundTimerEndsTheRound(t *testing.T) {
	var log []string
	add := func(env elect.Env, what string, id elect.ID) {
		log = append(log, what+" "+string(rune('0'+id))+" round "+string(rune('0'+env.Round())))
	}
	alg := script(elect.ElectsAny, func(env elect.Env, id elect.ID) {
		add(env, "wake", id)
		if id == 0 {
			env.Send(elect.Left, elect.Message{})
		}
		env.SetTimer(0, int64(id))
	}, func(env elect.Env, id elect.ID, from elect.Port, m elect.Message) {
		add(env, "deliver", id)
	}, func(env elect.Env, id elect.ID, tag int64) {
		add(env, "timer", id)
		if tag == 1 {
			env.SetTimer(0, 9)
		}
	})
	want := "wake 0 round 0|timer 0 round 0|wake 1 round 1|deliver 1 round 1|timer 1 round 1|timer 1 round 1"
	cfg := election.Config{Algorithm: alg, Graph: topology.NewRing(3), IDs: ringIDs(3), Delivery: election.Sync,
		Wake: []election.Wake{{Node: 0, At: 0}, {Node: 1, At: 1}}}
	for _, e := range []struct {
		name string
		run  func(election.Config) (*election.Result, error)
	}{{"fast", sim.Run}, {"reference", reference.Run}} {
		log = nil
		res, err := e.run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(log, "|"); got != want || res.Violation != "" {
			t.Errorf("%s engine: got %s (violation %q)\nwant %s", e.name, got, res.Violation, want)
		}
	}
}

// TestSameSeedSameTrace: the same configuration and seed give the same trace
// byte for byte, under every delivery model, with random initiators; another
// seed gives another trace under random delays.
func TestSameSeedSameTrace(t *testing.T) {
	traceOf := func(d election.Delivery, seed uint64) string {
		var buf bytes.Buffer
		cfg := election.Config{Algorithm: ring.ChangRoberts, Graph: topology.NewRing(32), IDs: shuffled(32, seed), Delivery: d, Seed: seed,
			Wake: []election.Wake{{Node: 3, At: 0}, {Node: 17, At: 2}, {Node: 30, At: 1}}, Trace: &buf}
		res := run(t, cfg)
		if res.Outcome != election.OutcomeElected {
			t.Fatalf("%s: outcome %s", d, res.Outcome)
		}
		return buf.String()
	}
	for _, d := range []election.Delivery{election.Sync, election.FIFO, election.Random, election.RandomFIFO, election.NewestFirst} {
		a, b := traceOf(d, 9), traceOf(d, 9)
		if a != b || len(a) == 0 {
			t.Fatalf("%s: two runs with seed 9 gave different traces (%d and %d bytes)", d, len(a), len(b))
		}
	}
	if traceOf(election.Random, 9) == traceOf(election.Random, 10) {
		t.Fatal("seeds 9 and 10 gave the same random-delay trace")
	}
}

func shuffled(n int, seed uint64) []elect.ID {
	ids := ringIDs(n)
	election.Stream(seed, "test-ids", 0).Shuffle(n, func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return ids
}

// TestTraceFormat pins the trace of a 3-node LCR run: the header, then every
// event in order (docs/trace.md, format version 2).
func TestTraceFormat(t *testing.T) {
	var buf bytes.Buffer
	run(t, election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(3), IDs: []elect.ID{1, 2, 0}, Delivery: election.FIFO, Announce: true, Trace: &buf})
	want := `{"ev":"header","format":"elect-trace","version":2,"algorithm":"lcr","title":"Le Lann-Chang-Roberts","n":3,"seed":0,"topology":{"kind":"ring","name":"ring"},"ids":[1,2,0],"delivery":"fifo","time":"time units","runtime":"sim","announce":true,"messages":[{"name":"election","fields":["j"]},{"name":"leader","fields":["j"]}],"bounds":[{"name":"election messages","quantity":"messages","types":["election"],"relation":"<=","formula":"n(n+1)/2","value":6},{"name":"election messages","quantity":"messages","types":["election"],"relation":">=","formula":"2n-1","value":5},{"name":"leader messages","quantity":"messages","types":["leader"],"relation":"==","formula":"n","value":3},{"name":"time","quantity":"time","relation":"<=","formula":"n (2n with announcement)","value":6}]}
{"t":0,"ev":"wake","node":0,"spontaneous":true}
{"t":0,"ev":"send","from":0,"port":"left","to":1,"type":"election","payload":{"j":1}}
{"t":0,"ev":"state","node":0,"vars":{"id":1,"maxID":1,"leader":false,"announce":true}}
{"t":0,"ev":"wake","node":1,"spontaneous":true}
{"t":0,"ev":"send","from":1,"port":"left","to":2,"type":"election","payload":{"j":2}}
{"t":0,"ev":"state","node":1,"vars":{"id":2,"maxID":2,"leader":false,"announce":true}}
{"t":0,"ev":"wake","node":2,"spontaneous":true}
{"t":0,"ev":"send","from":2,"port":"left","to":0,"type":"election","payload":{"j":0}}
{"t":0,"ev":"state","node":2,"vars":{"id":0,"maxID":0,"leader":false,"announce":true}}
{"t":1,"ev":"deliver","from":0,"to":1,"port":"right","type":"election","payload":{"j":1}}
{"t":1,"ev":"deliver","from":1,"to":2,"port":"right","type":"election","payload":{"j":2}}
{"t":1,"ev":"send","from":2,"port":"left","to":0,"type":"election","payload":{"j":2}}
{"t":1,"ev":"state","node":2,"vars":{"id":0,"maxID":2,"leader":false,"announce":true}}
{"t":1,"ev":"deliver","from":2,"to":0,"port":"right","type":"election","payload":{"j":0}}
{"t":2,"ev":"deliver","from":2,"to":0,"port":"right","type":"election","payload":{"j":2}}
{"t":2,"ev":"send","from":0,"port":"left","to":1,"type":"election","payload":{"j":2}}
{"t":2,"ev":"state","node":0,"vars":{"id":1,"maxID":2,"leader":false,"announce":true}}
{"t":3,"ev":"deliver","from":0,"to":1,"port":"right","type":"election","payload":{"j":2}}
{"t":3,"ev":"decide","node":1,"decision":"elected"}
{"t":3,"ev":"send","from":1,"port":"left","to":2,"type":"leader","payload":{"j":2}}
{"t":3,"ev":"state","node":1,"vars":{"id":2,"maxID":2,"leader":true,"announce":true}}
{"t":4,"ev":"deliver","from":1,"to":2,"port":"right","type":"leader","payload":{"j":2}}
{"t":4,"ev":"learn","node":2,"leader":2}
{"t":4,"ev":"decide","node":2,"decision":"not-elected"}
{"t":4,"ev":"send","from":2,"port":"left","to":0,"type":"leader","payload":{"j":2}}
{"t":5,"ev":"deliver","from":2,"to":0,"port":"right","type":"leader","payload":{"j":2}}
{"t":5,"ev":"learn","node":0,"leader":2}
{"t":5,"ev":"decide","node":0,"decision":"not-elected"}
{"t":5,"ev":"send","from":0,"port":"left","to":1,"type":"leader","payload":{"j":2}}
{"t":6,"ev":"deliver","from":0,"to":1,"port":"right","type":"leader","payload":{"j":2}}
`
	if buf.String() != want {
		t.Fatalf("trace:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// TestStreamsAreIndependentOfUse: a stream depends only on (seed, purpose,
// index).
func TestStreamsAreIndependentOfUse(t *testing.T) {
	a := election.Stream(1, "node", 3).Uint64()
	election.Stream(1, "node", 2).Uint64()
	if b := election.Stream(1, "node", 3).Uint64(); a != b {
		t.Fatal("the same stream gave different values")
	}
	if election.Stream(1, "node", 4).Uint64() == a || election.Stream(2, "node", 3).Uint64() == a || election.Stream(1, "ids", 3).Uint64() == a {
		t.Fatal("different streams gave the same first value")
	}
}

// TestRunsShareNoState runs a large, a small and the large configuration
// again: the buffers one run hands to the next (cleared, reused) must not
// change any result.
func TestRunsShareNoState(t *testing.T) {
	big := election.Config{Algorithm: ring.HS, Graph: topology.NewRing(200), IDs: shuffled(200, 4), Delivery: election.FIFO, Announce: true}
	small := election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(7), IDs: shuffled(7, 5), Delivery: election.Sync}
	first := run(t, big)
	run(t, small)
	again := run(t, big)
	if first.Messages != again.Messages || first.Time != again.Time || first.LeaderIndex != again.LeaderIndex ||
		first.MaxNodeMessages != again.MaxNodeMessages || !first.AllKnowLeader || !again.AllKnowLeader {
		t.Fatalf("the same run gave %+v, then %+v", first, again)
	}
}

// TestLargeRingsWithPrefetch runs rings large enough for the simulator to
// prefetch the coming deliveries' state (a path small tests never take):
// LCR's message count under FIFO delivery must still be the count computed
// from the ring alone (each ID travels until it meets a larger one, the
// maximum all the way round), and every run must elect the maximum.
func TestLargeRingsWithPrefetch(t *testing.T) {
	const n = 1 << 17
	ids := shuffled(n, 11)
	var want int64
	for i := range n {
		hops := int64(1)
		for ids[(i+int(hops))%n] < ids[i] {
			hops++
		}
		want += hops
	}
	for _, d := range []election.Delivery{election.FIFO, election.Sync, election.Random, election.RandomFIFO} {
		for _, alg := range []*elect.Algorithm{ring.LCR, ring.HS} {
			cfg := election.Config{Algorithm: alg, Graph: topology.NewRing(n), IDs: ids, Delivery: d, Seed: 3}
			if sim.TouchAhead(cfg) == 0 {
				t.Fatalf("%s, %s on %d nodes does not prefetch", alg.Name, d, n)
			}
			res := run(t, cfg)
			if res.Outcome != election.OutcomeElected || res.LeaderID != n-1 {
				t.Fatalf("%s, %s: outcome %s, leader %d", alg.Name, d, res.Outcome, res.LeaderID)
			}
			if alg == ring.LCR && d.IsFIFO() && res.Messages != want {
				t.Errorf("LCR, %s: %d messages, want %d", d, res.Messages, want)
			}
		}
	}
}
