package ring

import (
	"fmt"
	"math"

	"github.com/electkit/elect"
)

// SlowFast is the synchronous uniform slow-fast algorithm of the slides
// (seed 003, "Another Θ(n)-messages Synchronous Algorithm: the slow-fast
// algorithm", prose and pseudo-code MAIN / ACTIVE_CASE / RELAY_CASE; Lynch
// calls its all-slow form VariableSpeeds):
//
//   - a node that wakes spontaneously is active: SMALLER_ID <- its ID, and it
//     sends (ID, fast) clockwise; a node woken by a message is a relay, which
//     never competes (SMALLER_ID <- +∞);
//   - a node forwards only a message whose ID is smaller than SMALLER_ID, the
//     smallest competing ID it has seen, and then SMALLER_ID <- that ID; a
//     message with a larger ID is dropped;
//   - an active node that accepts a message makes it slow; a slow message
//     with ID m received in round R is sent in round TIMEOUT = R + 2^m - 1,
//     so it arrives 2^m rounds later: one hop every 2^m rounds; a relay
//     forwards a fast message in the round it gets it (TIMEOUT = R);
//   - an active node that gets its own ID back is elected (EXIT).
//
// The active node with the smallest ID wins: the winner's ID is accepted
// everywhere, and every other ID is dropped at the winner, which is active
// from before any message reaches it. Nodes that know they lost (relays, and
// active nodes that accepted a smaller ID) decide not-elected; there is no
// announcement.
//
// Where the prose and the pseudo-code differ:
//
//   - In ACTIVE_CASE the line IF(R=TIMEOUT) SEND(OUT_BUFFER) sits inside
//     IF(IN_BUFFER=Non-Empty): read literally, an active node sends a delayed
//     message only if another message happens to arrive in round TIMEOUT, so
//     slow messages with m >= 1 stall at the first active node. RELAY_CASE
//     has the same line outside that block, and the prose says "a processor
//     that receives it at round r will forward it" 2^m rounds later. We
//     follow the prose (--variant prose, the default); --variant literal
//     keeps the literal ACTIVE_CASE, whose runs end with no leader unless the
//     winner's ID is 0 or it meets no other active node.
//   - MAIN makes a node active only if IN_BUFFER is empty in its waking
//     round. By default (--wake prose) a node scheduled to wake
//     spontaneously in the round a message reaches it is active, as the
//     prose's "a processor that wakes up spontaneously is active" reads: our
//     engine delivers a spontaneous wake-up before the messages of the same
//     round (package sim), and ACTIVE_CASE then handles that message in the
//     same round. --wake literal follows MAIN: the node waits for the end of
//     its waking round (a timer of 0 rounds) and is active only if no
//     message came in it, a relay otherwise. The readings elect different
//     leaders: on ids [3 1 2] with node 0 waking at round 0 and node 1 at
//     round 1, node 0's fast 3 reaches node 1 in round 1; the prose makes
//     node 1 active, drops 3 and elects 1; the literal reading makes node 1
//     a relay that forwards 3, which comes home: 3 is elected, not the
//     smallest ID among the nodes that woke spontaneously (the check that
//     promise makes fails: a measured difference, elect reproduce
//     slow-fast).
//
// Messages with simultaneous start. The slides prove at most 5n for any
// wake-up pattern; Lynch proves fewer than 2n for VariableSpeeds, where all
// nodes start together and every message is slow from the start. Here the
// first hop is fast, and the 2n bound does not carry over (13 messages on
// ids [0 2 3 1 4 5], see slowfast_test.go). What holds, with all nodes
// active at round 0 and m the smallest ID: the n own messages make one fast
// hop each (the next node is active); m then needs n-1 slow hops, arriving
// at the node at distance h in round 1+(h-1)2^m, back home in round
// 1+(n-1)2^m (the declared exact time); any other ID v > m, accepted in
// round 1, is sent again in rounds k*2^v, only while m has not reached the
// sending node, i.e. for k*2^v <= (n-2)2^m, so at most (n-2)/2^(v-m) times;
// over distinct v that is at most n-2 in all. Hence at most 3n-3 messages
// for n >= 2 and 1 for n = 1: at most 3n-2, the declared bound.
//
// A slow message waits in the node (one pending OUT_BUFFER, replaced when a
// smaller ID arrives) on a timer; a replaced message's timer is cancelled,
// so the run's time is that of its last real event. A delay that does not
// fit in 64-bit rounds is parked: such a message is always replaced by the
// winner's before it would be sent when the winner's own round trip fits,
// which CheckRun requires of the smallest initiator ID; if a parked message
// is ever due, the run stops with a time-overflow violation.
var SlowFast = &elect.Algorithm{
	Name:   "slow-fast",
	Title:  "Slow-fast (synchronous, uniform, messages at speed 1/2^ID)",
	Source: "seed 003 (slides), the slow-fast algorithm: prose, message analysis and pseudo-code",
	Summary: "Initiators send their ID fast; a message reaching an active node turns slow (one hop every 2^ID rounds); " +
		"nodes forward only IDs smaller than any they have seen; the smallest initiator ID wins with O(n) messages.",
	Model: elect.Model{
		Topology: elect.UniRing, Sync: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMinInitiator, Announce: elect.NoAnnounce,
	},
	Growth: elect.Growth{Messages: "n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "fast", Fields: []string{"ID"}},
		{Name: "slow", Fields: []string{"ID"}},
	},
	Bounds: []elect.Bound{
		{Name: "messages", Quantity: elect.Messages, Relation: elect.AtMost,
			Formula: "5n", Source: "seed 003: type 1 (fast) <= n, type 2 <= n, type 3 <= 2n, type 4 <= n",
			Value: func(c elect.BoundContext) float64 { return float64(5 * c.N) }},
		{Name: "fast messages", Quantity: elect.Messages, Types: []string{"fast"}, Relation: elect.AtMost,
			Formula: "n", Source: "seed 003, type 1 messages: no processor forwards more than one fast message",
			Value: boundN},
		{Name: "messages", Quantity: elect.Messages, Relation: elect.AtMost,
			Formula: "3n-2 (simultaneous start)", Source: "n first hops, the winner's n-1 slow hops, at most n-2 other slow hops (derived in slowfast.go)",
			Value:   func(c elect.BoundContext) float64 { return float64(3*c.N - 2) },
			Applies: func(c elect.BoundContext) bool { return c.AllAtZero && c.Params.String("variant") != "literal" }},
		{Name: "time", Quantity: elect.Time, Relation: elect.Exactly,
			Formula: "1+(n-1)2^m (simultaneous start, m the smallest ID)", Source: "seed 003: O(n·2^m) rounds; one fast hop, then n-1 hops of 2^m rounds",
			Value:   func(c elect.BoundContext) float64 { return 1 + float64(c.N-1)*math.Exp2(float64(c.MinID)) },
			Applies: func(c elect.BoundContext) bool { return c.AllAtZero && c.Params.String("variant") != "literal" }},
	},
	Params: []elect.Param{{
		Name: "variant", Default: "prose",
		Help:  "prose, or literal: the pseudo-code's ACTIVE_CASE, which sends a delayed message only when another arrives at TIMEOUT",
		Check: checkSlowFastVariant,
	}, {
		Name: "wake", Default: "prose",
		Help:  "prose (a node waking spontaneously is active, even when a message reaches it in that round), or literal: MAIN's IF(IN_BUFFER=Empty), such a node is a relay",
		Check: checkSlowFastWake,
	}},
	CheckRun: checkSlowFast,
	New:      slowFastNodes.New,
	Init:     slowFastNodes.Init,
}

