package general

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/electkit/elect"
)

// GHS is the minimum-spanning-tree algorithm of Gallager, Humblet and Spira
// (A distributed algorithm for minimum-weight spanning trees, ACM TOPLAS
// 5(1), 1983; the algorithm of its section 3 and appendix), followed by the
// election of one endpoint of the final core edge.
//
// Edges have distinct weights (NodeInfo.Weights; election.Config.NodeInfos
// states the rule: an edge list's weights, else the pair (smaller endpoint
// ID, larger endpoint ID) in lexicographic order), so the minimum spanning
// tree is unique; the model (Weighted) refuses the rings of one and two
// nodes, whose self-loop or double link would tie. Nodes are grouped in fragments of the tree; a fragment has
// a level and a name, the weight of its core edge. A node is Sleeping, Find
// (its fragment is looking for its minimum outgoing edge) or Found; each of
// its edges is Basic (unknown), Branch (in the tree) or Rejected (inside the
// fragment, not in the tree). Links are FIFO. The paper's rules:
//
//   - wake-up (spontaneous, or on the first Connect or Test): mark the
//     lightest edge Branch, level 0, Found, send Connect(0) on it;
//   - Connect(L) on j: if L < LN, absorb (mark j Branch, send Initiate(LN,
//     FN, SN), count j in find-count if Find); else, if j is Basic, defer it
//     (the sender's fragment waits for ours to reach its level or to connect
//     over j itself); else merge: send Initiate(LN+1, w(j), Find) on j;
//   - Initiate(L, F, S) on j: take level, name and state, j is the in-branch,
//     forget the best edge, pass Initiate on every other Branch edge
//     (counting them in find-count when Find), and when Find start testing;
//   - test: send Test(LN, FN) on the lightest Basic edge, or, when none is
//     left, report;
//   - Test(L, F) on j: if L > LN, defer it; if F != FN, send Accept;
//     otherwise j is internal: mark it Rejected if Basic, and send Reject
//     unless j is the node's own test edge, in which case test the next;
//   - Accept on j: j is the node's candidate; Reject on j: mark it
//     Rejected, test the next;
//   - report: once find-count is 0 and the test edge is settled, become
//     Found and send Report(best weight) on the in-branch;
//   - Report(w) on j: from a child, take the lighter best edge and report;
//     on the in-branch (the core edge), defer it while Find; else if w is
//     heavier than the node's best, the best edge is on this side of the
//     core: change root; if both are infinite, the tree is complete: halt;
//   - change-root: send ChangeRoot along the best edges to the node of the
//     minimum outgoing edge, which sends Connect(LN) on it and marks it
//     Branch.
//
// A deferred message waits in the node's queue ("placed on the end of the
// queue", as the paper says) and is reconsidered after every message the
// node processes, in the order it arrived.
//
// Election (not in the paper, whose nodes just halt): the two endpoints of
// the final core edge halt, each on the other's Report(infinity). Each then
// sends core-id(its ID) over the core edge; the endpoint with the larger ID
// is elected, the other decides not-elected and records it, and both send
// leader(that ID) on their other Branch edges; every node receiving it
// records the leader, decides not-elected and passes it on down the tree.
// That is exactly n election messages (2 core-id, n-2 leader) for n >= 2,
// counted apart from the paper's seven types. A network of one node elects
// it at once.
//
// Bounds (section 5 of the paper): at most 5N log2 N + 2E messages of the
// seven types (each edge is rejected at most once, by a Test and a Reject
// or two Tests: 2E; at each of at most log2 N levels a node receives at most
// one Initiate and one Accept and sends at most one successful Test, one
// Report and one ChangeRoot or Connect: 5N log2 N). Time: the paper shows
// that with all nodes awake at the start and one time unit per message the
// tree is complete by time 5N log2 N (the constant as recalled: no text of
// the paper was at hand to check it; docs/ghs.md). Our asynchronous model
// allows delays of at most one unit, and the bound is checked there too; it
// held in every run. The election adds one unit for core-id and at most
// N-2 for the announcement down the tree (its depth from a core node), so
// the declared total is 5N log2 N + N - 1.
var GHS = &elect.Algorithm{
	Name:   "ghs",
	Title:  "Gallager-Humblet-Spira (minimum spanning tree, then election on its core)",
	Source: "Gallager, Humblet, Spira, A distributed algorithm for minimum-weight spanning trees, ACM TOPLAS 5(1), 1983, section 3 and appendix",
	Summary: "Fragments of the minimum spanning tree find their lightest outgoing edge and merge by levels until one spans the graph; " +
		"the larger-ID endpoint of its core edge is elected and announces over the tree.",
	Model: elect.Model{
		Topology: elect.General, Async: true, FIFO: true, UniqueIDs: true, Weighted: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsAny, Announce: elect.AlwaysAnnounce,
	},
	// Growth on the default topology, the ring: messages grow like n lg n
	// (the bound's order), time like n (fragments are paths whose cores are
	// up to half their length from their ends; the bound's 5n lg n is the
	// worst case over all graphs and schedules).
	Growth: elect.Growth{Messages: "n lg n", Time: "n"},
	// The paper's SN and SE, by name in traces and the viewer.
	StateValues: map[string][]string{
		"state": {"sleeping", "find", "found"},
		"edges": {"basic", "branch", "rejected"},
	},
	// The MST's edges: the Branch ones.
	TreePorts: elect.TreePorts{Field: "edges", Value: "branch"},
	Messages: []elect.MessageType{
		{Name: "Connect", Fields: []string{"L"}},
		{Name: "Initiate", Fields: []string{"F", "L", "S"}},
		{Name: "Test", Fields: []string{"F", "L"}},
		{Name: "Accept"},
		{Name: "Reject"},
		{Name: "Report", Fields: []string{"w"}},
		{Name: "ChangeRoot"},
		{Name: "core-id", Fields: []string{"j"}},
		{Name: "leader", Fields: []string{"j"}},
	},
	Bounds: []elect.Bound{
		{Name: "MST messages", Quantity: elect.Messages, Types: ghsMSTTypes, Relation: elect.AtMost,
			Formula: "5n lg n + 2|E|", Source: "Gallager-Humblet-Spira 1983, section 5 (communication complexity)",
			Value: ghsMessageBound},
		{Name: "MST messages", Quantity: elect.Messages, Types: ghsMSTTypes, Relation: elect.AtLeast,
			Formula: "2(n-1)", Source: "every tree edge carries a Connect and an Initiate",
			Value: func(c elect.BoundContext) float64 { return 2 * float64(c.N-1) }},
		{Name: "election messages", Quantity: elect.Messages, Types: []string{"core-id", "leader"}, Relation: elect.Exactly,
			Formula: "n (n >= 2)", Source: "two core-id over the core edge, one leader over each other tree edge",
			Value: func(c elect.BoundContext) float64 {
				if c.N < 2 {
					return 0
				}
				return float64(c.N)
			}},
		{Name: "messages", Quantity: elect.Messages, Relation: elect.AtMost,
			Formula: "5n lg n + 2|E| + n", Source: "the two bounds above",
			Value: func(c elect.BoundContext) float64 { return ghsMessageBound(c) + float64(c.N) }},
		{Name: "time", Quantity: elect.Time, Relation: elect.AtMost,
			Formula: "5n lg n + n - 1", Source: "Gallager-Humblet-Spira 1983, section 5 (5N log N when all nodes wake at once), plus the election",
			Value: func(c elect.BoundContext) float64 {
				return 5*float64(c.N)*math.Log2(float64(c.N)) + float64(c.N) - 1
			},
			Applies: func(c elect.BoundContext) bool { return c.AllAtZero && !c.CausalTime }},
	},
	New:  ghsNodes.New,
	Init: ghsNodes.Init,
}

