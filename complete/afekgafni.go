package complete

import (
	"math/rand/v2"
	"slices"

	"github.com/electkit/elect"
)

// AfekGafni is Afek-Gafni algorithm B for asynchronous complete networks, as
// seed 002 writes it up. Every node runs a candidate part and an ordinary
// part. The candidate captures the other nodes one link at a time; its level
// is the number of nodes it has captured, and candidates are compared by
// (level, id) lexicographically. The ordinary part of a node remembers its
// owner's (level, id) as of the capture, its father (the link to the owner)
// and its potential father (the link to the candidate asking to take over).
//
//   - A candidate sends ARRIVE(level, id) on its next untraversed link and
//     waits for ACCEPT_ANSWER(level, id); if it is still alive then, level
//     <- level+1, and it goes on; after n-1 captures it is elected.
//   - Ordinary part, upon ARRIVE(l, j) from P: if (l, j) < (level, owner),
//     discard it (P is killed: it waits for ever). If the node was never
//     captured, its owner is its own candidate, compared locally: P wins,
//     the candidate dies (if it was alive) and ACCEPT_ANSWER goes back to P.
//     Otherwise potential father <- P, (level, owner) <- (l, j), and
//     ASK(l, j) goes to the father.
//   - Candidate part, upon ASK(l, j): if it is dead, answer DEAD; if (l, j)
//     < (level, id), it survives and P is killed (no answer); else it dies
//     and answers ANSWER_ACCEPT_CANDIDATE.
//   - Ordinary part, upon DEAD(l, j) or ANSWER_ACCEPT_CANDIDATE(l, j): if
//     (l, j) is still (level, owner), father <- potential father and
//     ACCEPT_ANSWER(l, j) goes to it; otherwise a larger candidate arrived
//     meanwhile and has asked the father itself, so the answer is stale.
//   - Termination: the leader sends LEADER to all; each node answers END and
//     from then on discards election messages; after n-1 ENDs the leader
//     sends END to all and every node stops.
//
// The seed leaves the choice of the next untraversed link free. By default
// (--order shuffle) a candidate takes its links in a random order of its own,
// drawn from its random source one link at a time (a lazy Fisher-Yates
// shuffle), as the source framework's implementation does: it keeps the
// untraversed links in a set and takes any one of them, and its complete
// graphs shuffle every node's ports. Two named variants keep cheaper orders:
// cyclically from a random link (--order rotate), or from port 0 (--order
// index, where every candidate first tries the same node). Under rotate and
// index the walks of different candidates overlap (they sweep the node
// indices in the same direction), so more candidates meet captured nodes:
// about 1100 messages at n = 100 under rotate, against about 860 for shuffle
// (and the framework's own runs, docs/reproduce/afek-gafni.md).
//
// Model. Nodes woken by a message run their candidate part too (the seed
// spawns both parts in every node), so any set of initiators works. Links
// need not be FIFO: an answer that comes back after a larger arrival is
// recognised by its (level, id), and nothing else depends on order. The
// winner is the candidate that captures everything first, which is not
// necessarily the largest ID (levels count before IDs): the model promises
// "some node", and every node learns its ID from LEADER.
//
// Variants (--variant): "seed" (default) is the rules above, the seed's
// prose without its blocking workaround. "wait" is the seed's own
// implementation ("Implementation details"): an ordinary part that has sent
// ASK holds back every ARRIVE until the answer comes, and the candidate part
// answers every ASK, with ANSWER_DENY_CANDIDATE when it survives. "literal"
// follows the seed's candidate pseudo-code where it differs from the prose:
// a dead candidate still compares, discarding an ASK below its own (level,
// id), instead of answering DEAD.
var AfekGafni = &elect.Algorithm{
	Name:   "afek-gafni",
	Title:  "Afek-Gafni algorithm B (asynchronous complete network)",
	Source: "seed 002 (Afek-Gafni write-up), all sections; seed 001 section 5.3",
	Summary: "Candidates capture nodes one link at a time; a node already owned asks its owner, and the " +
		"larger (level, id) survives; the first candidate to capture all n-1 others is elected and announces.",
	Model: elect.Model{
		Topology: elect.Complete, Async: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsAny, Announce: elect.AlwaysAnnounce,
		Randomized: true,
	},
	// The bound is 4n*H_n, but under the default random link order the mean
	// grows linearly: messages/n is 8.7 at n = 32, 9.2 at 100, 10.0 at 1000
	// and 10.2 at 10^4 (random IDs, all initiate, FIFO; under --order rotate
	// it is 11.1 at 100 and 14.6 at 1000).
	Growth: elect.Growth{Messages: "n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "ARRIVE", Fields: []string{"id", "level"}},
		{Name: "ACCEPT_ANSWER", Fields: []string{"id", "level"}},
		{Name: "ASK", Fields: []string{"id", "level"}},
		{Name: "ANSWER_ACCEPT_CANDIDATE", Fields: []string{"id", "level"}},
		{Name: "ANSWER_DENY_CANDIDATE", Fields: []string{"id", "level"}},
		{Name: "DEAD", Fields: []string{"id", "level"}},
		{Name: "LEADER", Fields: []string{"id"}},
		{Name: "END"},
	},
	Bounds: []elect.Bound{
		{Name: "election messages", Quantity: elect.Messages, Types: agElectionTypes, Relation: elect.AtMost,
			Formula: "4n*H_n", Source: "seed 002, Lemma 2 (4 messages per capture, Corollary 1)",
			Value: func(c elect.BoundContext) float64 { return 4 * float64(c.N) * elect.Harmonic(c.N) }},
		{Name: "termination messages", Quantity: elect.Messages, Types: []string{"LEADER", "END"}, Relation: elect.Exactly,
			Formula: "3(n-1)", Source: "seed 002, Lemma 2 and message END: LEADER to all, END to the leader, END to all",
			Value: func(c elect.BoundContext) float64 { return 3 * float64(c.N-1) }},
		{Name: "LEADER messages", Quantity: elect.Messages, Types: []string{"LEADER"}, Relation: elect.Exactly,
			Formula: "n-1", Source: "seed 002, message LEADER",
			Value: func(c elect.BoundContext) float64 { return float64(c.N - 1) }},
		{Name: "messages", Quantity: elect.Messages, Relation: elect.AtMost,
			Formula: "4n*H_n + 3(n-1)", Source: "seed 002, Lemma 2",
			Value: func(c elect.BoundContext) float64 {
				return 4*float64(c.N)*elect.Harmonic(c.N) + 3*float64(c.N-1)
			}},
	},
	Params: []elect.Param{{
		Name: "order", Default: "shuffle",
		Help:  "order in which a candidate traverses its links: shuffle (a random order per node, as the source framework), rotate (from a random link, cyclically) or index (port 0 first: every candidate tries the lowest-index node first)",
		Check: checkChoice("order", agOrderNames[:]...),
	}, {
		Name: "variant", Default: "seed",
		Help:  "seed (prose, no blocking), wait (ordinary parts wait for the answer to ASK; ANSWER_DENY_CANDIDATE sent), literal (dead candidates compare as in the pseudo-code)",
		Check: checkChoice("variant", agVariantNames[:]...),
	}},
	// Its nodes send on few of their links at once (candidates capture one link at a time, and
	// the announcement goes once to every node): the memory estimate
	// counts two messages a node in flight, not its message bound (O(n log
	// n) in a whole run), nor one per link of the complete graph.
	InFlight: func(c elect.BoundContext) float64 { return 2 * float64(c.N) },
	New:      agNodes.New,
	Init:     agNodes.Init,
}

