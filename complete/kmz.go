package complete

import (
	"slices"

	"github.com/electkit/elect"
)

// KMZ is the election of Korach, Moran and Zaks for asynchronous complete
// networks (PODC 1984), with kings, kingdoms and phases. Every node starts
// as the king of a kingdom of its own at phase 0; a kingdom is a tree
// rooted at its king (each citizen knows its overlord, the link towards the
// king, and its vassals, the links below it), and kingdoms are compared by
// their status (phase, king) lexicographically.
//
//   - A king asks its links one at a time: ASK(phase, king) on its next
//     unused link, then it waits for the answer.
//   - A king that receives an ASK with a larger status loses: it becomes a
//     citizen, its overlord is the link the ASK came from, and it answers
//     ACCEPT(phase) there. A smaller ASK it ignores (its sender waits for
//     ever, and will be annexed in its turn).
//   - A citizen that receives an ASK of its own king answers YOUR_CITIZEN;
//     one with a status above its own it forwards to its overlord and
//     waits; one below it ignores. ACCEPT coming back down the path
//     reverses it: each node on the way takes the link the ASK came from
//     as its overlord and its old overlord as a vassal, so the annexed
//     kingdom hangs from the annexing king by the link that was asked.
//   - The annexing king, upon ACCEPT(q): the link becomes a vassal; if q
//     equals its phase, two kingdoms of one phase have merged, so phase <-
//     phase+1 and UPDATE(phase, king) goes to every vassal; otherwise
//     UPDATE goes down the new link only. A citizen, upon UPDATE, takes the
//     status and passes it to every vassal. Then the king asks its next
//     link; when every link has answered, the whole network is its
//     kingdom: it is elected and tells every node (LEADER).
//   - A citizen waiting for the answer to a forwarded ASK, or for the
//     UPDATE that follows its ACCEPT, holds back every other ASK.
//
// The paper itself was not available here (see docs/sources.md): these
// rules follow the source framework's write-up of the algorithm
// (krzysztof-turowski/distributed-framework, text/1180971), its message
// types included, and make three of its points precise (each marked
// where it is coded). (1) A forwarded ASK whose king ignores it gets no
// reply in the write-up; the citizens on its path stop waiting at the
// first UPDATE that settles it: one with the asker's king (then the
// node the king asked answers YOUR_CITIZEN) or with a larger status (then
// the ASK is dead). An UPDATE below the ASK does not end the wait, since
// an ACCEPT for it may still follow. (2) A forwarded ASK carries a flag
// (B = 1), so that its receiver tells a vassal's forward from a king's
// own ASK without searching its vassals. (3) A king that was annexed while
// waiting and then receives ACCEPT for its old ASK takes the new node as a
// vassal and sends it its current status (the write-up's "old accept").
// Nodes woken by a message start as kings, as every node does in the
// write-up ("every King has his own small Kingdom"). Links must be FIFO:
// a citizen's statuses arrive from its overlord in the order they were
// sent. The winner is the king that gets an answer on every link, not
// necessarily the largest ID.
//
// Bound (derived here from these rules; the write-up states 5n log n +
// O(n)): a kingdom of phase p has at least 2^p nodes, so phases stay at
// most P = floor(lg n). Every UPDATE a node receives raises its phase, so
// each of the n-1 losers receives at most P of them; a loser has at most P
// kings besides itself (each with a larger phase) and answers each at most
// one YOUR_CITIZEN; it forwards at most one ASK per UPDATE it has
// received, so at most P. Each forward is answered by at most one ACCEPT;
// the n-1 annexations cost one ACCEPT each; a king's ASKs are answered by
// YOUR_CITIZEN, by the ACCEPT of an annexation, or (its last) not at all.
// So ASK <= 2(n-1)(P+1), ACCEPT <= (n-1)(P+1), UPDATE and YOUR_CITIZEN <=
// (n-1)P each: at most (n-1)(5P+3) election messages, and n-1 LEADER.
// And at least 4(n-1): every node asks at least once on waking and the
// winner asks all n-1 links; every loser answers one ACCEPT as a king and
// is sent one UPDATE for it. With the maximum ID at node 0 and --order
// index (every other king asks node 0 first, and is ignored) the count is
// exactly 4(n-1), whatever the schedule and the starters.
var KMZ = &elect.Algorithm{
	Name:   "korach-moran-zaks",
	Title:  "Korach-Moran-Zaks (asynchronous complete network)",
	Source: "Korach, Moran and Zaks, PODC 1984 (rules as the source framework's write-up text/1180971 gives them)",
	Summary: "Every node is a king of its own kingdom (a tree); kings ask their links one at a time, an ASK " +
		"is forwarded up to the asked kingdom's king, the larger (phase, king) annexes the smaller and equal " +
		"phases merge into phase+1; the king answered on every link is elected.",
	Model: elect.Model{
		Topology: elect.Complete, Async: true, FIFO: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsAny, Announce: elect.AlwaysAnnounce,
		Randomized: true,
	},
	Growth: elect.Growth{Messages: "n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "ASK", Fields: []string{"king", "phase", "forwarded"}},
		{Name: "ACCEPT", Fields: []string{"phase"}},
		{Name: "UPDATE", Fields: []string{"king", "phase"}},
		{Name: "YOUR_CITIZEN"},
		{Name: "LEADER", Fields: []string{"id"}},
	},
	Bounds: []elect.Bound{
		{Name: "election messages", Quantity: elect.Messages, Types: kmzElectionTypes, Relation: elect.AtMost,
			Formula: "(n-1)(5 floor(lg n) + 3)", Source: "Korach, Moran and Zaks 1984 (5n log n + O(n)); the count per type derived in complete/kmz.go",
			Value: func(c elect.BoundContext) float64 { return float64(c.N-1) * float64(5*kmzMaxPhase(c.N)+3) }},
		{Name: "election messages (least)", Quantity: elect.Messages, Types: kmzElectionTypes, Relation: elect.AtLeast,
			Formula: "4(n-1)", Source: "complete/kmz.go: every node asks once, the winner n-1 times; each loser ACCEPTs once and is sent UPDATE",
			Value: func(c elect.BoundContext) float64 { return 4 * float64(c.N-1) }},
		{Name: "ASK messages", Quantity: elect.Messages, Types: []string{"ASK"}, Relation: elect.AtMost,
			Formula: "2(n-1)(floor(lg n) + 1)", Source: "complete/kmz.go: kings' ASKs and forwards",
			Value: func(c elect.BoundContext) float64 { return 2 * float64(c.N-1) * float64(kmzMaxPhase(c.N)+1) }},
		{Name: "UPDATE messages", Quantity: elect.Messages, Types: []string{"UPDATE"}, Relation: elect.AtMost,
			Formula: "(n-1) floor(lg n)", Source: "complete/kmz.go: each UPDATE raises its receiver's phase",
			Value: func(c elect.BoundContext) float64 { return float64(c.N-1) * float64(kmzMaxPhase(c.N)) }},
		{Name: "ACCEPT messages", Quantity: elect.Messages, Types: []string{"ACCEPT"}, Relation: elect.AtLeast,
			Formula: "n-1", Source: "every node but the winner loses once as a king and answers ACCEPT",
			Value: func(c elect.BoundContext) float64 { return float64(c.N - 1) }},
		{Name: "LEADER messages", Quantity: elect.Messages, Types: []string{"LEADER"}, Relation: elect.Exactly,
			Formula: "n-1", Source: "the king of all tells every other node",
			Value: func(c elect.BoundContext) float64 { return float64(c.N - 1) }},
	},
	Params: []elect.Param{{
		Name: "order", Default: "shuffle",
		Help:  "order in which a king asks its links: shuffle (a random order per node, as the source framework) or index (the topology's port order)",
		Check: checkChoice("order", "shuffle", "index"),
	}},
	// Its nodes send on few of their links at once (kings ask one link at a time, and
	// the announcement goes once to every node): the memory estimate
	// counts two messages a node in flight, not its message bound (O(n log
	// n) in a whole run), nor one per link of the complete graph.
	InFlight: func(c elect.BoundContext) float64 { return 2 * float64(c.N) },
	New:      kmzNodes.New,
	Init:     kmzNodes.Init,
}

