// Package election holds what every runtime of the toolkit shares: the
// description of one run (Config), its result (Result, Outcome, Check), the
// properties a run can break and their violations (Property, Violation),
// each declared once, the delivery models (Delivery), the Monitor that
// checks the election at every step and turns a run's end into a Result,
// the trace writer (Tracer) and the random streams every runtime derives
// from a run's seed (Stream).
//
// The runtimes (the fast simulator in package sim, the reference engine in
// package reference, the goroutine runtime in live, the TCP cluster in
// cluster, and the exhaustive checker in check) import this package and never
// each other; only the places that choose an engine (scenario, experiment,
// the command) know them all.
//
// The files: config.go (a run's description and result), property.go
// (the table of properties, Violation), delivery.go, model.go (the
// algorithm's declared assumptions against a Config), monitor.go,
// trace.go, stream.go.
package election

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/electkit/elect"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/topology"
)

// DefaultMaxEvents is the event limit of a run when none is given.
const DefaultMaxEvents = 10_000_000_000

// Config is one run: an algorithm on a network with IDs, a delivery model,
// the wake-up schedule, and a master seed.
type Config struct {
	Algorithm *elect.Algorithm
	Graph     *topology.Graph
	IDs       []elect.ID // by node index
	Delivery  Delivery
	// Wake lists the initiators and their spontaneous wake-up times (rounds
	// or time units); nil means every node wakes at time 0.
	Wake     []Wake
	Announce bool
	Params   elect.Params
	Seed     uint64
	// MaxEvents stops the run with outcome step-limit (0: DefaultMaxEvents).
	MaxEvents int64
	// MaxTime stops the run with outcome step-limit when the next event is
	// later than this many rounds or time units (0: no limit).
	MaxTime int64
	// DetectSymmetry makes a synchronous run check after every round whether
	// all nodes are in the same state (elect.Snapshotter), and stop with
	// outcome symmetric if they all elect themselves or the run ends so.
	DetectSymmetry bool
	// Trace, when not nil, receives one JSON line per event (Tracer).
	Trace io.Writer
	// TraceLimit stops the trace, with a last "truncated" line, before it
	// grows beyond this many bytes (0: no limit; DefaultTraceLimit is the
	// commands' default).
	TraceLimit int64
	// CausalTime says that the run's time is its causal depth (the longest
	// chain of messages each caused by the previous one), as under
	// newest-first delivery: runtimes with real timing (goroutines, TCP)
	// and replays of their records set it, so that bounds stated in time
	// units under unit delays are not applied to it.
	CausalTime bool
	// Faults, when set, is the run's fault specification (--faults): the
	// messages lost, duplicated or delayed and the nodes that crash, drawn
	// from Seed (FaultSchedule). nil: reliable links and no crash.
	Faults *faults.Spec
	// MaxQueueBytes is the memory the run's queues of messages may hold
	// at once: the arrays of the messages in flight, duplicated and
	// delayed ones included, as the runtime allocates them. A run whose
	// queues would grow beyond it stops with outcome memory-limit, its
	// figures those it had reached (0: no limit). The simulator checks it
	// only when a queue's array grows, the reference engine when its queue
	// grows, the goroutine runtime when its count of pending inputs does.
	MaxQueueBytes int64
	// Progress, when set, is called every ProgressEvents events with how
	// far the run is (for a progress bar); returning false stops the run
	// with outcome stopped. It does not change the run otherwise.
	Progress func(Progress) bool
}

// Progress is what a run reports to Config.Progress.
type Progress struct {
	Events   int64
	Messages int64
	// Time is the simulated time reached, in rounds or time units.
	Time float64
}

// ProgressEvents is how many events a run handles between two calls of
// Config.Progress: about a hundredth of a second of the simulator's work.
const ProgressEvents = 1 << 20

// Wake is one initiator: node index Node wakes spontaneously at time At.
type Wake struct {
	Node int
	At   int64
}