var agNodes = elect.NodesOf(agInit)

func agInit(p *agNode, info elect.NodeInfo) {
	v, _ := choice[agVariant]("variant", agVariantNames[:], info.Params.String("variant"))
	o, _ := choice[agOrder]("order", agOrderNames[:], info.Params.String("order"))
	*p = agNode{id: info.ID, degree: int32(info.Degree), variant: v, father: noPort, potentialFather: noPort, order: o}
}

// agElectionTypes are the message types of the election proper, which the
// 4n*H_n bound speaks of.
var agElectionTypes = []string{"ARRIVE", "ACCEPT_ANSWER", "ASK", "ANSWER_ACCEPT_CANDIDATE", "ANSWER_DENY_CANDIDATE", "DEAD"}

// Message types of AfekGafni, in the order of AfekGafni.Messages. Every
// election message carries a candidate's (level, id): level in A, id in ID.
const (
	agArrive elect.MsgType = iota
	agAcceptAnswer
	agAsk
	agAnswerAcceptCandidate
	agAnswerDenyCandidate
	agDead
	agLeader
	agEnd
)

// agVariant selects one reading of the seed (see AfekGafni).
type agVariant uint8

const (
	agSeed    agVariant = iota // the prose, without the blocking workaround
	agWait                     // the seed's implementation: ordinary parts wait for answers
	agLiteral                  // the pseudo-code: dead candidates still compare
)

