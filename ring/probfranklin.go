package ring

import (
	"fmt"
	"math"
	"strconv"

	"github.com/electkit/elect"
)

// ProbabilisticFranklin is the randomized Franklin election for anonymous
// bidirectional rings of known size n of R. Bakhshi, W. Fokkink, J. Pang and
// J. van de Pol, "Leader election in anonymous rings: Franklin goes
// probabilistic", IFIP TCS 2008, pp. 57-72. Channels need not be FIFO.
// Messages are (id, hop, bit): the sender's random identity, the links
// travelled so far, and its election round mod 2.
//
//   - every process starts active with bit 0; at the start of each round an
//     active process draws id uniformly from 1..k and sends (id, 1, bit)
//     both ways;
//   - a passive process passes (id, hop, bit) on as (id, hop+1, bit);
//   - an active process keeps a message whose bit differs from its own for
//     its next round; one with its own bit and hop = n is its own, back
//     round the ring: it is the only active process left and is elected;
//   - with the messages of its round from both sides, an active process
//     becomes passive if one carries an id larger than its own, and else
//     starts the next round (bit inverted, a new id); equal ids survive;
//   - the leader sends a "leader" message one way round the ring (n
//     messages); the others learn it and decide not-elected.
//
// Between two neighbouring active processes there are always exactly two
// messages (the paper's invariant), so the bit tells a message of the
// current round from one of the next, and each round costs exactly 2n
// messages (one per link each way, as in ring/franklin.go). The processes
// holding the largest id survive a round, so it ends with probability 1;
// on average O(n log n) messages. k is --k (default n). A process woken by
// a message starts active in round 0 (a late start); the model's IDs are
// not used (the ring is anonymous), except that the leader announces its
// own, which the monitor checks everyone learns.
var ProbabilisticFranklin = &elect.Algorithm{
	Name:   "probabilistic-franklin",
	Title:  "Probabilistic Franklin (anonymous bidirectional ring of known size)",
	Source: "Bakhshi, Fokkink, Pang and van de Pol, IFIP TCS 2008",
	Summary: "Franklin's rounds on random identities from 1..k: an active process survives a round unless a neighbour's id is larger; " +
		"a round bit tells rounds apart without FIFO, a hop counter detects the process whose message went round.",
	Model: elect.Model{
		Topology: elect.BiRing, Sync: true, Async: true, KnowsN: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsAny, Announce: elect.AlwaysAnnounce,
		Randomized: true,
	},
	Growth: elect.Growth{Messages: "n lg n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "election", Fields: []string{"id", "hop", "bit"}, Bits: probFranklinBits},
		{Name: "leader", Fields: []string{"j"}},
	},
	Bounds: []elect.Bound{
		{Name: "election messages", Quantity: elect.Messages, Types: []string{"election"}, Relation: elect.AtLeast,
			Formula: "4n (2n if n = 1)", Source: "2n per round; with n >= 2 active processes round 0 is not the last",
			Value: boundTwoRounds},
		{Name: "leader messages", Quantity: elect.Messages, Types: []string{"leader"}, Relation: elect.Exactly,
			Formula: "n", Source: "Bakhshi et al. 2008: the leader's message goes one way round the ring",
			Value: boundN},
	},
	Params: []elect.Param{{
		Name: "k", Default: "n",
		Help: "identities are drawn from 1..k: n, or a number >= 2",
		Check: func(v string) error {
			if v == "n" {
				return nil
			}
			if k, err := strconv.ParseInt(v, 10, 64); err != nil || k < 2 {
				return fmt.Errorf("k must be n or a number >= 2, not %q", v)
			}
			return nil
		},
	}},
	New:  probFranklinNodes.New,
	Init: probFranklinNodes.Init,
}

var probFranklinNodes = elect.NodesOf(func(p *probFranklinNode, info elect.NodeInfo) {
	*p = probFranklinNode{self: info.ID, n: int64(info.N), k: probFranklinK(info.Params, info.N)}
})

// probFranklinK is k: the --k parameter, or n (and at least 2, so that a
// ring of one process still draws from a range).
func probFranklinK(p elect.Params, n int) int64 {
	if v := p.String("k"); v != "" && v != "n" {
		if k, err := strconv.ParseInt(v, 10, 64); err == nil {
			return k
		}
	}
	return max(int64(n), 2)
}

// probFranklinBits is the size of a message: tag, an id of ceil(lg(k+1))
// bits, a hop counter of ceil(lg(n+1)) and the bit.
func probFranklinBits(c elect.BitContext) int {
	return elect.TagBits(c.Types) + elect.CeilLog2(int(probFranklinK(c.Params, c.N))+1) + elect.CeilLog2(c.N+1) + 1
}

// Message types of ProbabilisticFranklin, in the order of its Messages.
const (
	pfElection elect.MsgType = iota
	pfLeader
)

