package complete

import "github.com/electkit/elect"

// Bully is Garcia-Molina's Bully algorithm (H. Garcia-Molina, "Elections in
// a distributed computing system", IEEE Transactions on Computers C-31(1),
// 1982), for a synchronous complete network whose nodes may crash (crash-
// stop) and know every other node's ID (Model.KnowsIDs: the ID behind each
// port). A node that receives no answer within a timeout takes the silent
// node for crashed: in the synchronous model a timeout is a perfect failure
// detector. The rules, as this variant implements them:
//
//   - a node starts an election when it wakes spontaneously, or when an
//     ELECTION from a smaller ID reaches it and it has not started one: it
//     sends ELECTION to every node with a larger ID and waits 2 rounds (one
//     for the ELECTION to arrive, one for the ANSWER to come back);
//   - upon ELECTION from a smaller ID: send ANSWER back (always, decided or
//     not), and start an election if none is under way;
//   - if no ANSWER came within the 2 rounds, every larger node has crashed:
//     the node is elected and sends COORDINATOR(its ID) to every node with a
//     smaller ID (the bully); a node with no larger ID does so at once;
//   - if an ANSWER came, it waits 2 more rounds for a COORDINATOR; if none
//     comes (the larger node that answered crashed), it starts over;
//   - upon COORDINATOR(j): decide not-elected with leader j, stop waiting.
//
// Counts, derived for this variant (Bully's declared bounds, checked in
// every run without faults; complete/bully_test.go checks them exactly):
// without crashes every node starts at most one election, and each ELECTION
// is answered once, so the node of rank k (1 = smallest ID) sends at most
// n-k ELECTIONs and receives as many ANSWERs, and the coordinator sends
// n-1 COORDINATORs: at most 2 * n(n-1)/2 + n-1 = n^2 - 1 messages, exactly
// that when the smallest ID initiates alone (every other node is then drawn
// into an election: Garcia-Molina's worst case, O(n^2)). The best case is
// n-1 messages: the largest ID initiates alone and sends only its
// COORDINATORs. The textbook's "n-2" (Coulouris et al., 15.3.2) counts the
// second-largest node electing itself once the largest is known to have
// failed; here it must still send the crashed largest node one ELECTION and
// wait, so that run also takes 1 + (n-2) = n-1 messages (TestBullyBestCase).
//
// With crashes the leader holds the largest ID among the nodes that were up
// when it was elected (a larger node up then would have answered), exactly
// one node is ever elected, and every node up then learns its ID; the
// monitor checks these promises against the nodes up at the election.
var Bully = &elect.Algorithm{
	Name:   "bully",
	Title:  "Bully (Garcia-Molina)",
	Source: "Garcia-Molina 1982; Coulouris et al. 15.3.2",
	Summary: "A node sends ELECTION to every larger ID and, if none answers within a timeout, bullies the " +
		"smaller ones with COORDINATOR; a node that answers starts its own election. Survives crash-stop failures.",
	Model: elect.Model{
		Topology: elect.Complete, Sync: true, UniqueIDs: true, KnowsIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMax, Announce: elect.AlwaysAnnounce,
		Tolerates: elect.FaultCrash,
	},
	Growth: elect.Growth{Messages: "n^2", Time: "1"},
	Messages: []elect.MessageType{
		{Name: "ELECTION"},
		{Name: "ANSWER"},
		{Name: "COORDINATOR", Fields: []string{"j"}},
	},
	Bounds: []elect.Bound{
		{Name: "messages", Quantity: elect.Messages, Relation: elect.AtMost,
			Formula: "n^2 - 1", Source: "derived for this variant (complete/bully.go): each node elects at most once, each ELECTION is answered once",
			Value:   func(c elect.BoundContext) float64 { return float64(c.N)*float64(c.N) - 1 },
			Applies: noFaults},
		{Name: "messages", Quantity: elect.Messages, Relation: elect.AtLeast,
			Formula: "n - 1", Source: "derived for this variant: the coordinator's announcement",
			Value:   func(c elect.BoundContext) float64 { return float64(c.N - 1) },
			Applies: noFaults},
		{Name: "COORDINATOR messages", Quantity: elect.Messages, Types: []string{"COORDINATOR"}, Relation: elect.Exactly,
			Formula: "n - 1", Source: "derived for this variant: one coordinator, which sends to every smaller ID",
			Value:   func(c elect.BoundContext) float64 { return float64(c.N - 1) },
			Applies: noFaults},
		{Name: "time", Quantity: elect.Time, Relation: elect.AtMost,
			Formula: "2", Source: "derived for this variant: with every node awake at round 0 the largest ID bullies at once, and the last ANSWERs arrive at round 2",
			Value:   func(c elect.BoundContext) float64 { return 2 },
			Applies: func(c elect.BoundContext) bool { return c.Faults == 0 && c.AllAtZero }},
	},
	New:  bullyNodes.New,
	Init: bullyNodes.Init,
}

