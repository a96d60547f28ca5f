// Package scenario turns a textual description of a run (algorithm name, n,
// ID arrangement, topology, timing, delivery, initiators, seed) into a
// validated simulator configuration, and a result into the record that
// `elect run --json` and sweeps print. Every error it returns is the user's
// to fix and says what is allowed.
package scenario

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/topology"
)

// MaxN is the largest network the simulator addresses (node indexes are
// 32-bit).
const MaxN = 1<<31 - 1

// Spec describes one run in the words of the command line.
type Spec struct {
	Algorithm string
	// N is the number of nodes; 0 takes the count of a topology that fixes
	// one (grid:WxH, torus:WxH, file:PATH).
	N          int
	IDs        string // ids.Parse form; "" is random
	Topology   string // topology.Parse form; "" is the algorithm's natural one
	Timing     string // "sync", "async" or "" (the algorithm's own)
	Delivery   string // election.ParseDelivery form; "" follows the timing
	Initiators string // "all", "K" (K random nodes), "nodes:I,J@T,..."; "" is all
	Announce   bool
	Params     map[string]string
	Seed       uint64
	Force      bool // run even when the configuration breaks the model
	MaxEvents  int64
	MaxTime    int64
	Trace      io.Writer
	// TraceLimit is the trace's size limit in bytes (election.Config.TraceLimit;
	// 0: none).
	TraceLimit int64
	// Progress is the simulator's progress report (election.Config.Progress);
	// the other runtimes do not call it.
	Progress func(election.Progress) bool
	// Runtime runs the nodes: "sim" (or ""), the simulator; "reference",
	// the plain reference engine; "goroutines", real goroutines
	// (package live).
	Runtime string
	// Replay, when set, is a recorded execution (a trace) to replay on the
	// reference engine instead of running (reference.Replay).
	Replay io.Reader
	// Catalog is where Algorithm is looked up (nil: catalog.Default()).
	Catalog *catalog.Catalog
	// MemLimit is the memory in bytes a run may be estimated to take
	// before it is refused (0: DefaultMemLimit()).
	MemLimit int64
	// Faults is the fault specification (faults.Parse form; "" is none):
	// messages lost, duplicated or delayed, partitions and crashes, drawn
	// from the seed. Every runtime applies it (docs/faults.md).
	Faults string
	// FaultTick is the wall time of one time unit of a delay fault on the
	// goroutine runtime (live.Options; 0: election.DefaultFaultTick).
	FaultTick time.Duration
	// KeptBytes is memory the caller keeps besides the run itself (the
	// summaries of many trials, say), added to the run's estimate.
	KeptBytes int64
}

// Runtimes lists the values of Spec.Runtime.
var Runtimes = []string{"sim", "reference", "goroutines"}

