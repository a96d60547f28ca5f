package general

import (
	"fmt"
	"math/bits"

	"github.com/electkit/elect"
)

// HyperElect is Flocchini and Mans's election on hypercubes with a sense of
// direction (Flocchini and Mans 1996; the source framework's write-up
// text/1164808/hyperelect.tex, which cites it and Santoro's section 3.5,
// gives the rules and the count followed here). Port k of every node leads
// along dimension k (topology hypercube). It elects the minimum ID.
//
//   - Stage i (1..k, n = 2^k): one duellist is left in each subcube of
//     dimension i-1 (dimensions 0..i-2). It sends MATCH(id, i) along
//     dimension i-1, into the paired subcube, and duels there with that
//     subcube's duellist: the smaller ID wins and enters stage i+1, the
//     other is defeated. After stage k the last duellist is the leader.
//   - A MATCH records the dimensions it crossed an odd number of times; the
//     set is the shortest route back to its sender. A defeated node keeps
//     the route to the duellist that beat it and forwards every MATCH that
//     reaches it along that route (a chain of such routes leads to the
//     subcube's current duellist). A duellist that is still at an earlier
//     stage keeps the MATCH until it reaches that stage, or forwards it if
//     it is defeated first.
//   - The leader announces itself: LEADER on every link; a node that gets
//     it on dimension j passes it on along the dimensions below j, so every
//     node gets it once (n-1 messages).
//
// Count (the write-up's): a node defeated at stage j is at most j hops from
// its winner, so a MATCH of stage i costs at most 1 + sum_{j<i} j = 1 +
// i(i-1)/2 messages, and 2^(k-i+1) duellists send one at stage i.
//
// Model: asynchronous, any links (the duel is decided at both ends by the
// same comparison; held-back matches are kept per stage); any set of
// initiators (a node woken by a MATCH starts as a duellist of stage 1 just
// before handling it; one woken by LEADER never duels).
var HyperElect = &elect.Algorithm{
	Name:   "hyperelect",
	Title:  "HyperElect (hypercube with a sense of direction)",
	Source: "Flocchini and Mans 1996, HyperElect (rules and count from the source framework's write-up)",
	Summary: "Duellists of ever larger subcubes meet along one dimension per stage; a MATCH reaches the other " +
		"subcube's duellist by following the routes defeated nodes keep to their winners; O(n) messages.",
	Model: elect.Model{
		Topology: elect.General, Async: true, UniqueIDs: true, SenseOfDirection: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMin, Announce: elect.AlwaysAnnounce,
	},
	// Time: 18.4 at n = 32, 77.4 at 1024 (random IDs, FIFO): like lg^2 n,
	// within the write-up's O(lg^3 n).
	Growth: elect.Growth{Messages: "n", Time: "lg^2 n"},
	Messages: []elect.MessageType{
		{Name: "MATCH", Fields: []string{"id", "stage_route", "crossed"}, Bits: matchBits},
		{Name: "LEADER", Fields: []string{"id"}},
	},
	Bounds: []elect.Bound{
		{Name: "MATCH messages", Quantity: elect.Messages, Types: []string{"MATCH"}, Relation: elect.AtMost,
			Formula: "sum_{i=1..k} 2^(k-i+1) (1 + i(i-1)/2), n = 2^k",
			Source:  "Flocchini and Mans 1996, as the source framework's write-up counts it (at most 6n - k^2 - 3k - 6)",
			Value: func(c elect.BoundContext) float64 {
				k := elect.FloorLog2(c.N)
				total := 0.0
				for i := 1; i <= k; i++ {
					total += float64(int64(1)<<(k-i+1)) * (1 + float64(i*(i-1))/2)
				}
				return total
			}},
		{Name: "LEADER messages", Quantity: elect.Messages, Types: []string{"LEADER"}, Relation: elect.Exactly,
			Formula: "n-1", Source: "the announcement along decreasing dimensions reaches every node once",
			Value: func(c elect.BoundContext) float64 { return float64(c.N - 1) }},
	},
	CheckRun: func(c elect.BoundContext) error {
		if c.N < 1 || c.N&(c.N-1) != 0 {
			return fmt.Errorf("runs on hypercubes: n must be a power of two, not %d", c.N)
		}
		if k := elect.FloorLog2(c.N); c.Edges != c.N*k/2 {
			return fmt.Errorf("runs on hypercubes (--topology hypercube): a graph of %d nodes and %d edges is not one", c.N, c.Edges)
		}
		return nil
	},
	New:  hyperNodes.New,
	Init: hyperNodes.Init,
}

// matchBits: an ID, the stage, and two masks of k bits.
func matchBits(c elect.BitContext) int {
	k := elect.FloorLog2(c.N)
	return elect.TagBits(c.Types) + c.IDBits + elect.CeilLog2(k+1) + 2*k
}

var hyperNodes = elect.NodesOf(func(p *hyperNode, info elect.NodeInfo) {
	k := info.Degree
	*p = hyperNode{id: info.ID, k: int32(k), held: make([]hyperMatch, k+2)}
})

