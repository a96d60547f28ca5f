package cluster

import (
	"testing"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/scenario"
)

// relay is a load for the benchmark rather than an election: every node
// sends relayTokens tokens clockwise and each token travels n-1 hops, so a
// run moves n * relayTokens * (n-1) messages; the node with ID 0 elects
// itself on waking and the others do not, so that the run ends as an
// election the monitor accepts.
var relay = &elect.Algorithm{
	Name:     "relay-load",
	Model:    elect.Model{Topology: elect.UniRing, Async: true, Elects: elect.ElectsMin, WakeUp: elect.AnySubset, UniqueIDs: true, KnowsN: true},
	Messages: []elect.MessageType{{Name: "token", Fields: []string{"ID", "hops"}}},
	New:      func(info elect.NodeInfo) elect.Node { return &relayNode{id: info.ID, n: info.N} },
}

const relayTokens = 4000

type relayNode struct {
	id elect.ID
	n  int
}

func (r *relayNode) Wake(env elect.Env, spontaneous bool) {
	if r.id == 0 {
		env.Decide(elect.Elected)
	} else {
		env.Decide(elect.NotElected)
	}
	for range relayTokens {
		env.Send(elect.Left, elect.Message{ID: r.id, A: 1})
	}
}

func (r *relayNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.A < int64(r.n-1) {
		env.Send(elect.Left, elect.Message{ID: m.ID, A: m.A + 1})
	}
}

// BenchmarkTCP moves messages between 16 nodes over TLS on loopback, each
// node on goroutines of this process with its own sockets (as processes,
// but without their start-up).
func BenchmarkTCP(b *testing.B) {
	cat, err := catalog.Default().With(relay)
	if err != nil {
		b.Fatal(err)
	}
	const n = 16
	var msgs int64
	var elapsed time.Duration
	for b.Loop() {
		dir := b.TempDir()
		if _, err := Init(dir, scenario.Spec{Catalog: cat, Algorithm: relay.Name, N: n, Seed: 1, IDs: "increasing"}, InitOptions{Host: "127.0.0.1"}); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		res, errs := runInProcess(b, dir, n, NodeOptions{Catalog: cat, Timeout: 10 * time.Second})
		elapsed += time.Since(start)
		for i, err := range errs {
			if err != nil {
				b.Fatalf("node %d: %v", i, err)
			}
			msgs += res[i].Sent
		}
	}
	b.ReportMetric(float64(msgs)/elapsed.Seconds(), "messages/s")
	b.ReportMetric(float64(msgs)/float64(b.N), "messages/run")
}
