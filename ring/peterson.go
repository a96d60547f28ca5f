package ring

import (
	"fmt"

	"github.com/electkit/elect"
)

// Peterson is Peterson's algorithm for the asynchronous unidirectional ring
// as Algorithm 5.2 of the lecture notes (seed 001, section 5.2.3):
//
//	candidate: phase <- 0; current <- pid; repeat:
//	    send probe(phase, current); wait for probe(phase, x); id2 <- x
//	    send probe(phase+1/2, id2); wait for probe(phase+1/2, x); id3 <- x
//	    if id2 = current: I am the leader
//	    else if id2 > current and id2 > id3: current <- id2; phase <- phase+1
//	    else: switch to relay
//	relay: upon probe(p, i): send probe(p, i)
//
// Every node starts as a candidate ("Start with n candidate leaders"); a node
// woken by a message becomes a candidate too (runs the first send, then
// handles the message), which is the same as a late start, so any set of
// initiators works.
//
// The elected node is the last candidate: it holds the maximum ID as its
// current, but its own pid need not be the maximum. It records current as the
// leader's ID (env.SetLeader); the promise is elect.ElectsAnyKnowsMax.
//
// Phase tags: with --variant tagged (the default) probes carry their phase
// (phase+1/2 is coded as 2*phase+1), and a candidate buffers probes of later
// half-phases until it gets there and forwards the buffer when it turns relay
// ("it assumes that we can buffer and ignore incoming messages from the later
// phases until we get to the right phase"), so channels need not be FIFO.
// With --variant untagged probes carry only the ID ("the phase arguments in
// the probe messages are useless if one has FIFO channels"); that variant
// assumes FIFO channels.
//
// Messages (counted here; the notes' 2n*ceil(lg n) leaves out the last
// phase): in every phase each link carries exactly two probes (each
// candidate's two probes travel to the next candidate, and the gaps between
// candidates cover the ring), so a run with P phases sends exactly 2nP
// probes. Two neighbouring candidates cannot both survive (each would need
// the other's value to be the larger), so at most floor(c/2) of c >= 2
// candidates survive, and the phase with a single candidate (the last, in
// which id2 = current) has index at most floor(lg n): P <= floor(lg n)+1,
// probes <= 2n*floor(lg n) + 2n. This equals the notes' 2n*ceil(lg n) when n
// is not a power of two and exceeds it by 2n when it is; the bit-reversal
// ring of size 2^k halves the candidates in every phase and reaches it.
var Peterson = &elect.Algorithm{
	Name:   "peterson",
	Title:  "Peterson (unidirectional)",
	Source: "seed 001 (lecture notes), section 5.2.3, Algorithm 5.2",
	Summary: "Candidates send their current value and relay it once more; a candidate survives to the next phase " +
		"with its predecessor's value if that beats both its own and the one before; the last candidate, holding the max, is elected.",
	Model: petersonModel(false),
	ModelFor: func(p elect.Params) elect.Model {
		return petersonModel(p.String("variant") == "untagged")
	},
	Growth: elect.Growth{Messages: "n lg n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "probe", Fields: []string{"x", "phase"}, Bits: petersonProbeBits},
		{Name: "leader", Fields: []string{"j"}},
	},
	Bounds: []elect.Bound{
		{Name: "probe messages", Quantity: elect.Messages, Types: []string{"probe"}, Relation: elect.AtMost,
			Formula: "2n*floor(lg n) + 2n", Source: "seed 001 §5.2.3 (2 probes per link per phase, at most floor(lg n)+1 phases; " +
				"the notes' 2n*ceil(lg n) plus the last phase's 2n)",
			Value: boundLgRounds},
		{Name: "probe messages", Quantity: elect.Messages, Types: []string{"probe"}, Relation: elect.AtLeast,
			Formula: "4n (2n if n = 1)", Source: "2n probes per phase; with n >= 2 candidates phase 0 cannot be the last",
			Value: boundTwoRounds},
		announcementBound("leader", "announcement round the ring (seed 001 §5: an extra broadcast phase)"),
		{Name: "time", Quantity: elect.Time, Relation: elect.AtMost,
			Formula: "n(floor(lg n)+2) (+n with announcement)",
			Source: "phases with c >= 2 candidates take at most n (a probe crosses two gaps), the last one 2n; " +
				"seed 001 §5.2.3: time may be Theta(n log n)",
			Value:   petersonTime,
			Applies: timedFromZero},
	},
	Params: []elect.Param{{
		Name: "variant", Default: "tagged",
		Help: "tagged: probes carry their phase and later phases are buffered (any channels); " +
			"untagged: probes carry only the ID (needs FIFO channels, as in Lynch)",
		Check: func(v string) error {
			if v != "tagged" && v != "untagged" {
				return fmt.Errorf("unknown variant %q; use tagged or untagged", v)
			}
			return nil
		},
	}},
	New:  petersonNodes.New,
	Init: petersonNodes.Init,
}

var petersonNodes = elect.NodesOf(petersonInit)

func petersonInit(p *petersonNode, info elect.NodeInfo) {
	*p = petersonNode{
		id: info.ID, current: info.ID,
		tagged:   info.Params.String("variant") != "untagged",
		announce: info.Announce,
	}
}

