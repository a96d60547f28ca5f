package elect

import (
	"encoding/binary"
	"math/rand/v2"
)

// Env is the world as a node sees it while it handles one input. Every
// runtime implements it; a node never keeps it beyond the call.
type Env interface {
	// Send queues m on port p.
	Send(p Port, m Message)
	// Decide enters elected or not-elected. A node elected this way also
	// knows the leader: itself.
	Decide(d Decision)
	// SetLeader records the ID the node has learned is the leader's.
	SetLeader(id ID)
	// SetTimer asks for Timer(tag) after the given number of rounds (>= 0).
	// Only meaningful in the synchronous model. A timer of 0 rounds fires at
	// the end of the current round, after the messages that arrive in it:
	// a node that must see its whole input of the round before acting (as
	// "if the input buffer is empty" in a waking round) asks for one.
	SetTimer(rounds int64, tag int64)
	// CancelTimers drops every timer the node has set that has not fired
	// yet (those set earlier in the same call included): they are neither
	// events nor time of the run.
	CancelTimers()
	// Round is the current round in the synchronous model (0 at the start).
	Round() int64
	// Rand is the node's own seeded random source.
	Rand() *rand.Rand
	// Terminate stops the node: it receives nothing more. What it asks for
	// before and after Terminate in the same call is still carried out.
	Terminate()
}

// Recorder is an Env that records what a node asks for as a list of
// Effects, in order, for the runtime to carry out once the node's call has
// returned: nothing happens to the network while the node runs. Runtimes
// that treat a node's step as data (an exhaustive search, which turns the
// effects into a successor state; a goroutine or process that routes them
// to its links; a test that drives one node by hand) use it; the fast
// simulator implements Env itself.
//
// The runtime sets the round (SetRound) before it calls a node, reads the
// node's effects (Effects) after, and clears them (ClearEffects) before the
// next call.
type Recorder struct {
	effects []Effect
	round   int64
	rand    func() *rand.Rand
}

// NewRecorder returns a Recorder whose Rand is rand: it is called when a
// node asks for its random source, and must return that node's own seeded
// source.
func NewRecorder(rand func() *rand.Rand) *Recorder {
	return &Recorder{rand: rand, effects: make([]Effect, 0, 16)}
}

// Send records an EffectSend.
func (e *Recorder) Send(p Port, m Message) {
	k := len(e.effects)
	if k == cap(e.effects) {
		e.effects = append(e.effects, Effect{})
	} else {
		e.effects = e.effects[:k+1]
	}
	f := &e.effects[k]
	f.Kind, f.Port, f.Msg = EffectSend, p, m
}

// Decide records an EffectDecide.
func (e *Recorder) Decide(d Decision) {
	e.effects = append(e.effects, Effect{Kind: EffectDecide, Decision: d})
}

// SetLeader records an EffectLearn.
func (e *Recorder) SetLeader(id ID) {
	e.effects = append(e.effects, Effect{Kind: EffectLearn, Msg: Message{ID: id}})
}

// SetTimer records an EffectSetTimer.
func (e *Recorder) SetTimer(rounds int64, tag int64) {
	e.effects = append(e.effects, Effect{Kind: EffectSetTimer, Msg: Message{A: rounds, B: tag}})
}

// CancelTimers records an EffectCancelTimers.
func (e *Recorder) CancelTimers() {
	e.effects = append(e.effects, Effect{Kind: EffectCancelTimers})
}

// Terminate records an EffectTerminate.
func (e *Recorder) Terminate() {
	e.effects = append(e.effects, Effect{Kind: EffectTerminate})
}

// Round returns the round set by SetRound.
func (e *Recorder) Round() int64 { return e.round }

// Rand returns the node's random source.
func (e *Recorder) Rand() *rand.Rand { return e.rand() }

// SetRound sets what Round returns; runtimes call it when time advances.
func (e *Recorder) SetRound(r int64) { e.round = r }

// Effects returns the effects recorded since the last ClearEffects, in
// order. The slice is the Env's own: it is valid until ClearEffects.
func (e *Recorder) Effects() []Effect { return e.effects }

// ClearEffects forgets the recorded effects, keeping their memory.
func (e *Recorder) ClearEffects() { e.effects = e.effects[:0] }

// Effect is one thing a node asked a Recorder for while handling an input.
type Effect struct {
	Kind EffectKind
	// Decision is what EffectDecide decides (any value for other kinds).
	Decision Decision
	// Port is where EffectSend sends.
	Port Port
	// Msg is what EffectSend sends. EffectLearn keeps the leader's ID in
	// Msg.ID, and EffectSetTimer its rounds and tag in Msg.A and Msg.B (see
	// Leader and Timer).
	Msg Message
}

// Leader is the ID an EffectLearn records.
func (f *Effect) Leader() ID { return f.Msg.ID }

// Timer is the delay in rounds and the tag of an EffectSetTimer.
func (f *Effect) Timer() (rounds, tag int64) { return f.Msg.A, f.Msg.B }

// EffectKind says what an Effect does.
type EffectKind uint8

// The effects.
const (
	EffectSend         EffectKind = iota // Env.Send
	EffectDecide                         // Env.Decide
	EffectLearn                          // Env.SetLeader
	EffectSetTimer                       // Env.SetTimer
	EffectCancelTimers                   // Env.CancelTimers
	EffectTerminate                      // Env.Terminate
)

var effectNames = [...]string{"send", "decide", "learn", "set-timer", "cancel-timers", "terminate"}

func (k EffectKind) String() string {
	if int(k) < len(effectNames) {
		return effectNames[k]
	}
	return "effect(?)"
}

// AppendUint appends x to a state encoding (Snapshotter.AppendState) as a
// self-delimiting varint.
func AppendUint(b []byte, x uint64) []byte { return binary.AppendUvarint(b, x) }

// AppendInt appends x to a state encoding as a self-delimiting varint.
func AppendInt(b []byte, x int64) []byte { return binary.AppendVarint(b, x) }

// AppendInts appends each of xs to a state encoding, in order, as AppendInt
// does: one call for the scalar fields of a node.
func AppendInts(b []byte, xs ...int64) []byte {
	for _, x := range xs {
		b = binary.AppendVarint(b, x)
	}
	return b
}

// AppendList appends a slice to a state encoding: its length, then each
// element as appendOne writes it.
func AppendList[T any](b []byte, xs []T, appendOne func([]byte, T) []byte) []byte {
	b = AppendUint(b, uint64(len(xs)))
	for _, x := range xs {
		b = appendOne(b, x)
	}
	return b
}

// AppendBool appends v to a state encoding.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}