var slowFastNodes = elect.NodesOf(slowFastInit)

func slowFastInit(p *slowFastNode, info elect.NodeInfo) {
	*p = slowFastNode{id: info.ID, literal: info.Params.String("variant") == "literal",
		literalWake: info.Params.String("wake") == "literal"}
}

func checkSlowFastWake(v string) error {
	if v != "prose" && v != "literal" {
		return fmt.Errorf("slow-fast wake readings are prose and literal, got %q", v)
	}
	return nil
}

// slowFastStartTag tags the timer of 0 rounds that ends a waking round under
// --wake literal (the other timers' tags are positive generations).
const slowFastStartTag = -1

func checkSlowFastVariant(v string) error {
	if v != "prose" && v != "literal" {
		return fmt.Errorf("slow-fast variants are prose and literal, got %q", v)
	}
	return nil
}

// slowFastMaxID is the largest smallest-initiator ID whose round trip,
// n*2^m rounds after a wake-up at round <= 2^40, fits in 64-bit rounds:
// n*2^m <= 2^62.
func slowFastMaxID(n int) int64 { return int64(62 - elect.CeilLog2(n)) }

// checkSlowFast refuses runs whose winner's message could not make its
// round trip within 64-bit rounds.
func checkSlowFast(c elect.BoundContext) error {
	if limit := slowFastMaxID(c.N); int64(c.MinInitiatorID) > limit {
		who := "smallest ID"
		if c.Initiators < c.N {
			who = "smallest initiator ID"
		}
		return fmt.Errorf("the winner's message moves one hop every 2^m rounds (m its ID), up to n*2^m rounds in all: "+
			"with n = %d the %s must be at most 62 - ceil(lg n) = %d; got %d", c.N, who, limit, c.MinInitiatorID)
	}
	return nil
}

// Message types of SlowFast, in the order of SlowFast.Messages: the speed
// bit of the slides' MSG{ID, SPEED} is the type tag.
const (
	slowFastFast elect.MsgType = iota
	slowFastSlow
)

// never is the TIMEOUT of a parked message, whose delay does not fit in
// 64-bit rounds.
const never = math.MaxInt64

