package check

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/topology"
)

// Open executions (seed 001 §5.4.1, Burns' lower bound, after [AW04,
// §3.3.3]). An open execution of a ring algorithm is a finite execution
// on a ring in which no message is delivered across one edge, the open
// edge: its nodes cannot tell the ring from a line of them inside a larger
// ring, which is what lets the proof paste two of them into one of twice
// the size. The bound is on the messages sent, those sent onto the open
// edge included (they leave; they are never delivered): for a
// deterministic uniform algorithm in which every node learns the smallest
// (or the largest) ID, some open execution on n nodes sends at least T(n)
// messages, T(2) = 1, T(n) = 2T(n/2) + n/4 - 2.
//
// The search is the checker's, on a model whose open edge's links deliver
// nothing (model.open): a step is the delivery of the oldest message of a
// link that is not open, or an initiator's wake-up. Messages sent can only
// grow along an execution, so the most messages over open executions are
// the most over the maximal ones, the executions that go on until only
// the open edge holds messages: what the search's extremes give. A state
// where messages wait on the open edge and nothing else can happen is the
// end of an open execution, not of a run, and is not judged as one (an
// end with nothing on the open edge is a true end and is); every other
// property is kept at every step, as an open execution is the prefix of
// a run. A cycle is an open execution without end: it sends messages
// without bound (the search reports non-termination).
//
// The partial-order reduction holds as in the package doc with the open
// links left out of "every incoming link that can carry a message": no
// step ever takes a message from them, so a node with a message on each of
// its other incoming links has every delivery it will have before another
// node's step.
//
// Every node is an initiator and wakes first, as in every check: the
// proof's executions are of that kind (each half's first steps are its
// wake-ups, and a node's wake-up commutes with every step of another node,
// so the wake-ups of σ2 move in front of σ1's deliveries without changing
// anything), and delivery is FIFO (an execution of FIFO links is one of
// any links).

// OpenOptions describe a search of the open executions of a line of
// Spec.N nodes: a ring whose edge between node N-1 and node 0 delivers
// nothing.
type OpenOptions struct {
	Spec scenario.Spec // algorithm, N, parameters (IDs from IDs below)
	// IDs are the assignments to search, each of N IDs by node; nil: every
	// assignment of the IDs 1..N (N! of them: the open edge breaks the
	// ring's rotation symmetry, so none is left out).
	IDs       [][]elect.ID
	MaxStates int64 // per assignment; 0: 2 million
	Workers   int   // 0: GOMAXPROCS
	// NoReduction explores every interleaving (to measure the
	// partial-order reduction, or to distrust it).
	NoReduction bool
	// Stop, when closed, ends the search early (Interrupted in the
	// result).
	Stop <-chan struct{}
}

// OpenResult is what a search of open executions found.
type OpenResult struct {
	Algorithm   string
	N           int
	Assignments int   // searched
	Finished    int   // searched to the end (not stopped by the state limit)
	States      int64 // distinct states, summed over the assignments
	// Max is the most messages sent in an open execution, over every
	// assignment finished; MaxIDs the first assignment (in the order
	// searched) that reaches it. LeastMax is the smallest of the
	// assignments' most (how much the adversary's choice of IDs matters),
	// with LeastIDs. All -1 (nil) when no assignment finished.
	Max, LeastMax    int64
	MaxIDs, LeastIDs []elect.ID
	// Violation is the first property broken (in assignment order), with
	// its assignment: PropNonTermination is an open execution without end
	// (unbounded messages); any other is a bug of the algorithm, since an
	// open execution is the start of a run.
	Violation    *election.Violation
	ViolationIDs []elect.ID
	Interrupted  bool
}

// Complete reports whether every assignment was searched to its end and
// no property broke: Max is then the exact most over them.
func (r *OpenResult) Complete() bool {
	return r.Finished == r.Assignments && r.Violation == nil && !r.Interrupted
}