// Error is a problem with a Spec.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// Build validates s and returns the simulator configuration it describes.
// Configurations that break the algorithm's model are refused with a
// *election.AssumptionError unless s.Force is set.
func Build(s Spec) (*election.Config, error) {
	cat := s.Catalog
	if cat == nil {
		cat = catalog.Default()
	}
	alg, ok := cat.Lookup(s.Algorithm)
	if !ok {
		return nil, errorf("unknown algorithm %q%s; 'elect list' shows them all", s.Algorithm, Suggest(s.Algorithm, cat.Names()))
	}
	if s.N < 0 {
		return nil, errorf("n must be at least 1, got %d", s.N)
	}
	idSpec, err := ids.Parse(s.IDs)
	if err != nil {
		return nil, errorf("%v", err)
	}
	delivery, err := chooseDelivery(alg, s.Timing, s.Delivery)
	if err != nil {
		return nil, err
	}
	switch s.Runtime {
	case "", "sim", "reference":
	case "goroutines":
		if delivery != election.Sync && delivery != election.FIFO {
			return nil, errorf("the goroutine runtime has real timing and FIFO links: use --delivery fifo (or sync for a synchronous algorithm); %s delivery exists only in the simulator", delivery)
		}
	default:
		return nil, errorf("unknown runtime %q%s; use one of %s", s.Runtime, Suggest(s.Runtime, Runtimes), strings.Join(Runtimes, ", "))
	}
	if s.Replay != nil && delivery == election.NewestFirst {
		return nil, errorf("a replay follows its record's order: use --delivery fifo, sync, or random for a record of non-FIFO links")
	}
	var faultSpec *faults.Spec
	if s.Faults != "" {
		if faultSpec, err = faults.Parse(s.Faults); err != nil {
			return nil, errorf("%v", err)
		}
		if s.Replay != nil {
			return nil, errorf("--faults and --replay: a replay follows its record, which already holds the faults; drop --faults")
		}
	}
	params, err := resolveParams(alg, s.Params)
	if err != nil {
		return nil, err
	}
	announce := s.Announce
	switch alg.Model.Announce {
	case elect.NoAnnounce:
		if announce {
			return nil, errorf("%s does not announce the leader; --announce applies to algorithms with optional announcement", alg.Name)
		}
	case elect.AlwaysAnnounce:
		announce = true
	}
	// The node count: s.N, or the topology's when it fixes one and s.N is
	// 0. An edge-list file is read here, once, and its graph built from
	// what was read.
	n := s.N
	var edgeList *topology.EdgeList
	if path, isFile := strings.CutPrefix(s.Topology, "file:"); isFile {
		if edgeList, err = readEdgeList(alg, path, s); err != nil {
			return nil, err
		}
		n = edgeList.N
	} else if k, ok, err := topology.SpecNodes(s.Topology); err != nil {
		return nil, errorf("%v", err) // a malformed grid or torus
	} else if ok {
		if n > 0 && n != k {
			_, err := topology.Parse(s.Topology, n, nil) // the count's mismatch
			return nil, errorf("%v", err)
		}
		n = k
	}
	if n < 1 {
		return nil, errorf("n must be at least 1, got %d", n)
	}
	if n > MaxN {
		return nil, errorf("n = %d is larger than the simulator's limit of %d nodes", n, MaxN)
	}
	if err := idSpec.Check(n); err != nil {
		return nil, errorf("%v", err)
	}
	topoSpec := s.Topology
	if topoSpec == "" {
		topoSpec = naturalTopology(alg.Model)
		if alg.NaturalTopology != nil {
			topoSpec = alg.NaturalTopology(n)
		}
	}
	var fileEdges int64
	if edgeList != nil {
		fileEdges = int64(len(edgeList.Edges))
	}
	if err := checkMemory(alg, params, s, n, topoSpec, fileEdges, announce, delivery); err != nil {
		return nil, err
	}
	var g *topology.Graph
	if edgeList != nil {
		g, err = edgeList.Graph(topoSpec)
	} else {
		g, err = topology.Parse(topoSpec, n, election.Stream(s.Seed, "topology", 0))
	}
	if err != nil {
		var unknown *topology.UnknownError
		if errors.As(err, &unknown) {
			name, _, _ := strings.Cut(unknown.Spec, ":")
			if near := Nearest(name, topology.Names); near != "" {
				return nil, errorf("topology: unknown topology %q (did you mean %q?); use %s", unknown.Spec, near, topology.Usage)
			}
		}
		return nil, errorf("%v", err)
	}
	idList, err := idSpec.Generate(g.N, election.Stream(s.Seed, "ids", 0))
	if err != nil {
		return nil, errorf("%v", err)
	}
	wake, err := ParseInitiators(s.Initiators, g.N, s.Seed)
	if err != nil {
		return nil, err
	}
	cfg := &election.Config{
		Algorithm: alg, Graph: g, IDs: idList, Delivery: delivery, Wake: wake,
		Announce: announce, Params: params, Seed: s.Seed,
		MaxEvents: s.MaxEvents, MaxTime: s.MaxTime, Trace: s.Trace, TraceLimit: s.TraceLimit, Progress: s.Progress,
		DetectSymmetry: idSpec.Kind == ids.Anonymous && delivery == election.Sync,
		Faults:         faultSpec,
	}
	if faultSpec != nil {
		if err := cfg.CheckConfig(delivery.Unit()); err != nil {
			return nil, errorf("%v", err)
		}
	}
	if alg.CheckRun != nil {
		if err := alg.CheckRun(cfg.BoundContext()); err != nil {
			return nil, errorf("%s: %v", alg.Name, err)
		}
	}
	checkModel := cfg.CheckModel
	if idSpec.Distinct(g.N) {
		checkModel = cfg.CheckModelOfDistinctIDs
	}
	if err := checkModel(); err != nil {
		if !s.Force {
			return nil, err
		}
		if s.MaxEvents == 0 || s.MaxEvents == election.DefaultMaxEvents {
			cfg.MaxEvents = ForcedEventLimit(alg, cfg.BoundContext())
		}
	}
	if faultSpec != nil && (s.MaxEvents == 0 || s.MaxEvents == election.DefaultMaxEvents) {
		// Under faults an algorithm may wait or loop for ever (Bully's
		// waiting node asks a coordinator whose announcement was lost,
		// again and again): the forced runs' limit.
		// The bounds of a run without faults set the limit.
		c := cfg.BoundContext()
		c.Faults = 0
		cfg.MaxEvents = ForcedEventLimit(alg, c)
	}
	return cfg, nil
}

// ForcedEventLimit is the event limit of a forced run off its model when
// none is given: off its model an algorithm may loop forever (Chang-Roberts
// on a grid forwards IDs round the cycles), and the default limit would
// take minutes to reach. It is 100 times the declared message bound plus
// n (wake-ups), or 1000n without a bound, and at least 10^6.
func ForcedEventLimit(alg *elect.Algorithm, c elect.BoundContext) int64 {
	limit := 1000 * float64(c.N)
	if b, ok := MessageBound(alg, c); ok {
		limit = 100 * (b + float64(c.N))
	}
	return int64(max(1e6, min(limit, float64(election.DefaultMaxEvents))))
}