type slowFastNode struct {
	id          elect.ID
	literal     bool // --variant literal
	literalWake bool // --wake literal
	woken       bool
	waking      bool // --wake literal: woke spontaneously this round, input not yet seen
	active      bool
	elected     bool
	smaller     elect.ID // SMALLER_ID; +∞ (MaxInt64) for a relay that has seen nothing

	// OUT_BUFFER and TIMEOUT; pending until sent.
	out     elect.Message
	pending bool
	timeout int64
	gen     int64 // tag of the current timer; older timers are stale
}

// Wake is MAIN: a spontaneous wake-up makes the node active and sends its ID
// fast; a node woken by a message is a relay and has lost.
// Under --wake literal a spontaneous wake-up only starts the waking round:
// the node becomes active at its end if no message came in it.
func (p *slowFastNode) Wake(env elect.Env, spontaneous bool) {
	p.woken = true
	if spontaneous && p.literalWake {
		p.waking = true
		env.SetTimer(0, slowFastStartTag)
		return
	}
	if spontaneous {
		p.becomeActive(env)
		return
	}
	p.becomeRelay(env)
}

// becomeActive: SMALLER_ID <- MY_ID, and the node's ID goes out fast.
func (p *slowFastNode) becomeActive(env elect.Env) {
	p.active = true
	p.smaller = p.id
	env.Send(elect.Left, elect.Message{Type: slowFastFast, ID: p.id})
}

// becomeRelay: the node never competes.
func (p *slowFastNode) becomeRelay(env elect.Env) {
	p.smaller = math.MaxInt64
	env.Decide(elect.NotElected)
}

func (p *slowFastNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if p.waking {
		// --wake literal: IN_BUFFER is not empty in the waking round.
		p.waking = false
		p.becomeRelay(env)
	}
	if p.active {
		p.activeCase(env, m)
	} else {
		p.relayCase(env, m)
	}
}

// activeCase is ACTIVE_CASE for the message received in round R.
func (p *slowFastNode) activeCase(env elect.Env, m elect.Message) {
	if p.elected {
		return // EXIT: the leader takes no further part
	}
	if m.ID == p.id {
		p.elected = true
		p.pending = false
		p.cancelTimers(env)
		env.Decide(elect.Elected)
		env.Terminate()
		return
	}
	r := env.Round()
	if m.ID < p.smaller {
		p.smaller = m.ID
		env.Decide(elect.NotElected)
		p.buffer(elect.Message{Type: slowFastSlow, ID: m.ID}, r, delayEnd(r, m.ID))
		if !p.literal {
			p.arm(env, r)
			return
		}
	}
	if p.literal && p.pending && r == p.timeout {
		p.send(env) // the literal ACTIVE_CASE: only in a round with input
	}
}

// relayCase is RELAY_CASE for the message received in round R: fast
// messages go on at once, slow ones at R + 2^m - 1.
func (p *slowFastNode) relayCase(env elect.Env, m elect.Message) {
	if m.ID >= p.smaller {
		return
	}
	p.smaller = m.ID
	r := env.Round()
	end := r
	if m.Type == slowFastSlow {
		end = delayEnd(r, m.ID)
	}
	p.buffer(m, r, end)
	p.arm(env, r)
}

// delayEnd is TIMEOUT = r + 2^m - 1, or never when that is past the largest
// 64-bit round.
func delayEnd(r int64, m elect.ID) int64 {
	if m >= 63 || int64(1)<<m-1 > math.MaxInt64-r {
		return never
	}
	return r + int64(1)<<m - 1
}

func (p *slowFastNode) buffer(m elect.Message, r, timeout int64) {
	p.out, p.pending, p.timeout = m, true, timeout
}

// arm sends the pending message now if its TIMEOUT is this round, and
// otherwise sets a timer for it, replacing any earlier one. A parked message
// gets a timer at the last representable round, where Timer reports the
// overflow.
func (p *slowFastNode) arm(env elect.Env, r int64) {
	p.cancelTimers(env)
	p.gen++
	switch {
	case p.timeout == r:
		p.send(env)
	case p.timeout == never:
		env.SetTimer(math.MaxInt64-r, p.gen)
	default:
		env.SetTimer(p.timeout-r, p.gen)
	}
}

// cancelTimers drops the node's pending timer; the tag check in Timer
// stays, so that a stale timer would be recognised all the same.
func (p *slowFastNode) cancelTimers(env elect.Env) { env.CancelTimers() }

// Timer is the check R = TIMEOUT of the round the timer was set for.
func (p *slowFastNode) Timer(env elect.Env, tag int64) {
	if tag == slowFastStartTag {
		if p.waking {
			p.waking = false // the waking round ended with IN_BUFFER empty
			p.becomeActive(env)
		}
		return
	}
	if tag != p.gen || !p.pending || p.elected {
		return
	}
	if p.timeout == never {
		// Due past the largest 64-bit round: the engine reports it.
		env.SetTimer(math.MaxInt64, 0)
		return
	}
	p.send(env)
}

func (p *slowFastNode) send(env elect.Env) {
	p.pending = false
	env.Send(elect.Left, p.out)
}
