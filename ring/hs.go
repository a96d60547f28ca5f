package ring

import "github.com/electkit/elect"

// HS is the Hirschberg-Sinclair algorithm on the oriented bidirectional ring,
// as the slides' pseudo-code gives it (seed 003, "HS algorithm: pseudo-code
// for a generic processor"; also seed 001, section 5.2.2):
//
//   - to initiate (phase 0): send ELECTION<my_id, 0, 1> to left and right;
//   - upon ELECTION<j, k, d> from one side: if j > my_id and d < 2^k, send
//     ELECTION<j, k, d+1> on to the other side; if j > my_id and d = 2^k,
//     send REPLY<j, k> back to the side it came from; if j = my_id, the node
//     is elected (its probe went all the way round). A probe with j < my_id
//     matches no rule and is swallowed ("a probing message will be stopped if
//     it reaches a processor with a larger id");
//   - upon REPLY<j, k> from one side: if j != my_id, pass it on to the other
//     side; else, if the other REPLY<j, k> has already arrived, the node won
//     phase k and sends ELECTION<j, k+1, 1> to left and right.
//
// "Every processor which wakes-up (either spontaneously or by a message
// arrival) tries to elect itself": a node woken by a message first starts
// phase 0 with its own ID, then handles the message. With --announce the
// leader sends a "leader" message clockwise round the ring (n messages);
// every other node learns the leader's ID from it and decides not-elected.
//
// Bounds (seed 003, message complexity): a node that starts phase k >= 1 won
// phase k-1, so it is the largest ID within 2^(k-1) hops on both sides and
// the phase-k starters are at least 2^(k-1)+1 apart: at most n/(2^(k-1)+1)
// of them, each causing at most 4*2^k messages, fewer than 8n per phase.
// Phase 0 costs at most 4n, and phase ceil(lg n) is the last (the first in
// which a probe can come back to its sender; only the maximum wins phase
// ceil(lg n)-1, since 2*2^(ceil(lg n)-1) >= n), so at most
// 4n + 8n*ceil(lg n) <= 8n(1+ceil(lg n)) messages.
var HS = &elect.Algorithm{
	Name:   "hs",
	Title:  "Hirschberg-Sinclair",
	Source: "seed 003 (slides), HS pseudo-code and message complexity; seed 001, section 5.2.2",
	Summary: "In phase k every surviving node probes 2^k hops both ways; probes die at larger IDs, the " +
		"farthest node replies, and a node with both replies goes to phase k+1; the node that gets its own probe back is elected.",
	Model: elect.Model{
		Topology: elect.BiRing, Sync: true, Async: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMax, Announce: elect.OptionalAnnounce,
	},
	Growth: elect.Growth{Messages: "n lg n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "ELECTION", Fields: []string{"j", "k", "d"}},
		{Name: "REPLY", Fields: []string{"j", "k"}},
		{Name: "leader", Fields: []string{"j"}},
	},
	Bounds: []elect.Bound{
		{Name: "ELECTION and REPLY messages", Quantity: elect.Messages, Types: []string{"ELECTION", "REPLY"}, Relation: elect.AtMost,
			Formula: "8n(1+ceil(lg n))", Source: "seed 003: at most 4*2^k messages per phase-k starter, at most n/2^(k-1) starters",
			Value: func(c elect.BoundContext) float64 { return 8 * float64(c.N) * float64(1+elect.CeilLog2(c.N)) }},
		{Name: "ELECTION and REPLY messages", Quantity: elect.Messages, Types: []string{"ELECTION", "REPLY"}, Relation: elect.AtLeast,
			Formula: "4*2^ceil(lg n) + 4n - 6", Source: "the maximum is never stopped: 4*2^k messages in each phase k < ceil(lg n), " +
				"2n in the last; every other node sends its two phase-0 probes",
			Value: hsMinMessages},
		announcementBound("leader", "announcement round the ring"),
		{Name: "time", Quantity: elect.Time, Relation: elect.AtMost,
			Formula: "2^(ceil(lg n)+1) - 2 + n (+n with announcement)",
			Source: "seed 001 §5.2.2 (O(n) time): the maximum's phase k takes at most 2*2^k, its last phase " +
				"ceil(lg n) at most n; every other node stops by the end of phase ceil(lg n)-1",
			Value:   hsTime,
			Applies: timedFromZero},
	},
	New:  hsNodes.New,
	Init: hsNodes.Init,
}

