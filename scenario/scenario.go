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
//
// The description is read into its parts in one pass (parse), its memory
// is checked in one call before anything is allocated, then the graph, the
// IDs and the initiators are made and the whole configuration is checked
// against the algorithm's model.
func Build(s Spec) (*election.Config, error) {
	d, err := parse(s)
	if err != nil {
		return nil, err
	}
	queueBytes, err := checkMemory(d.alg, d.params, s, d.n, d.topology, d.fileEdges(), d.announce, d.delivery)
	if err != nil {
		return nil, err
	}
	cfg, err := d.assemble()
	if err != nil {
		return nil, err
	}
	cfg.MaxQueueBytes = queueBytes
	if err := d.checkRun(cfg); err != nil {
		return nil, err
	}
	d.setEventLimit(cfg)
	return cfg, nil
}

// description is a Spec read into its parts: what parse resolved, before
// anything of the run is allocated.
type description struct {
	spec     Spec
	alg      *elect.Algorithm
	ids      ids.Spec
	delivery election.Delivery
	faults   *faults.Spec // nil: none
	params   elect.Params
	announce bool
	// n is the node count: Spec.N, or the one the topology fixes.
	n int
	// topology is the topology specification, the algorithm's natural one
	// when the Spec names none.
	topology string
	// edgeList is the graph of a file:PATH topology, read once (nil for
	// the others).
	edgeList *topology.EdgeList
	// forced is set when the configuration breaks the model and
	// Spec.Force lets it run.
	forced bool
}

