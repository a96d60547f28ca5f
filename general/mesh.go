package general

import (
	"fmt"
	"math"

	"github.com/electkit/elect"
)

// PetersonMesh is election on an unoriented a x b mesh (grid) by electing one
// of its four corners, the scheme Peterson's report on meshes is credited
// with (Peterson 1984, Technical Report TR-140, University of Rochester: not
// available here) and that Santoro's chapter on election in meshes presents
// (Santoro 2007, section 3.4, as recalled: the book was not at hand either;
// see docs/sources.md). Corners are the only nodes of degree 2, the other
// border nodes have degree 3, the inner ones degree 4; the border is a ring
// of L = 2(a+b) - 4 nodes. It elects the corner with the smallest ID.
//
//   - Wake-up: a node that wakes (spontaneously or by a message) sends
//     WAKEUP(degree) on every link, so that every node wakes and every
//     border node learns which of its links lead along the border (to
//     neighbours of degree below 4).
//   - Election on the border ring among the corners: a corner sends
//     ELECT(id) on both its links as it wakes. A border node of degree 3
//     passes an ELECT on to its other border link (holding it until it knows
//     which link that is). A corner passes on an ID smaller than its own (and
//     has lost), swallows a larger one (Chang and Roberts's rule, in both
//     directions round the ring: the source leaves the ring algorithm open),
//     and is elected when its own ID comes back.
//   - Notification: the elected corner floods LEADER(id); a node passes the
//     first LEADER it gets on to all its other links.
//
// Counts (derived here, exact; see docs/breadth.md): WAKEUP = 2m; LEADER =
// 2m - n + 1; ELECT between 4L and 4L + max(a,b) - 1, as the smallest
// corner's ID goes round both ways (2L), the second smallest's two copies
// cover the ring once (L), the two others each cross at least their two
// adjacent sides (2 x L/2) and only the third can pass one more side (past
// the largest). With m = 2n - (a+b) that is 7n + 4(a+b) - 15 to
// 7n + 4(a+b) + max(a,b) - 16 messages in all: linear in n.
//
// Model: asynchronous, any links (an ELECT that reaches a border node before
// it knows its border links is held back); any set of initiators. It runs on
// grids whose sides are both at least 3, and on 2x2 and 1x1: in a mesh two
// nodes wide the border links of a degree-3 node cannot be told apart by
// degrees (CheckRun refuses such grids by their node and link counts).
var PetersonMesh = &elect.Algorithm{
	Name:   "peterson-mesh",
	Title:  "Peterson's mesh election (among the corners, on the border ring)",
	Source: "Peterson 1984 (meshes, credited: the report was not available); Santoro 2007, section 3.4 (unoriented mesh: election among the corners)",
	Summary: "Every node sends its degree on every link; the four corners run Chang-Roberts both ways round the border ring " +
		"(degree-3 nodes relay) and the smallest corner floods LEADER; O(n) messages.",
	Model: elect.Model{
		Topology: elect.General, Sync: true, Async: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsAny, Announce: elect.AlwaysAnnounce,
	},
	// Time: 3(a+b) - 5 with every node starting at once, sqrt n on square
	// grids.
	Growth: elect.Growth{Messages: "n", Time: "sqrt n"},
	Messages: []elect.MessageType{
		{Name: "WAKEUP", Fields: []string{"degree"}, Bits: wakeupBits},
		{Name: "ELECT", Fields: []string{"id"}},
		{Name: "LEADER", Fields: []string{"id"}},
	},
	Bounds: []elect.Bound{
		{Name: "WAKEUP messages", Quantity: elect.Messages, Types: []string{"WAKEUP"}, Relation: elect.Exactly,
			Formula: "2m", Source: "every node sends its degree on each of its links once",
			Value: func(c elect.BoundContext) float64 { return 2 * float64(c.Edges) }},
		{Name: "ELECT messages", Quantity: elect.Messages, Types: []string{"ELECT"}, Relation: elect.AtLeast,
			Formula: "4L, L = 2(a+b)-4", Source: "the count of PetersonMesh's ring stage (general/mesh.go): 2L + L + 2(L/2)",
			Value: func(c elect.BoundContext) float64 { a, b, _ := MeshSides(c.N, c.Edges); return 4 * meshBorder(a, b) }},
		{Name: "ELECT messages", Quantity: elect.Messages, Types: []string{"ELECT"}, Relation: elect.AtMost,
			Formula: "4L + max(a,b) - 1", Source: "the count of PetersonMesh's ring stage: only the third smallest corner's ID can pass a corner",
			Value: func(c elect.BoundContext) float64 {
				a, b, _ := MeshSides(c.N, c.Edges)
				return 4*meshBorder(a, b) + float64(max(a, b)-1)
			}},
		{Name: "LEADER messages", Quantity: elect.Messages, Types: []string{"LEADER"}, Relation: elect.Exactly,
			Formula: "2m - n + 1", Source: "the flood: the leader sends on all its links, every other node on all but one",
			Value: func(c elect.BoundContext) float64 { return 2*float64(c.Edges) - float64(c.N) + 1 }},
		{Name: "messages", Quantity: elect.Messages, Relation: elect.AtMost,
			Formula: "7n + 4(a+b) + max(a,b) - 16", Source: "the sum of the counts above with m = 2n - (a+b): linear in n",
			Value: func(c elect.BoundContext) float64 {
				a, b, _ := MeshSides(c.N, c.Edges)
				if c.N == 1 {
					return 0
				}
				return 7*float64(c.N) + 4*float64(a+b) + float64(max(a, b)) - 16
			}},
		{Name: "time", Quantity: elect.Time, Relation: elect.AtMost,
			Formula: "3(a+b) - 5", Source: "the smallest corner's ID is back after L; the flood reaches the far corner a+b-2 later, whose one LEADER lands 1 later",
			Value: func(c elect.BoundContext) float64 {
				a, b, _ := MeshSides(c.N, c.Edges)
				return math.Max(0, float64(3*(a+b)-5))
			},
			Applies: func(c elect.BoundContext) bool { return c.AllAtZero && !c.CausalTime }},
	},
	CheckRun: func(c elect.BoundContext) error {
		if _, _, ok := MeshSides(c.N, c.Edges); !ok {
			return fmt.Errorf("runs on grids (--topology grid:WxH) with both sides at least 3, or grid:2x2, or one node: "+
				"a graph of %d nodes and %d links is not one", c.N, c.Edges)
		}
		return nil
	},
	NaturalTopology: squarestGrid,
	New:             meshNodes.New,
	Init:            meshNodes.Init,
}