var agVariantNames = [...]string{"seed", "wait", "literal"}

// agOrder is the order in which a candidate traverses its links (see
// AfekGafni).
type agOrder uint8

const (
	agShuffle agOrder = iota // a random order per node, drawn lazily
	agRotate                 // cyclically from a random link
	agIndex                  // cyclically from port 0
)

var agOrderNames = [...]string{"shuffle", "rotate", "index"}

// agStatus is the seed's node status.
type agStatus uint8

const (
	// statusCandidate: the candidate part is alive (so the ordinary part
	// was never captured: capturing it kills the candidate).
	statusCandidate agStatus = iota
	// statusOrdinary: the candidate part is dead; it only answers ASK.
	statusOrdinary
	// statusWaitForAnswer: dead, and the ordinary part waits for the answer
	// to its ASK (variant wait only).
	statusWaitForAnswer
	// statusEnding: the leader is known; election messages are discarded.
	statusEnding
)

// noPort is the seed's nil father: the node was never captured and its
// owner is its own candidate part.
const noPort elect.Port = -1

// agArrival is an ARRIVE held back while the ordinary part waits (variant
// wait): the seed's queue.
type agArrival struct {
	from  elect.Port
	level int32
	id    elect.ID
}

type agNode struct {
	id     elect.ID
	degree int32 // n-1

	// Candidate part. level is the number of nodes captured. Under rotate
	// and index, links are traversed in the cyclic order start, start+1, ...
	// (mod n-1), so the untraversed set is the ports start+level ..
	// start+degree-1 (mod n-1): two counters, no per-link memory. Under
	// shuffle the links are a lazily shuffled array perm[0..n-2], perm[k]
	// the k-th link taken: positions below level are spent, and moved holds,
	// by increasing position, the positions at or above level whose link is
	// not the identity's (perm[k] = k unless moved says otherwise). A
	// candidate that captured k nodes holds at most k entries.
	level int32
	start int32
	moved []agMove

	// Ordinary part: the owner's (level, id) as of its capture of this node,
	// meaningful once father != noPort (before, the owner is the node's own
	// candidate and its current (level, id) counts).
	ownerLevel      int32
	ownerID         elect.ID
	father          elect.Port
	potentialFather elect.Port
	queue           []agArrival // variant wait: ARRIVEs held back

	counter int32 // the leader's count of END messages
	status  agStatus
	leader  bool
	order   agOrder
	variant agVariant
}

// agMove is an entry of a shuffled link array: the link at position pos.
type agMove struct{ pos, link int32 }

// less reports whether (l1, id1) < (l2, id2) lexicographically.
func less(l1 int32, id1 elect.ID, l2 int32, id2 elect.ID) bool {
	return l1 < l2 || (l1 == l2 && id1 < id2)
}

func msg(t elect.MsgType, level int32, id elect.ID) elect.Message {
	return elect.Message{Type: t, ID: id, A: int64(level)}
}

func (p *agNode) Wake(env elect.Env, spontaneous bool) {
	if p.degree == 0 {
		p.becomeLeader(env)
		return
	}
	if p.order == agRotate {
		p.start = int32(env.Rand().IntN(int(p.degree)))
	}
	p.sendArrive(env)
}

