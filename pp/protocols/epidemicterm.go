package protocols

import (
	"math"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/pp"
)

// epidemicTermName is the protocol's name.
const epidemicTermName = "epidemic-term"

// The protocol's own checks of a declaration (seed 000, Algorithm 3: the
// declaring agent must hold the maximum ID, and only once every agent
// holds it).
var (
	wrongDeclarer = &election.OwnCheck{
		Owner: epidemicTermName, Name: "wrong-declarer", Kind: election.Safety,
		Meaning: "the agent that declares itself leader holds the maximum ID",
	}
	declaredBeforeComplete = &election.OwnCheck{
		Owner: epidemicTermName, Name: "declared-before-complete", Kind: election.Safety,
		Meaning: "the election is declared complete only once every agent holds the maximum ID",
	}
)

// EpidemicTerm is seed 000, Algorithm 3 ("Election with election
// termination"), with the multiplier m and the minimum number of interactions
// that Section III recommends for small populations.
//
// State of agent i: aid_i, leader_i (initially aid_i), isLeader_i (initially
// false), electionComplete_i (false), conversions_i and metFollowers_i (0),
// and, when a minimum is set, the number of interactions it took part in
// (capped at the minimum). Rules at an interaction of i (initiator) and j
// (responder):
//
//   - if either has electionComplete, both set it, and nothing else happens
//     (the completion signal spreads as an epidemic and freezes leader values);
//   - otherwise the larger leader value spreads as in Algorithm 2; when the
//     spreading agent is the owner of that value (leader = aid, a "potential
//     leader"), it counts a conversion;
//   - when the values are equal, each potential leader involved counts a
//     met follower;
//   - a potential leader that passes the termination test declares itself
//     the leader (isLeader, electionComplete).
//
// Transcription note (the declaration test). The pseudo-code declares when
// "conversions_i < m x metFollowers_i", evaluated only right after a
// conversion. The prose says the opposite: Theorems 2 and 3 make the two
// counters about equal at completion, so "the number of followers met
// [must exceed] the number of conversions by some margin", a "multiplicative
// buffer set by m", and a minimum number of interactions for small
// populations. The default ("prose") declares when
//
//	metFollowers_i > m x conversions_i  and  interactions_i >= min-interactions,
//
// evaluated after every interaction of a potential leader that is not
// complete (the test can only become true after a met-follower or, with a
// minimum, after any interaction). The variant "literal" keeps the
// pseudo-code: after a conversion, declare when conversions_i < m x
// metFollowers_i (and interactions_i >= min-interactions).
//
// The goal is the first declaration; a declaration is correct when every
// agent held the maximum ID at that step and the declaring agent is the
// maximum. An incorrect declaration is reported as a violation of one of
// the protocol's own checks, declaredBeforeComplete or wrongDeclarer.
//
// Completion is measured without a counter in the protocol value: each
// agent that adopts the maximum reports a tally bit, and completion is the
// step at which their tally reaches n-1 (Spec.TallyTargets). The run
// stops at the first declaration, so the declarer is the agent whose
// isLeader is set when it stops.
type EpidemicTerm struct {
	n        int
	m        uint32
	minInter uint32
	literal  bool
}

// eventDeclared is EpidemicTerm's event bit (pp.Delta.Events): a potential
// leader declared.
const eventDeclared uint8 = 1 << 1

// tallyAdoptedMax is EpidemicTerm's tally bit (pp.Delta.Tally): an agent
// adopted the maximum ID, which it then keeps.
const tallyAdoptedMax = 0

// termAgent is the state of one agent of Algorithm 3.
type termAgent struct {
	aid, leader      uint32
	conversions, met uint32
	inter            uint32
	isLeader         bool
	complete         bool
}

// NewEpidemicTerm returns Algorithm 3 for n agents with multiplier m, the
// minimum number of interactions minInter (0: none) and variant "prose"
// (default) or "literal".
func NewEpidemicTerm(n, m, minInter int, variant string) *EpidemicTerm {
	return &EpidemicTerm{n: n, m: uint32(m), minInter: uint32(minInter), literal: variant == "literal"}
}

// Spec: the goal is one declaration; isLeader only goes from false to true,
// so the leader count is not monitored as monotone. Completion is the step
// at which the n-1 agents other than agent n (which holds the maximum from
// the start) have adopted it.
func (p *EpidemicTerm) Spec() pp.Spec {
	nn := float64(p.n)
	spec := pp.Spec{Name: epidemicTermName, Goal: pp.GoalCount, Target: 1,
		DefaultMaxSteps: int64(50*nn*(math.Log(nn)+1)) + 10000}
	spec.TallyTargets[tallyAdoptedMax] = int64(p.n - 1)
	return spec
}

