package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/experiment"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/internal/cmdio"
	"github.com/electkit/elect/internal/format"
	"github.com/electkit/elect/runner"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/trace"
)

func init() {
	register(command{name: "run", summary: "run one election (or --trials K) and check it", run: runCommand})
}

const runUsage = `usage: elect run ALGORITHM [flags]

Runs ALGORITHM (see 'elect list') on a simulated network, monitors the
election at every step, and checks the result against the algorithm's
promises and proven bounds. The same flags and seed give the same run, byte
for byte.

examples:
  elect run lcr --n 1024
  elect run lcr --n 1024 --ids decreasing --announce
  elect run chang-roberts --n 8 --initiators 2 --delivery random --json
  elect run lcr --n 8 --ids 3,7,1,0,6,2,5,4 --trace trace.jsonl
  elect run hs --n 100 --runtime goroutines --trace order.jsonl
  elect run hs --n 100 --replay order.jsonl      (the same execution, replayed)

Runtimes (--runtime): sim, the deterministic simulator (the default);
reference, the plain reference engine that checks it; goroutines, the nodes
on real goroutines under the Go scheduler, with FIFO links and real timing
(time is then the causal depth), or a round barrier for synchronous
algorithms. --trace records what happened, in the order it happened; --replay
FILE replays such a record on the reference engine with the same flags, and
gives the same counts and decisions.

With --faults (a list of clauses joined with ';', as below), messages are lost,
duplicated or delayed, links partitioned and nodes crashed on a schedule
drawn from the seed; the report names the faults, the first one (the cause)
and a verdict: survived, expected-failure (the algorithm does not declare
that it tolerates the fault, and failed), or violation (it declares it does,
and failed; the outcome is then violation).

Exit status: 0 when every run elected as promised and every check held;
1 when not (the output says what failed); 2 for bad input; 4 when every run
that failed failed under a fault its algorithm does not tolerate (an
expected failure).

flags:
`

// runFlags are the flags of elect run, shared with other commands that
// describe runs.
type runFlags struct {
	cat        *catalog.Catalog
	n          int
	idsSpec    string
	seed       uint64
	timing     string
	delivery   string
	initiators string
	topology   string
	announce   bool
	force      bool
	trace      string
	traceLimit int64
	view       bool
	runtime    string
	replay     string
	faults     string
	json       bool
	trials     int
	maxEvents  int64
	maxTime    int64
	timeLimit  time.Duration
	memLimit   int64
	params     map[string]*string
}

func (f *runFlags) register(fs *flag.FlagSet, cat *catalog.Catalog) {
	f.cat = cat
	sizeVar(fs, &f.n, "n", 16, "number of nodes, as 1000, 1e3 or 2^10 (omit it with --topology grid:WxH, torus:WxH or file:PATH to take theirs)")
	fs.StringVar(&f.idsSpec, "ids", "random", "ID arrangement: "+ids.Usage)
	fs.Uint64Var(&f.seed, "seed", 1, "master seed: IDs, initiators, delays and node randomness all derive from it")
	fs.StringVar(&f.timing, "timing", "", "sync or async (default: async if the algorithm supports it)")
	fs.StringVar(&f.delivery, "delivery", "", "delivery model: "+election.DeliveryNames()+" (default: sync for --timing sync, else fifo)")
	fs.StringVar(&f.initiators, "initiators", "all", "who wakes spontaneously: all, K (K random nodes), nodes:I,J@T,... (T: wake-up time)")
	fs.StringVar(&f.topology, "topology", "", "network: "+topology.Usage+" (default: the algorithm's own)")
	fs.BoolVar(&f.announce, "announce", false, "announce the leader to every node (algorithms with optional announcement)")
	fs.BoolVar(&f.force, "force", false, "run even if the configuration breaks the algorithm's model, to watch it fail")
	fs.StringVar(&f.trace, "trace", "", "write every event as a JSON line to this file, as the run goes (a new file: one that holds anything is refused, never replaced)")
	bytesVar(fs, &f.traceLimit, "trace-limit", election.DefaultTraceLimit, "stop writing the trace at this size, with a last line that says so: bytes, or 500KB, 100MB, 2GB (0: no limit)")
	fs.BoolVar(&f.view, "view", false, "run with a trace (--trace, or a temporary file) and open it in 'elect view'")
	fs.StringVar(&f.runtime, "runtime", "sim", "what runs the nodes: "+strings.Join(scenario.Runtimes, ", "))
	fs.StringVar(&f.replay, "replay", "", "replay the execution recorded in this trace file (from --trace, with the same flags) instead of running")
	fs.StringVar(&f.faults, "faults", "", "inject faults, drawn from the seed (every runtime: docs/faults.md): "+faults.Usage)
	fs.BoolVar(&f.json, "json", false, "print one JSON object per run instead of the report")
	fs.IntVar(&f.trials, "trials", 1, "number of runs; trial t uses seed+t")
	fs.Int64Var(&f.maxEvents, "max-events", election.DefaultMaxEvents, "stop a run after this many events (outcome step-limit)")
	fs.Int64Var(&f.maxTime, "max-time", 0, "stop a run at this time, in rounds or time units (the causal depth on --runtime goroutines; 0: no limit; outcome step-limit)")
	fs.DurationVar(&f.timeLimit, "time-limit", 0, "stop a run after this much wall-clock time, as 30s or 5m, and report what it reached (outcome stopped; 0: no limit)")
	memLimitVar(fs, &f.memLimit)
	f.params = registerParams(fs, cat)
}