// ghsMSTTypes are the paper's seven message types.
var ghsMSTTypes = []string{"Connect", "Initiate", "Test", "Accept", "Reject", "Report", "ChangeRoot"}

func ghsMessageBound(c elect.BoundContext) float64 {
	n := float64(c.N)
	return 5*n*math.Log2(n) + 2*float64(c.Edges)
}

var ghsNodes = elect.NodesOf(ghsInit)

func ghsInit(p *ghsNode, info elect.NodeInfo) {
	*p = ghsNode{
		id: info.ID, weights: info.Weights, edges: make([]ghsEdge, info.Degree),
		inBranch: noPort, bestEdge: noPort, testEdge: noPort, bestWt: elect.InfiniteWeight,
	}
	if len(info.Weights) == info.Degree {
		p.byWeight = make([]elect.Port, info.Degree)
		for q := range p.byWeight {
			p.byWeight[q] = elect.Port(q)
		}
		slices.SortFunc(p.byWeight, func(a, b elect.Port) int { return cmp.Compare(p.weights[a], p.weights[b]) })
	}
}

// Message types of GHS, in the order of GHS.Messages.
const (
	ghsConnect elect.MsgType = iota
	ghsInitiate
	ghsTest
	ghsAccept
	ghsReject
	ghsReport
	ghsChangeRoot
	ghsCoreID
	ghsLeader
)

// ghsState is a node's state (the paper's SN).
type ghsState uint8

