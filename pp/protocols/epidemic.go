package protocols

import (
	"math"

	"github.com/electkit/elect/pp"
)

// Numbered agents (seed 000, Section III). Agent i (0-based index) has the
// unique ID aid = i+1, so the IDs are 1..n and the eventual leader is the
// agent with ID n. Under a uniform scheduler the placement of the IDs does
// not matter, so this fixed numbering loses no generality.
//
// The state of an agent of Algorithms 1 and 2 is packed in a uint32: the low
// 31 bits hold leader_i (the ID it believes is the leader) and the top bit
// holds isLeader_i. aid_i is not stored: in Algorithm 2 it equals leader_i
// for as long as isLeader_i is true (leader values only grow), and in
// Algorithm 1 it is only read at initialisation.
const (
	numLeaderBit uint32 = 1 << 31
	numValueMask uint32 = numLeaderBit - 1
)

// NumberedKnown is seed 000, Algorithm 1 ("Leader election for agents
// numbered 1...n"): every agent knows that the IDs are 1..n, so it starts
// with leader_i = n and sets isLeader_i = (aid_i = leader_i) by itself,
// without any interaction. The goal (every agent holds the maximum) holds at
// step 0 and the unique leader is agent n.
type NumberedKnown struct{ n int }

// NewNumberedKnown returns Algorithm 1 for n agents.
func NewNumberedKnown(n int) *NumberedKnown { return &NumberedKnown{n: n} }

// Spec: the goal is every agent holding leader = n.
func (p *NumberedKnown) Spec() pp.Spec {
	return pp.Spec{Name: "numbered-known", Goal: pp.GoalCount, Target: int64(p.n), Monotone: true, DefaultMaxSteps: 1}
}

// Init sets leader_i = n and isLeader_i = (aid_i = n), the agent's only
// computation.
func (p *NumberedKnown) Init(i int) uint32 {
	s := uint32(p.n)
	if i+1 == p.n {
		s |= numLeaderBit
	}
	return s
}

// Interact does nothing: Algorithm 1 has no interaction rule.
func (p *NumberedKnown) Interact(a, b *uint32) pp.Delta { return pp.Delta{} }

// IsLeader reads isLeader_i.
func (p *NumberedKnown) IsLeader(s uint32) bool { return s&numLeaderBit != 0 }

// InGoal says whether the agent holds the maximum ID n.
func (p *NumberedKnown) InGoal(s uint32) bool { return s&numValueMask == uint32(p.n) }

// Index is unused (StateSpace is 0).
func (p *NumberedKnown) Index(s uint32) uint64 { return uint64(s) }

// Finish records the leader's ID.
func (p *NumberedKnown) Finish(_ []uint32, r *pp.Result) { r.Add("leader_id", p.n) }

// Epidemic is seed 000, Algorithm 2: every agent starts with
// (leader_i, isLeader_i) = (aid_i, true); when two agents meet, the one with
// the smaller leader value adopts the larger one and sets isLeader to false.
// The goal is every agent holding the maximum ID (n); then exactly agent n
// has isLeader = true.
//
// Transcription note: the pseudo-code's "if leader_i > leader_j ... else
// leader_i <- leader_j; isLeader_i <- false" also fires when the two values
// are equal, which would make the eventual leader resign the first time it
// initiates a meeting with one of its followers, whereas the prose says
// "after a sufficient number of interactions only one agent will have a true
// value for isLeader" and Algorithm 3 writes the same step as "else if
// leader_i < leader_j". The default follows the prose (equal values: no
// change); the variant "literal" keeps the pseudo-code.
//
// The protocol also reports, for seed 000's Theorems 2 and 3, the
// conversions made by the eventual leader and its meetings with its
// followers until every agent holds the maximum, as tally bits that the
// engine adds up (the details leader_conversions and
// leader_follower_meetings).
type Epidemic struct {
	n       int
	max     uint32
	literal bool
}

// Epidemic's tally bits (pp.Delta.Tally).
const (
	// tallyConversion: the eventual leader converted a free agent
	// (Theorem 2).
	tallyConversion = iota
	// tallyMeeting: the eventual leader met one of its followers
	// (Theorem 3).
	tallyMeeting
)

// NewEpidemic returns Algorithm 2 for n agents; variant is "prose" (default)
// or "literal".
func NewEpidemic(n int, variant string) *Epidemic {
	return &Epidemic{n: n, max: uint32(n), literal: variant == "literal"}
}

// Spec: the goal is every agent holding the maximum; the prose variant
// promises monotone leaders (never zero).
func (p *Epidemic) Spec() pp.Spec {
	nn := float64(p.n)
	return pp.Spec{Name: "epidemic", Goal: pp.GoalCount, Target: int64(p.n), Monotone: !p.literal,
		DefaultMaxSteps: int64(100*nn*(math.Log(nn)+1)) + 1000}
}

// Init gives agent i the state (aid_i, true).
func (p *Epidemic) Init(i int) uint32 { return uint32(i+1) | numLeaderBit }

// Interact spreads the larger leader value (Algorithm 2).
func (p *Epidemic) Interact(a, b *uint32) pp.Delta {
	x, y := *a, *b
	lx, ly := x&numValueMask, y&numValueMask
	var d pp.Delta
	switch {
	case lx > ly: // leader_j <- leader_i; isLeader_j <- false
		*b = lx
		d.Leaders = -int32(y >> 31)
		if lx == p.max {
			d.Goal = 1
			d.Tally = uint8(x>>31) << tallyConversion
		}
	case lx < ly: // leader_i <- leader_j; isLeader_i <- false
		*a = ly
		d.Leaders = -int32(x >> 31)
		if ly == p.max {
			d.Goal = 1
			d.Tally = uint8(y>>31) << tallyConversion
		}
	default: // equal values
		if lx == p.max && (x|y)&numLeaderBit != 0 {
			d.Tally = 1 << tallyMeeting
		}
		if p.literal && x&numLeaderBit != 0 { // literal else-branch: isLeader_i <- false
			*a = lx
			d.Leaders = -1
		}
	}
	return d
}

// IsLeader reads isLeader_i.
func (p *Epidemic) IsLeader(s uint32) bool { return s&numLeaderBit != 0 }

// InGoal says whether the agent holds the maximum ID.
func (p *Epidemic) InGoal(s uint32) bool { return s&numValueMask == p.max }

// Index is unused (StateSpace is 0).
func (p *Epidemic) Index(s uint32) uint64 { return uint64(s) }

// Finish records the Theorem 2 and 3 counts.
func (p *Epidemic) Finish(_ []uint32, r *pp.Result) {
	r.Add("variant", variantName(p.literal))
	r.Add("max_id", p.n)
	r.Add("leader_conversions", r.Tallies[tallyConversion])
	r.Add("leader_follower_meetings", r.Tallies[tallyMeeting])
}

func variantName(literal bool) string {
	if literal {
		return "literal"
	}
	return "prose"
}