// OpenLine searches the open executions of every assignment opt lists.
func OpenLine(opt OpenOptions) (*OpenResult, error) {
	base, err := openBase(opt.Spec)
	if err != nil {
		return nil, err
	}
	n := base.Graph.N
	assignments := opt.IDs
	if assignments == nil {
		if n > maxEveryAssignment {
			return nil, fmt.Errorf("check: every assignment of 1..%d is too many to list (%d nodes at most); pass the assignments to search", n, maxEveryAssignment)
		}
		assignments = everyAssignment(n)
	}
	for _, ids := range assignments {
		if len(ids) != n {
			return nil, fmt.Errorf("check: an assignment of %d IDs for %d nodes", len(ids), n)
		}
	}
	if opt.MaxStates <= 0 {
		opt.MaxStates = defaultMaxStates
	}
	res := &OpenResult{Algorithm: base.Algorithm.Name, N: n, Assignments: len(assignments), Max: -1, LeastMax: -1}
	jobs := make([]openJob, len(assignments))
	sh := &shared{}
	next := make(chan int, len(jobs))
	for k := range jobs {
		jobs[k].ids = assignments[k]
		next <- k
	}
	close(next)
	finished := make(chan struct{})
	watchers := watch(Options{Stop: opt.Stop}, sh, int64(len(jobs)), time.Time{}, finished)
	workers := opt.Workers
	if workers <= 0 {
		workers = defaultWorkers()
	}
	var wg sync.WaitGroup
	var failed error
	var mu sync.Mutex
	for range workers {
		wg.Go(func() {
			var spare *stateSpace
			for k := range next {
				if sh.stop.Load() {
					continue
				}
				j := &jobs[k]
				cfg, err := openConfig(base, j.ids)
				if err != nil {
					mu.Lock()
					failed = firstErr(failed, err)
					mu.Unlock()
					continue
				}
				spare = j.search(cfg, opt.MaxStates, !opt.NoReduction, spare, sh)
			}
		})
	}
	wg.Wait()
	close(finished)
	watchers.Wait()
	if failed != nil {
		return nil, failed
	}
	res.Interrupted = sh.stop.Load()
	for _, j := range jobs { // in assignment order: the result does not depend on the workers
		res.States += j.states
		if j.violation != nil && res.Violation == nil {
			res.Violation, res.ViolationIDs = j.violation, j.ids
		}
		if !j.done {
			continue
		}
		res.Finished++
		if j.max > res.Max {
			res.Max, res.MaxIDs = j.max, j.ids
		}
		if res.LeastMax < 0 || j.max < res.LeastMax {
			res.LeastMax, res.LeastIDs = j.max, j.ids
		}
	}
	return res, nil
}

// firstErr keeps the first error.
func firstErr(old, err error) error {
	if old != nil {
		return old
	}
	return err
}

// openJob is one assignment's search and what it found.
type openJob struct {
	ids       []elect.ID
	states    int64
	max       int64
	done      bool // searched to the end
	violation *election.Violation
}

// search explores the open executions of cfg (spare: a finished search
// whose memory it reuses) and returns its own search for the next one.
func (j *openJob) search(cfg *election.Config, limit int64, reduce bool, spare *stateSpace, sh *shared) *stateSpace {
	x := newOpenSpace(cfg, limit, spare)
	x.reduce = reduce
	x.shared = sh
	id, err := x.search()
	j.states = x.states
	switch {
	case err == errViolation:
		j.violation = x.violation
	case err == nil:
		hi, _ := x.extremes(id)
		j.max, j.done = hi[x.nq()-2], true
	}
	return x
}

// openBase builds the configuration that spec describes and checks that
// Burns' argument applies to its algorithm: a ring, asynchronous,
// deterministic and uniform (its nodes are not told n).
func openBase(spec scenario.Spec) (*election.Config, error) {
	base, err := scenario.Build(withIDs(spec, "increasing", "fifo"))
	if err != nil {
		return nil, err
	}
	alg := base.Algorithm
	rm := alg.RunModel(base.Params)
	switch {
	case base.Graph.Kind != topology.Ring:
		return nil, fmt.Errorf("check: open executions are on rings; %s runs on %s", alg.Name, base.Graph.Name)
	case !rm.Async:
		return nil, fmt.Errorf("check: Burns' open executions are asynchronous; %s is synchronous", alg.Name)
	case rm.Randomized:
		return nil, fmt.Errorf("check: Burns' argument needs a deterministic algorithm; %s draws random numbers", alg.Name)
	case rm.KnowsN:
		return nil, fmt.Errorf("check: Burns' argument needs a uniform algorithm; %s's nodes are told n", alg.Name)
	}
	if _, ok := alg.New(elect.NodeInfo{ID: 1, Degree: 2, Params: base.Params}).(elect.Snapshotter); !ok {
		return nil, fmt.Errorf("%s's nodes do not implement elect.Snapshotter: the checker needs to copy and compare their states", alg.Name)
	}
	return base, nil
}

// openConfig is base with IDs ids, every node an initiator and FIFO links.
func openConfig(base *election.Config, ids []elect.ID) (*election.Config, error) {
	c := *base
	c.IDs, c.Wake = slices.Clone(ids), nil
	c.Delivery, c.CausalTime = election.FIFO, true
	if err := c.CheckModel(); err != nil {
		return nil, err
	}
	return &c, nil
}