// Outcome is how a run ended: of an election on any runtime, or of a
// population protocol (package pp uses these).
type Outcome string

// The outcomes, each declared here once.
const (
	OutcomeElected   Outcome = "elected"           // exactly one leader, every promise held
	NoLeader         Outcome = nameNoLeader        // the run ended with no leader
	MultipleLeaders  Outcome = nameMultipleLeaders // two or more nodes were elected
	Symmetric        Outcome = "symmetric"         // an anonymous run stayed symmetric
	StepLimit        Outcome = "step-limit"        // a configured limit stopped the run
	MemoryLimit      Outcome = "memory-limit"      // the messages held in flight reached Config.MaxQueueBytes
	Stopped          Outcome = "stopped"           // Config.Progress stopped the run (an interrupt, a wall-clock limit)
	OutcomeViolation Outcome = "violation"         // a promised property failed (see Violation)
	// OutcomeFault: a run of the TCP cluster could not finish, a node was
	// lost (Violation says which and why).
	OutcomeFault Outcome = "fault"
	// OutcomeGoalReached: a population protocol that elects no leader
	// reached its goal.
	OutcomeGoalReached Outcome = "goal-reached"
)

// Succeeded reports whether a run with outcome o ended as its algorithm or
// protocol promises: elected, or the goal of a protocol that elects no
// leader.
func (o Outcome) Succeeded() bool { return o == OutcomeElected || o == OutcomeGoalReached }

// Property returns the property that a run with outcome o broke, for the
// outcomes that are one (no-leader, multiple-leaders); PropNone otherwise.
func (o Outcome) Property() Property {
	switch o {
	case NoLeader:
		return PropNoLeader
	case MultipleLeaders:
		return PropMultipleLeaders
	}
	return PropNone
}

// Check is one verified property: a declared bound or a monitor property.
type Check struct {
	Name     string  `json:"name"`
	Relation string  `json:"relation"`
	Expected float64 `json:"expected"`
	Actual   float64 `json:"actual"`
	Holds    bool    `json:"holds"`
}

// Result is what a run produced.
type Result struct {
	Outcome Outcome `json:"outcome"`
	// Violation is the text of Broken ("name: detail"), or for outcome
	// fault what was lost.
	Violation string `json:"violation,omitempty"`
	// Broken is the property the run broke, as a value, set with
	// SetViolation by whatever finished the run (a record read back from
	// JSON has only the text).
	Broken Violation `json:"-"`
	// LeaderIndex and LeaderID identify the leader (the first elected node
	// when there are several; -1 when none).
	LeaderIndex    int              `json:"leader_index"`
	LeaderID       elect.ID         `json:"leader_id"`
	Leaders        int              `json:"leaders"`
	Messages       int64            `json:"messages"`
	MessagesByType map[string]int64 `json:"messages_by_type"`
	Bits           int64            `json:"bits"`
	// Time is the time of the last event: rounds in the synchronous model,
	// time units (largest delay = 1) in the asynchronous ones.
	Time            float64 `json:"time"`
	AllKnowLeader   bool    `json:"all_know_leader"`
	MaxNodeMessages int64   `json:"max_node_messages"`
	Events          int64   `json:"events"`
	// SymmetricRound is the round after which a symmetric run was stopped.
	SymmetricRound int64   `json:"symmetric_round,omitempty"`
	Checks         []Check `json:"checks"`
	// Faults reports, for a run with Config.Faults, what was injected and
	// the verdict (FaultReport).
	Faults *FaultReport `json:"faults,omitempty"`
	// TraceTruncated says that the trace reached Config.TraceLimit.
	TraceTruncated bool `json:"trace_truncated,omitempty"`
	// Transport is what a runtime with real timing (goroutines, TCP)
	// measured of its links; nil for the simulators.
	Transport *Transport `json:"transport,omitempty"`

	// TypeCounts counts messages by MsgType.
	TypeCounts []int64 `json:"-"`
}