// The node states.
const (
	ghsSleeping ghsState = iota
	ghsFind
	ghsFound
)

// ghsEdge is an edge's state as one endpoint sees it (the paper's SE).
type ghsEdge uint8

// The edge states.
const (
	ghsBasic ghsEdge = iota
	ghsBranch
	ghsRejected
)

// ghsDeferred is a message the node could not process yet.
type ghsDeferred struct {
	from elect.Port
	msg  elect.Message
}

type ghsNode struct {
	id        elect.ID
	weights   []elect.Weight // by port, shared with the runtime: read only
	edges     []ghsEdge      // SE, by port
	state     ghsState       // SN
	level     int64          // LN
	name      elect.Weight   // FN
	inBranch  elect.Port
	bestEdge  elect.Port
	bestWt    elect.Weight
	testEdge  elect.Port
	findCount int64
	halted    bool // the node is an endpoint of the final core edge and halted
	deferred  []ghsDeferred
	// byWeight lists the ports from the lightest edge to the heaviest, and
	// byWeight[:basicFrom] holds no Basic edge (an edge never becomes Basic
	// again), so that finding the lightest Basic edge costs O(1) amortised
	// instead of O(degree) (a run on the complete graph of 4096 nodes took
	// 17.6 s with it, and had not ended after 10 minutes without it).
	byWeight  []elect.Port
	basicFrom int64
}

// Wake is the paper's wakeup, on a spontaneous start or on the first message
// (a Connect or a Test, which would call it anyway).
func (p *ghsNode) Wake(env elect.Env, spontaneous bool) {
	if p.state == ghsSleeping {
		p.wakeup(env)
	}
}

func (p *ghsNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if !p.handle(env, from, m) {
		p.deferred = append(p.deferred, ghsDeferred{from, m})
		return
	}
	p.retryDeferred(env)
}

// retryDeferred reconsiders the deferred messages in order until none of
// them can be processed.
func (p *ghsNode) retryDeferred(env elect.Env) {
	for progress := true; progress && len(p.deferred) > 0; {
		progress = false
		kept := p.deferred[:0]
		for k := 0; k < len(p.deferred); k++ {
			d := p.deferred[k]
			if p.handle(env, d.from, d.msg) {
				progress = true
			} else {
				kept = append(kept, d)
			}
		}
		clear(p.deferred[len(kept):])
		p.deferred = kept
	}
}

// handle processes one message and reports whether it did; false means the
// paper's "place received message on end of queue".
func (p *ghsNode) handle(env elect.Env, j elect.Port, m elect.Message) bool {
	switch m.Type {
	case ghsConnect:
		return p.handleConnect(env, j, int64(m.ID))
	case ghsInitiate:
		p.handleInitiate(env, j, m.A, elect.Weight(m.ID), ghsState(m.B))
	case ghsTest:
		return p.handleTest(env, j, m.A, elect.Weight(m.ID))
	case ghsAccept:
		p.testEdge = noPort
		if w := p.weights[j]; w < p.bestWt {
			p.bestEdge, p.bestWt = j, w
		}
		p.report(env)
	case ghsReject:
		if p.edges[j] == ghsBasic {
			p.edges[j] = ghsRejected
		}
		p.test(env)
	case ghsReport:
		return p.handleReport(env, j, elect.Weight(m.ID))
	case ghsChangeRoot:
		p.changeRoot(env)
	case ghsCoreID:
		if !p.halted {
			// Under FIFO links the other endpoint's Report(infinity) came
			// first and made this node halt, so this never happens; on
			// reordering links (a forced run) the message waits.
			return false
		}
		p.handleCoreID(env, j, m.ID)
	case ghsLeader:
		env.SetLeader(m.ID)
		env.Decide(elect.NotElected)
		p.announce(env, j, m.ID)
	default:
		panic(fmt.Sprintf("ghs: unknown message type %d", m.Type))
	}
	return true
}

func (p *ghsNode) wakeup(env elect.Env) {
	if len(p.edges) == 0 {
		// A network of one node: it is its own spanning tree.
		p.state = ghsFound
		env.Decide(elect.Elected)
		env.Terminate()
		return
	}
	m := p.byWeight[0] // the lightest edge
	p.edges[m] = ghsBranch
	p.level, p.state, p.findCount = 0, ghsFound, 0
	env.Send(m, elect.Message{Type: ghsConnect, ID: 0})
}