// newOpenSpace is a search of cfg's open executions on the line of its
// nodes: the ring with its edge between node n-1 and node 0 open.
func newOpenSpace(cfg *election.Config, limit int64, spare *stateSpace) *stateSpace {
	x := newStateSpace(cfg, false, limit)
	x.reuseMemory(spare)
	x.reduce = true
	x.openEdges(ringEdge(cfg.Graph, int32(cfg.Graph.N-1)))
	return x
}

// ringEdge returns the links of the ring's edge between node a and node
// a+1 (mod n): a's messages to a+1 (sent on Left, received on Right) and
// a+1's to a (sent on Right, received on Left). On a ring of two nodes
// the edge between 1 and 0 is the other one of the two between them.
func ringEdge(g *topology.Graph, a int32) []int64 {
	b := (a + 1) % int32(g.N)
	return []int64{g.PortIndex(b, elect.Right), g.PortIndex(a, elect.Left)}
}

// openEdges makes links deliver nothing (nil: every link delivers), and
// counts them out of each node's links that can carry messages (the
// partial-order reduction's liveIn).
func (m *model) openEdges(links []int64) {
	n := m.cfg.Graph.N
	if len(m.inLinks) != n+1 {
		m.graphTables()
	}
	m.open = nil
	if links != nil {
		m.open = make([]bool, m.cfg.Graph.Ports())
		for _, k := range links {
			m.open[k] = true
		}
	}
	uni := m.cfg.Algorithm.Model.Topology == elect.UniRing
	live := make([]int, n) // a new slice: another search may hold the old
	for i := range n {
		for key := m.inLinks[i]; key < m.inLinks[i+1]; key++ {
			if m.open != nil && m.open[key] || uni && m.linkPort[key] != elect.Right {
				continue // open, or a link a unidirectional ring never uses
			}
			live[i]++
		}
	}
	m.liveIn = live
}

// waitsOnOpenEdge reports whether a message waits on an open link of s:
// an end of s is then the end of an open execution, not of a run.
func (m *model) waitsOnOpenEdge(s *state) bool {
	if m.open == nil {
		return false
	}
	for k, o := range m.open {
		if o && len(s.links[k]) > 0 {
			return true
		}
	}
	return false
}

// maxEveryAssignment is the largest n whose every assignment OpenLine
// lists (9! = 362,880).
const maxEveryAssignment = 9

// everyAssignment lists every assignment of the IDs 1..n, in the order of
// permute.
func everyAssignment(n int) [][]elect.ID {
	ids := make([]elect.ID, n)
	for i := range ids {
		ids[i] = elect.ID(i + 1)
	}
	var out [][]elect.ID
	permute(ids, 0, func(p []elect.ID) { out = append(out, slices.Clone(p)) })
	return out
}

// OpenExecution is one open execution of a configuration, found again by
// a search: its steps, and the messages they send.
type OpenExecution struct {
	cfg      *election.Config
	edge     int32 // the open edge: between node edge and node edge+1 (mod n)
	steps    []step
	Messages int64
}

// MostOpen searches the open executions of the line with IDs ids (as
// OpenLine does for one assignment) and returns one that sends the most
// messages, or an error when the search does not end within maxStates
// states or a property breaks.
func MostOpen(spec scenario.Spec, ids []elect.ID, maxStates int64) (*OpenExecution, error) {
	base, err := openBase(spec)
	if err != nil {
		return nil, err
	}
	cfg, err := openConfig(base, ids)
	if err != nil {
		return nil, err
	}
	if maxStates <= 0 {
		maxStates = defaultMaxStates
	}
	x := newOpenSpace(cfg, maxStates, nil)
	id, err := x.search()
	switch {
	case err == errViolation:
		return nil, fmt.Errorf("check: %s with IDs %s: an open execution breaks %s", cfg.Algorithm.Name, idsText(ids), x.violation)
	case err != nil:
		return nil, fmt.Errorf("check: %s with IDs %s: the open executions take more than %d states", cfg.Algorithm.Name, idsText(ids), maxStates)
	}
	hi, _ := x.extremes(id)
	total := x.nq() - 2
	return &OpenExecution{cfg: cfg, edge: int32(cfg.Graph.N - 1), steps: x.schedule(total, true), Messages: hi[total]}, nil
}

// keysOf is keysOf for m's states. An open search computes no time (its
// extremes of time are not reported), so states that differ only in
// their depths are one: the messages still to come depend on the
// behaviour alone (HS's line of 8 with IDs 3,7,1,5,8,2,6,4: 34,089
// states, against 85,513 with depths).
func (m *model) keysOf(sumH, sumD stateKey) (behaviour, full stateKey) {
	if m.open != nil {
		sumD = stateKey{}
	}
	return keysOf(sumH, sumD)
}
