package elect_test

import (
	"fmt"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// maxFlood is a node of a tiny algorithm for the example: on a complete
// graph every node sends its ID to every other, and a node that has heard
// from all and holds the largest ID is elected.
type maxFlood struct {
	id          elect.ID
	heard, best int
	degree      int
}

func (p *maxFlood) Wake(env elect.Env, spontaneous bool) {
	for port := range p.degree {
		env.Send(elect.Port(port), elect.Message{ID: p.id})
	}
}

func (p *maxFlood) Receive(env elect.Env, from elect.Port, m elect.Message) {
	p.heard++
	p.best = max(p.best, int(m.ID))
	if p.heard < p.degree {
		return
	}
	if int(p.id) > p.best {
		env.Decide(elect.Elected)
	} else {
		env.Decide(elect.NotElected)
	}
}

// Declare an algorithm: its model, its message types and a bound, and how to
// build its nodes; then run it. A catalog.Catalog extended with it
// (catalog.Default().With) gives it the whole command.
func Example_declareAnAlgorithm() {
	nodes := elect.NodesOf(func(p *maxFlood, info elect.NodeInfo) { *p = maxFlood{id: info.ID, degree: info.Degree, best: -1} })
	alg := &elect.Algorithm{
		Name:  "max-flood",
		Title: "Max flooding on a complete graph",
		Model: elect.Model{Topology: elect.Complete, Async: true, Sync: true, UniqueIDs: true,
			WakeUp: elect.AllAtOnce, Elects: elect.ElectsMax},
		Messages: []elect.MessageType{{Name: "id", Fields: []string{"j"}}},
		Bounds: []elect.Bound{{Name: "messages", Quantity: elect.Messages, Relation: elect.Exactly, Formula: "n(n-1)",
			Value: func(c elect.BoundContext) float64 { return float64(c.N * (c.N - 1)) }}},
		New:  nodes.New,
		Init: nodes.Init,
	}
	res, err := sim.Run(election.Config{Algorithm: alg, Graph: topology.NewComplete(5), IDs: []elect.ID{4, 9, 1, 7, 3}, Delivery: election.Random, Seed: 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Outcome, "leader ID", res.LeaderID, "messages", res.Messages)
	for _, c := range res.Checks {
		fmt.Println(c.Holds, c.Name)
	}
	// Output:
	// elected leader ID 9 messages 20
	// true exactly one leader
	// true leader holds the max ID
	// true messages == n(n-1)
}
