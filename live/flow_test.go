package live_test

import (
	"bytes"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/internal/footprint"
	"github.com/electkit/elect/live"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// TestRunLCR6000DecreasingHoldsAWindowPerInbox is the reproduction
// `elect run lcr --n 6000 --ids decreasing --runtime goroutines`, which
// held every message of the run in inboxes that grew without bound (1.97 GB
// at its peak): upstream nodes ran ahead of downstream ones. With flow
// control no inbox ever holds more than its window, no cycle of waiting
// nodes forms (node 0, the maximum, absorbs what reaches it), and the
// counts are LCR's exact ones on a decreasing ring, n(n+1)/2 (seed 001,
// LCR's worst case). n is smaller here than in the reproduction, to stay
// fast under -race; ELECT_LONG_TESTS runs n = 6000.
func TestRunLCR6000DecreasingHoldsAWindowPerInbox(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 400
	}
	if longTests() {
		n = 6000
	}
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "lcr", N: n, Seed: 1, IDs: "decreasing"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := live.Run(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != election.OutcomeElected || res.Messages != int64(n*(n+1)/2) {
		t.Fatalf("%s with %d messages, want elected with %d", res.Outcome, res.Messages, n*(n+1)/2)
	}
	tr := res.Transport
	if tr == nil || tr.MaxInbox > live.Window(2) || tr.MaxInbox < 1 || tr.Overflows != 0 {
		t.Fatalf("report %+v: want a largest inbox of at most %d and no overflow", tr, live.Window(2))
	}
	// The report: node i forwards the IDs of nodes 0..i, so the busiest
	// link is node n-1's to node 0, with n messages; every message had its
	// latency measured.
	if b := tr.Busiest[0]; tr.Latency.Count != res.Messages || b != (election.LinkCount{From: n - 1, To: 0, Messages: int64(n)}) || tr.Links != 2*n {
		t.Errorf("report: %d latencies, busiest link %+v, %d links; want %d, {%d 0 %d}, %d", tr.Latency.Count, b, tr.Links, res.Messages, n-1, n, 2*n)
	}
}

// TestAsyncRunHoldsAnInboxOnlyWhileItHasInputs: on LCR's decreasing ring,
// where every node receives full windows, inbox buffers grow to the window
// and no further (they grew by doubling to 16 slots past a window of 12
// when not full at the start of a delivery); a node holds an inbox buffer
// only while it has inputs waiting, so that the run needs fewer buffers
// than nodes (it made one per node, and one more per node that outgrew its
// first), and every buffer is back with the workers at the end; and a node
// that has gone idle holds no output buffer: at the end only the nodes the
// workers were running when the run ended may.
func TestAsyncRunHoldsAnInboxOnlyWhileItHasInputs(t *testing.T) {
	n := 300
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "lcr", N: n, Seed: 1, IDs: "decreasing"})
	if err != nil {
		t.Fatal(err)
	}
	inboxes, outs, free, largest, err := live.AsyncBuffers(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := live.Window(2)
	if inboxes != 0 || free >= n || largest != w || outs > runtime.GOMAXPROCS(0) {
		t.Fatalf("%d nodes holding an inbox, %d free inbox buffers, the largest of %d, %d nodes holding output; want 0, fewer than %d, %d, at most %d (one per worker)", inboxes, free, largest, outs, n, w, runtime.GOMAXPROCS(0))
	}
}

// pump floods a unidirectional ring: on waking every node sends pumpTokens
// tokens clockwise, and every token travels pumpHops hops. Every node's
// first output is larger than the next node's window, so every node parks
// at once, each on a full inbox that only the next could empty: a cycle of
// waiting nodes that the runtime must break. The node with ID 0 elects
// itself so that the run is an election the monitor accepts.
var pump = &elect.Algorithm{
	Name:     "pump",
	Model:    elect.Model{Topology: elect.UniRing, Async: true, Elects: elect.ElectsMin, WakeUp: elect.AnySubset, UniqueIDs: true},
	Messages: []elect.MessageType{{Name: "token", Fields: []string{"ID", "hops"}}},
	New:      func(info elect.NodeInfo) elect.Node { return &pumpNode{id: info.ID} },
}

const pumpTokens, pumpHops = 100, 5

type pumpNode struct{ id elect.ID }

func (p *pumpNode) Wake(env elect.Env, spontaneous bool) {
	if p.id == 0 {
		env.Decide(elect.Elected)
	} else {
		env.Decide(elect.NotElected)
	}
	for range pumpTokens {
		env.Send(elect.Left, elect.Message{ID: p.id, A: 1})
	}
}

func (p *pumpNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.A < pumpHops {
		env.Send(elect.Left, elect.Message{ID: m.ID, A: m.A + 1})
	}
}

