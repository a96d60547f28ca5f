package ring

import "github.com/electkit/elect"

// Mutants are deliberately broken copies of the ring algorithms, one per
// algorithm: each carries one bug that an implementer of its source could
// make. mutants_test.go checks that the exhaustive checker catches every
// one of them, with an execution that replays. A mutant's node embeds the
// real node and replaces one handler (Clone too, so that copies keep the
// bug); everything else is the algorithm's own code.
var Mutants = []Mutant{
	{Of: LCR, Bug: "forwards smaller IDs instead of swallowing them", New: lcrMutants.New},
	{Of: ChangRoberts, Bug: "has no participation flag: joins with its own ID every time it beats a smaller one", New: crMutants.New},
	{Of: HS, Bug: "takes every reply for its own (does not compare the reply's ID with its own)", New: hsMutants.New},
	{Of: Peterson, Bug: "also elects itself when its own value comes back as the second probe", New: petersonMutants.New},
	{Of: Franklin, Bug: "a passive node swallows probes instead of relaying them", New: franklinMutants.New},
	{Of: ItaiRodeh, Bug: "elects itself when its probe returns without checking that its ID was unique", New: itaiRodehMutants.New},
	{Of: LCRRandom, Bug: "compares the random keys without the ID that breaks their ties", New: lcrRandomMutants.New,
		Params: map[string]string{"bits": "1"}},
	{Of: TimeSlice, Bug: "does not stop when it hears of a leader, so its own time slice still comes", New: timeSliceMutants.New},
	{Of: SlowFast, Bug: "an active node that meets a smaller ID passes it on at once instead of slowing it", New: slowFastMutants.New},
}

// Mutant is one broken copy of an algorithm.
type Mutant struct {
	Of     *elect.Algorithm
	Bug    string
	New    func(elect.NodeInfo) elect.Node
	Params map[string]string // parameters that make the bug reachable at small n
}

// Algorithm is the mutant's declaration: the original's, renamed, with the
// broken nodes.
func (m Mutant) Algorithm() *elect.Algorithm {
	a := *m.Of
	a.Name = m.Of.Name + "-mutant"
	a.New, a.Init = m.New, nil
	return &a
}

var (
	lcrMutants       = elect.NodesOf(func(p *lcrForwardsSmaller, info elect.NodeInfo) { lcrInit(&p.lcrNode, info) })
	crMutants        = elect.NodesOf(func(p *crNoParticipation, info elect.NodeInfo) { crInit(&p.crNode, info) })
	hsMutants        = elect.NodesOf(func(p *hsTakesEveryReply, info elect.NodeInfo) { hsInit(&p.hsNode, info) })
	petersonMutants  = elect.NodesOf(func(p *petersonElectsOnSecond, info elect.NodeInfo) { petersonInit(&p.petersonNode, info) })
	franklinMutants  = elect.NodesOf(func(p *franklinPassiveSwallows, info elect.NodeInfo) { franklinInit(&p.franklinNode, info) })
	itaiRodehMutants = elect.NodesOf(func(p *itaiRodehIgnoresUnique, info elect.NodeInfo) { itaiRodehInit(&p.itaiRodehNode, info) })
	lcrRandomMutants = elect.NodesOf(func(p *lcrRandomIgnoresID, info elect.NodeInfo) { lcrRandomInit(&p.lcrRandomNode, info) })
	timeSliceMutants = elect.NodesOf(func(p *timeSliceNeverStops, info elect.NodeInfo) { timeSliceInit(&p.timeSliceNode, info) })
	slowFastMutants  = elect.NodesOf(func(p *slowFastForgetsToSlow, info elect.NodeInfo) { slowFastInit(&p.slowFastNode, info) })
)

type lcrForwardsSmaller struct{ lcrNode }

func (p *lcrForwardsSmaller) Clone() elect.Node { c := *p; return &c }

