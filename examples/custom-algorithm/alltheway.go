package main

import "github.com/electkit/elect"

// AllTheWay is the "all the way" election on a unidirectional ring (Fokkink,
// Distributed Algorithms: An Intuitive Approach, section 9.1, the variant
// of Chang-Roberts that swallows nothing):
//
//   - on waking, a node sends its ID clockwise;
//   - every ID a node receives that is not its own it forwards, and it
//     remembers the largest ID seen;
//   - when its own ID comes back, the node has seen every ID (FIFO links: a
//     node sends its own ID before forwarding any other, so every ID that
//     started behind it on the ring reached it before its own came round);
//     it is elected if its ID is the largest seen, and learns the leader's ID.
//
// Every ID travels all the way round: exactly n^2 messages, and every node
// knows the leader at the end.
var AllTheWay = &elect.Algorithm{
	Name:    "all-the-way",
	Title:   "All the way (Chang-Roberts without swallowing)",
	Source:  "Fokkink, Distributed Algorithms: An Intuitive Approach, section 9.1",
	Summary: "Every ID travels all the way round the ring; a node decides when its own comes back.",
	Model: elect.Model{
		Topology: elect.UniRing, Sync: true, Async: true, FIFO: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMax, Announce: elect.AlwaysAnnounce,
	},
	Messages: []elect.MessageType{{Name: "id", Fields: []string{"j"}}},
	Bounds: []elect.Bound{{
		Name: "messages", Quantity: elect.Messages, Relation: elect.Exactly, Formula: "n^2",
		Source: "each of the n IDs travels n hops",
		Value:  func(c elect.BoundContext) float64 { return float64(c.N) * float64(c.N) },
	}},
	Growth: elect.Growth{Messages: "n^2", Time: "n"},
	New:    nodes.New,
	Init:   nodes.Init,
}

var nodes = elect.NodesOf(func(p *node, info elect.NodeInfo) { *p = node{id: info.ID, max: info.ID} })

type node struct {
	id, max elect.ID
}

func (p *node) Wake(env elect.Env, spontaneous bool) {
	env.Send(elect.Left, elect.Message{ID: p.id})
}

func (p *node) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.ID != p.id {
		p.max = max(p.max, m.ID)
		env.Send(elect.Left, m)
		return
	}
	env.SetLeader(p.max)
	if p.max == p.id {
		env.Decide(elect.Elected)
	} else {
		env.Decide(elect.NotElected)
	}
}

// Clone and AppendState make the node snapshottable (elect.Snapshotter), for
// the reference engine and the exhaustive checker.
func (p *node) Clone() elect.Node { c := *p; return &c }

func (p *node) AppendState(b []byte) []byte {
	return elect.AppendInt(elect.AppendInt(b, int64(p.id)), int64(p.max))
}