// MeshSides returns the sides a <= b of the grid with n nodes and m links
// (a+b = 2n - m, ab = n), and whether PetersonMesh runs on it: both sides at
// least 3, or the 2x2 grid, or one node.
func MeshSides(n, m int) (a, b int, ok bool) {
	s := 2*int64(n) - int64(m)
	d2 := s*s - 4*int64(n)
	if n < 1 || s < 2 || d2 < 0 {
		return 0, 0, false
	}
	d := int64(math.Sqrt(float64(d2)))
	for d*d > d2 {
		d--
	}
	for (d+1)*(d+1) <= d2 {
		d++
	}
	if d*d != d2 || (s-d)%2 != 0 {
		return 0, 0, false
	}
	a, b = int((s-d)/2), int((s+d)/2)
	return a, b, a >= 3 || (a == 2 && b == 2) || (a == 1 && b == 1)
}

// squarestGrid is the grid of n nodes whose sides are closest: grid:WxH
// with W <= H the largest divisor of n up to its square root.
func squarestGrid(n int) string {
	w := 1
	for d := 1; d*d <= n; d++ {
		if n%d == 0 {
			w = d
		}
	}
	return fmt.Sprintf("grid:%dx%d", w, max(n, 1)/w)
}

// meshBorder is L, the number of nodes (and links) of the border ring of an
// a x b mesh (0 for one node).
func meshBorder(a, b int) float64 { return math.Max(0, float64(2*(a+b)-4)) }

// wakeupBits: a type tag and a degree of at most 4.
func wakeupBits(c elect.BitContext) int { return elect.TagBits(c.Types) + 3 }

var meshNodes = elect.NodesOf(func(p *meshNode, info elect.NodeInfo) {
	*p = meshNode{id: info.ID, nbDegree: make([]uint8, info.Degree), border: [2]int32{-1, -1}}
})

// Message types of PetersonMesh, in the order of PetersonMesh.Messages.
// WAKEUP carries the sender's degree in A.
const (
	pmWakeup elect.MsgType = iota
	pmElect
	pmLeader
)

// meshHeld is an ELECT held back by a border node that does not yet know
// its border links.
type meshHeld struct {
	from elect.Port
	id   elect.ID
}

