package complete

import "github.com/electkit/elect"

// AllToAll is the naive election on a complete graph that seed 002 starts
// from ("Algorithm": "Every node is a king at the start and he sends n - 1
// messages to his neighbours to find the one with biggest id"):
//
//   - on waking (spontaneously or by its first message): send ID(id) on
//     every one of the n-1 ports;
//   - upon ID(j): max <- max(max, j); after the (n-1)-th ID, the node knows
//     every ID: it is elected if max = id, else not-elected with leader max.
//
// Every node sends exactly n-1 messages, n(n-1) in all, whatever the
// delivery order and the wake-up pattern; every node learns the leader's ID.
var AllToAll = &elect.Algorithm{
	Name:   "all-to-all",
	Title:  "All-to-all (naive complete-graph election)",
	Source: "seed 002 (Afek-Gafni write-up), section Algorithm, the naive algorithm",
	Summary: "Every node sends its ID to all n-1 others; when it has heard from all of them, " +
		"the node with the largest ID is elected and every node knows it.",
	Model: elect.Model{
		Topology: elect.Complete, Sync: true, Async: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMax, Announce: elect.AlwaysAnnounce,
	},
	Growth: elect.Growth{Messages: "n^2", Time: "1"},
	Messages: []elect.MessageType{
		{Name: "ID", Fields: []string{"id"}},
	},
	Bounds: []elect.Bound{
		{Name: "ID messages", Quantity: elect.Messages, Types: []string{"ID"}, Relation: elect.Exactly,
			Formula: "n(n-1)", Source: "seed 002, Algorithm: every node sends n-1 messages",
			Value: func(c elect.BoundContext) float64 { return float64(c.N) * float64(c.N-1) }},
		{Name: "time", Quantity: elect.Time, Relation: elect.AtMost,
			Formula: "1", Source: "every message is sent at time 0 and takes at most one unit",
			Value:   func(c elect.BoundContext) float64 { return 1 },
			Applies: func(c elect.BoundContext) bool { return c.AllAtZero }},
	},
	New:  allToAllNodes.New,
	Init: allToAllNodes.Init,
}

var allToAllNodes = elect.NodesOf(allToAllInit)

func allToAllInit(p *allToAllNode, info elect.NodeInfo) {
	*p = allToAllNode{id: info.ID, max: info.ID, degree: int32(info.Degree)}
}

// Message types of AllToAll, in the order of AllToAll.Messages.
const (
	a2aID elect.MsgType = iota
)

type allToAllNode struct {
	id     elect.ID
	max    elect.ID // largest ID heard so far, own included
	heard  int32    // IDs received
	degree int32    // n-1
}

func (p *allToAllNode) Wake(env elect.Env, spontaneous bool) {
	sendAll(env, p.degree, elect.Message{Type: a2aID, ID: p.id})
	p.maybeDecide(env)
}

func (p *allToAllNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	p.max = max(p.max, m.ID)
	p.heard++
	p.maybeDecide(env)
}

// maybeDecide decides once every other node's ID has arrived (at once when
// n = 1).
func (p *allToAllNode) maybeDecide(env elect.Env) {
	if p.heard != p.degree {
		return
	}
	if p.max == p.id {
		env.Decide(elect.Elected)
		return
	}
	env.SetLeader(p.max)
	env.Decide(elect.NotElected)
}