// registerParams defines a flag for every algorithm parameter of cat.
func registerParams(fs *flag.FlagSet, cat *catalog.Catalog) map[string]*string {
	params := map[string]*string{}
	for _, a := range cat.All() {
		for _, p := range a.Params {
			if params[p.Name] == nil {
				params[p.Name] = fs.String(p.Name, "", fmt.Sprintf("%s (%s)", p.Help, usersOf(cat, p.Name)))
			}
		}
	}
	return params
}

// usersOf names the algorithms that take parameter name.
func usersOf(cat *catalog.Catalog, name string) string {
	var users []string
	for _, a := range cat.All() {
		for _, p := range a.Params {
			if p.Name == name {
				users = append(users, fmt.Sprintf("%s, default %s", a.Name, p.Default))
			}
		}
	}
	return strings.Join(users, "; ")
}

// spec turns the parsed flags into a scenario for one algorithm and trial.
func (f *runFlags) spec(fs *flag.FlagSet, algorithm string, trial int) scenario.Spec {
	s := scenario.Spec{
		Catalog:   f.cat,
		Algorithm: algorithm, N: f.n, IDs: f.idsSpec, Topology: f.topology,
		Timing: f.timing, Delivery: f.delivery, Initiators: f.initiators,
		Announce: f.announce, Seed: f.seed + uint64(trial), Force: f.force,
		MaxEvents: f.maxEvents, MaxTime: f.maxTime, Params: map[string]string{},
		Runtime: f.runtime, MemLimit: f.memLimit, Faults: f.faults,
	}
	if !f.json && f.trials > 1 {
		s.KeptBytes = int64(f.trials) * trialBytes
	}
	setParamsAndN(fs, f.params, &s)
	return s
}

// setParamsAndN copies into s the algorithm parameters given on the command
// line and, when --n was not given, sets s.N to 0 for a topology that fixes
// the node count (grid:WxH, torus:WxH, file:PATH), so that scenario.Build
// takes that count from the topology (an edge-list file is then read once,
// by Build).
func setParamsAndN(fs *flag.FlagSet, params map[string]*string, s *scenario.Spec) {
	nGiven := false
	fs.Visit(func(fl *flag.Flag) {
		if v, ok := params[fl.Name]; ok {
			s.Params[fl.Name] = *v
		}
		nGiven = nGiven || fl.Name == "n"
	})
	if !nGiven && scenario.FixesNodes(s.Topology) {
		s.N = 0
	}
}

func runCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", runUsage)
	var f runFlags
	f.register(fs, cat)
	name, err := parseOne(fs, args, stdout, "run takes one algorithm name (got %d); 'elect list' shows them")
	if err != nil {
		return err
	}
	if err := f.check(); err != nil {
		return err
	}
	// Everything is validated before the trace file is made, so that bad
	// input leaves no file behind.
	first, firstCfg, closeReplay, err := f.buildFirst(fs, name)
	if err != nil {
		return err
	}
	defer closeReplay()
	if f.view && f.trace == "" {
		dir, err := os.MkdirTemp("", "elect-view-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		f.trace = filepath.Join(dir, "trace.jsonl")
	}
	var traceFile *cmdio.Stream
	if f.trace != "" {
		if traceFile, err = createStream("run: --trace", f.trace, ""); err != nil {
			return err
		}
		defer traceFile.Discard()
	}
	t := runTrials{f: &f, first: first, firstCfg: firstCfg, stdout: stdout, stderr: stderr}
	if traceFile != nil {
		t.trace = traceFile
	}
	if err := t.run(); err != nil {
		return err
	}
	if traceFile != nil {
		if err := traceFile.Close(); err != nil {
			return err
		}
	}
	if t.summary != nil {
		t.summary.print(stdout)
	}
	if t.stopped {
		fmt.Fprintf(stderr, "elect: run %s after %d of %d trials%s\n", stoppedBy(), t.ran, f.trials, traceNote(f.trace))
		return errInterrupted
	}
	if f.view {
		return viewAfterRun(f.trace, stdout, stderr)
	}
	if t.failed {
		return errFailed
	}
	if t.expected {
		return errExpectedFailure
	}
	return nil
}

// buildFirst builds the configuration of the first trial once: here,
// where it validates the input, and kept for the run. With --replay it
// opens the record (closeReplay closes it) and compares its header with
// the flags.
func (f *runFlags) buildFirst(fs *flag.FlagSet, name string) (first scenario.Spec, cfg *election.Config, closeReplay func(), err error) {
	first, closeReplay = f.spec(fs, name, 0), func() {}
	if f.replay != "" {
		replay, err := os.Open(f.replay)
		if err != nil {
			return first, nil, closeReplay, usagef("cannot read the record to replay: %v", err)
		}
		first.Replay, closeReplay = replay, func() { replay.Close() }
	}
	if cfg, err = scenario.Build(first); err != nil {
		return first, nil, closeReplay, inputError(err)
	}
	if replay, ok := first.Replay.(*os.File); ok {
		if err := compareReplay(replay, f.replay, cfg); err != nil {
			return first, nil, closeReplay, err
		}
	}
	return first, cfg, closeReplay, nil
}

// check refuses, before anything is built, flags that do not go together
// or are out of range, and outputs that are the same file as an input.
func (f *runFlags) check() error {
	switch {
	case f.trials < 1:
		return usagef("--trials must be at least 1, got %d", f.trials)
	case f.trace != "" && f.trials > 1:
		return usagef("--trace writes one run; use it with --trials 1")
	case f.replay != "" && f.trials > 1:
		return usagef("--replay replays one run; use it with --trials 1")
	case f.replay != "" && f.runtime != "sim":
		return usagef("--replay runs on the reference engine; drop --runtime %s", f.runtime)
	case f.view && f.trials > 1:
		return usagef("--view shows one run; use it with --trials 1")
	case f.maxEvents < 1:
		return usagef("--max-events must be at least 1, got %d", f.maxEvents)
	case f.maxTime < 0:
		return usagef("--max-time must not be negative, got %d", f.maxTime)
	case f.timeLimit < 0:
		return usagef("--time-limit must not be negative, got %v (0: no limit)", f.timeLimit)
	}
	var inputs []cmdio.Path
	if file, ok := strings.CutPrefix(f.topology, "file:"); ok {
		inputs = append(inputs, input("--topology file:", file))
	}
	return declareFiles("run", append(inputs, input("--replay", f.replay)), output("--trace", f.trace))
}

// traceNote says, after a stop, where the trace of what ran is.
func traceNote(path string) string {
	if path == "" {
		return ""
	}
	return "; the trace of what ran is in " + path
}

// runTrials runs the trials of elect run and keeps what its report needs.
type runTrials struct {
	f              *runFlags
	first          scenario.Spec
	firstCfg       *election.Config
	trace          io.Writer
	stdout, stderr io.Writer
	summary        *trialSummary // --trials K without --json
	ran            int
	failed         bool
	expected       bool
	stopped        bool // a signal stopped the trials
}

