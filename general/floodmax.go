package general

import (
	"fmt"
	"strconv"

	"github.com/electkit/elect"
)

// FloodMax is the synchronous textbook baseline for general networks (Lynch,
// Distributed Algorithms, section 4.1.2, FloodMax; the strategy of seed 001
// section 5.3 without the convergecast): with all nodes starting together
// and a known bound diam on the diameter,
//
//   - every node keeps max-uid, initially its own ID;
//   - in each of rounds 1..diam it sends max-uid to all its neighbours and
//     sets max-uid to the largest ID it received;
//   - after round diam it is elected if max-uid is its own ID, and
//     not-elected otherwise; either way it knows the leader, max-uid.
//
// After d rounds max-uid is the largest ID within distance d, so diam >= the
// diameter makes every node hold the maximum. The default bound is n-1,
// always valid on a connected graph of n nodes (the model then assumes n is
// known); --diam gives a smaller known bound. Time is exactly diam rounds.
//
// Variants (--variant): every-round (the textbook, default) sends in every
// round, exactly diam*2|E| messages; on-change (Lynch's OptFloodMax) sends
// only in round 1 and in rounds after max-uid grew, at most diam*2|E| and at
// least 2|E| messages (for diam >= 1), with the same decisions.
var FloodMax = &elect.Algorithm{
	Name:   "flood-max",
	Title:  "FloodMax (synchronous, known diameter bound)",
	Source: "seed 001 (lecture notes), section 5.3 (general networks); Lynch, Distributed Algorithms, section 4.1.2",
	Summary: "For diam rounds every node sends the largest ID it has seen to all its neighbours; " +
		"then the node whose own ID is that maximum is elected, and every node knows it.",
	Model: elect.Model{
		Topology: elect.General, Sync: true, UniqueIDs: true, KnowsN: true,
		WakeUp: elect.AllAtOnce, Elects: elect.ElectsMax, Announce: elect.AlwaysAnnounce,
	},
	Growth: elect.Growth{Messages: "n^2", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "max-uid", Fields: []string{"u"}},
	},
	Bounds: []elect.Bound{
		{Name: "messages", Quantity: elect.Messages, Relation: elect.Exactly,
			Formula: "diam*2|E|", Source: "Lynch §4.1.2: every node sends on every port in each of diam rounds",
			Value:   floodMaxMessages,
			Applies: func(c elect.BoundContext) bool { return floodVariant(c.Params) == floodEveryRound }},
		{Name: "messages", Quantity: elect.Messages, Relation: elect.AtMost,
			Formula: "diam*2|E|", Source: "Lynch §4.1.3 (OptFloodMax): sends happen only in rounds 1..diam",
			Value:   floodMaxMessages,
			Applies: func(c elect.BoundContext) bool { return floodVariant(c.Params) == floodOnChange }},
		{Name: "messages", Quantity: elect.Messages, Relation: elect.AtLeast,
			Formula: "2|E| (diam >= 1)", Source: "every node sends its own ID on every port in round 1",
			Value: func(c elect.BoundContext) float64 { return 2 * float64(c.Edges) },
			Applies: func(c elect.BoundContext) bool {
				return floodVariant(c.Params) == floodOnChange && floodDiam(c.Params, c.N) >= 1
			}},
		{Name: "time", Quantity: elect.Time, Relation: elect.Exactly,
			Formula: "diam rounds", Source: "Lynch §4.1.2: every node decides after round diam",
			Value: func(c elect.BoundContext) float64 { return float64(floodDiam(c.Params, c.N)) }},
	},
	Params: []elect.Param{
		{Name: "diam", Default: "n-1",
			Help:  "a bound on the network's diameter, rounds of flooding (n-1 is always valid; a bound below the diameter can elect several leaders)",
			Check: checkDiam},
		{Name: "variant", Default: floodEveryRound,
			Help:  "every-round (textbook: send max-uid in every round) or on-change (send only after max-uid grew)",
			Check: checkFloodVariant},
	},
	// Every node sends on every port in every round, and the next round's
	// messages are sent while this round's are delivered: the memory
	// estimate counts two messages per port in flight.
	InFlight: func(c elect.BoundContext) float64 { return 4 * float64(c.Edges) },
	New:      floodNodes.New,
	Init:     floodNodes.Init,
}

var floodNodes = elect.NodesOf(floodInit)

func floodInit(p *floodNode, info elect.NodeInfo) {
	*p = floodNode{
		id: info.ID, maxUID: info.ID, degree: int32(info.Degree),
		diam:     floodDiam(info.Params, info.N),
		onChange: floodVariant(info.Params) == floodOnChange,
	}
}

// The FloodMax variants.
const (
	floodEveryRound = "every-round"
	floodOnChange   = "on-change"
)

// maxDiam bounds --diam so that diam*2|E| and the rounds stay representable.
const maxDiam = 1 << 31

func checkDiam(v string) error {
	if v == "n-1" {
		return nil
	}
	d, err := strconv.ParseInt(v, 10, 64)
	if err != nil || d < 0 || d > maxDiam {
		return fmt.Errorf("want n-1 or a number of rounds in 0..%d, got %q", int64(maxDiam), v)
	}
	return nil
}

func checkFloodVariant(v string) error {
	if v != floodEveryRound && v != floodOnChange {
		return fmt.Errorf("want %s or %s, got %q", floodEveryRound, floodOnChange, v)
	}
	return nil
}

// floodVariant is --variant, every-round when unset.
func floodVariant(p elect.Params) string {
	if v := p.String("variant"); v != "" {
		return v
	}
	return floodEveryRound
}

// floodDiam is the number of rounds: --diam, or n-1 by default.
func floodDiam(p elect.Params, n int) int64 {
	if p.String("diam") == "n-1" || p.String("diam") == "" {
		return int64(max(n-1, 0))
	}
	return p.Int("diam")
}

func floodMaxMessages(c elect.BoundContext) float64 {
	return float64(floodDiam(c.Params, c.N)) * 2 * float64(c.Edges)
}

// Message types of FloodMax, in the order of FloodMax.Messages.
const floodMaxUID elect.MsgType = 0

type floodNode struct {
	id       elect.ID
	maxUID   elect.ID
	diam     int64
	degree   int32
	onChange bool
	grew     bool // max-uid grew in the current round
}

// Wake starts round 1: the round-1 messages are sent now (round 0) and
// delivered at round 1; the timer after each round's deliveries ends it.
func (p *floodNode) Wake(env elect.Env, spontaneous bool) {
	if p.diam == 0 {
		p.decide(env)
		return
	}
	p.sendMax(env)
	env.SetTimer(1, 0)
}

func (p *floodNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.ID > p.maxUID {
		p.maxUID = m.ID
		p.grew = true
	}
}

// Timer ends round env.Round(): decide after round diam, else send for the
// next round.
func (p *floodNode) Timer(env elect.Env, tag int64) {
	if env.Round() >= p.diam {
		p.decide(env)
		return
	}
	if !p.onChange || p.grew {
		p.sendMax(env)
	}
	p.grew = false
	env.SetTimer(1, 0)
}

func (p *floodNode) sendMax(env elect.Env) {
	sendAllBut(env, int(p.degree), noPort, elect.Message{Type: floodMaxUID, ID: p.maxUID})
}

func (p *floodNode) decide(env elect.Env) {
	if p.maxUID == p.id {
		env.Decide(elect.Elected)
		return
	}
	env.SetLeader(p.maxUID)
	env.Decide(elect.NotElected)
}