func (p *lcrForwardsSmaller) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.Type == lcrElection && m.ID < p.maxID {
		env.Send(elect.Left, m) // the bug
		return
	}
	p.lcrNode.Receive(env, from, m)
}

type crNoParticipation struct{ crNode }

func (p *crNoParticipation) Clone() elect.Node { c := *p; return &c }

func (p *crNoParticipation) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.Type == crElection && p.id > m.ID {
		env.Send(elect.Left, elect.Message{Type: crElection, ID: p.id}) // the bug: whether or not it took part
		return
	}
	p.crNode.Receive(env, from, m)
}

type hsTakesEveryReply struct{ hsNode }

func (p *hsTakesEveryReply) Clone() elect.Node { c := *p; return &c }

func (p *hsTakesEveryReply) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.Type == hsReply {
		p.handleReply(env, from, p.id, m.A) // the bug: as if it carried this node's ID
		return
	}
	p.hsNode.Receive(env, from, m)
}

type petersonElectsOnSecond struct{ petersonNode }

func (p *petersonElectsOnSecond) Clone() elect.Node {
	return &petersonElectsOnSecond{*p.petersonNode.Clone().(*petersonNode)}
}

func (p *petersonElectsOnSecond) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.Type == petersonProbe && !p.relay && !p.elected && p.second && m.ID == p.current &&
		(!p.tagged || m.A == p.halfPhase()) {
		p.becomeLeader(env) // the bug: two candidates each see their value come back second
		return
	}
	p.petersonNode.Receive(env, from, m)
}

type franklinPassiveSwallows struct{ franklinNode }

func (p *franklinPassiveSwallows) Clone() elect.Node { c := *p; return &c }

func (p *franklinPassiveSwallows) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.Type == franklinProbe && !p.active {
		return // the bug
	}
	p.franklinNode.Receive(env, from, m)
}

type itaiRodehIgnoresUnique struct{ itaiRodehNode }

func (p *itaiRodehIgnoresUnique) Clone() elect.Node { c := *p; return &c }

func (p *itaiRodehIgnoresUnique) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if p.active && !p.elected && m.B/2 == p.n {
		p.handleOwn(env, true) // the bug: the unique bit is not read
		return
	}
	p.itaiRodehNode.Receive(env, from, m)
}

type lcrRandomIgnoresID struct{ lcrRandomNode }

func (p *lcrRandomIgnoresID) Clone() elect.Node { c := *p; return &c }

func (p *lcrRandomIgnoresID) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.Type != lcrRandomElection {
		p.lcrRandomNode.Receive(env, from, m)
		return
	}
	k := keyOf(m)
	if k.r == p.key.r { // the bug: an equal random part is taken for its own key
		p.leader = true
		env.Decide(elect.Elected)
		if p.announce {
			env.Send(elect.Left, p.key.message(lcrRandomLeader))
		}
	}
	if k.r > p.maxKey.r {
		p.maxKey = k
		env.Send(elect.Left, k.message(lcrRandomElection))
	}
}

type timeSliceNeverStops struct{ timeSliceNode }

func (p *timeSliceNeverStops) Clone() elect.Node { c := *p; return &c }

func (p *timeSliceNeverStops) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.ID == p.id {
		env.Terminate()
		return
	}
	p.leaderID = m.ID
	passOnLeader(env, elect.Left, m) // the bug: no Terminate, its timer still fires
}

type slowFastForgetsToSlow struct{ slowFastNode }

func (p *slowFastForgetsToSlow) Clone() elect.Node { c := *p; return &c }

func (p *slowFastForgetsToSlow) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if !p.active || p.waking || p.elected || p.literal || m.ID == p.id || m.ID >= p.smaller {
		p.slowFastNode.Receive(env, from, m)
		return
	}
	r := env.Round()
	p.smaller = m.ID
	env.Decide(elect.NotElected)
	p.buffer(elect.Message{Type: slowFastSlow, ID: m.ID}, r, r) // the bug: no delay of 2^m - 1 rounds
	p.arm(env, r)
}