func (p *ghsNode) handleConnect(env elect.Env, j elect.Port, l int64) bool {
	if p.state == ghsSleeping {
		p.wakeup(env)
	}
	switch {
	case l < p.level:
		// Absorb the lower fragment: it joins ours, in our current phase.
		p.edges[j] = ghsBranch
		env.Send(j, elect.Message{Type: ghsInitiate, ID: elect.ID(p.name), A: p.level, B: int64(p.state)})
		if p.state == ghsFind {
			p.findCount++
		}
	case p.edges[j] == ghsBasic:
		return false // an equal level, and j is not our choice (yet): wait
	default:
		// Both fragments chose j at the same level: merge, j is the core.
		env.Send(j, elect.Message{Type: ghsInitiate, ID: elect.ID(p.weights[j]), A: p.level + 1, B: int64(ghsFind)})
	}
	return true
}

func (p *ghsNode) handleInitiate(env elect.Env, j elect.Port, l int64, f elect.Weight, s ghsState) {
	p.level, p.name, p.state, p.inBranch = l, f, s, j
	p.bestEdge, p.bestWt = noPort, elect.InfiniteWeight
	for i := range elect.Port(len(p.edges)) {
		if i != j && p.edges[i] == ghsBranch {
			env.Send(i, elect.Message{Type: ghsInitiate, ID: elect.ID(f), A: l, B: int64(s)})
			if s == ghsFind {
				p.findCount++
			}
		}
	}
	if s == ghsFind {
		p.test(env)
	}
}

// test probes the lightest Basic edge, or reports when none is left.
func (p *ghsNode) test(env elect.Env) {
	for p.basicFrom < int64(len(p.byWeight)) && p.edges[p.byWeight[p.basicFrom]] != ghsBasic {
		p.basicFrom++
	}
	best := noPort
	if p.basicFrom < int64(len(p.byWeight)) {
		best = p.byWeight[p.basicFrom]
	}
	p.testEdge = best
	if best == noPort {
		p.report(env)
		return
	}
	env.Send(best, elect.Message{Type: ghsTest, ID: elect.ID(p.name), A: p.level})
}

func (p *ghsNode) handleTest(env elect.Env, j elect.Port, l int64, f elect.Weight) bool {
	if p.state == ghsSleeping {
		p.wakeup(env)
	}
	switch {
	case l > p.level:
		return false // we may be in the sender's fragment without knowing it yet
	case f != p.name:
		env.Send(j, elect.Message{Type: ghsAccept})
	default:
		if p.edges[j] == ghsBasic {
			p.edges[j] = ghsRejected
		}
		if p.testEdge != j {
			env.Send(j, elect.Message{Type: ghsReject})
		} else {
			p.test(env)
		}
	}
	return true
}

func (p *ghsNode) report(env elect.Env) {
	if p.findCount == 0 && p.testEdge == noPort {
		p.state = ghsFound
		env.Send(p.inBranch, elect.Message{Type: ghsReport, ID: elect.ID(p.bestWt)})
	}
}

func (p *ghsNode) handleReport(env elect.Env, j elect.Port, w elect.Weight) bool {
	switch {
	case j != p.inBranch:
		p.findCount--
		if w < p.bestWt {
			p.bestWt, p.bestEdge = w, j
		}
		p.report(env)
	case p.state == ghsFind:
		return false // our side of the core has not reported yet
	case w > p.bestWt:
		p.changeRoot(env)
	case w == p.bestWt && w == elect.InfiniteWeight:
		// The paper's halt: the tree is complete; j is the core edge.
		p.halted = true
		env.Send(j, elect.Message{Type: ghsCoreID, ID: p.id})
	}
	return true
}

func (p *ghsNode) changeRoot(env elect.Env) {
	if p.edges[p.bestEdge] == ghsBranch {
		env.Send(p.bestEdge, elect.Message{Type: ghsChangeRoot})
		return
	}
	env.Send(p.bestEdge, elect.Message{Type: ghsConnect, ID: elect.ID(p.level)})
	p.edges[p.bestEdge] = ghsBranch
}

// handleCoreID elects the larger ID of the core edge's endpoints.
func (p *ghsNode) handleCoreID(env elect.Env, j elect.Port, other elect.ID) {
	leader := max(p.id, other)
	if leader == p.id {
		env.Decide(elect.Elected)
	} else {
		env.SetLeader(leader)
		env.Decide(elect.NotElected)
	}
	p.announce(env, j, leader)
}

// announce sends leader(id) on every Branch edge but j; the node is done.
func (p *ghsNode) announce(env elect.Env, j elect.Port, id elect.ID) {
	for q := range elect.Port(len(p.edges)) {
		if q != j && p.edges[q] == ghsBranch {
			env.Send(q, elect.Message{Type: ghsLeader, ID: id})
		}
	}
	env.Terminate()
}