var kmzElectionTypes = []string{"ASK", "ACCEPT", "UPDATE", "YOUR_CITIZEN"}

// kmzMaxPhase is floor(lg n), the largest phase a kingdom of at most n
// nodes reaches.
func kmzMaxPhase(n int) int { return elect.FloorLog2(n) }

var kmzNodes = elect.NodesOf(func(p *kmzNode, info elect.NodeInfo) {
	*p = kmzNode{id: info.ID, n: int32(info.Degree) + 1, overlord: noPort, pending: noPort,
		fwd: kmzAsk{from: noPort}, shuffle: info.Params.String("order") != "index"}
})

// Message types of KMZ, in the order of KMZ.Messages. ASK and UPDATE carry
// a status: the king in ID, the phase in A; ASK's B is 1 when forwarded.
// ACCEPT carries the annexed king's phase in A.
const (
	kmzAskMsg elect.MsgType = iota
	kmzAccept
	kmzUpdate
	kmzYourCitizen
	kmzLeader
)

// kmzAsk is an ASK a citizen holds: the link it came from, the asking
// king's status, and whether it came straight from that king.
type kmzAsk struct {
	from   elect.Port
	phase  int32
	king   elect.ID
	direct bool
}

type kmzNode struct {
	id       elect.ID
	n        int32
	started  bool
	king     bool // still a king
	phase    int32
	kingID   elect.ID // the king as last known (its own ID while a king)
	overlord elect.Port
	vassals  []elect.Port
	asked    int32      // a king's links asked so far
	pending  elect.Port // the link of the node's own unanswered ASK (noPort: none)
	fwd      kmzAsk     // the ASK forwarded to the overlord, awaiting its answer (from: noPort when none)
	awaiting bool       // sent ACCEPT, awaiting the new king's UPDATE
	queue    []kmzAsk   // ASKs held back while fwd or awaiting
	shuffle  bool
	moved    []agMove // shuffle: the lazily shuffled link numbering
	done     bool     // elected or told the leader
}

