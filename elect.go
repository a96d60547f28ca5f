// Package elect is the contract of the elect toolkit: what a node of a
// message-passing network is, the environment it acts through, the messages
// it sends, and how an algorithm declares its model, its message types, its
// proven bounds and its parameters. It names no runtime.
//
// # Nodes are state machines; runtimes implement one small Env
//
// An algorithm's node (Node) reacts to three inputs: being woken, a message
// on a port, and (synchronous model) a timer it set. It acts only through
// the Env it is handed: send, decide, record the leader, set or cancel
// timers, terminate, read the round, draw from its own random source. Every
// runtime implements Env; none is named here. Recorder is an Env that turns
// a node's step into data (a list of Effects, in order), as etcd's raft
// hands its caller the messages to send in Ready: the reference engine, an
// exhaustive search or a process on a socket read the effects and carry
// them out. The fast simulator implements Env itself, so that a send is
// routed while the node runs (a recorded effect, written and read back,
// cost it 15-20% of its speed on rings).
//
// # Node state can be snapshotted: a small capability, not value types
//
// Snapshotter is what the exhaustive checker, the reference engine's
// snapshots and the viewer's state panel need: a node that can be copied
// (Clone) and whose whole state has a canonical encoding (AppendState), from
// which equality and hashing follow. Generic value-typed state (a comparable
// struct copied by assignment) was the alternative; it was not chosen
// because several nodes hold state of variable length that no comparable
// value can carry: Peterson's probes buffered from later phases, Afek-Gafni's
// queue of arrivals, echo's flags per port on graphs of any degree. Every
// node the toolkit ships implements Snapshotter, and a test checks, field by
// field, that AppendState sees every part of the state.
//
// # Layout is the runtime's business
//
// An algorithm says how to build a node (Algorithm.New) and, optionally, how
// to set one up in place (Algorithm.Init, which NodesOf derives from the same
// initialiser). Runtimes choose where nodes live: the fast simulator keeps a
// network's nodes in one array it reuses; everything that makes it fast is
// in package sim, discovered from the nodes themselves.
//
// Algorithms import only this package; the engines that run them never
// import a particular algorithm; the catalog and the command assemble them.
package elect

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
// the Go compiler to keep in registers. Algorithms with more fields pack them
// (see ring/itairodeh.go).
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
// start goroutines, read clocks or global random sources, or do I/O, and
// must not keep the Env beyond the call.
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

// Snapshotter is a node whose state can be copied, compared and hashed.
// Every node the toolkit ships implements it; the exhaustive checker, the
// reference engine's snapshots, symmetry detection and the viewer's state
// panel rely on it.
type Snapshotter interface {
	// Clone returns a copy of the node that shares no mutable memory with
	// it: running one never changes the other.
	Clone() Node
	// AppendState appends a canonical encoding of the node's whole state to
	// b: two nodes of one algorithm are in the same state exactly when their
	// encodings are equal. AppendUint and AppendInt write self-delimiting
	// fields, so a sequence of them (with lengths before variable parts)
	// is canonical.
	AppendState(b []byte) []byte
}