func (p *agNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	switch m.Type {
	case agLeader:
		p.handleLeader(env, from, m.ID)
		return
	case agEnd:
		p.handleEnd(env)
		return
	}
	if p.status == statusEnding {
		return // seed, message END: "he will receive messages but it will discard them"
	}
	level, id := int32(m.A), m.ID
	switch m.Type {
	case agArrive:
		if p.status == statusWaitForAnswer {
			p.queue = append(p.queue, agArrival{from: from, level: level, id: id})
			return
		}
		p.handleArrive(env, from, level, id)
	case agAsk:
		p.handleAsk(env, from, level, id)
	case agAnswerAcceptCandidate, agDead:
		p.handleAnswer(env, level, id, true)
	case agAnswerDenyCandidate:
		p.handleAnswer(env, level, id, false)
	case agAcceptAnswer:
		p.handleAcceptAnswer(env, level, id)
	}
}

// sendArrive is the candidate's step 1(a)-(b): send (level, id) on the next
// untraversed link.
func (p *agNode) sendArrive(env elect.Env) {
	var port int32
	if p.order == agShuffle {
		port = p.drawLink(env)
	} else {
		port = p.start + p.level
		if port >= p.degree {
			port -= p.degree
		}
	}
	env.Send(elect.Port(port), msg(agArrive, p.level, p.id))
}

// drawLink is one step of a lazy Fisher-Yates shuffle of the ports: the
// link at a uniformly random position j in level..n-2 is taken, and the
// link at position level (spent from now on) moves to j. Every untraversed
// link is equally likely, whatever happened before.
func (p *agNode) drawLink(env elect.Env) int32 {
	var port int32
	port, p.moved = drawShuffled(p.moved, p.level, p.degree, env.Rand())
	return port
}

// drawShuffled takes the link at position k of a lazily shuffled array of
// the ports 0..degree-1 (positions below k spent): it swaps a uniformly
// random position j in k..degree-1 into position k and returns its link.
// moved holds, by increasing position, the positions at or above k whose
// link is not the identity's; the updated list is returned.
func drawShuffled(moved []agMove, k, degree int32, rng *rand.Rand) (int32, []agMove) {
	j := k + int32(rng.IntN(int(degree-k)))
	// Every entry is at position k or above, so position k's is the first.
	atK := k
	if len(moved) > 0 && moved[0].pos == k {
		atK = moved[0].link
		moved = moved[1:]
	}
	if j == k {
		return atK, moved
	}
	i, found := slices.BinarySearchFunc(moved, j, func(m agMove, pos int32) int { return int(m.pos - pos) })
	if found {
		port := moved[i].link
		moved[i].link = atK
		return port, moved
	}
	return j, slices.Insert(moved, i, agMove{pos: j, link: atK})
}

// handleAcceptAnswer is the candidate's step 1(d): its own (level, id) came
// back, so it has captured the node, unless it was killed meanwhile.
func (p *agNode) handleAcceptAnswer(env elect.Env, level int32, id elect.ID) {
	if p.status != statusCandidate || id != p.id || level != p.level {
		return
	}
	p.level++
	if p.level == p.degree {
		p.becomeLeader(env)
		return
	}
	p.sendArrive(env)
}

// handleArrive is the ordinary part's reaction to candidate P's ARRIVE(l, j)
// on port from.
func (p *agNode) handleArrive(env elect.Env, from elect.Port, l int32, j elect.ID) {
	if p.father == noPort {
		// Never captured: the owner is this node's own candidate part, so the
		// ASK and its answer are local. Seed, message ARRIVE: "The ARRIVE
		// sequence will cause one of them to die." The seed's Initialize
		// (owner_id := 0, father := nil) would let any ARRIVE capture the
		// node without a contest; the prose decides.
		if less(l, j, p.level, p.id) {
			return // P is killed
		}
		if p.status == statusCandidate {
			p.becomeOrdinary() // ACCEPT_ANSWER: "no longer candidate"
		}
		p.ownerLevel, p.ownerID = l, j
		p.father, p.potentialFather = from, from
		env.Send(from, msg(agAcceptAnswer, l, j))
		return
	}
	if !less(p.ownerLevel, p.ownerID, l, j) {
		return // (l, j) < (level, owner_id): P is killed
	}
	p.potentialFather = from
	p.ownerLevel, p.ownerID = l, j
	env.Send(p.father, msg(agAsk, l, j))
	if p.variant == agWait {
		p.status = statusWaitForAnswer
	}
}

