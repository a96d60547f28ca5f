package ring

import "github.com/electkit/elect"

// LCR is the Le Lann-Chang-Roberts algorithm as Algorithm 5.1 of the lecture
// notes (seed 001, section 5.2.1):
//
//   - initially: maxId <- id; send id clockwise;
//   - upon receiving j: if j = id, become leader; if j > maxId, maxId <- j
//     and send j clockwise.
//
// Only the maximum ID goes all the way round, so its holder, and only it, is
// elected. The notes assume every process starts; a node woken by a message
// runs the initial step first (sends its own ID), then handles the message.
// With --announce the leader sends a "leader" message around the ring
// (section 5.2.1.1: n more messages, time 2n); every other node learns the
// leader's ID from it and decides not-elected.
var LCR = &elect.Algorithm{
	Name:   "lcr",
	Title:  "Le Lann-Chang-Roberts",
	Source: "seed 001 (lecture notes), section 5.2.1, Algorithm 5.1",
	Summary: "Every node sends its ID clockwise and forwards IDs larger than any it has seen; " +
		"the node that gets its own ID back is elected.",
	Model: elect.Model{
		Topology: elect.UniRing, Sync: true, Async: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMax, Announce: elect.OptionalAnnounce,
	},
	Growth: elect.Growth{Messages: "n H_n", MessagesByIDs: map[string]string{"decreasing": "n^2", "increasing": "n"}, Time: "n"},
	Messages: []elect.MessageType{
		{Name: "election", Fields: []string{"j"}},
		{Name: "leader", Fields: []string{"j"}},
	},
	Bounds: []elect.Bound{
		{Name: "election messages", Quantity: elect.Messages, Types: []string{"election"}, Relation: elect.AtMost,
			Formula: "n(n+1)/2", Source: "seed 001 §5.2.1.1 (decreasing ring is the worst case)",
			Value: boundTriangular},
		{Name: "election messages", Quantity: elect.Messages, Types: []string{"election"}, Relation: elect.AtLeast,
			Formula: "2n-1", Source: "seed 003, best case: the maximum travels n hops, every other ID at least 1",
			Value: boundTwoNMinusOne},
		announcementBound("leader", "seed 001 §5.2.1.1 (announcement)"),
		{Name: "time", Quantity: elect.Time, Relation: elect.AtMost,
			Formula: "n (2n with announcement)", Source: "seed 001 §5.2.1.1: at most n time, exactly n rounds synchronously",
			Value:   lcrTime,
			Applies: func(c elect.BoundContext) bool { return c.AllAtZero }},
	},
	New:  lcrNodes.New,
	Init: lcrNodes.Init,
}

var lcrNodes = elect.NodesOf(lcrInit)

func lcrInit(p *lcrNode, info elect.NodeInfo) {
	*p = lcrNode{id: info.ID, maxID: info.ID, announce: info.Announce}
}

// lcrTime is n, and 2n with the announcement (seed 001 §5.2.1.1).
func lcrTime(c elect.BoundContext) float64 { return withAnnouncement(c, float64(c.N)) }

// Message types of LCR, in the order of LCR.Messages.
const (
	lcrElection elect.MsgType = iota
	lcrLeader
)

type lcrNode struct {
	id       elect.ID
	maxID    elect.ID
	leader   bool
	announce bool
}

func (p *lcrNode) Wake(env elect.Env, spontaneous bool) {
	env.Send(elect.Left, elect.Message{Type: lcrElection, ID: p.id})
}

// Receive handles an election message in place, the step every message of
// a run takes (a call less on the path of each: the elected node's rare
// step is elected's), and passes a leader message to handleLeader.
func (p *lcrNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	switch m.Type {
	case lcrElection:
		j := m.ID
		if j == p.id {
			p.elected(env)
		}
		if j > p.maxID {
			p.maxID = j
			env.Send(elect.Left, elect.Message{Type: lcrElection, ID: j})
		}
	case lcrLeader:
		p.handleLeader(env, m.ID)
	}
}

// elected is the step of the node that receives its own ID: it becomes the
// leader and, with --announce, sends the leader message round the ring.
func (p *lcrNode) elected(env elect.Env) {
	p.leader = true
	env.Decide(elect.Elected)
	if p.announce {
		env.Send(elect.Left, elect.Message{Type: lcrLeader, ID: p.id})
	}
}

// handleLeader passes the announcement on until it is back at the leader.
func (p *lcrNode) handleLeader(env elect.Env, j elect.ID) {
	if j == p.id {
		return
	}
	passOnLeader(env, elect.Left, elect.Message{Type: lcrLeader, ID: j})
}