// below reports whether the node's status is below (phase, king).
func (p *kmzNode) below(phase int32, king elect.ID) bool {
	return p.phase < phase || p.phase == phase && p.kingID < king
}

func (p *kmzNode) Wake(env elect.Env, spontaneous bool) {
	p.started, p.king, p.kingID = true, true, p.id
	p.askNext(env)
}

// askNext sends the king's next ASK, or, when every link has answered,
// elects it.
func (p *kmzNode) askNext(env elect.Env) {
	if p.asked == p.n-1 {
		p.done = true
		env.Decide(elect.Elected)
		sendAll(env, p.n-1, elect.Message{Type: kmzLeader, ID: p.id})
		env.Terminate()
		return
	}
	port := p.asked
	if p.shuffle {
		port, p.moved = drawShuffled(p.moved, port, p.n-1, env.Rand())
	}
	p.asked++
	p.pending = elect.Port(port)
	env.Send(p.pending, elect.Message{Type: kmzAskMsg, ID: p.id, A: int64(p.phase)})
}

func (p *kmzNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	switch m.Type {
	case kmzAskMsg:
		a := kmzAsk{from: from, phase: int32(m.A), king: m.ID, direct: m.B == 0}
		switch {
		case p.king:
			p.kingAsked(env, a)
		case p.awaiting || p.fwd.from != noPort:
			p.queue = append(p.queue, a)
		default:
			p.citizenAsked(env, a)
		}
	case kmzAccept:
		p.accepted(env, from, int32(m.A))
	case kmzYourCitizen:
		if from != p.pending {
			return // not an answer to this node's ASK: only with equal IDs (--force)
		}
		p.pending = noPort
		if p.king {
			p.askNext(env)
		}
	case kmzUpdate:
		p.updated(env, int32(m.A), m.ID)
	case kmzLeader:
		p.done = true
		env.SetLeader(m.ID)
		env.Terminate()
	}
}

// kingAsked: a larger ASK annexes the king, a smaller one is ignored.
func (p *kmzNode) kingAsked(env elect.Env, a kmzAsk) {
	// Its own ID in another king's ASK (equal IDs, only under --force)
	// is not larger: ignored like a smaller one.
	if p.below(a.phase, a.king) {
		p.king = false
		env.Decide(elect.NotElected)
		p.follow(env, a, p.phase)
	}
}

// follow makes the link a came from the node's overlord (removing it from
// the vassals if it was one) and answers ACCEPT(q) there; the node then
// waits for its new status.
func (p *kmzNode) follow(env elect.Env, a kmzAsk, q int32) {
	if !a.direct {
		p.vassals = slices.DeleteFunc(p.vassals, func(v elect.Port) bool { return v == a.from })
	}
	if a.direct && a.from == p.pending {
		// That king holds a larger status than the node's own old ASK:
		// it has ignored it, or will.
		p.pending = noPort
	}
	p.overlord = a.from
	p.awaiting = true
	env.Send(a.from, elect.Message{Type: kmzAccept, A: int64(q)})
}