// handleAsk is the candidate part's answer to ASK(l, j) from an ordinary
// part it owns: the pseudo-code's step 1(e).
func (p *agNode) handleAsk(env elect.Env, from elect.Port, l int32, j elect.ID) {
	if p.status == statusCandidate {
		if less(l, j, p.level, p.id) {
			// 1(e)i: the candidate survives and the asker P is killed.
			if p.variant == agWait {
				env.Send(from, msg(agAnswerDenyCandidate, l, j))
			}
			return
		}
		// 1(e)ii: killed.
		p.becomeOrdinary()
		env.Send(from, msg(agAnswerAcceptCandidate, l, j))
		return
	}
	// Already dead. Seed, message DEAD: a dead candidate answers DEAD, and
	// "if Q has been killed already then P returns to v and tries to capture
	// it". The pseudo-code (1(e) with killed = true) still compares and
	// discards a smaller (l, j): variant literal.
	if p.variant == agLiteral && less(l, j, p.level, p.id) {
		return
	}
	env.Send(from, msg(agDead, l, j))
}

// becomeOrdinary: the candidate part dies; its untraversed links are
// forgotten.
func (p *agNode) becomeOrdinary() {
	p.status = statusOrdinary
	p.moved = nil
}

// handleAnswer is the ordinary part's reaction to the answer to its ASK:
// accepted (ANSWER_ACCEPT_CANDIDATE or DEAD) or denied
// (ANSWER_DENY_CANDIDATE, variant wait only).
func (p *agNode) handleAnswer(env elect.Env, l int32, j elect.ID, accepted bool) {
	if accepted && l == p.ownerLevel && j == p.ownerID {
		// Ordinary process, case (c): father <- potential_father.
		p.father = p.potentialFather
		env.Send(p.father, msg(agAcceptAnswer, l, j))
	}
	// Otherwise the answer is stale (a larger candidate arrived after the
	// ASK and asked the father itself) or a denial: the asker is killed.
	if p.status == statusWaitForAnswer {
		p.status = statusOrdinary
		p.drainQueue(env)
	}
}

// drainQueue handles held-back arrivals in order until one makes the
// ordinary part wait again (variant wait).
func (p *agNode) drainQueue(env elect.Env) {
	for len(p.queue) > 0 && p.status == statusOrdinary {
		a := p.queue[0]
		p.queue = p.queue[1:]
		p.handleArrive(env, a.from, a.level, a.id)
	}
	if len(p.queue) == 0 {
		p.queue = nil
	}
}

// becomeLeader is step 2: announce(ELECTED), then LEADER to every node.
func (p *agNode) becomeLeader(env elect.Env) {
	p.leader = true
	p.status = statusEnding
	p.queue, p.moved = nil, nil
	env.Decide(elect.Elected)
	env.SetLeader(p.id)
	sendAll(env, p.degree, elect.Message{Type: agLeader, ID: p.id})
	if p.degree == 0 {
		env.Terminate()
	}
}

// handleLeader: the node learns the leader, answers END and prepares to end.
func (p *agNode) handleLeader(env elect.Env, from elect.Port, j elect.ID) {
	p.status = statusEnding
	p.queue, p.moved = nil, nil
	env.SetLeader(j)
	env.Decide(elect.NotElected)
	env.Send(from, elect.Message{Type: agEnd})
}

// handleEnd: the leader counts the ENDs and, after n-1 of them, sends END to
// everyone and stops; any other node stops on the leader's END.
func (p *agNode) handleEnd(env elect.Env) {
	if !p.leader {
		env.Terminate()
		return
	}
	p.counter++
	if p.counter == p.degree {
		sendAll(env, p.degree, elect.Message{Type: agEnd})
		env.Terminate()
	}
}