func (t *runTrials) run() error {
	f := t.f
	if !f.json && f.trials > 1 {
		t.summary = &trialSummary{}
	}
	enc := json.NewEncoder(t.stdout)
	enc.SetEscapeHTML(false)
	// A signal stops the running trial at its next progress report (the
	// simulator and the goroutines runtime make them; the reference
	// engine's replay and others are ended by the signal at once) and
	// reports it with the trials that ended.
	watching := f.replay == "" && (f.runtime == "sim" || f.runtime == "goroutines")
	stop := context.Background()
	if watching {
		stop = cmdio.Watch()
	}
	for trial := range f.trials {
		if stop.Err() != nil {
			break
		}
		t.ran++
		s, cfg := t.first, t.firstCfg
		if trial > 0 {
			s.Seed = f.seed + uint64(trial)
			var err error
			if cfg, err = scenario.Build(s); err != nil {
				return inputError(err)
			}
		}
		if t.trace != nil {
			cfg.Trace, cfg.TraceLimit = t.trace, f.traceLimit
		}
		var bar *progressBar
		if !f.json && f.trials == 1 {
			bar = runProgressBar(t.stderr, s, cfg)
		}
		cfg.Progress = runProgress(bar, f.timeLimit, cfg.MaxEvents, stop) // a forced run's limit included
		rec, err := runner.RunBuilt(s, cfg)
		bar.finish()
		if err != nil {
			return inputError(err)
		}
		if err := t.report(rec, enc); err != nil {
			return err
		}
	}
	t.stopped = stop.Err() != nil
	return nil
}

// report writes one trial's record (or adds it to the summary) and notes
// its outcome.
func (t *runTrials) report(rec *scenario.Record, enc *json.Encoder) error {
	if rec.TraceTruncated {
		fmt.Fprintf(t.stderr, "elect: the trace reached --trace-limit (%d bytes); it stops there, with a \"truncated\" line\n", t.f.traceLimit)
	}
	switch {
	case rec.Succeeded():
	case rec.ExpectedFailure():
		t.expected = true
	default:
		t.failed = true
	}
	switch {
	case t.f.json:
		if err := encodeRecord(enc, t.stdout, rec); err != nil {
			return err
		}
	case t.f.trials == 1:
		printRecord(t.stdout, t.f.cat, rec)
	}
	if t.summary != nil {
		t.summary.add(rec)
	}
	return nil
}

// inputError maps a scenario error to a usage error (exit 2) when it is the
// user's to fix.
func inputError(err error) error {
	if scenario.IsUserError(err) {
		return usagef("%v", err)
	}
	return err
}

