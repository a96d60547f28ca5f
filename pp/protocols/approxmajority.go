package protocols

import (
	"math"

	"github.com/electkit/elect/pp"
)

// ApproxMajority is the 3-state approximate majority protocol of Angluin,
// Aspnes and Eisenstat ("A simple population protocol for fast robust
// approximate majority", Distributed Computing 21, 2008), the benchmark of
// ppsim (Doty and Severson). States: opinion A, opinion B, blank U. The
// initiator acts on the responder:
//
//	A,B -> A,U    B,A -> B,U    (an opinion blanks the other opinion)
//	A,U -> A,A    B,U -> B,B    (an opinion recruits a blank)
//
// every other pair is null. Initially a agents hold A and n-a hold B. The
// goal is consensus on A (every agent holds A); it is not a leader-election
// protocol, so no agent outputs L (a run that reaches its goal ends as
// "goal-reached"; one that reaches consensus on B stays silent until its
// step limit).
type ApproxMajority struct {
	n, a int64
	// FractionA, when set, is the fraction of A that the catalog's
	// --fraction-a asked for; the details report it.
	FractionA float64
}

// The states of ApproxMajority.
const (
	AMBlank uint8 = 0
	AMA     uint8 = 1
	AMB     uint8 = 2
)

// NewApproxMajority returns the protocol for n agents, a of which start with
// opinion A.
func NewApproxMajority(n, a int64) *ApproxMajority { return &ApproxMajority{n: n, a: a} }

// Spec: goal count = agents holding A, target n.
func (p *ApproxMajority) Spec() pp.Spec {
	nn := float64(p.n)
	lim := int64(math.MaxInt64)
	if nn < 1e15 {
		lim = int64(200*nn*(math.Log(nn)+1)) + 1000
	}
	return pp.Spec{Name: "approx-majority", Goal: pp.GoalCount, Target: p.n, StateSpace: 3, DefaultMaxSteps: lim, NoElection: true}
}

// Init: agents 0..a-1 hold A, the others B.
func (p *ApproxMajority) Init(i int) uint8 {
	if int64(i) < p.a {
		return AMA
	}
	return AMB
}

// Census: a agents hold A and n-a hold B.
func (p *ApproxMajority) Census(n int64) []pp.StateCount[uint8] {
	return []pp.StateCount[uint8]{{State: AMA, Count: p.a}, {State: AMB, Count: n - p.a}}
}

// Interact applies the initiator's opinion to the responder.
func (p *ApproxMajority) Interact(x, y *uint8) pp.Delta {
	a, b := *x, *y
	if a == AMBlank || a == b {
		return pp.Delta{}
	}
	var d pp.Delta
	if b == AMBlank {
		*y = a
		if a == AMA {
			d.Goal = 1
		}
		return d
	}
	*y = AMBlank // opposite opinions
	if b == AMA {
		d.Goal = -1
	}
	return d
}

// IsLeader: no agent outputs L.
func (p *ApproxMajority) IsLeader(uint8) bool { return false }

// InGoal: the agent holds A.
func (p *ApproxMajority) InGoal(s uint8) bool { return s == AMA }

// Index is the state.
func (p *ApproxMajority) Index(s uint8) uint64 { return uint64(s) }

// Finish records the number of agents holding A and B (agent array).
func (p *ApproxMajority) Finish(states []uint8, r *pp.Result) {
	var c [3]int64
	for _, s := range states {
		c[s]++
	}
	p.finish(c, r)
}

func (p *ApproxMajority) finish(c [3]int64, r *pp.Result) {
	if p.FractionA > 0 {
		r.Add("fraction_a", p.FractionA)
	}
	r.Add("holding_a", c[AMA])
	r.Add("holding_b", c[AMB])
}

// FinishCounts records the same figures on the count-based engines.
func (p *ApproxMajority) FinishCounts(counts []pp.StateCount[uint8], r *pp.Result) {
	var c [3]int64
	for _, sc := range counts {
		c[sc.State] += sc.Count
	}
	p.finish(c, r)
}

// Counter is a benchmark and test protocol whose states count interactions:
// at every interaction the initiator's counter increases by one, modulo K
// (K = 0: no modulus, the counter is exact). With K = 8 or 128 it is the
// k-state workload of the batched-engine benchmarks (every pair is
// non-null); with K = 0 the sum of all counters is exactly the number of
// interactions performed, which TestBatchedExecutesExactlyTheInteractionsItReports
// checks. The goal (a counter reaching Target) is never used by the tests:
// runs end at their step limit.
type Counter struct {
	K uint32
	// Spread starts the agents spread evenly over the K counter values (the
	// stationary law of the counters), so that benchmarks measure the steady
	// state from step 0; otherwise every agent starts at 0.
	Spread bool
}

// Spec: goal count never reached (target above n), no leaders.
func (p *Counter) Spec() pp.Spec {
	return pp.Spec{Name: "counter", Goal: pp.GoalCount, Target: math.MaxInt64, DefaultMaxSteps: math.MaxInt64}
}

// Init: counter 0.
func (p *Counter) Init(int) uint32 { return 0 }

// Census: every agent at 0, or spread evenly over 0..K-1.
func (p *Counter) Census(n int64) []pp.StateCount[uint32] {
	if !p.Spread || p.K == 0 {
		return []pp.StateCount[uint32]{{State: 0, Count: n}}
	}
	out := make([]pp.StateCount[uint32], p.K)
	for v := range out {
		out[v] = pp.StateCount[uint32]{State: uint32(v), Count: n / int64(p.K)}
		if int64(v) < n%int64(p.K) {
			out[v].Count++
		}
	}
	return out
}

// Interact increments the initiator's counter (mod K).
func (p *Counter) Interact(x, y *uint32) pp.Delta {
	*x++
	if p.K > 0 && *x == p.K {
		*x = 0
	}
	return pp.Delta{}
}

// IsLeader: no leaders.
func (p *Counter) IsLeader(uint32) bool { return false }

// Index is the counter.
func (p *Counter) Index(s uint32) uint64 { return uint64(s) }

// StateName names the three states for traces: A, B and blank (output F:
// the protocol elects no leader).
func (p *ApproxMajority) StateName(s uint8) (name, output string) {
	switch s {
	case AMA:
		return "A", "F"
	case AMB:
		return "B", "F"
	}
	return "blank", "F"
}
