package ring

import (
	"fmt"
	"math"

	"github.com/electkit/elect"
)

// TimeSlice is the synchronous non-uniform algorithm of the slides (seed 003,
// "A Θ(n)-messages Synchronous Algorithm"; seed 001 calls it the "evil
// trick" of [FL87]):
//
//   - every node knows n and wakes at round 0; rounds are grouped in phases
//     of n rounds, phase k being rounds k*n .. k*n+n-1;
//   - if no message has reached it before, the node with ID k starts in
//     phase k, at round k*n: it elects itself and notifies all the other
//     nodes by sending its ID clockwise;
//   - a node that receives the notification decides not-elected, records the
//     leader and passes it on; the notification stops when it is back at the
//     leader, and every node terminates.
//
// The node with the smallest ID m is elected with exactly n messages in
// n*(m+1) rounds: its notification reaches every other node (ID k > m) by
// round m*n+n-1 < k*n, before that node's phase. Idle rounds cost nothing:
// each node sets one timer for round k*n, and the engine jumps from event to
// event. A node whose phase would start past the largest 64-bit round is
// refused by CheckRun.
var TimeSlice = &elect.Algorithm{
	Name:   "time-slice",
	Title:  "Time slice (synchronous, n known, phase k for ID k)",
	Source: "seed 003 (slides), \"A Θ(n)-messages Synchronous Algorithm\"; seed 001 chapter 5 intro ([FL87])",
	Summary: "Rounds come in phases of n; the node with ID k waits until phase k, and if nothing reached it " +
		"before, elects itself and notifies the others: the smallest ID wins with n messages.",
	Model: elect.Model{
		Topology: elect.UniRing, Sync: true, UniqueIDs: true, KnowsN: true,
		WakeUp: elect.AllAtOnce, Elects: elect.ElectsMin, Announce: elect.AlwaysAnnounce,
	},
	Growth: elect.Growth{Messages: "n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "leader", Fields: []string{"j"}},
	},
	Bounds: []elect.Bound{
		{Name: "messages", Quantity: elect.Messages, Relation: elect.Exactly,
			Formula: "n", Source: "seed 003: \"Total number of messages: n\"",
			Value: boundN},
		{Name: "time", Quantity: elect.Time, Relation: elect.Exactly,
			Formula: "n(m+1), m the smallest ID", Source: "seed 003: Θ(n·m) rounds; phase m starts at round m·n and its n messages take n rounds",
			Value: func(c elect.BoundContext) float64 { return float64(c.N) * (float64(c.MinID) + 1) }},
	},
	CheckRun: checkTimeSlice,
	New:      timeSliceNodes.New,
	Init:     timeSliceNodes.Init,
}

var timeSliceNodes = elect.NodesOf(timeSliceInit)

func timeSliceInit(p *timeSliceNode, info elect.NodeInfo) {
	*p = timeSliceNode{id: info.ID, n: int64(info.N), leaderID: -1}
}

// timeSliceMaxID is the largest ID whose phase, and the n rounds of its
// notification, fit in 64-bit rounds: (k+1)*n <= MaxInt64.
func timeSliceMaxID(n int) int64 { return math.MaxInt64/int64(n) - 1 }

// checkTimeSlice refuses rings whose largest ID starts its phase past the
// largest representable round (every node sets its phase timer at round 0).
func checkTimeSlice(c elect.BoundContext) error {
	if limit := timeSliceMaxID(c.N); int64(c.MaxID) > limit {
		return fmt.Errorf("the node with ID k starts at round k*n, which must fit in 64 bits: with n = %d, IDs must be at most %d; got %d",
			c.N, limit, c.MaxID)
	}
	return nil
}

// Message type of TimeSlice.
const timeSliceLeader elect.MsgType = 0

type timeSliceNode struct {
	id       elect.ID
	n        int64
	leaderID elect.ID // -1 until known
	elected  bool
}

// Wake sets the timer for the node's phase, k*n rounds ahead; phase 0 starts
// now.
func (p *timeSliceNode) Wake(env elect.Env, spontaneous bool) {
	start := int64(p.id) * p.n
	if start == 0 {
		p.startPhase(env)
		return
	}
	env.SetTimer(start, 0)
}

// Timer is the start of the node's phase: nothing has reached it, so no
// smaller ID exists.
func (p *timeSliceNode) Timer(env elect.Env, tag int64) { p.startPhase(env) }

func (p *timeSliceNode) startPhase(env elect.Env) {
	p.elected = true
	p.leaderID = p.id
	env.Decide(elect.Elected)
	env.Send(elect.Left, elect.Message{Type: timeSliceLeader, ID: p.id})
}

// Receive handles the notification: back at the leader it stops; elsewhere
// the node learns the leader, passes the notification on and terminates, so
// that its own phase timer never fires.
func (p *timeSliceNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.ID == p.id {
		env.Terminate()
		return
	}
	p.leaderID = m.ID
	passOnLeader(env, elect.Left, m)
	env.Terminate()
}