var hsNodes = elect.NodesOf(hsInit)

func hsInit(p *hsNode, info elect.NodeInfo) {
	*p = hsNode{id: info.ID, replied: -1, announce: info.Announce}
}

// hsMinMessages is a lower bound on the ELECTION and REPLY messages of every
// run: the maximum's probes are never stopped, so its phases k < K =
// ceil(lg n) cost exactly 4*2^k messages (2^k probe and 2^k reply hops each
// way) and its last phase 2n (both probes go all the way round), in all
// 4(2^K-1) + 2n; every other node sends at least its two phase-0 probes.
func hsMinMessages(c elect.BoundContext) float64 {
	return float64(4*(int64(1)<<elect.CeilLog2(c.N)-1) + 2*int64(c.N) + 2*int64(c.N-1))
}

// hsTime is the time bound when every node wakes at time 0: the maximum's
// phases 0..K-1 (K = ceil(lg n)) take at most 2*2^k each, its last phase at
// most n, and every other node's messages die before the maximum's phase K-1
// ends; the announcement adds n.
func hsTime(c elect.BoundContext) float64 {
	k := elect.CeilLog2(c.N)
	return withAnnouncement(c, float64(int64(2)<<k-2+int64(c.N)))
}

// Message types of HS, in the order of HS.Messages.
const (
	hsElection elect.MsgType = iota
	hsReply
	hsLeader
)

type hsNode struct {
	id       elect.ID
	phase    int64 // the phase this node is probing in
	replied  int64 // phase of the one reply received so far; -1: none
	elected  bool
	announce bool
}

func (p *hsNode) Wake(env elect.Env, spontaneous bool) {
	// Initiators and nodes woken by a message alike try to elect themselves
	// (seed 003: "Every processor which wakes-up (either spontaneously or by
	// a message arrival), tries to elect itself").
	p.probe(env)
}

// probe starts the node's current phase: ELECTION<my_id, phase, 1> both ways.
func (p *hsNode) probe(env elect.Env) {
	p.replied = -1
	m := elect.Message{Type: hsElection, ID: p.id, A: p.phase, B: 1}
	env.Send(elect.Left, m)
	env.Send(elect.Right, m)
}

func (p *hsNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	switch m.Type {
	case hsElection:
		p.handleElection(env, from, m.ID, m.A, m.B)
	case hsReply:
		p.handleReply(env, from, m.ID, m.A)
	case hsLeader:
		p.handleLeader(env, m.ID)
	}
}

// handleElection applies the three rules of the slides in their order. A
// probe with j < my_id matches none of them: it is swallowed.
func (p *hsNode) handleElection(env elect.Env, from elect.Port, j elect.ID, k, d int64) {
	if j > p.id && d < int64(1)<<k {
		env.Send(from.Opposite(), elect.Message{Type: hsElection, ID: j, A: k, B: d + 1})
	}
	if j > p.id && d == int64(1)<<k {
		env.Send(from, elect.Message{Type: hsReply, ID: j, A: k})
	}
	if j == p.id {
		p.becomeLeader(env)
	}
}

// handleReply passes other nodes' replies on, and moves this node to the
// next phase when both of its own replies are in.
func (p *hsNode) handleReply(env elect.Env, from elect.Port, j elect.ID, k int64) {
	if j != p.id {
		env.Send(from.Opposite(), elect.Message{Type: hsReply, ID: j, A: k})
		return
	}
	// "if (already received REPLY<j,k>)": with unique IDs both replies a
	// node gets are to its current phase; keying the first one by its phase
	// keeps the rule literal when forced duplicate IDs mix replies up.
	if p.replied == k {
		p.phase = k + 1
		p.probe(env)
		return
	}
	p.replied = k
}

// becomeLeader is reached when the node's own probe comes back; in the last
// phase both probes come back, and the second changes nothing.
func (p *hsNode) becomeLeader(env elect.Env) {
	if p.elected {
		return
	}
	p.elected = true
	env.Decide(elect.Elected)
	if p.announce {
		env.Send(elect.Left, elect.Message{Type: hsLeader, ID: p.id})
	}
}

// handleLeader passes the announcement on until it is back at the leader.
func (p *hsNode) handleLeader(env elect.Env, j elect.ID) {
	if j == p.id {
		return
	}
	passOnLeader(env, elect.Left, elect.Message{Type: hsLeader, ID: j})
}
