package elect

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
)

// Algorithm is everything the tool knows about one election algorithm: its
// name and source, the model it assumes, its message types, its proven bounds,
// how its measures grow, its parameters, and how to build its nodes.
//
// One declaration, a variable of this type listed in package catalog, is all
// the code it takes to add an algorithm (in this repository the tests also
// ask for a row of the README's table and a reproduction of its claims:
// docs/adding-an-algorithm.md); everything else derives from it:
//
//   - the command line: its name, parameters (flags, checked by Param.Check),
//     and 'elect list', which prints Title, Source, Summary, Model, Messages
//     and Bounds;
//   - every run: Model (what the runner refuses unless forced; ModelFor per
//     parameters), CheckRun, Messages (counts and bits per type), and Bounds
//     (checked in every run, on every runtime);
//   - summaries and fits: Growth (the fitted constant mean / growth(n) of
//     experiment.DefaultGrowth);
//   - tests over whole classes: for example every deterministic ring
//     algorithm (Model.Topology a ring, Model.Randomized false) must stay
//     symmetric on anonymous rings (Lemma 5.1.1 of seed 001);
//   - the conformance kit (package conformance), which the catalog's test
//     and users' own tests run: elections on random networks under every
//     delivery the model allows, both engines, snapshots, the exhaustive
//     checker;
//   - checks that the rest keeps up: the README's algorithm table must list
//     the catalog in order with each algorithm's topology class
//     (catalog/readme_test.go), and some reproduction of 'elect reproduce'
//     must run it (experiment/claims/coverage_test.go).
type Algorithm struct {
	Name     string // command-line name, e.g. "lcr"
	Title    string // e.g. "Le Lann-Chang-Roberts"
	Source   string // seed file and section it is implemented from
	Summary  string // its rules in one or two sentences
	Model    Model
	Messages []MessageType // indexed by MsgType
	Bounds   []Bound
	// Growth is what its measures are expected to grow like with n.
	Growth Growth
	Params []Param
	// StateValues, when set, names the values of a node's enumerated state
	// fields, by the field's name as a trace's state lines write it: value
	// k of field f is StateValues[f][k] (for a slice field, each element's).
	// It is declared once here; the trace header carries it (what 'elect
	// run --trace' writes), and the viewer shows the names.
	StateValues map[string][]string
	// TreePorts, when set, names the state field that marks a node's ports
	// in the tree the algorithm builds (a spanning tree, a minimum one for
	// GHS), so that the viewer can draw its edges; the trace header
	// carries it with each node's neighbours in port order.
	TreePorts TreePorts
	// CheckRun, when set, refuses a run the algorithm cannot represent (for
	// example one whose time would overflow), with an error that says what is
	// allowed. Unlike model assumptions, --force does not override it.
	CheckRun func(c BoundContext) error
	// ModelFor, when set, gives the model a run with these parameters
	// assumes, for algorithms whose variants assume different things (for
	// example one that needs FIFO channels); nil means Model for every run.
	ModelFor func(p Params) Model
	// NaturalTopology, when set, is the topology specification a run on n
	// nodes uses when none is named (for an algorithm that runs on a family
	// of its own, such as grids); nil means the one its Model implies: the
	// ring, the complete graph, complete:chordal or the hypercube.
	NaturalTopology func(n int) string
	// DrawRange, when set, is how many equally likely values each of a
	// randomized algorithm's draws takes on n nodes with these parameters
	// (k for Rand().IntN(k), 2^b for b random bits): the exhaustive checker
	// branches on each value to compute exact probabilities. nil means the
	// draws are not over one small range.
	DrawRange func(n int, p Params) int
	// InFlight, when set, is how many messages the memory estimate made
	// before a run in context c (--mem-limit) counts as in flight at once,
	// where that differs from its default: one per link in each direction
	// the algorithm sends on (one per link of a unidirectional ring),
	// capped by the declared message bounds; what the runtimes hold for
	// them besides (the simulator's timers for acknowledgements) may be
	// counted in. An algorithm whose nodes may hold several messages per
	// link at once declares more (echo's waves); one that sends on few of
	// its links declares less (ring-skip's ring in a complete graph). It is
	// a typical run's peak, not a worst case: a run that outgrows its limit
	// is stopped while it runs.
	InFlight func(c BoundContext) float64
	// New builds one node: all an algorithm must say about its nodes to run
	// on every runtime.
	New func(info NodeInfo) Node
	// Init, when set, sets up in place a node for info: node is of the type
	// New returns and points at a zero state. It lets a runtime choose
	// where nodes live (the fast simulator keeps a network's nodes in one
	// array it reuses). NodesOf makes New and Init from one initialiser, so
	// that the two cannot differ.
	Init func(node Node, info NodeInfo)
}