// parse reads s into its parts, in the order its errors are reported: the
// algorithm, the IDs, the timing and delivery (with the runtime), the
// faults, the parameters, the announcement, then the node count and the
// topology.
func parse(s Spec) (*description, error) {
	d := &description{spec: s}
	for _, step := range []func() error{
		d.parseAlgorithm, d.parseIDs, d.parseDelivery, d.parseFaults,
		d.parseParams, d.parseAnnounce, d.parseTopology,
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// parseAlgorithm looks the algorithm up in the Spec's catalog.
func (d *description) parseAlgorithm() error {
	cat := d.spec.Catalog
	if cat == nil {
		cat = catalog.Default()
	}
	alg, ok := cat.Lookup(d.spec.Algorithm)
	if !ok {
		return errorf("unknown algorithm %q%s; 'elect list' shows them all", d.spec.Algorithm, Suggest(d.spec.Algorithm, cat.Names()))
	}
	d.alg = alg
	return nil
}

// parseIDs reads the ID arrangement (checked against n once n is known).
func (d *description) parseIDs() error {
	if d.spec.N < 0 {
		return errorf("n must be at least 1, got %d", d.spec.N)
	}
	idSpec, err := ids.Parse(d.spec.IDs)
	if err != nil {
		return errorf("%v", err)
	}
	d.ids = idSpec
	return nil
}

// parseDelivery resolves the timing and the delivery model, and checks
// them against the runtime and a replay.
func (d *description) parseDelivery() error {
	delivery, err := chooseDelivery(d.alg, d.spec.Timing, d.spec.Delivery)
	if err != nil {
		return err
	}
	switch d.spec.Runtime {
	case "", "sim", "reference":
	case "goroutines":
		if delivery != election.Sync && delivery != election.FIFO {
			return errorf("the goroutine runtime has real timing and FIFO links: use --delivery fifo (or sync for a synchronous algorithm); %s delivery exists only in the simulator", delivery)
		}
	default:
		return errorf("unknown runtime %q%s; use one of %s", d.spec.Runtime, Suggest(d.spec.Runtime, Runtimes), strings.Join(Runtimes, ", "))
	}
	if d.spec.Replay != nil && delivery == election.NewestFirst {
		return errorf("a replay follows its record's order: use --delivery fifo, sync, or random for a record of non-FIFO links")
	}
	d.delivery = delivery
	return nil
}

// parseFaults reads the fault specification, which a replay cannot take.
func (d *description) parseFaults() error {
	if d.spec.Faults == "" {
		return nil
	}
	faultSpec, err := faults.Parse(d.spec.Faults)
	if err != nil {
		return errorf("%v", err)
	}
	if d.spec.Replay != nil {
		return errorf("--faults and --replay: a replay follows its record, which already holds the faults; drop --faults")
	}
	d.faults = faultSpec
	return nil
}

// parseParams checks the algorithm's parameters and fills in defaults.
func (d *description) parseParams() error {
	params, err := resolveParams(d.alg, d.spec.Params)
	d.params = params
	return err
}

// parseAnnounce resolves --announce against what the algorithm declares.
func (d *description) parseAnnounce() error {
	d.announce = d.spec.Announce
	switch d.alg.Model.Announce {
	case elect.NoAnnounce:
		if d.announce {
			return errorf("%s does not announce the leader; --announce applies to algorithms with optional announcement", d.alg.Name)
		}
	case elect.AlwaysAnnounce:
		d.announce = true
	}
	return nil
}

// parseTopology resolves the node count (Spec.N, or the topology's when it
// fixes one and Spec.N is 0) and the topology specification. An edge-list
// file is read here, once, and its graph is later built from what was read.
func (d *description) parseTopology() error {
	s := d.spec
	n := s.N
	if path, isFile := strings.CutPrefix(s.Topology, "file:"); isFile {
		edgeList, err := readEdgeList(d.alg, path, s)
		if err != nil {
			return err
		}
		d.edgeList, n = edgeList, edgeList.N
	} else if k, ok, err := topology.SpecNodes(s.Topology); err != nil {
		return errorf("%v", err) // a malformed grid or torus
	} else if ok {
		if n > 0 && n != k {
			_, err := topology.Parse(s.Topology, n, nil) // the count's mismatch
			return errorf("%v", err)
		}
		n = k
	}
	if n < 1 {
		return errorf("n must be at least 1, got %d", n)
	}
	if n > MaxN {
		return errorf("n = %d is larger than the simulator's limit of %d nodes", n, MaxN)
	}
	if err := d.ids.Check(n); err != nil {
		return errorf("%v", err)
	}
	d.n, d.topology = n, s.Topology
	if d.topology == "" {
		d.topology = naturalTopology(d.alg.Model)
		if d.alg.NaturalTopology != nil {
			d.topology = d.alg.NaturalTopology(n)
		}
	}
	return nil
}

// fileEdges is the number of edges of an edge-list file topology (0 for the
// others).
func (d *description) fileEdges() int64 {
	if d.edgeList == nil {
		return 0
	}
	return int64(len(d.edgeList.Edges))
}

// assemble makes the run's graph, IDs and initiators, and the configuration
// that holds them.
func (d *description) assemble() (*election.Config, error) {
	s := d.spec
	g, err := d.graph()
	if err != nil {
		return nil, err
	}
	idList, err := d.ids.Generate(g.N, election.Stream(s.Seed, "ids", 0))
	if err != nil {
		return nil, errorf("%v", err)
	}
	wake, err := ParseInitiators(s.Initiators, g.N, s.Seed)
	if err != nil {
		return nil, err
	}
	return &election.Config{
		Algorithm: d.alg, Graph: g, IDs: idList, Delivery: d.delivery, Wake: wake,
		Announce: d.announce, Params: d.params, Seed: s.Seed,
		MaxEvents: s.MaxEvents, MaxTime: s.MaxTime, Trace: s.Trace, TraceLimit: s.TraceLimit, Progress: s.Progress,
		DetectSymmetry: d.ids.Kind == ids.Anonymous && d.delivery == election.Sync,
		Faults:         d.faults,
	}, nil
}

// graph builds the topology: from the edge list read by parseTopology, or
// from its specification with the seed's topology stream.
func (d *description) graph() (*topology.Graph, error) {
	var g *topology.Graph
	var err error
	if d.edgeList != nil {
		g, err = d.edgeList.Graph(d.topology)
	} else {
		g, err = topology.Parse(d.topology, d.n, election.Stream(d.spec.Seed, "topology", 0))
	}
	if err == nil {
		return g, nil
	}
	var unknown *topology.UnknownError
	if errors.As(err, &unknown) {
		name, _, _ := strings.Cut(unknown.Spec, ":")
		if near := Nearest(name, topology.Names); near != "" {
			return nil, errorf("topology: unknown topology %q (did you mean %q?); use %s", unknown.Spec, near, topology.Usage)
		}
	}
	return nil, errorf("%v", err)
}

// checkRun checks the configuration as a whole: the fault timings against
// the delivery's time unit, the algorithm's own check of the run, and its
// model (which Spec.Force overrides, marking the description forced).
func (d *description) checkRun(cfg *election.Config) error {
	if d.faults != nil {
		if err := cfg.CheckConfig(d.delivery.Unit()); err != nil {
			return errorf("%v", err)
		}
	}
	if d.alg.CheckRun != nil {
		if err := d.alg.CheckRun(cfg.BoundContext()); err != nil {
			return errorf("%s: %v", d.alg.Name, err)
		}
	}
	checkModel := cfg.CheckModel
	if d.ids.Distinct(cfg.Graph.N) {
		checkModel = cfg.CheckModelOfDistinctIDs
	}
	if err := checkModel(); err != nil {
		if !d.spec.Force {
			return err
		}
		d.forced = true
	}
	return nil
}

// setEventLimit gives a run without an event limit of its own one that
// its bounds make sure it reaches soon: a forced run off its model may
// loop forever, and so may a run under faults (Bully's waiting node asks a
// coordinator whose announcement was lost, again and again); the bounds of
// the run without faults set the limit (ForcedEventLimit).
func (d *description) setEventLimit(cfg *election.Config) {
	if d.spec.MaxEvents != 0 && d.spec.MaxEvents != election.DefaultMaxEvents {
		return
	}
	switch {
	case d.faults != nil:
		c := cfg.BoundContext()
		c.Faults = 0
		cfg.MaxEvents = ForcedEventLimit(d.alg, c)
	case d.forced:
		cfg.MaxEvents = ForcedEventLimit(d.alg, cfg.BoundContext())
	}
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
