package ring

import "github.com/electkit/elect"

// ChangRoberts is the Chang-Roberts algorithm as the slides give it (seed
// 003, "CR algorithm: pseudo-code for a generic processor"):
//
//   - to initiate: send ELECTION(my_id) to the left; participant <- true;
//   - upon ELECTION(j): if j > my_id, send ELECTION(j); if j = my_id, send
//     LEADER(my_id) (the node is elected); if my_id > j and not participant,
//     send ELECTION(my_id); participant <- true;
//   - upon LEADER(j): leader_id <- j; if my_id != j, send LEADER(j).
//
// Left is clockwise. A node that is not an initiator wakes on its first
// message and handles it by the rules above: it joins with its own ID only if
// that ID beats the one it received. Non-leaders decide not-elected when the
// LEADER message reaches them.
var ChangRoberts = &elect.Algorithm{
	Name:   "chang-roberts",
	Title:  "Chang-Roberts (ELECTION/LEADER, late wake-up)",
	Source: "seed 003 (slides), Chang-Roberts pseudo-code and analysis",
	Summary: "Initiators send ELECTION(id) to the left; a node forwards larger IDs and joins with its own " +
		"when it beats a smaller one and has not yet participated; the winner sends LEADER around.",
	Model: elect.Model{
		Topology: elect.UniRing, Sync: true, Async: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMax, Announce: elect.AlwaysAnnounce,
	},
	Growth: elect.Growth{Messages: "n H_n", MessagesByIDs: map[string]string{"decreasing": "n^2", "increasing": "n"}, Time: "n"},
	Messages: []elect.MessageType{
		{Name: "ELECTION", Fields: []string{"j"}},
		{Name: "LEADER", Fields: []string{"j"}},
	},
	Bounds: []elect.Bound{
		{Name: "ELECTION messages", Quantity: elect.Messages, Types: []string{"ELECTION"}, Relation: elect.AtMost,
			Formula: "n(n+1)/2", Source: "seed 003, worst case: IDs in decreasing order",
			Value: boundTriangular},
		{Name: "ELECTION messages", Quantity: elect.Messages, Types: []string{"ELECTION"}, Relation: elect.AtLeast,
			Formula: "n", Source: "seed 003: the largest ID travels all around the ring",
			Value: boundN},
		{Name: "ELECTION messages", Quantity: elect.Messages, Types: []string{"ELECTION"}, Relation: elect.AtLeast,
			Formula: "2n-1", Source: "seed 003, best case (all nodes initiate, starting together: with a free wake order the minimum is n)",
			Value:   boundTwoNMinusOne,
			Applies: func(c elect.BoundContext) bool { return c.AllAtZero }},
		{Name: "LEADER messages", Quantity: elect.Messages, Types: []string{"LEADER"}, Relation: elect.Exactly,
			Formula: "n", Source: "seed 003: the leader announces itself",
			Value: boundN},
	},
	New:  crNodes.New,
	Init: crNodes.Init,
}

var crNodes = elect.NodesOf(crInit)

func crInit(p *crNode, info elect.NodeInfo) { *p = crNode{id: info.ID, leaderID: -1} }

// Message types of ChangRoberts, in the order of ChangRoberts.Messages.
const (
	crElection elect.MsgType = iota
	crLeader
)

type crNode struct {
	id          elect.ID
	participant bool
	leaderID    elect.ID
}

func (p *crNode) Wake(env elect.Env, spontaneous bool) {
	if spontaneous {
		env.Send(elect.Left, elect.Message{Type: crElection, ID: p.id})
		p.participant = true
	}
}

func (p *crNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	j := m.ID
	switch m.Type {
	case crElection:
		if j > p.id {
			env.Send(elect.Left, elect.Message{Type: crElection, ID: j})
		}
		if j == p.id {
			env.Decide(elect.Elected)
			env.Send(elect.Left, elect.Message{Type: crLeader, ID: p.id})
		}
		if p.id > j && !p.participant {
			env.Send(elect.Left, elect.Message{Type: crElection, ID: p.id})
		}
		p.participant = true
	case crLeader:
		p.leaderID = j
		env.SetLeader(j)
		if p.id != j {
			env.Decide(elect.NotElected)
			env.Send(elect.Left, elect.Message{Type: crLeader, ID: j})
		}
	}
}