// SetViolation sets the property r broke, and its text.
func (r *Result) SetViolation(v Violation) {
	r.Broken, r.Violation = v, v.String()
}

// PanicMessage describes a panic of node i's code with value p, as every
// engine reports it in a violation of PropPanic.
func PanicMessage(i int32, p any) string {
	return fmt.Sprintf("node %d panicked: %v", i, p)
}

// CheckConfig returns an error for a Config no engine can run: no
// algorithm or graph, IDs that do not match the nodes, or wake-ups out of
// range (unit is the number of ticks per time unit).
func (cfg *Config) CheckConfig(unit int64) error {
	if cfg.Algorithm == nil || cfg.Graph == nil {
		return fmt.Errorf("election: config needs an algorithm and a graph")
	}
	if len(cfg.IDs) != cfg.Graph.N {
		return fmt.Errorf("election: %d IDs for %d nodes", len(cfg.IDs), cfg.Graph.N)
	}
	if cfg.Delivery > NewestFirst {
		return fmt.Errorf("election: unknown delivery model %d", cfg.Delivery)
	}
	if cfg.Faults != nil {
		if err := cfg.Faults.Check(cfg.Graph.N); err != nil {
			return err
		}
		if cfg.Delivery == NewestFirst && cfg.Faults.Timed() {
			return fmt.Errorf("faults: %s speaks of time, which messages do not have under newest-first delivery; use crash:node=I@step=S, loss, dup, or another delivery model", cfg.Faults)
		}
	}
	for _, w := range cfg.Wake {
		if w.Node < 0 || w.Node >= cfg.Graph.N || w.At < 0 || w.At > maxInt64/unit {
			return fmt.Errorf("election: wake-up of node %d at %d is out of range", w.Node, w.At)
		}
	}
	return nil
}

// FaultSchedule draws the run's fault schedule from Config.Faults and the
// run's seed (streams "faults-crash", "faults-loss", ... of Stream); nil
// when the run has no faults. Every engine makes its own, so that each has
// the same schedule.
func (cfg *Config) FaultSchedule() (*faults.Schedule, error) {
	if cfg.Faults == nil {
		return nil, nil
	}
	return cfg.Faults.Schedule(cfg.Graph.N, func(purpose string, index uint64) *rand.Rand {
		return Stream(cfg.Seed, purpose, index)
	})
}

// Unit is the number of ticks in one round or time unit under d: one, or
// under random delays the delay granularity (a delay is 1..Unit ticks).
func (d Delivery) Unit() int64 {
	if d == Random || d == RandomFIFO {
		return RandomDelayTicks
	}
	return 1
}

// NodeInfos returns the function that gives node i's NodeInfo in a run of
// cfg: its ID, degree, n when the model says nodes know it, the run's
// announcement flag and parameters, and its ports' weights when the model
// is Weighted (see PortWeights for the rule).
func (cfg *Config) NodeInfos() func(i int) elect.NodeInfo {
	g := cfg.Graph
	base := elect.NodeInfo{Announce: cfg.Announce, Params: cfg.Params}
	if g.N > 0 {
		base.Degree = g.Degree(0)
	}
	if cfg.Algorithm.Model.KnowsN {
		base.N = g.N
	}
	regular := g.Kind != topology.General
	weights := cfg.PortWeights()
	knowsIDs := cfg.Algorithm.Model.KnowsIDs
	return func(i int) elect.NodeInfo {
		info := base
		info.ID = cfg.IDs[i]
		if !regular {
			info.Degree = g.Degree(i)
		}
		if weights != nil {
			info.Weights = weights(i)
		}
		if knowsIDs {
			info.PortID = func(p elect.Port) elect.ID {
				j, _ := g.Neighbor(int32(i), p)
				return cfg.IDs[j]
			}
		}
		return info
	}
}