// pfSide is what an active process has from one port.
type pfSide struct {
	got, early  bool
	id, earlyID int64
	earlyHop    int64
}

type probFranklinNode struct {
	self    elect.ID // the tool's ID, announced by the leader only
	n, k    int64
	started bool
	active  bool
	elected bool
	bit     int64
	id      int64
	side    [2]pfSide
}

func (p *probFranklinNode) Wake(env elect.Env, spontaneous bool) {
	p.start(env)
}

func (p *probFranklinNode) start(env elect.Env) {
	p.started, p.active = true, true
	p.startRound(env)
}

// startRound draws a fresh identity and sends it both ways.
func (p *probFranklinNode) startRound(env elect.Env) {
	p.id = 1 + env.Rand().Int64N(p.k)
	m := elect.Message{Type: pfElection, ID: elect.ID(p.id), A: 1, B: p.bit}
	env.Send(elect.Left, m)
	env.Send(elect.Right, m)
}

func (p *probFranklinNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if !p.started {
		p.start(env) // woken by a message: active in round 0
	}
	if m.Type == pfLeader {
		p.handleLeader(env, from, m.ID)
		return
	}
	id, hop, bit := int64(m.ID), m.A, m.B
	switch {
	case p.elected:
		// The other copy of its own last message.
	case !p.active:
		env.Send(from.Opposite(), elect.Message{Type: pfElection, ID: m.ID, A: hop + 1, B: bit})
	case bit != p.bit:
		s := &p.side[from]
		if s.early {
			panic(fmt.Sprintf("ring: probabilistic-franklin process got two messages of its next round on port %d", from))
		}
		s.early, s.earlyID, s.earlyHop = true, id, hop
	case hop == p.n:
		p.becomeLeader(env)
	default:
		s := &p.side[from]
		if s.got {
			panic(fmt.Sprintf("ring: probabilistic-franklin process got two messages of its round on port %d", from))
		}
		s.got, s.id = true, id
		p.maybeCompare(env)
	}
}

// maybeCompare ends the round once both sides' identities are in.
func (p *probFranklinNode) maybeCompare(env elect.Env) {
	for p.active && p.side[0].got && p.side[1].got {
		if p.side[0].id > p.id || p.side[1].id > p.id {
			p.becomePassive(env)
			return
		}
		p.bit ^= 1
		kept := p.side
		p.side = [2]pfSide{}
		p.startRound(env)
		// The kept messages are of the round just started (from the
		// active neighbours, so never back round the ring).
		for i, s := range kept {
			if s.early {
				p.side[i].got, p.side[i].id = true, s.earlyID
			}
		}
	}
}

// becomePassive turns the process into a relay; messages it kept for its
// next round go on to the active processes beyond.
func (p *probFranklinNode) becomePassive(env elect.Env) {
	p.active = false
	for i, s := range p.side {
		if s.early {
			env.Send(elect.Port(i).Opposite(), elect.Message{Type: pfElection, ID: elect.ID(s.earlyID), A: s.earlyHop + 1, B: p.bit ^ 1})
		}
	}
	p.side = [2]pfSide{}
}

func (p *probFranklinNode) becomeLeader(env elect.Env) {
	p.elected, p.active = true, false
	claimLeadership(env, true, elect.Message{Type: pfLeader, ID: p.self}) // its leader message is not optional
}

// handleLeader passes the leader's message on until it is back.
func (p *probFranklinNode) handleLeader(env elect.Env, from elect.Port, j elect.ID) {
	if p.elected {
		return
	}
	passOnLeader(env, from.Opposite(), elect.Message{Type: pfLeader, ID: j})
}

// ProbabilisticFranklinExpectedRounds is the expected number of rounds of
// the election on a ring of n <= 3 processes with ids from 1..k, where
// every active process's neighbours are all the other active ones (the
// claims and the tests compare the simulator with it). From x >= 2 active
// processes, j of them hold the largest id with probability
// P_j = sum over v of C(x,j) (1/k)^j ((v-1)/k)^(x-j), and only they stay
// active, so E(x) = (1 + sum_{j<x} P_j E(j)) / (1 - P_x), with E(1) = 1
// (the last round, in which the leader's message goes round).
func ProbabilisticFranklinExpectedRounds(n int, k int64) float64 {
	e := []float64{0, 1}
	for x := 2; x <= n; x++ {
		p := make([]float64, x+1)
		for j := 1; j <= x; j++ {
			for v := int64(1); v <= k; v++ {
				p[j] += binomial(x, j) * math.Pow(1/float64(k), float64(j)) * math.Pow(float64(v-1)/float64(k), float64(x-j))
			}
		}
		s := 1.0
		for j := 1; j < x; j++ {
			s += p[j] * e[j]
		}
		e = append(e, s/(1-p[x]))
	}
	return e[n]
}

// binomial is C(n, k).
func binomial(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}
