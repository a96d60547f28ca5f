package complete

import "github.com/electkit/elect"

// Humblet is Humblet's election for asynchronous complete networks
// (Humblet 1984, "Selecting a leader in a clique in O(N log N) messages"):
// every node that starts on its own tries to capture the others, one link
// at a time in the order of its links, and candidates are compared by
// (size, id), size being the number of nodes a candidate owns, itself
// included.
//
//   - A node that wakes spontaneously is a candidate of size 1 (the
//     paper's wake-up call WINNER to itself); it sends TEST(size, id) on
//     its link number size (here port size-1) and waits.
//   - A node that has never been captured, upon TEST(s, j): if (s, j) >
//     (size, id) it is captured: its master becomes the sender, it stops
//     being a candidate (if it was one) and answers WINNER; otherwise it
//     discards the TEST, and the sender waits for ever. A node that wakes
//     on a message never starts: its size stays 0 and the first TEST
//     captures it, which is what makes the count O(N log K) for K
//     spontaneous starters.
//   - A captured node asks its master instead ("let me ask my master"):
//     ASK(s, j) on the link to the master; the master compares (s, j) with
//     its own (size, id), stops being a candidate if it loses and answers
//     YES, or answers NO. On YES the node takes the sender as its master
//     and answers it WINNER; on NO it drops the TEST. While it waits for
//     the answer it holds back every other TEST.
//   - A candidate, upon WINNER: size <- size+1; if it is still a candidate
//     it tests its next link, and when size = n it owns every node and is
//     elected. A beaten candidate still counts its WINNERs (its size is
//     what its subjects' challengers fight against) but tests no further.
//
// The paper's candidate stops at size n, so the leader has captured every
// other node itself and every node's master is the leader: no
// announcement is needed. The source framework (and Santoro's textbook
// presentation) stops at a majority, size > n/2, and announces with LEADER
// to all: --variant majority.
//
// The paper numbers each node's links arbitrarily. By default (--order
// shuffle) a node's numbering is a random permutation of its ports, drawn
// lazily from its random source as it goes (as afek-gafni, and as the
// source framework, whose complete graphs shuffle every node's ports);
// --order index takes the ports in the topology's own order, where every
// starter tests the node of smallest index first, which turns the run into
// one contest around that node (about 5n messages).
//
// A master answers ASK from its own (size, id) at once, even while it
// waits, as a captured node, for an answer to its own ASK: the answer
// depends on nothing else, and holding it back could only delay (the
// framework's implementation queues it behind its own wait). Links need
// not be FIFO: every message is a request or its answer, and a node has
// at most one request of each kind outstanding.
//
// Bound: the territories of two candidates when each reaches size s are
// disjoint (one capturing from the other must beat a larger size), so at
// most min(K, floor(n/s)) candidates send a TEST at size s, and each TEST
// costs at most 4 messages (TEST, ASK, YES or NO, WINNER).
var Humblet = &elect.Algorithm{
	Name:   "humblet",
	Title:  "Humblet (asynchronous complete network)",
	Source: "Humblet 1984, the algorithm (slides of the Technion course 236357 for its message flow)",
	Summary: "Starters capture the other nodes one link at a time; a captured node asks its master to fight the " +
		"challenger by (size, id); the candidate that owns all n nodes (or a majority, then announcing) is elected.",
	Model: elect.Model{
		Topology: elect.Complete, Async: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsAny, Announce: elect.AlwaysAnnounce,
		Randomized: true,
	},
	// The bound grows like n lg n, but under the default shuffled order the
	// mean grows barely faster than n: messages/n is 6.3 at n = 32, 6.8 at
	// 128, 7.2 at 1024 and 7.5 at 4096 (random IDs, all start, FIFO).
	Growth: elect.Growth{Messages: "n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "TEST", Fields: []string{"id", "size"}},
		{Name: "ASK", Fields: []string{"id", "size"}},
		{Name: "YES"},
		{Name: "NO"},
		{Name: "WINNER"},
		{Name: "LEADER", Fields: []string{"id"}},
	},
	Bounds: []elect.Bound{
		{Name: "election messages", Quantity: elect.Messages, Types: humbletElectionTypes, Relation: elect.AtMost,
			Formula: "4 sum_{s=1..S} min(K, floor(n/s)), S = n-1 (majority: floor(n/2))",
			Source:  "Humblet 1984: territories of equal size are disjoint; 4 messages per TEST",
			Value:   humbletBound},
		{Name: "LEADER messages", Quantity: elect.Messages, Types: []string{"LEADER"}, Relation: elect.Exactly,
			Formula: "0 (majority: n-1)", Source: "Humblet 1984 needs no announcement; the majority variant tells all",
			Value: func(c elect.BoundContext) float64 {
				if c.Params.String("variant") == "majority" {
					return float64(c.N - 1)
				}
				return 0
			}},
	},
	Params: []elect.Param{{
		Name: "order", Default: "shuffle",
		Help:  "order of a node's links: shuffle (a random numbering per node, as the source framework) or index (the topology's port order)",
		Check: checkChoice("order", "shuffle", "index"),
	}, {
		Name: "variant", Default: "all",
		Help:  "all (the paper: a candidate captures all n-1 others) or majority (stop at size > n/2 and announce with LEADER, as the source framework)",
		Check: checkChoice("variant", "all", "majority"),
	}},
	// Its nodes send on few of their links at once (starters capture one link at a time, and
	// the announcement goes once to every node): the memory estimate
	// counts two messages a node in flight, not its message bound (O(n log
	// n) in a whole run), nor one per link of the complete graph.
	InFlight: func(c elect.BoundContext) float64 { return 2 * float64(c.N) },
	New:      humbletNodes.New,
	Init:     humbletNodes.Init,
}