// Init gives agent i its ID i+1.
func (p *EpidemicTerm) Init(i int) termAgent {
	id := uint32(i + 1)
	return termAgent{aid: id, leader: id}
}

// Interact applies Algorithm 3 to initiator a (agent i) and responder b
// (agent j).
func (p *EpidemicTerm) Interact(a, b *termAgent) pp.Delta {
	var d pp.Delta
	if a.complete || b.complete {
		a.complete, b.complete = true, true
		return d
	}
	if p.minInter > 0 {
		a.inter = min(a.inter+1, p.minInter)
		b.inter = min(b.inter+1, p.minInter)
	}
	switch {
	case a.leader > b.leader:
		d.Tally = p.convert(a, b)
		if p.literal {
			d.Goal += p.literalTest(a)
		}
	case a.leader < b.leader:
		d.Tally = p.convert(b, a)
		if p.literal {
			d.Goal += p.literalTest(b)
		}
	default:
		if a.leader == a.aid {
			a.met++
		}
		if b.leader == b.aid {
			b.met++
		}
	}
	if !p.literal {
		d.Goal += p.proseTest(a) + p.proseTest(b)
	}
	d.Leaders = d.Goal
	if d.Goal > 0 {
		d.Events |= eventDeclared
	}
	return d
}

// convert makes the loser adopt the winner's leader value and counts the
// conversion when the winner owns that value; it returns the tally bits
// (pp.Delta.Tally) of the adoption.
func (p *EpidemicTerm) convert(w, l *termAgent) uint8 {
	l.leader = w.leader
	if w.leader == w.aid {
		w.conversions++
	}
	if w.leader == uint32(p.n) {
		return 1 << tallyAdoptedMax
	}
	return 0
}

// proseTest is the default declaration test (see the type's comment).
func (p *EpidemicTerm) proseTest(x *termAgent) int32 {
	if x.complete || x.leader != x.aid || x.met <= p.m*x.conversions || x.inter < p.minInter {
		return 0
	}
	return p.declare(x)
}

// literalTest is the pseudo-code's test, run right after x converted.
func (p *EpidemicTerm) literalTest(x *termAgent) int32 {
	if x.leader != x.aid || x.conversions >= p.m*x.met || x.inter < p.minInter {
		return 0
	}
	return p.declare(x)
}

func (p *EpidemicTerm) declare(x *termAgent) int32 {
	x.isLeader, x.complete = true, true
	return 1
}

// IsLeader reads isLeader_i.
func (p *EpidemicTerm) IsLeader(s termAgent) bool { return s.isLeader }

// InGoal counts declared agents.
func (p *EpidemicTerm) InGoal(s termAgent) bool { return s.isLeader }

// Index is unused (StateSpace is 0).
func (p *EpidemicTerm) Index(termAgent) uint64 { return 0 }

// Finish records completion and declaration and judges the declaration.
func (p *EpidemicTerm) Finish(states []termAgent, r *pp.Result) {
	completionStep, declStep := r.TallyReached[tallyAdoptedMax], r.EventSteps[1]
	var declarer termAgent
	if declStep >= 0 {
		for _, x := range states {
			if x.isLeader {
				declarer = x
				break
			}
		}
	}
	after := completionStep >= 0 && declStep >= 0 && completionStep <= declStep
	holdsMax := declStep >= 0 && declarer.aid == uint32(p.n)
	r.Add("variant", variantName(p.literal))
	r.Add("m", p.m)
	r.Add("min_interactions", p.minInter)
	r.Add("completion_step", completionStep)
	r.Add("declaration_step", declStep)
	r.Add("declared_after_completion", after)
	r.Add("declarer_holds_max", holdsMax)
	r.Add("correct", after && holdsMax)
	if declStep >= 0 {
		r.Add("declarer_id", declarer.aid)
		r.Add("declarer_conversions", declarer.conversions)
		r.Add("declarer_met_followers", declarer.met)
	}
	if r.Outcome == pp.Elected || r.Outcome == pp.MultipleLeaders {
		switch {
		case !holdsMax:
			r.Outcome = pp.Violation
			r.SetViolation(wrongDeclarer.Violation("an agent other than the maximum declared itself leader"))
		case !after:
			r.Outcome = pp.Violation
			r.SetViolation(declaredBeforeComplete.Violation("the election was declared complete while some agent did not hold the maximum"))
		}
	}
}
