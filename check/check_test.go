package check

import (
	"bytes"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

func run(t *testing.T, opt Options) *Report {
	t.Helper()
	r, err := Run(opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func extreme(r *Report, q string) Extreme {
	for _, e := range r.Extremes {
		if e.Quantity == q {
			return e
		}
	}
	return Extreme{}
}

// TestLCRExtremes: over every ID assignment of a unidirectional ring of n
// nodes and every schedule, LCR sends at most n(n+1)/2 election messages
// (IDs decreasing along the ring) and at least 2n-1 (increasing): seed 001,
// section 5.2.1. The counts do not depend on the schedule.
func TestLCRExtremes(t *testing.T) {
	for n := 2; n <= 5; n++ {
		r := run(t, Options{Spec: scenario.Spec{Algorithm: "lcr", N: n}, IDs: "all", Delivery: "fifo"})
		e := extreme(r, "election")
		if r.Verdict != "ok" || e.Max != int64(n*(n+1)/2) || e.Min != int64(2*n-1) {
			t.Errorf("n=%d: %s %s; election messages %d..%d, want %d..%d", n, r.Verdict, r.Violation, e.Min, e.Max, 2*n-1, n*(n+1)/2)
		}
		for _, b := range r.Bounds {
			if !b.Holds {
				t.Errorf("n=%d: bound %s fails: %v vs %v", n, b.Name, b.Worst, b.Bound)
			}
		}
		t.Logf("n=%d: %d configurations, %d states, %d transitions", n, r.Configurations, r.States, r.Transitions)
	}
}

// firstComer is a faulty algorithm for the tests: every node sends its ID
// both ways, and a node elects itself if the first message it receives
// comes from its left port. Some schedules elect two nodes, some none.
var firstComer = &elect.Algorithm{
	Name:     "first-comer",
	Model:    elect.Model{Topology: elect.BiRing, Async: true, Elects: elect.ElectsAny, WakeUp: elect.AnySubset},
	Messages: []elect.MessageType{{Name: "id", Fields: []string{"ID"}}},
	New:      elect.NodesOf(func(p *firstComerNode, info elect.NodeInfo) { *p = firstComerNode{id: info.ID} }).New,
}

type firstComerNode struct {
	id      elect.ID
	decided bool
}

func (p *firstComerNode) Wake(env elect.Env, spontaneous bool) {
	env.Send(elect.Left, elect.Message{ID: p.id})
	env.Send(elect.Right, elect.Message{ID: p.id})
}

func (p *firstComerNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if p.decided {
		return
	}
	p.decided = true
	if from == elect.Left {
		env.Decide(elect.Elected)
	} else {
		env.Decide(elect.NotElected)
	}
}

func (p *firstComerNode) Clone() elect.Node { c := *p; return &c }
func (p *firstComerNode) AppendState(b []byte) []byte {
	return elect.AppendBool(elect.AppendInt(b, int64(p.id)), p.decided)
}

// pingPong never stops: the two ends of a line bounce one message.
var pingPong = &elect.Algorithm{
	Name:     "ping-pong",
	Model:    elect.Model{Topology: elect.BiRing, Async: true, Elects: elect.ElectsAny, WakeUp: elect.AnySubset},
	Messages: []elect.MessageType{{Name: "ball"}},
	New:      elect.NodesOf(func(p *pingPongNode, info elect.NodeInfo) { *p = pingPongNode{id: info.ID} }).New,
}

type pingPongNode struct{ id elect.ID }

func (p *pingPongNode) Wake(env elect.Env, spontaneous bool) {
	if p.id == 1 {
		env.Decide(elect.Elected)
		env.Send(elect.Left, elect.Message{})
	} else {
		env.Decide(elect.NotElected)
	}
}
func (p *pingPongNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	env.Send(from, m)
}
func (p *pingPongNode) Clone() elect.Node           { c := *p; return &c }
func (p *pingPongNode) AppendState(b []byte) []byte { return elect.AppendInt(b, int64(p.id)) }

// TestFaultyAlgorithmsAreCaught: the checker finds the schedule that
// elects two nodes, writes it as a trace that the reference engine replays
// to the same failure, and reports an execution that never ends.
func TestFaultyAlgorithmsAreCaught(t *testing.T) {
	cat, err := catalog.Default().With(firstComer, pingPong)
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, Options{Spec: scenario.Spec{Catalog: cat, Algorithm: "first-comer", N: 3}, IDs: "all", Delivery: "fifo"})
	if r.Verdict != "violation" || !strings.HasPrefix(r.Violation, "multiple-leaders") && !strings.HasPrefix(r.Violation, "no-leader") {
		t.Fatalf("first-comer: %s %s", r.Verdict, r.Violation)
	}
	var trace bytes.Buffer
	if ok, err := r.WriteCounterexample(&trace); !ok || err != nil {
		t.Fatal("no counterexample", err)
	}
	cfg, err := scenario.Build(scenario.Spec{Catalog: cat, Algorithm: "first-comer", N: 3, IDs: IDsFlag(r.ViolationIDs)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := reference.Replay(*cfg, bytes.NewReader(trace.Bytes()))
	if err != nil {
		t.Fatalf("the counterexample does not replay: %v\n%s", err, trace.String())
	}
	if res.Outcome == election.OutcomeElected {
		t.Errorf("the replayed counterexample elected one leader:\n%s", trace.String())
	}
	t.Logf("first-comer: %s; replayed: %s with %d leaders", r.Violation, res.Outcome, res.Leaders)

	r = run(t, Options{Spec: scenario.Spec{Catalog: cat, Algorithm: "ping-pong", N: 3}, IDs: "all", Delivery: "fifo"})
	if r.Verdict != "violation" || !strings.HasPrefix(r.Violation, "non-termination") {
		t.Fatalf("ping-pong: %s %s", r.Verdict, r.Violation)
	}
	// The counterexample is the way into the cycle and once round it; the
	// replay checks that it comes back to the state where the loop began.
	trace.Reset()
	if ok, err := r.WriteCounterexample(&trace); !ok || err != nil {
		t.Fatal("no counterexample", err)
	}
	cfg, err = scenario.Build(scenario.Spec{Catalog: cat, Algorithm: "ping-pong", N: 3, IDs: IDsFlag(r.ViolationIDs)})
	if err != nil {
		t.Fatal(err)
	}
	res, err = reference.Replay(*cfg, bytes.NewReader(trace.Bytes()))
	if err != nil || !strings.HasPrefix(res.Violation, "non-termination") {
		t.Fatalf("the cycle does not replay: %v, %+v\n%s", err, res, trace.String())
	}
	// Cut one step short, the record no longer comes back to its loop.
	lines := strings.Split(strings.TrimSpace(trace.String()), "\n")
	short := strings.Join(append(lines[:len(lines)-2:len(lines)-2], lines[len(lines)-1]), "\n")
	if _, err := reference.Replay(*cfg, strings.NewReader(short)); err == nil || !strings.Contains(err.Error(), "not in the state") {
		t.Errorf("a loop cut short replays: %v\n%s", err, short)
	}
}

// TestSynchronousAlgorithms: time-slice over every assignment of 1..n
// sends exactly n messages in n(m+1) = 2n rounds (m = 1, the smallest ID);
// slow-fast elects the smallest initiator ID in every configuration.
func TestSynchronousAlgorithms(t *testing.T) {
	for n := 2; n <= 6; n++ {
		r := run(t, Options{Spec: scenario.Spec{Algorithm: "time-slice", N: n}, IDs: "all", Delivery: "sync"})
		msgs, time := extreme(r, "messages"), extreme(r, "time")
		if r.Verdict != "ok" || msgs.Min != int64(n) || msgs.Max != int64(n) || time.Min != int64(2*n) || time.Max != int64(2*n) {
			t.Errorf("time-slice n=%d: %s, messages %d..%d, time %d..%d", n, r.Verdict, msgs.Min, msgs.Max, time.Min, time.Max)
		}
	}
	r := run(t, Options{Spec: scenario.Spec{Algorithm: "slow-fast", N: 4}, IDs: "all", Delivery: "sync", Initiators: "subsets"})
	if r.Verdict != "ok" || r.Configurations != 6*15 {
		t.Errorf("slow-fast: %s %s, %d configurations", r.Verdict, r.Violation, r.Configurations)
	}
}

// TestWakeUpTimes: with --initiators times a synchronous check runs every
// choice of wake-up rounds (each node at a round in 0..n-1 or not at all,
// the earliest at 0): 5^4 - 4^4 = 369 choices for each of the 6
// assignments of slow-fast at n = 4, all electing the smallest initiator;
// the literal reading of the wake-up (seed 003's MAIN) elects another
// node when a message and the wake-up meet, and the check finds it with
// the rounds that show it.
func TestWakeUpTimes(t *testing.T) {
	if got := len(wakeTimes(4, 3)); got != 369 {
		t.Fatalf("%d choices of wake-up rounds for 4 nodes, want 369", got)
	}
	r := run(t, Options{Spec: scenario.Spec{Algorithm: "slow-fast", N: 4}, IDs: "all", Delivery: "sync", Initiators: "times"})
	if r.Verdict != "ok" || r.Configurations != 6*369 {
		t.Errorf("slow-fast: %s %s, %d configurations", r.Verdict, r.Violation, r.Configurations)
	}
	r = run(t, Options{Spec: scenario.Spec{Algorithm: "slow-fast", N: 3, Params: map[string]string{"wake": "literal"}}, IDs: "all", Delivery: "sync", Initiators: "times"})
	if r.Verdict != "violation" || !strings.Contains(r.Violation, "wrong-leader") || len(r.ViolationWake) != 3 {
		t.Fatalf("slow-fast --wake literal: %s %s, wake %v", r.Verdict, r.Violation, r.ViolationWake)
	}
	// The violation replays in the simulator with those IDs and rounds.
	var wake []election.Wake
	for i, at := range r.ViolationWake {
		if at >= 0 {
			wake = append(wake, election.Wake{Node: i, At: at})
		}
	}
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "slow-fast", N: 3, IDs: IDsFlag(r.ViolationIDs), Timing: "sync", Params: map[string]string{"wake": "literal"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Wake = wake
	res, err := sim.Run(*cfg)
	if err != nil || res.Outcome != election.OutcomeViolation || !strings.Contains(res.Violation, "wrong-leader") {
		t.Errorf("replay: %v %+v", err, res)
	}
	for _, o := range []Options{
		{Spec: scenario.Spec{Algorithm: "time-slice", N: 3}, IDs: "all", Delivery: "sync", Initiators: "times"},
		{Spec: scenario.Spec{Algorithm: "lcr", N: 3}, IDs: "all", Delivery: "fifo", Initiators: "times"},
	} {
		if _, err := Run(o); err == nil {
			t.Errorf("%s under %s with --initiators times: no error", o.Spec.Algorithm, o.Delivery)
		}
	}
}

// TestStateLimitIsIncomplete: a search cut short never says ok.
func TestStateLimitIsIncomplete(t *testing.T) {
	r := run(t, Options{Spec: scenario.Spec{Algorithm: "hs", N: 4}, IDs: "all", Delivery: "fifo", MaxStates: 100})
	if r.Verdict != "incomplete" || r.Finished != 0 || r.Extremes != nil || r.Bounds != nil {
		t.Errorf("verdict %s, %d configurations finished, extremes %v, bounds %v with a 100-state limit", r.Verdict, r.Finished, r.Extremes, r.Bounds)
	}
	// With a limit that only the larger searches reach, the extremes are
	// those of the configurations that finished, and say how many.
	r = run(t, Options{Spec: scenario.Spec{Algorithm: "hs", N: 4}, IDs: "all", Delivery: "fifo", MaxStates: 1500, NoReduction: true})
	if r.Verdict != "incomplete" || r.Finished == 0 || r.Finished == r.Configurations || len(r.Extremes) == 0 {
		t.Errorf("verdict %s, %d of %d configurations finished", r.Verdict, r.Finished, r.Configurations)
	}
	t.Logf("limit 1500: %d of %d configurations finished", r.Finished, r.Configurations)
}

// lcrForwardsAll is a mutant of LCR: it forwards every ID, smaller ones
// too, instead of swallowing them. Every ID then returns to its owner, and
// every node elects itself.
var lcrForwardsAll = func() *elect.Algorithm {
	a := *ring.LCR
	a.Name = "lcr-forwards-all"
	a.New = func(info elect.NodeInfo) elect.Node { return &forwardAll{Node: ring.LCR.New(info), id: info.ID} }
	return &a
}()

type forwardAll struct {
	elect.Node
	id elect.ID
}

func (f *forwardAll) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.ID < f.id && m.Type == 0 {
		env.Send(elect.Left, m) // the mutation: the smaller ID goes on
		return
	}
	f.Node.Receive(env, from, m)
}
func (f *forwardAll) Clone() elect.Node {
	return &forwardAll{Node: f.Node.(elect.Snapshotter).Clone(), id: f.id}
}
func (f *forwardAll) AppendState(b []byte) []byte { return f.Node.(elect.Snapshotter).AppendState(b) }

// TestMutantIsCaught: the checker catches the mutant on every ring of 3,
// and its counterexample replays to the same failure.
func TestMutantIsCaught(t *testing.T) {
	cat, err := catalog.Default().With(lcrForwardsAll)
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, Options{Spec: scenario.Spec{Catalog: cat, Algorithm: "lcr-forwards-all", N: 3}, IDs: "all", Delivery: "fifo"})
	if r.Verdict != "violation" || r.Property != "multiple-leaders" && r.Property != "wrong-leader" {
		t.Fatalf("%s %s", r.Verdict, r.Violation)
	}
	var trace bytes.Buffer
	r.WriteCounterexample(&trace)
	cfg, _ := scenario.Build(scenario.Spec{Catalog: cat, Algorithm: "lcr-forwards-all", N: 3, IDs: IDsFlag(r.ViolationIDs)})
	res, err := reference.Replay(*cfg, &trace)
	if err != nil || res.Outcome == election.OutcomeElected {
		t.Errorf("replay: %v, %v", res, err)
	}
}

// TestReductionKeepsExtremes: under FIFO the partial-order reduction
// explores one node's deliveries where they form a persistent set; the extremes of
// every quantity, the verdict and the property violated must be those of
// the full search, with fewer states.
func TestReductionKeepsExtremes(t *testing.T) {
	for _, c := range []struct {
		alg        string
		n          int
		initiators string
		params     map[string]string
		ids        string
	}{
		{"lcr", 5, "all", nil, "all"},
		{"chang-roberts", 4, "subsets", nil, "all"},
		{"peterson", 5, "all", nil, "all"},
		{"peterson", 4, "subsets", map[string]string{"variant": "untagged"}, "all"},
		{"lcr", 4, "all", nil, "list:3,1,3,2"}, // two largest IDs: two leaders
		// Several incoming links: the deliveries to a node with a message
		// on each of them stand for all.
		{"hs", 4, "all", nil, "all"},
		{"hs", 3, "subsets", nil, "all"},
		{"franklin", 4, "all", nil, "all"},
		{"all-to-all", 3, "subsets", nil, "all"},
		{"afek-gafni", 4, "all", nil, "all"},
		{"korach-moran-zaks", 4, "all", nil, "all"},
		{"echo", 4, "subsets", nil, "all"},
		{"yoyo", 4, "all", nil, "all"},
	} {
		opt := Options{Spec: scenario.Spec{Algorithm: c.alg, N: c.n, Params: c.params, Force: true}, IDs: c.ids, Delivery: "fifo", Initiators: c.initiators}
		reduced := run(t, opt)
		opt.NoReduction = true
		full := run(t, opt)
		if reduced.Verdict != full.Verdict || reduced.Property != full.Property {
			t.Errorf("%s n=%d: verdict %s %s reduced, %s %s in full", c.alg, c.n, reduced.Verdict, reduced.Property, full.Verdict, full.Property)
		}
		if full.Verdict == "ok" && reduced.States >= full.States {
			t.Errorf("%s n=%d: %d states reduced, %d in full", c.alg, c.n, reduced.States, full.States)
		}
		if full.Verdict != "ok" {
			continue // the search stopped at the violation: no extremes
		}
		for q, e := range full.Extremes {
			r := reduced.Extremes[q]
			if r.Max != e.Max || r.Min != e.Min {
				t.Errorf("%s n=%d %s: %d..%d reduced, %d..%d in full", c.alg, c.n, e.Quantity, r.Min, r.Max, e.Min, e.Max)
			}
		}
		t.Logf("%s n=%d initiators %s: %d states reduced, %d in full", c.alg, c.n, c.initiators, reduced.States, full.States)
	}
}

// TestSchedulesReachTheExtremes: for every quantity, the execution that
// schedule writes for its largest and its smallest value, made step by
// step from the initial state, ends in a terminal state with exactly that
// value (messages of the type, all messages, or the largest causal depth),
// with and without the partial-order reduction, under fifo and bag.
func TestSchedulesReachTheExtremes(t *testing.T) {
	for _, c := range []struct {
		alg, delivery string
		n             int
		reduce        bool
	}{
		{"lcr", "fifo", 5, false}, {"lcr", "fifo", 5, true}, {"hs", "fifo", 4, true}, {"hs", "bag", 3, false},
		{"peterson", "fifo", 4, false}, {"franklin", "bag", 4, false}, {"echo", "fifo", 4, true},
	} {
		r := run(t, Options{Spec: scenario.Spec{Algorithm: c.alg, N: c.n}, IDs: "all", Delivery: c.delivery, NoReduction: !c.reduce})
		for q, e := range r.Extremes {
			for _, largest := range []bool{true, false} {
				cfg, want := e.minCfg, e.Min
				if largest {
					cfg, want = e.maxCfg, e.Max
				}
				x := cfg.searchAgain()
				steps := x.schedule(q, largest)
				s := x.initial()
				sent := make([]int64, x.nq()-2)
				var got int64
				for _, st := range steps {
					clear(sent)
					x.apply(s, st, sent)
					got += stepAdds(q, sent)
				}
				if q == x.nq()-1 {
					got = maxDepth(s)
				}
				if len(x.choices(s, nil)) != 0 || got != want {
					t.Errorf("%s %s n=%d %s (largest %t): the schedule of %d steps gives %d, not %d (ends with %d steps enabled)",
						c.alg, c.delivery, c.n, e.Quantity, largest, len(steps), got, want, len(x.choices(s, nil)))
				}
			}
		}
	}
}

// TestKnownMovesChangeNothing: the known moves' shortcut (moves.go) visits
// the same states and takes the same steps as making every step in full:
// equal states, transitions, longest path, verdict, violation and extremes,
// for every asynchronous algorithm of the catalog under fifo and, where
// its model allows, bag delivery, with and without the partial-order
// reduction, and for the faulty algorithms above (two leaders; a cycle).
func TestKnownMovesChangeNothing(t *testing.T) {
	defer func() { useKnownMoves = true }()
	cat, err := catalog.Default().With(firstComer, pingPong)
	if err != nil {
		t.Fatal(err)
	}
	var opts []Options
	for _, alg := range cat.All() {
		if !alg.Model.Async {
			continue
		}
		deliveries := []string{"fifo"}
		if !alg.Model.FIFO {
			deliveries = append(deliveries, "bag")
		}
		for _, d := range deliveries {
			opts = append(opts, Options{Spec: scenario.Spec{Catalog: cat, Algorithm: alg.Name, N: 3, Seed: 1},
				IDs: "all", Delivery: d, NoReduction: d == "fifo", MaxStates: 20_000})
		}
	}
	opts = append(opts,
		Options{Spec: scenario.Spec{Algorithm: "lcr", N: 3, Force: true}, IDs: "list:1,1,1", Delivery: "fifo"},
		Options{Spec: scenario.Spec{Algorithm: "peterson", N: 4, Force: true, Params: map[string]string{"variant": "untagged"}},
			IDs: "all", Delivery: "bag", Initiators: "subsets"},
		Options{Spec: scenario.Spec{Algorithm: "chang-roberts", N: 4}, IDs: "all", Delivery: "fifo", Initiators: "subsets", NoReduction: true},
		Options{Spec: scenario.Spec{Algorithm: "hs", N: 4}, IDs: "all", Delivery: "fifo", NoReduction: true},
	)
	for _, opt := range opts {
		useKnownMoves = true
		with, err := Run(opt)
		if err != nil && opt.Spec.N == 3 {
			opt.Spec.N, opt.IDs = 4, "increasing" // hypercubes and meshes, one assignment
			with, err = Run(opt)
		}
		if err != nil {
			t.Fatalf("%s: %v", opt.Spec.Algorithm, err)
		}
		useKnownMoves = false
		start := time.Now()
		without := run(t, opt)
		if testing.Verbose() {
			t.Logf("%s %s: %d states, %s", opt.Spec.Algorithm, opt.Delivery, without.States, time.Since(start))
		}
		name := fmt.Sprintf("%s n=%d %s reduction=%t", opt.Spec.Algorithm, opt.Spec.N, opt.Delivery, !opt.NoReduction)
		if with.States != without.States || with.Transitions != without.Transitions || with.MaxDepth != without.MaxDepth ||
			with.Verdict != without.Verdict || with.Violation != without.Violation {
			t.Errorf("%s: %d states, %d transitions, depth %d, %s %q with known moves; %d, %d, %d, %s %q without", name,
				with.States, with.Transitions, with.MaxDepth, with.Verdict, with.Violation,
				without.States, without.Transitions, without.MaxDepth, without.Verdict, without.Violation)
			continue
		}
		for q, e := range without.Extremes {
			if w := with.Extremes[q]; w.Max != e.Max || w.Min != e.Min || !slices.Equal(w.MaxIDs, e.MaxIDs) || !slices.Equal(w.MinIDs, e.MinIDs) {
				t.Errorf("%s %s: %d..%d with known moves, %d..%d without", name, e.Quantity, w.Min, w.Max, e.Min, e.Max)
			}
		}
	}
	t.Logf("%d checks compared", len(opts))
}

// BenchmarkCheck explores every schedule and ID assignment of LCR on 6
// nodes (without the partial-order reduction: every interleaving), of HS
// on 4 and of Chang-Roberts on 5, and reports distinct states and transitions per second,
// with one worker and with one per core, with the known moves' shortcut
// (moves.go) and without.
func BenchmarkCheck(b *testing.B) {
	for _, c := range []struct {
		alg string
		n   int
	}{{"lcr", 6}, {"hs", 4}, {"chang-roberts", 5}} {
		for _, v := range []struct {
			workers int
			moves   bool
		}{{1, true}, {runtime.GOMAXPROCS(0), true}, {1, false}} {
			workers := v.workers
			b.Run(fmt.Sprintf("%s/n=%d/workers=%d/known-moves=%t", c.alg, c.n, workers, v.moves), func(b *testing.B) {
				defer func(was bool) { useKnownMoves = was }(useKnownMoves)
				useKnownMoves = v.moves
				var states, steps int64
				for b.Loop() {
					r, err := Run(Options{Spec: scenario.Spec{Algorithm: c.alg, N: c.n}, IDs: "all", Delivery: "fifo", Workers: workers, NoReduction: true})
					if err != nil || r.Verdict != "ok" {
						b.Fatal(err, r.Verdict)
					}
					states += r.States
					steps += r.Transitions
				}
				b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
				// Every step taken, to a new state or a visited one (TLC's
				// "states generated", Stateright's "states" beside "unique").
				b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "transitions/s")
				b.ReportMetric(float64(states)/float64(b.N), "states/op")
			})
		}
	}
}

// TestItaiRodehExactProbabilities: with every draw branched on, an
// execution of Itai-Rodeh ends within the first n draws (the first round)
// exactly when one node drew the largest id, which has probability
// sum over m of n (1/n) ((m-1)/n)^(n-1) (5/9 at n = 3, 9/16 at n = 4);
// the probabilities of all endings and cuts add up to 1; and the exact
// probability of each message count is the simulator's rate over 4000
// runs, within 4 standard errors.
func TestItaiRodehExactProbabilities(t *testing.T) {
	for _, c := range []struct {
		alg, bits   string
		n, maxDraws int
	}{
		{"itai-rodeh", "", 3, 3}, {"itai-rodeh", "", 4, 4}, {"itai-rodeh", "", 3, 9}, {"itai-rodeh", "", 4, 8},
		{"lcr-random", "2", 4, 0}, {"lcr-random", "1", 5, 0},
	} {
		spec := scenario.Spec{Algorithm: c.alg, N: c.n}
		if c.bits != "" {
			spec.Params = map[string]string{"bits": c.bits}
		}
		const trials = 4000
		r := run(t, Options{Spec: spec, IDs: "increasing", Delivery: "fifo", Draws: -1, MaxDraws: c.maxDraws, Trials: trials})
		p := r.Probabilities
		if r.Verdict != "ok" || p == nil {
			t.Fatalf("%s n=%d: %s %s", c.alg, c.n, r.Verdict, r.Violation)
		}
		if sum := p.Ends.Value + p.Cut.Value; sum < 1-1e-12 || sum > 1+1e-12 {
			t.Errorf("%s n=%d: ends %s + cut %s = %v", c.alg, c.n, p.Ends, p.Cut, sum)
		}
		if c.alg == "itai-rodeh" && c.maxDraws == c.n {
			// The first round ends it when the largest id drawn is unique.
			var num, pow uint64 = 0, 1
			for range c.n {
				pow *= uint64(c.n)
			}
			for m := 1; m <= c.n; m++ {
				term := uint64(c.n)
				for range c.n - 1 {
					term *= uint64(m - 1)
				}
				num += term
			}
			if want := fraction(num, pow); p.Ends.Num != want.Num || p.Ends.Den != want.Den {
				t.Errorf("itai-rodeh n=%d: P(the first round elects) = %s, want %s", c.n, p.Ends, want)
			}
		}
		if c.alg == "lcr-random" && p.Cut.Num != 0 {
			t.Errorf("lcr-random n=%d: cut %s; it draws once per node", c.n, p.Cut)
		}
		compared := 0
		for _, m := range p.Messages {
			if p.ExactBelow >= 0 && m.Messages >= p.ExactBelow {
				continue // cut executions may add to it
			}
			q := m.Probability.Value
			se := math.Sqrt(q * (1 - q) / trials)
			if math.Abs(m.Measured-q) > 4*se {
				t.Errorf("%s n=%d: %d messages: exact %s, simulator %.4f (4 SE = %.4f)", c.alg, c.n, m.Messages, m.Probability, m.Measured, 4*se)
			}
			compared++
		}
		t.Logf("%s n=%d max-draws %d: %d states, ends %s, cut %s, %d message counts compared with the simulator",
			c.alg, c.n, p.MaxDraws, r.States, p.Ends, p.Cut, compared)
	}
}