// Nodes builds the nodes of type *S of one algorithm from one initialiser,
// which sets up a zero S for a NodeInfo.
type Nodes[S any, P interface {
	*S
	Node
}] struct {
	init func(p P, info NodeInfo)
}

// NodesOf returns the Nodes of init; use its New and Init methods as the
// Algorithm's New and Init.
func NodesOf[S any, P interface {
	*S
	Node
}](init func(p P, info NodeInfo)) Nodes[S, P] {
	return Nodes[S, P]{init: init}
}

// New is an Algorithm's New: it allocates one S and sets it up.
func (b Nodes[S, P]) New(info NodeInfo) Node {
	p := P(new(S))
	b.init(p, info)
	return p
}

// Init is an Algorithm's Init: node must be a *S pointing at a zero S.
func (b Nodes[S, P]) Init(node Node, info NodeInfo) { b.init(node.(P), info) }

// NodeInfo is what a node knows when it is built.
type NodeInfo struct {
	ID       ID
	N        int // the network size when Model.KnowsN, else 0
	Degree   int // number of ports
	Announce bool
	Params   Params
	// Weights gives, when Model.Weighted, the weight of each port's edge,
	// by port (len Degree): both ends of an edge see the same Weight, and
	// distinct edges distinct Weights. Nil for other algorithms. The slice
	// may be shared with other nodes: read it, never write it.
	Weights []Weight
	// PortID gives, when Model.KnowsIDs, the ID of the node at the other
	// end of port p (0 <= p < Degree); nil for other algorithms. It is a
	// function, not a slice, so that n nodes that know n-1 IDs each do not
	// take n^2 memory.
	PortID func(p Port) ID
}

// Weight is an edge weight as an exact, order-preserving key: algorithms
// compare weights and never compute with them. Runtimes derive it from the
// network (see election.Config.NodeInfos for the rule): the weights an edge-list
// file gives, else the edge's endpoint IDs.
type Weight int64

// InfiniteWeight is larger than every edge's Weight (GHS's "infinity": no
// outgoing edge).
const InfiniteWeight Weight = math.MaxInt64

// RunModel returns the model a run with parameters p assumes: ModelFor(p)
// when the algorithm declares it, else Model.
func (a *Algorithm) RunModel(p Params) Model {
	if a.ModelFor != nil {
		return a.ModelFor(p)
	}
	return a.Model
}

// MsgTypeOf returns the index of the message type called name; it panics if
// there is none (a bug in the algorithm's declaration).
func (a *Algorithm) MsgTypeOf(name string) MsgType {
	for i, m := range a.Messages {
		if m.Name == name {
			return MsgType(i)
		}
	}
	panic("elect: algorithm " + a.Name + " declares no message type " + name)
}

// Model is what an algorithm assumes about the network, and what kind of
// algorithm it is. The runner refuses a configuration that breaks an
// assumption, naming it, unless forced.
type Model struct {
	Topology  TopologyClass
	Sync      bool // runs in the synchronous model
	Async     bool // runs in the asynchronous model
	FIFO      bool // needs FIFO channels
	UniqueIDs bool // needs distinct IDs
	KnowsN    bool // nodes are told n
	// SenseOfDirection: the ports name directions all nodes agree on. On a
	// complete graph, port p leads to the node p+1 steps further along a
	// fixed Hamiltonian cycle (topology complete:chordal); on a hypercube,
	// port k leads along dimension k.
	SenseOfDirection bool
	WakeUp           WakeUp
	Elects           Elects
	Announce         Announce
	// Weighted: its nodes need edge weights (NodeInfo.Weights), distinct
	// ones, as minimum-spanning-tree algorithms do.
	Weighted bool
	// KnowsIDs: each node is told, by port, the ID of the node at the
	// other end (NodeInfo.PortID), as the Bully algorithm assumes ("every
	// process knows the identifiers of all the others").
	KnowsIDs bool
	// Tolerates is the set of faults the algorithm is built to survive
	// (package faults injects them): a run with a fault outside it that
	// fails is an expected failure, and one with only faults inside it that
	// fails is a violation. The zero value tolerates nothing, as none of
	// the classic algorithms do.
	Tolerates Faults
	// Randomized: its nodes may draw from Env.Rand (with some parameter
	// values). False promises that they never do, so that a run is a
	// function of the IDs, the network, the wake-ups and the delivery order
	// alone: a deterministic algorithm, to which the impossibility of
	// election on anonymous rings applies.
	Randomized bool
}