// citizenAsked: the citizen's own king gets YOUR_CITIZEN, a larger ASK
// goes up to the overlord, a smaller one is ignored.
func (p *kmzNode) citizenAsked(env elect.Env, a kmzAsk) {
	switch {
	case a.king == p.kingID:
		// A forward from a vassal that does not yet know its king: the
		// UPDATE that tells it is on its way, and settles its ASK there.
		if a.direct {
			env.Send(a.from, elect.Message{Type: kmzYourCitizen})
		}
	case p.below(a.phase, a.king):
		p.fwd = a
		env.Send(p.overlord, elect.Message{Type: kmzAskMsg, ID: a.king, A: int64(a.phase), B: 1})
	}
}

func (p *kmzNode) accepted(env elect.Env, from elect.Port, q int32) {
	switch {
	case p.king && from == p.pending:
		p.pending = noPort
		p.vassals = append(p.vassals, from)
		if q == p.phase {
			p.phase++
			p.sendUpdate(env, p.vassals...)
		} else {
			p.sendUpdate(env, from)
		}
		p.askNext(env)
	case !p.king && p.fwd.from != noPort && from == p.overlord:
		// The forwarded ASK won: the path turns round.
		a := p.fwd
		p.fwd.from = noPort
		p.vassals = append(p.vassals, p.overlord)
		p.follow(env, a, q)
	case !p.king && from == p.pending:
		// Point (3): the old ASK of a king since annexed was accepted.
		p.pending = noPort
		p.vassals = append(p.vassals, from)
		if !p.awaiting {
			p.sendUpdate(env, from)
		}
	default:
		// Not an answer to any ASK of this node: with unique IDs this
		// does not happen (exhaustive checks on 4 and 5 nodes); with
		// equal IDs (--force) it is dropped.
	}
}

func (p *kmzNode) sendUpdate(env elect.Env, to ...elect.Port) {
	for _, v := range to {
		env.Send(v, elect.Message{Type: kmzUpdate, ID: p.kingID, A: int64(p.phase)})
	}
}

// updated takes the status from the overlord, passes it on, settles the
// forwarded ASK if the status decides it, and serves held-back ASKs.
func (p *kmzNode) updated(env elect.Env, phase int32, king elect.ID) {
	p.phase, p.kingID, p.awaiting = phase, king, false
	p.sendUpdate(env, p.vassals...)
	if f := p.fwd; f.from != noPort {
		// Point (1): the asker's king means the asked node is its
		// citizen; a larger status means the ASK is dead; a smaller one
		// settles nothing, an ACCEPT may still come.
		switch {
		case f.king == king:
			if f.direct {
				env.Send(f.from, elect.Message{Type: kmzYourCitizen})
			}
			p.fwd.from = noPort
		case !p.below(f.phase, f.king):
			p.fwd.from = noPort
		}
	}
	for !p.awaiting && p.fwd.from == noPort && len(p.queue) > 0 {
		a := p.queue[0]
		p.queue = p.queue[1:]
		p.citizenAsked(env, a)
	}
	if len(p.queue) == 0 {
		p.queue = p.queue[:0:0]
	}
}

// Clone implements elect.Snapshotter.
func (p *kmzNode) Clone() elect.Node {
	c := *p
	c.vassals = slices.Clone(p.vassals)
	c.queue = slices.Clone(p.queue)
	c.moved = slices.Clone(p.moved)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *kmzNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), int64(p.n))
	b = elect.AppendBool(b, p.started)
	b = elect.AppendBool(b, p.king)
	b = elect.AppendInts(b, int64(p.phase), int64(p.kingID), int64(p.overlord))
	b = elect.AppendList(b, p.vassals, appendPort)
	b = elect.AppendInts(b, int64(p.asked), int64(p.pending))
	b = appendKMZAsk(b, p.fwd)
	b = elect.AppendBool(b, p.awaiting)
	b = elect.AppendList(b, p.queue, appendKMZAsk)
	b = elect.AppendBool(b, p.shuffle)
	b = elect.AppendList(b, p.moved, appendMove)
	return elect.AppendBool(b, p.done)
}

func appendKMZAsk(b []byte, a kmzAsk) []byte {
	b = elect.AppendInts(b, int64(a.from), int64(a.phase), int64(a.king))
	return elect.AppendBool(b, a.direct)
}