type meshNode struct {
	id       elect.ID
	nbDegree []uint8  // by port: the neighbour's degree once its WAKEUP came (capped at 255), else 0
	heard    int32    // WAKEUPs received
	border   [2]int32 // a degree-3 node's border links once known, else -1
	held     []meshHeld
	lost     bool // a corner that saw a smaller ID
	won      bool // the corner whose ID came back
	informed bool // has the leader's ID (sent or passed on LEADER)
}

func (p *meshNode) Wake(env elect.Env, _ bool) {
	deg := len(p.nbDegree)
	sendAllBut(env, deg, noPort, elect.Message{Type: pmWakeup, A: int64(deg)})
	switch deg {
	case 0: // the mesh of one node
		p.win(env)
	case 2: // a corner: both links are border links
		sendAllBut(env, 2, noPort, elect.Message{Type: pmElect, ID: p.id})
	}
}

func (p *meshNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	switch m.Type {
	case pmWakeup:
		if p.nbDegree[from] == 0 {
			p.heard++
		}
		p.nbDegree[from] = uint8(min(max(m.A, 1), 255))
		if len(p.nbDegree) == 3 && int(p.heard) == 3 {
			p.findBorder(env)
		}
	case pmElect:
		p.elect(env, from, m.ID)
	case pmLeader:
		if p.informed {
			return
		}
		p.informed = true
		if !p.lost {
			env.Decide(elect.NotElected)
		}
		p.lost = true
		env.SetLeader(m.ID)
		sendAllBut(env, len(p.nbDegree), from, elect.Message{Type: pmLeader, ID: m.ID})
	}
}

// findBorder sets a degree-3 node's border links, the two that lead to
// nodes of degree below 4, and handles the ELECTs it held back. On a graph
// that is not a mesh, where the count differs, it has none and drops them.
func (p *meshNode) findBorder(env elect.Env) {
	k := 0
	for q, d := range p.nbDegree {
		if d < 4 && k < 2 {
			p.border[k] = int32(q)
			k++
		} else if d < 4 {
			k++
		}
	}
	if k != 2 {
		p.border = [2]int32{-1, -1}
	}
	held := p.held
	p.held = nil
	for _, h := range held {
		p.elect(env, h.from, h.id)
	}
}

// elect handles an ELECT(id) that came on link from.
func (p *meshNode) elect(env elect.Env, from elect.Port, id elect.ID) {
	switch len(p.nbDegree) {
	case 2:
		switch {
		case id < p.id:
			if !p.lost {
				p.lost = true
				env.Decide(elect.NotElected)
			}
			env.Send(1-from, elect.Message{Type: pmElect, ID: id})
		case id == p.id && !p.won && !p.lost:
			p.win(env)
		}
		// A larger ID, or the second copy of its own, is swallowed.
	case 3:
		switch {
		case int(p.heard) < 3:
			p.held = append(p.held, meshHeld{from: from, id: id})
		case int32(from) == p.border[0]:
			env.Send(elect.Port(p.border[1]), elect.Message{Type: pmElect, ID: id})
		case int32(from) == p.border[1]:
			env.Send(elect.Port(p.border[0]), elect.Message{Type: pmElect, ID: id})
		}
		// Inner nodes never get an ELECT on a mesh; elsewhere it is dropped.
	}
}

// win makes this node the leader and starts the flood.
func (p *meshNode) win(env elect.Env) {
	p.won, p.informed = true, true
	env.Decide(elect.Elected)
	env.SetLeader(p.id)
	sendAllBut(env, len(p.nbDegree), noPort, elect.Message{Type: pmLeader, ID: p.id})
}

// Clone implements elect.Snapshotter.
func (p *meshNode) Clone() elect.Node {
	c := *p
	c.nbDegree = append([]uint8(nil), p.nbDegree...)
	c.held = append([]meshHeld(nil), p.held...)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *meshNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendList(b, p.nbDegree, func(b []byte, d uint8) []byte { return elect.AppendUint(b, uint64(d)) })
	b = elect.AppendInts(b, int64(p.heard), int64(p.border[0]), int64(p.border[1]))
	b = elect.AppendList(b, p.held, func(b []byte, h meshHeld) []byte { return elect.AppendInts(b, int64(h.from), int64(h.id)) })
	b = elect.AppendBool(b, p.lost)
	b = elect.AppendBool(b, p.won)
	return elect.AppendBool(b, p.informed)
}