// Growth declares what the measures of an algorithm's runs are expected to
// grow like as n grows, on its natural topology (the ring, or the complete
// graph) with every node initiating: each field names a function of n as
// experiment.Growths does ("1", "lg n", "H_n", "n", "n lg n", "n H_n",
// "n^2"). The root package only carries the names; experiment resolves
// them, and a test there checks that every declared name resolves.
// Summaries divide a measure's mean by its growth: the fitted constant stays
// flat across n when the declaration is right. An empty name declares
// nothing (growth "1": the fit is the mean).
type Growth struct {
	// Messages is the growth of the message count on random IDs; it also
	// serves each message type's count and the bits.
	Messages string
	// MessagesByIDs replaces Messages for the ID arrangements it names by
	// their --ids word (for LCR, "decreasing": "n^2").
	MessagesByIDs map[string]string
	// Time is the growth of the time: rounds, or asynchronous time units.
	Time string
}

// MessagesFor returns the growth of the message count on the ID arrangement
// written ids.
func (g Growth) MessagesFor(ids string) string {
	if m, ok := g.MessagesByIDs[ids]; ok {
		return m
	}
	return g.Messages
}

// TopologyClass is the class of networks an algorithm is designed for.
type TopologyClass uint8

// The topology classes.
const (
	UniRing  TopologyClass = iota // unidirectional ring: send on Left only
	BiRing                        // oriented bidirectional ring
	Complete                      // complete graph
	General                       // any connected graph
)

func (t TopologyClass) String() string {
	switch t {
	case UniRing:
		return "unidirectional ring"
	case BiRing:
		return "oriented bidirectional ring"
	case Complete:
		return "complete graph"
	case General:
		return "general connected graph"
	}
	return "topology(?)"
}

// WakeUp is the set of wake-up patterns an algorithm tolerates.
type WakeUp uint8

// The wake-up patterns.
const (
	AllAtOnce WakeUp = iota // every node wakes spontaneously at time 0
	AnySubset               // any non-empty set of initiators, at any times
)

func (w WakeUp) String() string {
	if w == AllAtOnce {
		return "all at once"
	}
	return "any subset"
}

// Elects says which node an algorithm promises to elect.
type Elects uint8

// The promises.
const (
	ElectsMax          Elects = iota // the node with the maximum ID
	ElectsMin                        // the node with the minimum ID
	ElectsAny                        // some node
	ElectsAnyKnowsMax                // some node, which records the maximum ID as leader ID
	ElectsMinInitiator               // the initiator with the minimum ID
)

func (e Elects) String() string {
	switch e {
	case ElectsMax:
		return "max ID"
	case ElectsMin:
		return "min ID"
	case ElectsAny:
		return "some node"
	case ElectsAnyKnowsMax:
		return "some node, which learns the max ID"
	case ElectsMinInitiator:
		return "min initiator ID"
	}
	return "elects(?)"
}

// Announce says whether an algorithm tells every node the leader's ID.
type Announce uint8

// The announcement modes.
const (
	NoAnnounce       Announce = iota // never announces
	OptionalAnnounce                 // announces with --announce
	AlwaysAnnounce                   // always announces
)

func (a Announce) String() string {
	switch a {
	case NoAnnounce:
		return "no"
	case OptionalAnnounce:
		return "optional"
	case AlwaysAnnounce:
		return "yes"
	}
	return "announce(?)"
}

// MessageType declares one kind of message: its name as in the source, the
// names of the payload slots it uses (in the order ID, A, B) and its
// encoded size.
type MessageType struct {
	Name   string
	Fields []string
	// Bits is the fixed-width encoded size of one message of this type in a
	// run; nil means DefaultBits.
	Bits func(c BitContext) int
}

// BitContext is what message sizes may depend on.
type BitContext struct {
	N      int
	IDBits int // bits to write the largest ID of the run
	Types  int // number of message types of the algorithm
	Params Params
}

// DefaultBits is the size of a message with a type tag, and for each declared
// field an ID (the first field) or a counter of lg(n+1) bits (the others).
func DefaultBits(m MessageType, c BitContext) int {
	if m.Bits != nil {
		return m.Bits(c)
	}
	size := TagBits(c.Types)
	for i := range m.Fields {
		if i == 0 {
			size += c.IDBits
		} else {
			size += CeilLog2(c.N + 1)
		}
	}
	return size
}

// TagBits is the number of bits that tell k message types apart.
func TagBits(k int) int {
	if k <= 1 {
		return 0
	}
	return CeilLog2(k)
}

// CeilLog2 returns ceil(lg x) for x >= 1 (0 for x <= 1).
func CeilLog2(x int) int {
	if x <= 1 {
		return 0
	}
	return bits.Len(uint(x - 1))
}

// FloorLog2 returns floor(lg x) for x >= 1 (0 for x <= 1).
func FloorLog2(x int) int {
	if x <= 1 {
		return 0
	}
	return bits.Len(uint(x)) - 1
}

// Quantity is a measured quantity a bound speaks of.
type Quantity uint8