// naturalTopology is the topology an algorithm runs on when none is named.
func naturalTopology(m elect.Model) string {
	if m.Topology == elect.Complete && m.SenseOfDirection {
		return "complete:chordal"
	}
	if m.Topology == elect.Complete {
		return "complete"
	}
	if m.Topology == elect.General && m.SenseOfDirection {
		return "hypercube"
	}
	return "ring"
}

// chooseDelivery resolves --timing and --delivery against each other and the
// algorithm: sync timing is the sync delivery; async defaults to fifo; with
// neither, an algorithm that runs asynchronously gets fifo, else sync.
func chooseDelivery(alg *elect.Algorithm, timing, delivery string) (election.Delivery, error) {
	switch timing {
	case "", "sync", "async":
	default:
		return 0, errorf("unknown timing %q; use sync or async", timing)
	}
	if delivery != "" {
		d, err := election.ParseDelivery(delivery)
		if err != nil {
			return 0, errorf("unknown delivery model %q%s; use one of %s", delivery, Suggest(delivery, strings.Split(election.DeliveryNames(), ", ")), election.DeliveryNames())
		}
		if timing == "sync" && d != election.Sync {
			return 0, errorf("--timing sync needs --delivery sync, not %s", d)
		}
		if timing == "async" && d == election.Sync {
			return 0, errorf("--timing async needs an asynchronous delivery model, not sync; use one of fifo, random, random-fifo, newest-first")
		}
		return d, nil
	}
	switch timing {
	case "sync":
		return election.Sync, nil
	case "async":
		return election.FIFO, nil
	}
	if alg.Model.Async {
		return election.FIFO, nil
	}
	return election.Sync, nil
}

// resolveParams checks the given parameters against the algorithm's
// declaration and fills in defaults.
func resolveParams(alg *elect.Algorithm, given map[string]string) (elect.Params, error) {
	out := elect.Params{}
	for _, p := range alg.Params {
		out[p.Name] = p.Default
	}
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if _, ok := out[k]; !ok {
			declared := make([]string, len(alg.Params))
			for i, p := range alg.Params {
				declared[i] = "--" + p.Name
			}
			allowed := "it takes no parameters"
			if len(declared) > 0 {
				allowed = "it takes " + strings.Join(declared, ", ")
			}
			return nil, errorf("%s has no parameter --%s; %s", alg.Name, k, allowed)
		}
		out[k] = given[k]
	}
	for _, p := range alg.Params {
		if p.Check != nil {
			if err := p.Check(out[p.Name]); err != nil {
				return nil, errorf("--%s: %v", p.Name, err)
			}
		}
	}
	return out, nil
}

// ParseInitiators reads an initiator specification for n nodes: "all" (or
// ""), "K" (K distinct nodes chosen at random with the run's seed), or
// "nodes:I,J,..." with optional wake-up times "I@T". The result is nil for
// all nodes at time 0, otherwise sorted by node index.
func ParseInitiators(spec string, n int, seed uint64) ([]election.Wake, error) {
	const usage = "use all, K (K random initiators), or nodes:I,J,... with optional wake-up times I@T"
	switch {
	case spec == "" || spec == "all":
		return nil, nil
	case strings.HasPrefix(spec, "nodes:"):
		var wake []election.Wake
		seen := make(map[int]bool)
		for _, f := range strings.Split(strings.TrimPrefix(spec, "nodes:"), ",") {
			node, at, hasAt := strings.Cut(strings.TrimSpace(f), "@")
			i, err := strconv.Atoi(node)
			if err != nil || i < 0 || i >= n {
				return nil, errorf("initiator %q is not a node index in 0..%d; %s", node, n-1, usage)
			}
			if seen[i] {
				return nil, errorf("initiator %d is listed twice", i)
			}
			seen[i] = true
			w := election.Wake{Node: i}
			if hasAt {
				t, err := strconv.ParseInt(at, 10, 64)
				if err != nil || t < 0 || t > 1<<40 {
					return nil, errorf("wake-up time %q of node %d is not an integer in 0..%d", at, i, int64(1<<40))
				}
				w.At = t
			}
			wake = append(wake, w)
		}
		slices.SortFunc(wake, func(a, b election.Wake) int { return a.Node - b.Node })
		return wake, nil
	}
	k, err := strconv.Atoi(spec)
	if err != nil {
		return nil, errorf("unknown initiators %q; %s", spec, usage)
	}
	if k < 1 || k > n {
		return nil, errorf("%d initiators asked for, but there must be 1..n = 1..%d", k, n)
	}
	rng := election.Stream(seed, "initiators", 0)
	perm := rng.Perm(n)[:k]
	slices.Sort(perm)
	wake := make([]election.Wake, k)
	for i, node := range perm {
		wake[i] = election.Wake{Node: node}
	}
	return wake, nil
}

// IsUserError reports whether err is a problem with the input (as opposed to
// a failure of the machine, such as an unwritable file).
func IsUserError(err error) bool {
	var se *Error
	var ae *election.AssumptionError
	return errors.As(err, &se) || errors.As(err, &ae)
}