// printRecord writes the report of one run for a person.
func printRecord(w io.Writer, cat *catalog.Catalog, r *scenario.Record) {
	init := "all nodes initiate"
	if r.Initiators < r.N {
		init = fmt.Sprintf("%d initiators", r.Initiators)
	}
	fmt.Fprintf(w, "%s on %s, n = %d, ids %s, %s delivery, %s, seed %d\n",
		r.Algorithm, r.Topology, r.N, r.IDs, r.Delivery, init, r.Seed)
	switch r.Runtime {
	case "goroutines":
		fmt.Fprintf(w, "runtime   goroutines under the Go scheduler; wall time %s\n", format.Number(r.WallSeconds, 3)+" s")
	case "reference":
		fmt.Fprintln(w, "runtime   the reference engine")
	case "replay":
		fmt.Fprintln(w, "runtime   a recorded execution, replayed on the reference engine")
	case "tcp":
		fmt.Fprintf(w, "runtime   tcp, one process per node, mutual TLS; wall time %s\n", format.Number(r.WallSeconds, 3)+" s")
	}
	switch {
	case r.Leaders >= 1:
		fmt.Fprintf(w, "outcome   %s: node %d (ID %d)", r.Outcome, r.LeaderIndex, r.LeaderID)
		if r.Leaders > 1 {
			fmt.Fprintf(w, " and %d more", r.Leaders-1)
		}
		fmt.Fprintln(w)
	default:
		fmt.Fprintf(w, "outcome   %s\n", r.Outcome)
	}
	if r.Violation != "" {
		fmt.Fprintf(w, "violation %s\n", r.Violation)
	}
	if f := r.Result.Faults; f != nil {
		fmt.Fprintf(w, "faults    %s: injected %s (lost %d, duplicated %d, delayed %d, crashed %d%s); %s tolerates %s\n",
			r.Faults, f.Injected, f.Lost, f.Duplicated, f.Delayed, len(f.Crashed), crashedList(f.Crashed), r.Algorithm, f.Tolerated)
		if f.Cause != "" {
			fmt.Fprintf(w, "cause     %s\n", f.Cause)
		}
		if f.Undecided > 0 && f.Verdict != election.VerdictSurvived && f.Verdict != election.VerdictNone {
			fmt.Fprintf(w, "waiting   %d nodes that did not crash never decided\n", f.Undecided)
		}
		fmt.Fprintf(w, "verdict   %s\n", f.Verdict)
	}
	if r.Outcome == election.MemoryLimit {
		fmt.Fprintln(w, "memory    stopped at --mem-limit: its messages in flight (duplicates and late ones included) outgrew the memory the limit leaves them; the figures are those the run had reached")
	}
	if r.Outcome == election.Stopped {
		fmt.Fprintln(w, "stopped   at --time-limit: the figures are those the run had reached; its checks are of a run cut short")
	}
	if r.ForcedEventLimit > 0 && r.Events >= r.ForcedEventLimit {
		fmt.Fprintf(w, "stuck     stopped after %d events, the limit of a forced run (100 times its message bound, at least 10^6): off its model it may never end; --max-events sets another limit\n", r.ForcedEventLimit)
	}
	if r.Outcome == election.Symmetric {
		fmt.Fprintf(w, "          every node was in the same state after every round up to round %d: an anonymous\n", r.SymmetricRound)
		fmt.Fprintln(w, "          deterministic ring cannot break symmetry (seed 001, Lemma 5.1.1; seed 003, impossibility theorem)")
	}
	alg, _ := cat.Lookup(r.Algorithm)
	var parts []string
	for _, m := range alg.Messages {
		parts = append(parts, fmt.Sprintf("%s %d", m.Name, r.MessagesByType[m.Name]))
	}
	fmt.Fprintf(w, "messages  %d (%s); at most %d sent by one node\n", r.Messages, strings.Join(parts, ", "), r.MaxNodeMessages)
	fmt.Fprintf(w, "bits      %d\n", r.Bits)
	unit := "time units"
	if r.Timing == "sync" {
		unit = "rounds"
	}
	if r.Delivery == election.NewestFirst.String() || r.Timing != "sync" && (r.Runtime == "goroutines" || r.Runtime == "replay" || r.Runtime == "tcp") {
		unit = "(causal depth)"
	}
	fmt.Fprintf(w, "time      %s %s\n", format.Number(r.Time, 6), unit)
	fmt.Fprintf(w, "informed  all nodes know the leader: %v\n", r.AllKnowLeader)
	if r.Transport != nil {
		printTransport(w, r.Transport)
	}
	fmt.Fprintln(w, "checks")
	width := 0
	for _, c := range r.Checks {
		width = max(width, len(c.Name))
	}
	for _, c := range r.Checks {
		verdict := "ok  "
		if !c.Holds {
			verdict = "FAIL"
		}
		fmt.Fprintf(w, "  %s  %-*s  %s %s %s\n", verdict, width, c.Name, format.Number(c.Actual, 6), c.Relation, format.Number(c.Expected, 6))
	}
}

// printTransport writes the run report of a runtime with real timing.
func printTransport(w io.Writer, t *election.Transport) {
	fmt.Fprintf(w, "rate      %s messages/s over %s s\n", format.Number(math.Round(t.MessagesPerSecond), 4), format.Number(t.WallSeconds, 3))
	l := t.LinkMessages
	var busiest []string
	for _, b := range t.Busiest {
		if b.Messages > 0 {
			busiest = append(busiest, fmt.Sprintf("%d->%d %d", b.From, b.To, b.Messages))
		}
	}
	fmt.Fprintf(w, "links     %d directed; messages per link min %d, median %d, mean %s, max %d", t.Links, l.Min, l.Median, format.Number(l.Mean, 4), l.Max)
	if len(busiest) > 0 {
		fmt.Fprintf(w, "; busiest %s", strings.Join(busiest, ", "))
	}
	fmt.Fprintln(w)
	lat := t.Latency
	fmt.Fprintf(w, "latency   p50 <= %s, p99 <= %s, max %s over %d deliveries (hand-over to receipt)\n",
		seconds(lat.P50), seconds(lat.P99), seconds(lat.Max), lat.Count)
	if t.ElectionSeconds > 0 {
		fmt.Fprintf(w, "election  %s messages/s over %s s, from the first message sent to the last received\n", format.Number(math.Round(t.ElectionMessagesPerSecond), 4), format.Number(t.ElectionSeconds, 3))
	}
	if p, a := t.NodePeakBytes, t.NodeAnonBytes; p != nil && a != nil {
		fmt.Fprintf(w, "memory    node processes peaked at %s (median; %s to %s, VmHWM, the program's shared pages included), %s their own (%s to %s)\n",
			scenario.BytesString(p.Median), scenario.BytesString(p.Min), scenario.BytesString(p.Max), scenario.BytesString(a.Median), scenario.BytesString(a.Min), scenario.BytesString(a.Max))
	}
	if t.MaxInbox > 0 || t.Overflows > 0 {
		fmt.Fprintf(w, "inboxes   at most %d messages in one; %d overflows to break cycles of waiting nodes\n", t.MaxInbox, t.Overflows)
	}
}