var humbletElectionTypes = []string{"TEST", "ASK", "YES", "NO", "WINNER"}

// humbletBound is 4 * sum over the sizes s at which a TEST may be sent of
// min(K, floor(n/s)).
func humbletBound(c elect.BoundContext) float64 {
	last := c.N - 1
	if c.Params.String("variant") == "majority" {
		last = c.N / 2
	}
	k := c.Initiators
	if k <= 0 {
		k = c.N
	}
	total := 0
	for s := 1; s <= last; s++ {
		total += min(k, c.N/s)
	}
	return 4 * float64(total)
}

var humbletNodes = elect.NodesOf(func(p *humbletNode, info elect.NodeInfo) {
	*p = humbletNode{id: info.ID, n: int32(info.Degree) + 1, master: noPort, contender: hChallenge{from: noPort},
		majority: info.Params.String("variant") == "majority", shuffle: info.Params.String("order") != "index"}
})

// Message types of Humblet, in the order of Humblet.Messages. TEST and ASK
// carry the challenger's (size, id): size in A, id in ID.
const (
	hTest elect.MsgType = iota
	hAsk
	hYes
	hNo
	hWinner
	hLeader
)

// hChallenge is a TEST held back while its receiver waits for its master.
type hChallenge struct {
	from elect.Port
	size int32
	id   elect.ID
}

type humbletNode struct {
	id        elect.ID
	n         int32
	size      int32 // nodes owned, itself included; 0: never started
	active    bool  // a candidate that has not lost
	master    elect.Port
	contender hChallenge // the TEST being asked about (from: noPort when none)
	queue     []hChallenge
	majority  bool
	shuffle   bool
	moved     []agMove // shuffle: the lazily shuffled port numbering (see drawShuffled)
	done      bool     // elected
}

// beats reports whether (s, j) is larger than the node's own (size, id).
func (p *humbletNode) beats(s int32, j elect.ID) bool {
	return s > p.size || s == p.size && j > p.id
}

func (p *humbletNode) Wake(env elect.Env, spontaneous bool) {
	if !spontaneous {
		return
	}
	p.size, p.active = 1, true
	p.next(env)
}

// next tests the next link, or decides when the candidate owns enough.
func (p *humbletNode) next(env elect.Env) {
	if p.size == p.n || p.majority && 2*p.size > p.n {
		p.done = true
		env.Decide(elect.Elected)
		if p.majority {
			sendAll(env, p.n-1, elect.Message{Type: hLeader, ID: p.id})
			env.Terminate()
		}
		return
	}
	port := p.size - 1
	if p.shuffle {
		port, p.moved = drawShuffled(p.moved, port, p.n-1, env.Rand())
	}
	env.Send(elect.Port(port), elect.Message{Type: hTest, ID: p.id, A: int64(p.size)})
}

// lose makes the node a non-candidate for good.
func (p *humbletNode) lose(env elect.Env) {
	if p.active || p.size == 0 && p.master == noPort {
		env.Decide(elect.NotElected)
	}
	p.active = false
}

func (p *humbletNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	switch m.Type {
	case hTest:
		p.queue = append(p.queue, hChallenge{from: from, size: int32(m.A), id: m.ID})
	case hAsk:
		if p.beats(int32(m.A), m.ID) {
			p.lose(env)
			env.Send(from, elect.Message{Type: hYes})
		} else {
			env.Send(from, elect.Message{Type: hNo})
		}
	case hYes:
		p.capturedBy(env, p.contender)
		p.contender.from = noPort
	case hNo:
		p.contender.from = noPort
	case hWinner:
		p.size++
		if p.active {
			p.next(env)
		}
	case hLeader:
		env.SetLeader(m.ID)
		if !p.done {
			p.lose(env)
		}
		env.Terminate()
		return
	}
	p.serve(env)
}

// serve handles held-back TESTs while no ASK is outstanding.
func (p *humbletNode) serve(env elect.Env) {
	for p.contender.from == noPort && len(p.queue) > 0 {
		c := p.queue[0]
		p.queue = p.queue[1:]
		if p.master != noPort {
			p.contender = c
			env.Send(p.master, elect.Message{Type: hAsk, ID: c.id, A: int64(c.size)})
			return
		}
		if !p.beats(c.size, c.id) {
			continue // the challenger waits for ever
		}
		p.lose(env)
		p.capturedBy(env, c)
	}
	if len(p.queue) == 0 {
		p.queue = p.queue[:0:0]
	}
}

// capturedBy makes challenger c's link the node's master and answers it
// WINNER.
func (p *humbletNode) capturedBy(env elect.Env, c hChallenge) {
	p.master = c.from
	env.SetLeader(c.id)
	env.Send(c.from, elect.Message{Type: hWinner})
}

// Clone implements elect.Snapshotter.
func (p *humbletNode) Clone() elect.Node {
	c := *p
	c.queue = append([]hChallenge(nil), p.queue...)
	c.moved = append([]agMove(nil), p.moved...)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *humbletNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), int64(p.n), int64(p.size))
	b = elect.AppendBool(b, p.active)
	b = elect.AppendInt(b, int64(p.master))
	b = appendChallenge(b, p.contender)
	b = elect.AppendList(b, p.queue, appendChallenge)
	b = elect.AppendBool(b, p.majority)
	b = elect.AppendBool(b, p.shuffle)
	b = elect.AppendList(b, p.moved, appendMove)
	return elect.AppendBool(b, p.done)
}

func appendChallenge(b []byte, c hChallenge) []byte {
	return elect.AppendInts(b, int64(c.from), int64(c.size), int64(c.id))
}