// noFaults: the bound speaks of runs without injected faults.
func noFaults(c elect.BoundContext) bool { return c.Faults == 0 }

var bullyNodes = elect.NodesOf(bullyInit)

func bullyInit(p *bullyNode, info elect.NodeInfo) {
	*p = bullyNode{id: info.ID, degree: int32(info.Degree), leader: -1, larger: make([]uint64, (info.Degree+63)/64)}
	if info.PortID != nil {
		for q := range elect.Port(info.Degree) {
			if info.PortID(q) > info.ID {
				p.larger[q/64] |= 1 << (q % 64)
			}
		}
	}
}

// Message types of Bully, in the order of Bully.Messages.
const (
	bullyElection elect.MsgType = iota
	bullyAnswer
	bullyCoordinator
)

// The phases of a Bully node.
const (
	bullyIdle     uint8 = iota // no election under way
	bullyElecting              // ELECTIONs sent, waiting for an ANSWER
	bullyWaiting               // answered by a larger node, waiting for its COORDINATOR
	bullyDone                  // decided
)

// Timer tags.
const (
	bullyAnswerTimeout int64 = iota
	bullyCoordinatorTimeout
)

// bullyTimeout is both waits, in rounds: a message and its reply.
const bullyTimeout = 2

type bullyNode struct {
	id     elect.ID
	degree int32
	// larger has bit q set when the ID behind port q is larger than the
	// node's: all it needs of its knowledge of the IDs (n bits, not n IDs).
	larger   []uint64
	phase    uint8
	answered bool     // an ANSWER came during the current wait
	leader   elect.ID // -1 until known
}

func (p *bullyNode) Wake(env elect.Env, spontaneous bool) {
	if spontaneous {
		p.startElection(env)
	}
}

func (p *bullyNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	switch m.Type {
	case bullyElection:
		env.Send(from, elect.Message{Type: bullyAnswer})
		if p.phase == bullyIdle {
			p.startElection(env)
		}
	case bullyAnswer:
		if p.phase == bullyElecting {
			p.answered = true
		}
	case bullyCoordinator:
		if p.phase == bullyDone {
			return
		}
		p.phase, p.leader = bullyDone, m.ID
		env.CancelTimers()
		env.SetLeader(m.ID)
		env.Decide(elect.NotElected)
	}
}

func (p *bullyNode) Timer(env elect.Env, tag int64) {
	switch {
	case tag == bullyAnswerTimeout && p.phase == bullyElecting:
		if !p.answered {
			p.becomeCoordinator(env)
			return
		}
		p.phase = bullyWaiting
		env.SetTimer(bullyTimeout, bullyCoordinatorTimeout)
	case tag == bullyCoordinatorTimeout && p.phase == bullyWaiting:
		p.startElection(env) // the larger node that answered has crashed
	}
}

// startElection sends ELECTION to every larger ID, or bullies at once when
// there is none.
func (p *bullyNode) startElection(env elect.Env) {
	p.phase, p.answered = bullyElecting, false
	sent := false
	for q := range elect.Port(p.degree) {
		if p.isLarger(q) {
			env.Send(elect.Port(q), elect.Message{Type: bullyElection})
			sent = true
		}
	}
	if !sent {
		p.becomeCoordinator(env)
		return
	}
	env.SetTimer(bullyTimeout, bullyAnswerTimeout)
}

// becomeCoordinator elects the node and announces it to every smaller ID.
func (p *bullyNode) becomeCoordinator(env elect.Env) {
	p.phase, p.leader = bullyDone, p.id
	env.Decide(elect.Elected)
	for q := range elect.Port(p.degree) {
		if !p.isLarger(q) {
			env.Send(elect.Port(q), elect.Message{Type: bullyCoordinator, ID: p.id})
		}
	}
}

// isLarger reports whether the ID behind port q is larger than the node's.
func (p *bullyNode) isLarger(q elect.Port) bool { return p.larger[q/64]>>(q%64)&1 != 0 }

// Clone implements elect.Snapshotter.
func (p *bullyNode) Clone() elect.Node {
	c := *p
	c.larger = append([]uint64(nil), p.larger...)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *bullyNode) AppendState(b []byte) []byte {
	b = elect.AppendInts(b, int64(p.id), int64(p.degree), int64(p.phase), int64(p.leader))
	b = elect.AppendBool(b, p.answered)
	return elect.AppendList(b, p.larger, func(b []byte, w uint64) []byte { return elect.AppendUint(b, w) })
}