// seconds writes a duration in seconds with a unit for people: 33 µs,
// 1.2 ms, 2.5 s.
func seconds(s float64) string {
	switch {
	case s == 0:
		return "0"
	case s < 1e-6:
		return format.Number(s*1e9, 3) + " ns"
	case s < 1e-3:
		return format.Number(s*1e6, 3) + " µs"
	case s < 1:
		return format.Number(s*1e3, 3) + " ms"
	}
	return format.Number(s, 3) + " s"
}

// crashedList names the crashed nodes, up to 8 of them.
func crashedList(nodes []int32) string {
	if len(nodes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(": node")
	if len(nodes) > 1 {
		b.WriteString("s")
	}
	for k, i := range nodes {
		if k == 8 {
			b.WriteString(", ...")
			break
		}
		if k > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %d", i)
	}
	return b.String()
}

// trialBytes is what a trialSummary keeps per trial: four measures.
const trialBytes = 4 * 8

// trialSummary gathers many runs of one configuration as they end, keeping
// per trial only the measures it summarises (trialBytes), so that many
// trials take little memory.
type trialSummary struct {
	first, last                    *scenario.Record
	count                          int
	messages, bits, times, leaders []float64
	outcomes                       map[election.Outcome]int
	failedChecks                   map[string]int
	checkNames                     []string
	several                        int // trials with two or more leaders
}

func (s *trialSummary) add(r *scenario.Record) {
	if s.first == nil {
		s.first = r
		s.outcomes = map[election.Outcome]int{}
		s.failedChecks = map[string]int{}
	}
	s.last = r
	s.count++
	s.outcomes[r.Outcome]++
	for _, c := range r.Checks {
		if !c.Holds {
			if s.failedChecks[c.Name] == 0 {
				s.checkNames = append(s.checkNames, c.Name)
			}
			s.failedChecks[c.Name]++
		}
	}
	s.messages = append(s.messages, float64(r.Messages))
	s.bits = append(s.bits, float64(r.Bits))
	s.times = append(s.times, r.Time)
	s.leaders = append(s.leaders, float64(r.Leaders))
	if r.Leaders >= 2 {
		s.several++
	}
}

// print summarises the runs.
func (s *trialSummary) print(w io.Writer) {
	r0 := s.first
	if r0 == nil {
		return
	}
	fmt.Fprintf(w, "%s on %s, n = %d, ids %s, %s delivery, %d trials (seeds %d..%d)\n",
		r0.Algorithm, r0.Topology, r0.N, r0.IDs, r0.Delivery, s.count, r0.Seed, s.last.Seed)
	var names []string
	for o := range s.outcomes {
		names = append(names, string(o))
	}
	slices.Sort(names)
	fmt.Fprint(w, "outcomes ")
	for _, o := range names {
		k := s.outcomes[election.Outcome(o)]
		fmt.Fprintf(w, " %s %d (%.4g%%)", o, k, 100*float64(k)/float64(s.count))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-10s %14s %14s %14s %14s\n", "", "mean", "std dev", "min", "max")
	summary := func(name string, xs []float64) {
		st := experiment.Summarize(xs, 0, experiment.Growth{})
		fmt.Fprintf(w, "%-10s %14s %14s %14s %14s\n", name, format.Number(st.Mean, 6), format.Number(st.SD, 6), format.Number(st.Min, 6), format.Number(st.Max, 6))
	}
	summary("messages", s.messages)
	summary("bits", s.bits)
	summary("time", s.times)
	summary("leaders", s.leaders)
	// Two or more leaders, whatever the outcome's name (multiple-leaders, or
	// symmetric when every node elected itself): the estimate a randomized
	// algorithm's failure probability needs, with its binomial standard error.
	if s.several > 0 {
		p := float64(s.several) / float64(s.count)
		fmt.Fprintf(w, "%-10s %d of %d trials elected two or more nodes: p = %.4g ± %.2g (standard error)\n",
			"leaders", s.several, s.count, p, math.Sqrt(p*(1-p)/float64(s.count)))
	}
	if len(s.checkNames) == 0 {
		fmt.Fprintln(w, "checks     all held in every trial")
	}
	for _, c := range s.checkNames {
		fmt.Fprintf(w, "checks     FAIL in %d trials: %s\n", s.failedChecks[c], c)
	}
}

// compareReplay refuses to replay a record whose run differs from the
// command line's in what the replay cannot follow: the IDs, the
// parameters, the announcement, and for a randomized algorithm the seed
// (its nodes' draws). It reads the record's header and leaves the file at
// its start; a record without a header (version 1), or one the replay
// will refuse anyway, is left to the replay, but one whose first line is
// not a trace is refused here (a pipe cannot be read twice).
func compareReplay(record *os.File, name string, cfg *election.Config) error {
	defer record.Seek(0, io.SeekStart)
	rd, err := trace.NewNamedReader(record, name)
	if err != nil {
		return usagef("replay: %v", err)
	}
	if rd.Header() == nil || rd.Header().Population() {
		return nil
	}
	h := rd.Header()
	if h.Algorithm != cfg.Algorithm.Name || h.N != cfg.Graph.N {
		return nil // the replay says so
	}
	var diffs []string
	if cfg.Algorithm.Model.Randomized && h.Seed != cfg.Seed {
		diffs = append(diffs, fmt.Sprintf("its seed is %d, this command's %d (--seed %d)", h.Seed, cfg.Seed, h.Seed))
	}
	if len(h.IDs) == len(cfg.IDs) {
		for i, id := range h.IDs {
			if id != int64(cfg.IDs[i]) {
				list := make([]string, len(h.IDs))
				for k, x := range h.IDs {
					list[k] = strconv.FormatInt(x, 10)
				}
				hint := "--ids " + strings.Join(list, ",")
				if len(hint) > 80 {
					hint = hint[:strings.LastIndexByte(hint[:76], ',')] + ",..."
				}
				diffs = append(diffs, fmt.Sprintf("its node %d has ID %d, this command's %d (%s)", i, id, cfg.IDs[i], hint))
				break
			}
		}
	}
	keys := map[string]bool{}
	for k := range h.Params {
		keys[k] = true
	}
	for k := range cfg.Params {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if h.Params[k] != cfg.Params[k] {
			diffs = append(diffs, fmt.Sprintf("its --%s is %s, this command's %s", k, orNone(h.Params[k]), orNone(cfg.Params[k])))
		}
	}
	if h.Announce != cfg.Announce {
		diffs = append(diffs, fmt.Sprintf("its --announce is %v, this command's %v", h.Announce, cfg.Announce))
	}
	if len(diffs) > 0 {
		return usagef("--replay %s was made with other flags: %s; replay it with the flags it was made with", name, strings.Join(diffs, "; "))
	}
	return nil
}

func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

// encodeRecord writes rec as enc (on w, without HTML escaping) encodes
// it, but a run report's per-link counts (Transport.WriteJSON) written as
// they go rather than built in the encoder's buffer first: at n = 1000 on
// goroutines (2000 links) that buffer grew to 128 KB, 262 KB allocated.
// The report is the record's last member.
func encodeRecord(enc *json.Encoder, w io.Writer, rec *scenario.Record) error {
	if rec.Result == nil || rec.Transport == nil || len(rec.Transport.PerLink) == 0 {
		return enc.Encode(rec)
	}
	res := *rec.Result
	res.Transport = nil
	short := *rec
	short.Result = &res
	var head bytes.Buffer
	e := json.NewEncoder(&head)
	e.SetEscapeHTML(false)
	if err := e.Encode(&short); err != nil {
		return err
	}
	if !bytes.HasSuffix(head.Bytes(), []byte("}\n")) {
		return enc.Encode(rec)
	}
	bw := bufio.NewWriter(w)
	bw.Write(head.Bytes()[:head.Len()-2])
	bw.WriteString(`,"transport":`)
	if err := rec.Transport.WriteJSON(bw); err != nil {
		return err
	}
	bw.WriteString("}\n")
	return bw.Flush()
}
