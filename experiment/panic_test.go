package experiment

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
)

// panicky is a faulty algorithm for the tests: building a node whose ID is
// 3 panics (outside any engine's event loop), and a node that receives a
// message with a smaller ID panics inside the loop.
var panicky = &elect.Algorithm{
	Name:     "panicky",
	Model:    elect.Model{Topology: elect.UniRing, Async: true, Elects: elect.ElectsAny, WakeUp: elect.AnySubset},
	Messages: []elect.MessageType{{Name: "id", Fields: []string{"ID"}}},
	New: func(info elect.NodeInfo) elect.Node {
		if info.ID == 3 {
			panic("panicky: built a node with ID 3")
		}
		return &panickyNode{id: info.ID}
	},
}

type panickyNode struct{ id elect.ID }

func (p *panickyNode) Wake(env elect.Env, spontaneous bool) {
	env.Send(elect.Left, elect.Message{ID: p.id})
}

func (p *panickyNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.ID < p.id {
		panic("panicky: a smaller ID arrived")
	}
}

// TestSweepGoesOnPastAPanickingRun: a run whose algorithm panics, in the
// event loop or while its nodes are built, is one line with outcome
// violation and the panic's message; the runs after it are still written.
func TestSweepGoesOnPastAPanickingRun(t *testing.T) {
	cat, err := catalog.Default().With(panicky)
	if err != nil {
		t.Fatal(err)
	}
	// IDs 0..n-1: on n = 2 and 3 a node receives a smaller ID (every ring
	// of distinct IDs has one), so the loop panics; on n = 4 node 3 panics
	// while it is built.
	g := &Grid{Catalog: cat, Algorithms: []string{"panicky", "lcr"}, Sizes: []int{2, 3, 4}, IDs: []string{"increasing"}, Trials: 2, Seed: 1}
	points, err := g.Points()
	if err != nil {
		t.Fatal(err)
	}
	jobs := g.Jobs(points, Shard{})
	var lines []string
	n, err := Run(context.Background(), jobs, g.Seed, Options{Workers: 2}, func(r *Result) error {
		lines = append(lines, string(r.Line))
		return nil
	})
	if err != nil || n != len(jobs) || n != 12 {
		t.Fatalf("%d of %d runs, %v", n, len(jobs), err)
	}
	loop := "node 1 panicked: panicky: a smaller ID arrived"
	want := []string{loop, loop, "the run panicked: panicky: built a node with ID 3"}
	for i, l := range lines {
		var rec struct {
			Algorithm, Outcome, Violation string
			N                             int
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, l)
		}
		if rec.Algorithm == "lcr" {
			if rec.Outcome != "elected" {
				t.Errorf("line %d: %s", i, l)
			}
			continue
		}
		w := want[rec.N-2]
		if rec.Outcome != "violation" || !strings.HasPrefix(rec.Violation, "panic: ") || !strings.Contains(rec.Violation, w) {
			t.Errorf("line %d: want violation %q, got %s", i, w, l)
		}
	}
}