// The quantities.
const (
	Messages Quantity = iota // messages of the bound's types (all if none)
	Time                     // rounds, or async time units
	Bits                     // bits of the bound's types (all if none)
)

func (q Quantity) String() string {
	switch q {
	case Messages:
		return "messages"
	case Time:
		return "time"
	case Bits:
		return "bits"
	}
	return "quantity(?)"
}

// Relation is how a measured value must compare with a bound.
type Relation uint8

// The relations.
const (
	AtMost Relation = iota
	Exactly
	AtLeast
)

func (r Relation) String() string {
	switch r {
	case AtMost:
		return "<="
	case Exactly:
		return "=="
	case AtLeast:
		return ">="
	}
	return "?"
}

// Holds reports whether actual stands in relation r to expected.
func (r Relation) Holds(actual, expected float64) bool {
	const eps = 1e-9
	switch r {
	case AtMost:
		return actual <= expected+eps*math.Max(1, math.Abs(expected))
	case Exactly:
		return math.Abs(actual-expected) <= eps*math.Max(1, math.Abs(expected))
	case AtLeast:
		return actual >= expected-eps*math.Max(1, math.Abs(expected))
	}
	return false
}

// Bound is a proven bound as a checkable formula.
type Bound struct {
	Name     string   // e.g. "election messages"
	Quantity Quantity // what is measured
	Types    []string // message types counted; empty means all
	Relation Relation
	Formula  string // the bound in the source's notation, e.g. "n(n+1)/2"
	Source   string // where it is proven or stated
	Value    func(c BoundContext) float64
	// Applies says whether the bound speaks of this run (nil: always).
	Applies func(c BoundContext) bool
}

// BoundContext is what a bound's value may depend on.
type BoundContext struct {
	N          int
	Edges      int
	Initiators int
	Announce   bool
	Sync       bool
	// AllAtZero: every node wakes spontaneously at time 0.
	AllAtZero bool
	// CausalTime: time is measured as a causal depth (newest-first
	// delivery), not in an execution whose delays are at most one unit, so
	// bounds proven for timed executions need not apply.
	CausalTime bool
	MinID      ID
	MaxID      ID
	// MinInitiatorID is the smallest ID among the nodes scheduled to wake
	// spontaneously (MinID when all do).
	MinInitiatorID ID
	Params         Params
	// Faults is the set of fault kinds the run injects (none: a run on
	// reliable links with no crash, the model every classic bound assumes).
	Faults Faults
}

// Param is an algorithm parameter beyond the common flags (e.g. lcr-random's
// --bits).
type Param struct {
	Name    string
	Default string
	Help    string
	// Check validates a value given on the command line (nil: any).
	Check func(value string) error
}

// Params holds parameter values by name, as given on the command line or
// defaulted from the declaration.
type Params map[string]string

// Int returns the parameter as an integer; a missing or malformed value is a
// bug of the caller, which validates parameters before building nodes.
func (p Params) Int(name string) int64 {
	v, err := strconv.ParseInt(p[name], 10, 64)
	if err != nil {
		panic(fmt.Sprintf("elect: parameter %s=%q is not an integer", name, p[name]))
	}
	return v
}

// String returns the parameter's value.
func (p Params) String(name string) string { return p[name] }

// Harmonic returns H_n = 1 + 1/2 + ... + 1/n.
func Harmonic(n int) float64 {
	h := 0.0
	for k := n; k >= 1; k-- {
		h += 1 / float64(k)
	}
	return h
}

// TreePorts names a state field that marks tree ports (Algorithm.TreePorts).
// With Value set, the field is a slice indexed by port, and port p is in
// the tree when its element is Value (one of StateValues[Field], as GHS's
// edges are "branch"); with Value empty, the field is one port number,
// negative for none (a parent pointer, as echo's father).
type TreePorts struct {
	Field string
	Value string
}

// Faults is a set of fault kinds: what a run injects (package faults) or
// what an algorithm tolerates (Model.Tolerates).
type Faults uint8

// The fault kinds.
const (
	FaultLoss      Faults = 1 << iota // a message is lost
	FaultDup                          // a message is delivered twice
	FaultDelay                        // a message is delayed beyond the model's bound
	FaultPartition                    // the links between two sets of nodes lose every message for a while
	FaultCrash                        // a node stops for good (crash-stop)
)

var faultNames = [...]string{"loss", "dup", "delay", "partition", "crash"}

// FaultNames lists the fault kinds by name, in order.
func FaultNames() []string { return faultNames[:] }

func (f Faults) String() string {
	if f == 0 {
		return "none"
	}
	var b []byte
	for k, name := range faultNames {
		if f&(1<<k) != 0 {
			if len(b) > 0 {
				b = append(b, ',')
			}
			b = append(b, name...)
		}
	}
	return string(b)
}