func petersonModel(untagged bool) elect.Model {
	return elect.Model{
		Topology: elect.UniRing, Sync: true, Async: true, FIFO: untagged, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsAnyKnowsMax, Announce: elect.OptionalAnnounce,
	}
}

// petersonProbeBits is the size of a probe: tag and ID, plus, when tagged,
// the half-phase 2*phase+1 <= 2*floor(lg n)+1.
func petersonProbeBits(c elect.BitContext) int {
	b := elect.TagBits(c.Types) + c.IDBits
	if c.Params.String("variant") != "untagged" {
		b += elect.CeilLog2(2*elect.FloorLog2(c.N) + 2)
	}
	return b
}

// petersonTime is the time bound when every node wakes at time 0. If every
// candidate of phase k has entered it by T, a candidate has both probes of
// the phase by T + (gap to its predecessor) + (gap before that) <= T + n
// when there are two or more candidates, and the single last candidate gets
// its probes back after n and 2n; with at most floor(lg n)+1 phases the
// election ends by n*floor(lg n) + 2n.
func petersonTime(c elect.BoundContext) float64 {
	return withAnnouncement(c, float64(c.N)*float64(elect.FloorLog2(c.N)+2))
}

// Message types of Peterson, in the order of Peterson.Messages.
const (
	petersonProbe elect.MsgType = iota
	petersonLeader
)

type petersonNode struct {
	id       elect.ID
	current  elect.ID
	id2      elect.ID
	phase    int64
	second   bool // waiting for probe(phase+1/2, x), not probe(phase, x)
	relay    bool
	elected  bool
	tagged   bool
	announce bool
	// later holds probes of later half-phases (tagged variant), in arrival
	// order, until the candidate gets there or turns relay.
	later []elect.Message
}

// halfPhase is the tag of the probe the candidate waits for: 2*phase for
// probe(phase, x), 2*phase+1 for probe(phase+1/2, x).
func (p *petersonNode) halfPhase() int64 {
	if p.second {
		return 2*p.phase + 1
	}
	return 2 * p.phase
}

func (p *petersonNode) send(env elect.Env, x elect.ID) {
	m := elect.Message{Type: petersonProbe, ID: x}
	if p.tagged {
		m.A = p.halfPhase()
	}
	env.Send(elect.Left, m)
}

func (p *petersonNode) Wake(env elect.Env, spontaneous bool) {
	// Every node is a candidate, initiator or not: send probe(0, pid).
	p.send(env, p.current)
}

func (p *petersonNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.Type == petersonLeader {
		p.handleLeader(env, m.ID)
		return
	}
	switch {
	case p.relay:
		env.Send(elect.Left, m)
	case p.elected:
		// The candidate procedure has returned; nothing is addressed to it.
	case !p.tagged:
		p.handleProbe(env, m.ID)
	case m.A == p.halfPhase():
		p.handleProbe(env, m.ID)
		p.drainLater(env)
	case m.A > p.halfPhase():
		p.later = append(p.later, m)
	default:
		// Each candidate gets exactly one probe per half-phase, from the
		// nearest candidate before it, never one of a past half-phase.
		panic(fmt.Sprintf("ring: peterson candidate in half-phase %d got a probe of half-phase %d", p.halfPhase(), m.A))
	}
}

// drainLater handles buffered probes as long as one is for the half-phase
// the candidate is now in.
func (p *petersonNode) drainLater(env elect.Env) {
	for !p.relay && !p.elected {
		k := -1
		for i, m := range p.later {
			if m.A == p.halfPhase() {
				k = i
				break
			}
		}
		if k < 0 {
			return
		}
		m := p.later[k]
		p.later = append(p.later[:k], p.later[k+1:]...)
		p.handleProbe(env, m.ID)
	}
}

// handleProbe is one "wait for" of the candidate's loop returning x.
func (p *petersonNode) handleProbe(env elect.Env, x elect.ID) {
	if !p.second {
		p.id2 = x
		p.second = true
		p.send(env, p.id2)
		return
	}
	id3 := x
	p.second = false
	switch {
	case p.id2 == p.current:
		p.becomeLeader(env)
	case p.id2 > p.current && p.id2 > id3:
		p.current = p.id2
		p.phase++
		p.send(env, p.current)
	default:
		p.becomeRelay(env)
	}
}

// becomeLeader: the candidate is its own neighbour; its current is the
// maximum ID.
func (p *petersonNode) becomeLeader(env elect.Env) {
	p.elected = true
	claimLeadership(env, p.announce, elect.Message{Type: petersonLeader, ID: p.current})
}

// becomeRelay switches to relay() and passes on the probes the candidate had
// buffered for later phases: they are addressed to candidates further on.
func (p *petersonNode) becomeRelay(env elect.Env) {
	p.relay = true
	for _, m := range p.later {
		env.Send(elect.Left, m)
	}
	p.later = nil
}

// handleLeader passes the announcement on until it is back at the leader.
func (p *petersonNode) handleLeader(env elect.Env, j elect.ID) {
	if p.elected {
		return
	}
	passOnLeader(env, elect.Left, elect.Message{Type: petersonLeader, ID: j})
}