// PortWeights returns, for an algorithm whose model is Weighted, the
// function that gives node i's port weights; nil for other algorithms. The
// rule, the same on every runtime:
//
//   - on a graph with weights of its own (an edge list with a weight
//     column, which are distinct and finite), an edge's Weight is its
//     weight, encoded so that comparing Weights compares the numbers
//     exactly (the IEEE 754 bits with the sign folded, see floatKey);
//   - otherwise an edge's Weight orders it by the pair (smaller endpoint
//     ID, larger endpoint ID) lexicographically: it is r(a)*n + r(b), where
//     a < b are the endpoint IDs and r is an ID's rank among the run's
//     IDs. Distinct IDs and a simple graph (no self-loop, no double link)
//     make these distinct, exactly (n <= 2^31, so r(a)*n + r(b) < 2^62).
//
// General graphs get slices of one array of all ports; rings and complete
// graphs a new slice per node.
func (cfg *Config) PortWeights() func(i int) []elect.Weight {
	g := cfg.Graph
	if !cfg.Algorithm.Model.Weighted || g.N == 0 {
		return nil
	}
	weight := func(i int32, p elect.Port) elect.Weight { return floatKey(g.Weight(i, p)) }
	if !g.Weighted() {
		sorted := append([]elect.ID(nil), cfg.IDs...)
		slices.Sort(sorted)
		rank := make([]int64, g.N)
		for i, id := range cfg.IDs {
			r, _ := slices.BinarySearch(sorted, id)
			rank[i] = int64(r)
		}
		n := int64(g.N)
		weight = func(i int32, p elect.Port) elect.Weight {
			j, _ := g.Neighbor(i, p)
			a, b := rank[i], rank[j]
			return elect.Weight(min(a, b)*n + max(a, b))
		}
	}
	if g.Kind != topology.General {
		return func(i int) []elect.Weight {
			w := make([]elect.Weight, g.Degree(i))
			for p := range w {
				w[p] = weight(int32(i), elect.Port(p))
			}
			return w
		}
	}
	all := make([]elect.Weight, g.Ports())
	for i := range int32(g.N) {
		for p := range elect.Port(g.Degree(int(i))) {
			all[g.PortIndex(i, p)] = weight(i, p)
		}
	}
	return func(i int) []elect.Weight {
		k := g.PortIndex(int32(i), 0)
		d := int64(g.Degree(i))
		return all[k : k+d : k+d]
	}
}

// floatKey encodes a finite float64 as an int64 with the same order: the
// sign bit is folded so that negative numbers' bits count down.
func floatKey(w float64) elect.Weight {
	b := math.Float64bits(w + 0) // + 0 makes -0 into +0
	if b>>63 == 1 {
		b = ^b
	} else {
		b |= 1 << 63
	}
	return elect.Weight(int64(b ^ 1<<63))
}

const maxInt64 = 1<<63 - 1

// Route returns where a message that node i sends on port p arrives: the
// receiver and the port it arrives on. A send the model forbids (a port
// the node does not have, or counterclockwise on a unidirectional ring)
// gives ok == false; RouteViolation says why. Every engine and runtime
// routes sends with it.
func (cfg *Config) Route(i int32, p elect.Port) (to int32, q elect.Port, ok bool) {
	g := cfg.Graph
	if p < 0 || int(p) >= g.Degree(int(i)) || g.Kind == topology.Ring && p == elect.Right && cfg.Algorithm.Model.Topology == elect.UniRing {
		return 0, 0, false
	}
	to, q = g.Neighbor(i, p)
	return to, q, true
}

// RouteViolation returns the violation of node i's send on port p that
// Route refuses, for the monitor (Monitor.Report).
func (cfg *Config) RouteViolation(i int32, p elect.Port) Violation {
	if cfg.Graph.Kind == topology.Ring && p == elect.Right {
		return NewViolation(PropAgainstDirection, fmt.Sprintf("node %d sent counterclockwise on a unidirectional ring", i), i)
	}
	return NewViolation(PropBadPort, fmt.Sprintf("node %d sent on port %d, which it does not have", i, p), i)
}