// Message types of HyperElect, in the order of HyperElect.Messages. MATCH
// carries the sender's ID, A = stage | route<<8 (the dimensions still to
// cross, lowest first) and B = the dimensions crossed an odd number of times.
const (
	heMatch elect.MsgType = iota
	heLeader
)

// Node roles.
const (
	heDuellist uint8 = iota
	heDefeated
	heLeaderRole
	heFollower
)

// hyperMatch is a MATCH held back by a duellist of an earlier stage.
type hyperMatch struct {
	has     bool
	id      elect.ID
	crossed uint64
}

type hyperNode struct {
	id    elect.ID
	k     int32
	stage int32 // duellist: the stage it is in (1..k)
	role  uint8
	late  bool         // woken by a message it has not handled yet
	route uint64       // defeated: the dimensions to cross to reach its winner
	held  []hyperMatch // by stage
}

func (p *hyperNode) Wake(env elect.Env, spontaneous bool) {
	p.stage = 1
	if !spontaneous {
		// Woken by a message: it starts its duel when it handles that
		// message, unless the message is the announcement.
		p.late = true
		return
	}
	p.enterStage(env)
}

// enterStage starts the duellist's current stage, or makes it the leader
// after stage k.
func (p *hyperNode) enterStage(env elect.Env) {
	if p.stage > p.k {
		p.role = heLeaderRole
		env.Decide(elect.Elected)
		for d := p.k - 1; d >= 0; d-- {
			env.Send(elect.Port(d), elect.Message{Type: heLeader, ID: p.id})
		}
		return
	}
	env.Send(elect.Port(p.stage-1), elect.Message{Type: heMatch, ID: p.id, A: int64(p.stage)})
	if h := &p.held[p.stage]; h.has {
		m := *h
		*h = hyperMatch{}
		p.arrive(env, p.stage, m.id, m.crossed)
	}
}

func (p *hyperNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if p.late {
		p.late = false
		if m.Type != heLeader {
			p.enterStage(env)
		}
	}
	if m.Type == heLeader {
		if p.role == heDuellist {
			env.Decide(elect.NotElected) // it never dueled: woken by the announcement
		}
		p.role = heFollower
		env.SetLeader(m.ID)
		for d := int32(from) - 1; d >= 0; d-- {
			env.Send(elect.Port(d), elect.Message{Type: heLeader, ID: m.ID})
		}
		return
	}
	stage, route := int32(m.A&0xff), uint64(m.A)>>8
	crossed := uint64(m.B) ^ 1<<uint(from)
	if route != 0 {
		p.forward(env, m.ID, stage, route, crossed)
		return
	}
	p.arrive(env, stage, m.ID, crossed)
}

// forward sends a MATCH on along its route, lowest dimension first.
func (p *hyperNode) forward(env elect.Env, id elect.ID, stage int32, route, crossed uint64) {
	d := bits.TrailingZeros64(route)
	route &^= 1 << uint(d)
	env.Send(elect.Port(d), elect.Message{Type: heMatch, ID: id, A: int64(stage) | int64(route)<<8, B: int64(crossed)})
}

// arrive handles a MATCH of the given stage that has reached this node.
func (p *hyperNode) arrive(env elect.Env, stage int32, id elect.ID, crossed uint64) {
	switch {
	case p.role == heDefeated:
		p.forward(env, id, stage, p.route, crossed)
	case p.role != heDuellist:
		// The election is over (only stray matches of forced runs come here).
	case stage > p.stage:
		p.held[stage] = hyperMatch{has: true, id: id, crossed: crossed}
	case stage < p.stage:
		// Impossible with distinct IDs: a duellist leaves a stage only by
		// the MATCH of that stage. Forced runs with equal IDs can get here.
	case id < p.id:
		// Beaten: the sender is crossed away (the parity of the
		// dimensions its MATCH crossed).
		p.role, p.route = heDefeated, crossed
		env.Decide(elect.NotElected)
		for s := p.stage + 1; s <= p.k; s++ {
			if h := &p.held[s]; h.has {
				m := *h
				*h = hyperMatch{}
				p.forward(env, m.id, s, p.route, m.crossed)
			}
		}
	default:
		p.stage++
		p.enterStage(env)
	}
}

// Clone implements elect.Snapshotter.
func (p *hyperNode) Clone() elect.Node {
	c := *p
	c.held = append([]hyperMatch(nil), p.held...)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *hyperNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), int64(p.k), int64(p.stage))
	b = elect.AppendUint(b, uint64(p.role))
	b = elect.AppendBool(b, p.late)
	b = elect.AppendUint(b, p.route)
	return elect.AppendList(b, p.held, appendHyperMatch)
}

func appendHyperMatch(b []byte, h hyperMatch) []byte {
	b = elect.AppendBool(b, h.has)
	b = elect.AppendInt(b, int64(h.id))
	return elect.AppendUint(b, h.crossed)
}
