// Package elect is the shared vocabulary of the elect toolkit: what a node of
// a message-passing network is, the environment it acts through, the messages
// it sends, and how an algorithm declares its model, its message types and its
// proven bounds.
//
// Algorithms are deterministic state machines (see Node). They import only
// this package; the engines that run them (the simulator in package sim, and
// later goroutine, TCP and exhaustive runtimes) implement Env and never import
// a particular algorithm. The command (internal/cli) and the catalog
// (package catalog) assemble the pieces.
package elect

import "math/rand/v2"

// ID is a node's identifier as the algorithm sees it. IDs are non-negative;
// anonymous runs give every node the same ID.
type ID int64

// Port is a node's local name for one of its links, 0..degree-1.
//
// On a ring, port Left (0) leads clockwise, to the node of the next index, and
// port Right (1) counterclockwise, following seed 003 ("1 = left =
// clockwise"). A message sent on Left arrives at its receiver on port Right.
// On a unidirectional ring only Left may be used for sending.
type Port int32

// The two ports of a ring node.
const (
	Left  Port = 0 // clockwise: towards index i+1
	Right Port = 1 // counterclockwise: towards index i-1
)

// Opposite returns the other ring port: a message that arrived on p continues
// its way around the ring when it is sent on p.Opposite().
func (p Port) Opposite() Port { return 1 - p }

// MsgType indexes an algorithm's declared message types (Algorithm.Messages).
type MsgType uint8

// Message is what travels on a link. Its meaning is the algorithm's: Type
// selects one of the algorithm's declared MessageTypes, whose Fields name the
// payload slots in order (ID, A, B). Algorithms build and read messages
// through their own small constructors so that the code reads like the paper.
//
// A Message is a plain value of four fields and 32 bytes, small enough for
// the Go compiler to keep in registers: sending never allocates and never
// goes through memory (a fifth field would make every send copy through a
// stack temporary, several times slower). Algorithms with more fields pack
// them (see ring/itairodeh.go).
type Message struct {
	Type MsgType
	ID   ID
	A    int64
	B    int64
}

// Decision is a node's election state. Decisions are irrevocable: once a node
// has decided, deciding otherwise is a violation.
type Decision uint8

// The decisions.
const (
	Undecided Decision = iota
	Elected
	NotElected
)

func (d Decision) String() string {
	switch d {
	case Undecided:
		return "undecided"
	case Elected:
		return "elected"
	case NotElected:
		return "not-elected"
	}
	return "decision(?)"
}

// Node is one process of an algorithm: a deterministic state machine that
// reacts to its inputs only through the Env it is handed. A node must not
// start goroutines, read clocks or global random sources, or do I/O.
//
// Wake is called exactly once, before any other input: at the node's
// spontaneous wake-up time when it is an initiator (spontaneous == true), or
// just before its first message is delivered otherwise.
type Node interface {
	Wake(env Env, spontaneous bool)
	Receive(env Env, from Port, m Message)
}

// TimerNode is a Node that sets timers (synchronous algorithms): Timer is
// called when a timer set with Env.SetTimer fires, after every message of the
// same round has been delivered.
type TimerNode interface {
	Node
	Timer(env Env, tag int64)
}

// Fingerprinter is a Node whose whole state can be summarised in a comparable
// value; engines use it to detect that an anonymous run stayed symmetric
// (every node in the same state after a round).
type Fingerprinter interface {
	Fingerprint() uint64
}

// TimerCanceler is implemented by the Env of engines that can cancel timers.
// A node uses it through a type assertion and must stay correct without it
// (by ignoring a timer whose tag is stale); where it is offered, cancelled
// timers are neither events nor time of the run.
type TimerCanceler interface {
	// CancelTimers drops every timer the current node has set that has not
	// fired yet.
	CancelTimers()
}

// Env is the world as a node sees it while it handles one input.
type Env interface {
	// Send queues m on port p.
	Send(p Port, m Message)
	// Decide enters elected or not-elected. A node elected this way also
	// knows the leader: itself.
	Decide(d Decision)
	// SetLeader records the ID the node has learned is the leader's.
	SetLeader(id ID)
	// SetTimer asks for Timer(tag) after the given number of rounds (>= 1).
	// Only meaningful in the synchronous model.
	SetTimer(rounds int64, tag int64)
	// Round is the current round in the synchronous model (0 at the start).
	Round() int64
	// Rand is the node's own seeded random source.
	Rand() *rand.Rand
	// Terminate stops the node: it receives nothing more.
	Terminate()
}