// TestCycleOfFullInboxesIsBroken: a ring whose every node waits on the
// next one's full inbox ends, with every token delivered (n * tokens * hops
// messages, exactly), because the runtime lets a node overflow when no node
// can move, and it reports the breaks. What the inboxes hold beyond their
// windows is then what the algorithm itself keeps in flight (at most all
// n * tokens tokens at once), as in the simulator.
func TestCycleOfFullInboxesIsBroken(t *testing.T) {
	cat, err := catalog.Default().With(pump)
	if err != nil {
		t.Fatal(err)
	}
	const n = 16
	cfg, err := scenario.Build(scenario.Spec{Catalog: cat, Algorithm: pump.Name, N: n, Seed: 1, IDs: "increasing"})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		res, err := live.Run(*cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != election.OutcomeElected || res.Messages != n*pumpTokens*pumpHops {
			t.Fatalf("%s with %d messages, want elected with %d", res.Outcome, res.Messages, n*pumpTokens*pumpHops)
		}
		if tr := res.Transport; tr.Overflows < 1 || tr.MaxInbox > n*pumpTokens {
			t.Fatalf("%d overflows, largest inbox %d: want at least one break and at most %d", tr.Overflows, tr.MaxInbox, n*pumpTokens)
		}
	}
}

// TestMaxTimeAndTimeLimitOnGoroutines: --max-time (the causal depth, on
// this runtime) and --time-limit (Config.Progress) stop an asynchronous
// run of the goroutine runtime, which ignored both: the reproduction is
// `elect run lcr --n 6000 --ids decreasing --runtime goroutines --max-time
// 100`, which ran to the end.
func TestMaxTimeAndTimeLimitOnGoroutines(t *testing.T) {
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "lcr", N: 300, Seed: 1, IDs: "decreasing", MaxTime: 20, Runtime: "goroutines"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := live.Run(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != election.StepLimit || res.Time > 20 {
		t.Errorf("--max-time 20: %s at time %v, want step-limit by time 20", res.Outcome, res.Time)
	}
	// A run that never ends by itself (tokens that circulate for ever)
	// stops at the first report, whenever it comes.
	cat, err := catalog.Default().With(forever)
	if err != nil {
		t.Fatal(err)
	}
	endless, err := scenario.Build(scenario.Spec{Catalog: cat, Algorithm: forever.Name, N: 50, Seed: 1, IDs: "increasing"})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	endless.Progress = func(election.Progress) bool {
		calls++
		return false // a time limit reached at the first report
	}
	res, err = live.Run(*endless)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != election.Stopped || calls != 1 {
		t.Errorf("stopped by Progress: %s after %d calls, want stopped after one", res.Outcome, calls)
	}
}

// forever is pump with tokens that never stop.
var forever = &elect.Algorithm{
	Name:     "forever",
	Model:    pump.Model,
	Messages: pump.Messages,
	New:      func(info elect.NodeInfo) elect.Node { return &foreverNode{pumpNode{id: info.ID}} },
}

type foreverNode struct{ pumpNode }

func (p *foreverNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	env.Send(elect.Left, m)
}

func longTests() bool { return os.Getenv("ELECT_LONG_TESTS") != "" }

// TestManyWorkersRunEveryNodeOnce runs asynchronous runs on eight workers
// (GOMAXPROCS 8 on any machine), where ready nodes pass between a worker's
// own next node and the shared queue, and through the queue between
// workers, far more than on two: a node lost on the way would never run
// again and the run would never end, a node run by two workers at once is
// a data race (-race) and breaks the counts. Each run must end, with LCR's
// exact count on a decreasing ring, the simulator's on random IDs, every
// token of a cycle of full inboxes delivered, and a trace that replays.
func TestManyWorkersRunEveryNodeOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	n := 600
	if testing.Short() {
		n = 200
	}
	// run runs cfg on goroutines, failing after a generous minute instead
	// of hanging (a lost node).
	run := func(cfg election.Config) *election.Result {
		t.Helper()
		type ran struct {
			res *election.Result
			err error
		}
		c := make(chan ran, 1)
		go func() {
			res, err := live.Run(cfg)
			c <- ran{res, err}
		}()
		select {
		case r := <-c:
			if r.err != nil {
				t.Fatal(r.err)
			}
			return r.res
		case <-time.After(time.Minute):
			t.Fatalf("%s n=%d on 8 workers did not end: a ready node was lost", cfg.Algorithm.Name, cfg.Graph.N)
			return nil
		}
	}
	build := func(spec scenario.Spec) *election.Config {
		t.Helper()
		cfg, err := scenario.Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	for range 3 {
		res := run(*build(scenario.Spec{Algorithm: "lcr", N: n, Seed: 1, IDs: "decreasing"}))
		if res.Outcome != election.OutcomeElected || res.Messages != int64(n*(n+1)/2) || res.Transport.Latency.Count != res.Messages {
			t.Fatalf("lcr decreasing: %s with %d messages (%d latencies), want elected with %d", res.Outcome, res.Messages, res.Transport.Latency.Count, n*(n+1)/2)
		}
		random := build(scenario.Spec{Algorithm: "lcr", N: 4 * n, Seed: 3})
		want, err := sim.Run(*random)
		if err != nil {
			t.Fatal(err)
		}
		if res := run(*random); res.Outcome != want.Outcome || res.Messages != want.Messages || res.LeaderID != want.LeaderID {
			t.Fatalf("lcr random: %s, %d messages, leader %d; simulator %s, %d, %d", res.Outcome, res.Messages, res.LeaderID, want.Outcome, want.Messages, want.LeaderID)
		}
	}
	cat, err := catalog.Default().With(pump)
	if err != nil {
		t.Fatal(err)
	}
	const rn = 16
	res := run(*build(scenario.Spec{Catalog: cat, Algorithm: pump.Name, N: rn, Seed: 1, IDs: "increasing"}))
	if res.Outcome != election.OutcomeElected || res.Messages != rn*pumpTokens*pumpHops || res.Transport.Overflows < 1 {
		t.Fatalf("pump: %s with %d messages, %d overflows; want elected with %d, at least one overflow", res.Outcome, res.Messages, res.Transport.Overflows, rn*pumpTokens*pumpHops)
	}
	hs := build(scenario.Spec{Algorithm: "hs", N: 64, Seed: 5})
	var record bytes.Buffer
	traced := *hs
	traced.Trace = &record
	got := run(traced)
	replayed, err := reference.Replay(*hs, bytes.NewReader(record.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := summary(got), summary(replayed); a != b {
		t.Errorf("hs on 8 workers:\nrecorded %s\nreplayed %s", a, b)
	}
}

// chatter is a ring of three where two nodes would talk for ever: the
// node with ID 0 pings the next, which pongs back, and each pong brings
// another ping, until the third node's message (sent on waking) tells the
// first to stop, which then elects itself.
var chatter = &elect.Algorithm{
	Name:     "chatter",
	Model:    elect.Model{Topology: elect.BiRing, Async: true, Elects: elect.ElectsMin, WakeUp: elect.AnySubset, UniqueIDs: true},
	Messages: []elect.MessageType{{Name: "ping"}, {Name: "pong"}, {Name: "stop"}},
	New:      func(info elect.NodeInfo) elect.Node { return &chatterNode{id: info.ID} },
}

type chatterNode struct {
	id      elect.ID
	stopped bool
}

const ping, pong, stop = 0, 1, 2

func (c *chatterNode) Wake(env elect.Env, spontaneous bool) {
	switch c.id {
	case 0:
		env.Send(elect.Left, elect.Message{Type: ping})
	case 1:
		env.Decide(elect.NotElected)
	default:
		env.Decide(elect.NotElected)
		env.Send(elect.Left, elect.Message{Type: stop})
	}
}

func (c *chatterNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	switch {
	case m.Type == ping:
		env.Send(elect.Right, elect.Message{Type: pong})
	case m.Type == stop:
		c.stopped = true
		env.Decide(elect.Elected)
	case !c.stopped:
		env.Send(elect.Left, elect.Message{Type: ping})
	}
}

// TestTwoNodesCannotHoldAWorker: on one worker (GOMAXPROCS 1), two nodes
// that keep making each other ready would be each other's next node for
// ever, and the third node's wake-up would wait in the shared queue until
// the event limit; the worker takes from the queue after a chain of its
// own next nodes, so the third node runs and the run elects.
func TestTwoNodesCannotHoldAWorker(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	cat, err := catalog.Default().With(chatter)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := scenario.Build(scenario.Spec{Catalog: cat, Algorithm: chatter.Name, N: 3, Seed: 1, IDs: "increasing", MaxEvents: 100000})
	if err != nil {
		t.Fatal(err)
	}
	res, err := live.Run(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != election.OutcomeElected || res.LeaderID != 0 {
		t.Fatalf("%s (leader %d) after %d messages; want node 0 elected", res.Outcome, res.LeaderID, res.Messages)
	}
	t.Logf("%d messages", res.Messages)
}

// TestFootprintKnowsTheMessageSizes: the memory guard's sizes of a message
// in an inbox and in an output (package footprint, read without linking
// this package) are this runtime's.
func TestFootprintKnowsTheMessageSizes(t *testing.T) {
	if got, want := live.MessageSizes, [2]uintptr{footprint.EnvelopeBytes, footprint.OutgoingBytes}; got != want {
		t.Errorf("envelope and outgoing take %v bytes; footprint says %v", got, want)
	}
}
