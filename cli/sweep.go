package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"unsafe"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/experiment"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/internal/atomicfile"
	"github.com/electkit/elect/internal/cmdio"
	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/protocols"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/topology"
)

func init() {
	register(command{name: "sweep", summary: "run a grid of algorithms x sizes x configurations x trials in parallel", run: sweepCommand})
}

const sweepUsage = `usage: elect sweep ALGORITHM[,ALGORITHM...] [flags]

Runs every combination of the algorithms (message passing, see 'elect list',
or population protocols, see 'elect pp list'; pp:NAME forces the latter),
sizes, ID arrangements, delivery models, initiator sets and parameter values,
each --trials times, on --workers cores, and prints one JSON line per run:
exactly the record 'elect run --json' (or 'elect pp --json') prints for that
run. Every list flag takes comma-separated values.

Trial t of every configuration runs with seed S+t (message passing, as
'elect run --trials') or pp.TrialSeed(S, t) (population protocols, as
'elect pp --trials'); lines come out in grid order (algorithm, n, ids,
delivery, initiators, parameters, trial), so the output does not depend on
--workers. --shard i/k runs every k-th run starting at the i-th; 'elect merge'
interleaves the k outputs back into the full sweep's output.

examples:
  elect sweep lcr,hs,peterson --n 64..4096x2 --trials 20 --summary
  elect sweep chang-roberts --n 256 --ids increasing,decreasing,random --trials 50 --out cr.jsonl
  elect sweep epidemic-term --n 1000..10000+1000 --m 4 --trials 100 --csv fig1.csv
  elect sweep hs --n 1024..65536x2 --trials 10 --shard 3/8 > shard-3.jsonl
  elect sweep hs --n 1024..65536x2 --trials 10 --shards 8 --render kubernetes > job.yaml

A progress bar with the time left is shown on standard error when it is a
terminal. Each line is in --out's file as soon as its run ends, so a sweep
stopped by a signal (Ctrl-C, SIGTERM, SIGHUP: it exits 130, 143, 129) or
killed keeps every finished run; --resume FILE runs the others. --out
refuses a file that exists (elect never replaces what it is not
continuing): --resume it, remove it, or name another file.
Exit status: 0 when every run elected as promised, 1 when not, 2 for bad
input, 4 when every run that failed did so under a --faults fault its
algorithm does not tolerate (an expected failure).

flags:
`

// sweepFlags are the flags of elect sweep.
type sweepFlags struct {
	cat                                      *catalog.Catalog
	algorithms, n, ids, delivery, initiators string
	timing, topology                         string
	announce, force, strict                  bool
	runtime                                  string
	faults                                   string
	maxEvents, maxTime                       int64
	scheduler, engine                        string
	maxSteps                                 int64
	noStates                                 bool
	trials, workers                          int
	seed                                     uint64
	shard                                    string
	out, csv                                 string
	summary                                  bool
	measures, fit                            string
	resume                                   string
	memLimit                                 int64
	params                                   map[string]*string
	render                                   experiment.Render
}

func (f *sweepFlags) register(fs *flag.FlagSet, cat *catalog.Catalog) {
	f.cat = cat
	fs.StringVar(&f.algorithms, "algorithms", "", "algorithms or population protocols, comma-separated (or as arguments)")
	fs.StringVar(&f.n, "n", "64,128,256", "sizes: "+experiment.SizesUsage)
	fs.StringVar(&f.ids, "ids", "", "ID arrangements, comma-separated (default random): "+ids.Usage+"; a list:... arrangement must be the only one")
	fs.StringVar(&f.delivery, "delivery", "", "delivery models, comma-separated: "+election.DeliveryNames()+", or allowed: every one the algorithm's model allows (default: each algorithm's own)")
	fs.StringVar(&f.initiators, "initiators", "", "initiator sets, comma-separated: all, K (K random nodes), or allowed: all and 1 where the model allows (default all)")
	fs.BoolVar(&f.strict, "strict", false, "refuse the sweep when a configuration breaks its algorithm's model (default: leave it out, with one line per group on standard error)")
	fs.StringVar(&f.timing, "timing", "", "sync or async (default: async if the algorithm supports it)")
	fs.StringVar(&f.topology, "topology", "", "network: "+topology.Usage+" (default: each algorithm's own)")
	fs.BoolVar(&f.announce, "announce", false, "announce the leader (algorithms with optional announcement)")
	fs.BoolVar(&f.force, "force", false, "run configurations that break an algorithm's model")
	fs.StringVar(&f.runtime, "runtime", "sim", "what runs the message-passing nodes: "+strings.Join(scenario.Runtimes, ", ")+" (see 'elect help run')")
	fs.StringVar(&f.faults, "faults", "", "inject faults in every message-passing run, drawn from its seed: "+faults.Usage)
	fs.Int64Var(&f.maxEvents, "max-events", election.DefaultMaxEvents, "stop a message-passing run after this many events")
	fs.Int64Var(&f.maxTime, "max-time", 0, "stop a message-passing run at this time (0: no limit)")
	fs.StringVar(&f.scheduler, "scheduler", "ordered", "population pair scheduler: "+strings.Join(pp.SchedulerNames(), ", "))
	fs.StringVar(&f.engine, "engine", "auto", "population engine, as 'elect pp --engine': "+strings.Join(pp.EngineNames(), ", "))
	fs.Int64Var(&f.maxSteps, "max-steps", 0, "stop a population run after this many steps (0: the protocol's default)")
	fs.BoolVar(&f.noStates, "no-states", false, "do not count distinct population states (faster)")
	fs.IntVar(&f.trials, "trials", 10, "runs per configuration")
	fs.Uint64Var(&f.seed, "seed", 1, "master seed")
	fs.IntVar(&f.workers, "workers", runtime.NumCPU(), "runs in parallel")
	fs.StringVar(&f.shard, "shard", "", "run only part i of k: i/k with 1 <= i <= k (runs i-1, i-1+k, ... in grid order)")
	fs.StringVar(&f.out, "out", "", "write the JSON lines to this file instead of standard output")
	fs.StringVar(&f.csv, "csv", "", "also write one CSV line per run to this file (- for standard output, replacing the JSON lines)")
	fs.BoolVar(&f.summary, "summary", false, "print a summary table per configuration and size (the JSON lines then go only to --out)")
	fs.StringVar(&f.measures, "measure", "", "measures the summary shows, comma-separated (default messages,time; populations parallel_time,states_seen); also bits, leaders, messages:TYPE, interactions, protocol details")
	memLimitVar(fs, &f.memLimit)
	fs.StringVar(&f.resume, "resume", "", "skip the runs already in this file (an earlier --out of the same sweep: its lines carry the grid's fingerprint) and append the others to it; a file that does not exist yet is started")
	fs.StringVar(&f.fit, "fit", "", "growth the summary's fitted constant divides by: "+strings.Join(experiment.GrowthNames(), ", ")+" (default: each algorithm's expected growth)")
	f.render.Register(fs)
	f.params = map[string]*string{}
	var names []string
	for _, a := range cat.All() {
		for _, p := range a.Params {
			names = append(names, p.Name)
		}
	}
	names = append(names, protocols.ParamNames()...)
	slices.Sort(names)
	for _, name := range slices.Compact(names) {
		f.params[name] = fs.String(name, "", "parameter --"+name+" of the algorithms that take it, comma-separated values (see 'elect list', 'elect pp list')")
	}
}

// grid turns the parsed flags and positional arguments into a grid.
func (f *sweepFlags) grid(fs *flag.FlagSet, pos []string) (*experiment.Grid, experiment.Shard, error) {
	g := &experiment.Grid{
		Catalog: f.cat,
		Timing:  f.timing, Topology: f.topology, Announce: f.announce, Force: f.force, Strict: f.strict, Runtime: f.runtime, Faults: f.faults,
		MaxEvents: f.maxEvents, MaxTime: f.maxTime, MaxSteps: f.maxSteps, NoStates: f.noStates,
		Trials: f.trials, Seed: f.seed, Params: map[string][]string{},
		MemLimit: f.memLimit,
	}
	var shard experiment.Shard
	for _, p := range pos {
		list, err := experiment.ParseList("algorithm", p)
		if err != nil {
			return nil, shard, usagef("sweep: %v", trimPkg(err))
		}
		g.Algorithms = append(g.Algorithms, list...)
	}
	if f.algorithms != "" {
		list, err := experiment.ParseList("algorithm", f.algorithms)
		if err != nil {
			return nil, shard, usagef("sweep: %v", trimPkg(err))
		}
		g.Algorithms = append(g.Algorithms, list...)
	}
	if len(g.Algorithms) == 0 {
		return nil, shard, usagef("sweep: no algorithm given; e.g. 'elect sweep lcr,hs --n 64..1024x2'; 'elect list' and 'elect pp list' show them")
	}
	sizes, err := experiment.ParseSizes(f.n)
	if err != nil {
		return nil, shard, usagef("sweep: --n: %v", trimPkg(err))
	}
	g.Sizes = sizes
	if f.trials < 1 || f.trials > 1e7 {
		return nil, shard, usagef("sweep: --trials must be between 1 and 10000000, got %d", f.trials)
	}
	if f.workers < 1 || f.workers > 4096 {
		return nil, shard, usagef("sweep: --workers must be between 1 and 4096, got %d", f.workers)
	}
	if f.maxEvents < 1 || f.maxTime < 0 || f.maxSteps < 0 {
		return nil, shard, usagef("sweep: --max-events must be >= 1, --max-time and --max-steps >= 0")
	}
	if f.shard != "" {
		if shard, err = experiment.ParseShard(f.shard); err != nil {
			return nil, shard, usagef("sweep: %v", trimPkg(err))
		}
	}
	if f.ids != "" {
		if strings.HasPrefix(f.ids, "list:") || strings.Trim(f.ids, "0123456789, ") == "" {
			g.IDs = []string{f.ids} // one explicit list of IDs
		} else if g.IDs, err = experiment.ParseList("ids", f.ids); err != nil {
			return nil, shard, usagef("sweep: --ids: %v", trimPkg(err))
		}
	}
	for _, l := range []struct {
		text string
		dst  *[]string
		name string
	}{{f.delivery, &g.Deliveries, "delivery"}, {f.initiators, &g.Initiators, "initiators"}} {
		if l.text == "" {
			continue
		}
		if *l.dst, err = experiment.ParseList(l.name, l.text); err != nil {
			return nil, shard, usagef("sweep: --%s: %v", l.name, trimPkg(err))
		}
	}
	sched, err := pp.ParseScheduler(f.scheduler)
	if err != nil {
		return nil, shard, usagef("sweep: unknown scheduler %q; schedulers: %s", f.scheduler, strings.Join(pp.SchedulerNames(), ", "))
	}
	g.Scheduler = sched
	if g.Engine, err = pp.ParseEngine(f.engine); err != nil {
		return nil, shard, usagef("sweep: unknown engine %q; engines: %s", f.engine, strings.Join(pp.EngineNames(), ", "))
	}
	var perr error
	fs.Visit(func(fl *flag.Flag) {
		if v, ok := f.params[fl.Name]; ok && perr == nil {
			g.Params[fl.Name], perr = experiment.ParseList("--"+fl.Name, *v)
		}
	})
	if perr != nil {
		return nil, shard, usagef("sweep: %v", trimPkg(perr))
	}
	if f.fit != "" {
		if _, ok := experiment.LookupGrowth(f.fit); !ok {
			return nil, shard, usagef("sweep: unknown --fit %q; use one of %s", f.fit, strings.Join(experiment.GrowthNames(), ", "))
		}
	}
	return g, shard, nil
}

// trimPkg drops the "experiment: " prefix from an error for a one-line
// usage message.
func trimPkg(err error) string { return strings.TrimPrefix(err.Error(), "experiment: ") }

func sweepCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sweep", sweepUsage)
	var f sweepFlags
	f.register(fs, cat)
	pos, err := parseInterleaved(fs, args, stdout)
	if err != nil {
		return err
	}
	g, shard, err := f.grid(fs, pos)
	if err != nil {
		return err
	}
	if f.render.Requested() {
		return gridError(f.render.Write(stdout, fs, pos, g))
	}
	s := &sweep{f: &f, g: g, shard: shard, stdout: stdout, stderr: stderr}
	if err := s.plan(); err != nil {
		return err
	}
	if err := s.openOutputs(); err != nil {
		return err
	}
	defer s.discard()
	n, runErr := s.execute()
	if runErr == nil || errors.Is(runErr, context.Canceled) {
		if err := s.closeOutputs(); err != nil && runErr == nil {
			runErr = err
		}
	}
	if errors.Is(runErr, context.Canceled) {
		return s.reportStop(n)
	}
	if runErr != nil {
		return runErr
	}
	return s.report(n)
}

// sweep is one elect sweep: its grid and runs, its outputs, and what the
// report gathers as the runs end.
type sweep struct {
	f              *sweepFlags
	g              *experiment.Grid
	shard          experiment.Shard
	stdout, stderr io.Writer

	points    []*experiment.Point
	jobs      []experiment.Job
	tag       experiment.ShardTag
	measures  []string
	rows      []experiment.Row // with --summary: the resumed runs' and the new ones'
	resumed   int64            // the bytes of --resume's file that are whole records
	resumeNL  bool             // its last record lacks its line break
	resumeNew bool             // --resume names a file that does not exist yet

	jsonOut  io.Writer
	stream   *cmdio.Stream    // --out or --resume
	csvFile  *atomicfile.File // --csv FILE
	csvOut   *experiment.CSVWriter
	failed   int
	expected int
}

// plan checks the outputs and builds the runs, before any file is made:
// the points of the grid, the memory their bookkeeping takes, the
// measures asked for, and with --resume the runs already done.
func (s *sweep) plan() error {
	f, g := s.f, s.g
	if f.resume != "" && f.out != "" {
		if f.out != f.resume {
			return usagef("sweep: --resume %s appends to that file; leave out --out %s, or make it the same file", f.resume, f.out)
		}
		f.out = ""
	}
	csvPath := f.csv
	if csvPath == "-" {
		csvPath = ""
	}
	if err := declareFiles("sweep", nil, output("--out", f.out), output("--csv", csvPath), output("--resume", f.resume)); err != nil {
		return err
	}
	points, err := g.Points()
	if err != nil {
		return gridError(err)
	}
	s.points = points
	reportSkipped(s.stderr, "sweep", g)
	runs := len(points) * g.Trials
	if s.shard.Count > 1 {
		runs = (runs + s.shard.Count - 1) / s.shard.Count
	}
	if err := checkSweepMemory(runs, f.summary, f.memLimit); err != nil {
		return err
	}
	s.jobs = g.Jobs(points, s.shard)
	// A shard's lines say which part of which grid they are ('elect merge'
	// checks that its shards cover the grid exactly).
	s.tag = experiment.ShardTag{Index: s.shard.Index, Count: s.shard.Count, Runs: len(points) * g.Trials, Grid: g.Fingerprint()}
	if f.measures != "" {
		if s.measures, err = experiment.ParseList("measure", f.measures); err != nil {
			return usagef("sweep: --measure: %v", trimPkg(err))
		}
		if err := checkMeasuresBefore(points, s.measures); err != nil {
			return err
		}
	}
	if f.resume == "" {
		return nil
	}
	if _, err := os.Stat(f.resume); errors.Is(err, fs.ErrNotExist) {
		// Nothing to resume yet: the same command starts the sweep and,
		// stopped or killed, continues it (a preemptible job's restart).
		fmt.Fprintf(s.stderr, "elect: sweep: --resume: %s does not exist yet; starting it\n", f.resume)
		s.resumeNew = true
		return nil
	}
	return s.planResume()
}

// planResume reads the runs already in --resume's file and leaves the
// others to run; a last line that a kill cut short is dropped (and its run
// made again).
func (s *sweep) planResume() error {
	f := s.f
	done, err := experiment.ReadResume(f.resume, s.tag)
	if err != nil {
		return usagef("sweep: --resume: %v", trimPkg(err))
	}
	if done.Cut {
		fmt.Fprintf(s.stderr, "elect: sweep: --resume: the last line of %s was cut short (the sweep was killed while writing it); it is dropped and its run made again\n", f.resume)
	}
	s.resumed, s.resumeNL = done.Keep, done.NewLine
	all := len(s.jobs)
	s.jobs, s.rows = experiment.Pending(s.jobs, done.Rows, s.g.Seed)
	fmt.Fprintf(s.stderr, "elect: sweep: %d of %d runs are already in %s; running the other %d\n", all-len(s.jobs), all, f.resume, len(s.jobs))
	return nil
}

// openOutputs makes the output files, once the input is known to be good.
// The JSON lines are a stream: each one is in the named file as soon as
// its run ends, so that any signal or kill leaves every finished run
// there for --resume. The CSV table is a whole file, renamed into place
// at the end (or when a signal stops the sweep, with the rows so far).
func (s *sweep) openOutputs() error {
	f := s.f
	var err error
	switch {
	case s.resumeNew:
		if s.stream, err = createStream("sweep: --resume", f.resume, ""); err != nil {
			return err
		}
		s.jsonOut = s.stream
	case f.resume != "":
		if s.stream, err = cmdio.ResumeStream(f.resume, s.resumed); err != nil {
			return usagef("sweep: --resume: %v", err)
		}
		if s.resumeNL {
			if _, err := s.stream.Write([]byte("\n")); err != nil {
				return err
			}
		}
		s.jsonOut = s.stream
	case f.out != "":
		if s.stream, err = createStream("sweep: --out", f.out, "--resume "+f.out+" adds the runs it lacks"); err != nil {
			return err
		}
		s.jsonOut = s.stream
	case f.summary || f.csv == "-":
	default:
		s.jsonOut = s.stdout
	}
	if f.csv != "" {
		var w io.Writer = s.stdout
		if f.csv != "-" {
			if s.csvFile, err = createOutput("sweep: --csv", f.csv); err != nil {
				return err
			}
			w = s.csvFile
		}
		s.csvOut = experiment.NewCSVWriter(w, experiment.CSVColumns(experiment.ProbeRows(s.points)))
		if err := s.csvOut.Header(); err != nil {
			return err
		}
	}
	return nil
}

// closeOutputs closes the stream and renames the CSV table into place.
func (s *sweep) closeOutputs() error {
	var err error
	if s.stream != nil {
		err = s.stream.Close()
		s.stream = nil
	}
	if s.csvFile != nil {
		if cerr := s.csvFile.Commit(); err == nil {
			err = cerr
		}
		s.csvFile = nil
	}
	return err
}

// discard ends the outputs after a failure: the stream keeps the lines it
// has, the CSV table's temporary file is removed.
func (s *sweep) discard() {
	if s.stream != nil {
		s.stream.Discard()
	}
	if s.csvFile != nil {
		s.csvFile.Abort()
	}
}

// execute runs the pending jobs on --workers cores until they end or a
// signal stops them, writing each run's line as it ends (in grid order).
func (s *sweep) execute() (int, error) {
	f := s.f
	stop := cmdio.Watch()
	bar := newProgressBar(s.stderr, "sweep", progressScale, "")
	defer bar.finish()
	opt := experiment.Options{Workers: f.workers}
	if bar != nil {
		opt.Progress = func(done, total int, wDone, wTotal float64) {
			bar.set(int64(progressScale*wDone/max(wTotal, 1e-300)), fmt.Sprintf("%d/%d runs", done, total))
		}
	}
	return experiment.Run(stop, s.jobs, s.g.Seed, opt, s.emit)
}

// emit writes one run's line (and CSV row) and counts its outcome.
func (s *sweep) emit(r *experiment.Result) error {
	switch {
	case r.Succeeded():
	case r.MP != nil && r.MP.ExpectedFailure():
		s.expected++
	default:
		s.failed++
	}
	if s.jsonOut != nil {
		if _, err := s.jsonOut.Write(s.tag.Apply(r.Line)); err != nil {
			return err
		}
	}
	if s.csvOut != nil || s.f.summary {
		row := experiment.RowOf(r)
		if s.csvOut != nil {
			if err := s.csvOut.Write(row); err != nil {
				return err
			}
		}
		if s.f.summary {
			s.rows = append(s.rows, row)
		}
	}
	return nil
}

// reportStop says where a signal stopped the sweep and how to go on.
func (s *sweep) reportStop(n int) error {
	f := s.f
	fmt.Fprintf(s.stderr, "elect: sweep %s: %d of %d runs written", stoppedBy(), n, len(s.jobs))
	if f.out != "" || f.resume != "" {
		fmt.Fprintf(s.stderr, "; --resume %s runs the others", cmp.Or(f.resume, f.out))
	}
	fmt.Fprintln(s.stderr)
	if f.summary && len(s.rows) > 0 {
		fmt.Fprintf(s.stdout, "partial summary: the %d runs that ended before the interruption\n", len(s.rows))
		if err := experiment.WriteSummary(s.stdout, s.rows, s.measures, f.fit); err != nil {
			return gridError(err)
		}
	}
	return errInterrupted
}

// report writes the summary and says how the runs ended.
func (s *sweep) report(n int) error {
	if s.f.summary {
		if err := checkMeasures(s.rows, s.measures); err != nil {
			return err
		}
		if err := experiment.WriteSummary(s.stdout, s.rows, s.measures, s.f.fit); err != nil {
			return gridError(err)
		}
	}
	if s.failed > 0 {
		fmt.Fprintf(s.stderr, "elect: %d of %d runs did not elect as promised or failed a check (see their lines)\n", s.failed, n)
		return errFailed
	}
	if s.expected > 0 {
		fmt.Fprintf(s.stderr, "elect: %d of %d runs failed under a fault their algorithm does not tolerate (verdict expected-failure)\n", s.expected, n)
		return errExpectedFailure
	}
	return nil
}

// gridError maps an experiment or scenario error to a usage error when it
// is the user's to fix.
func gridError(err error) error {
	var ge *experiment.Error
	if errors.As(err, &ge) {
		return usagef("sweep: %s", ge.Msg)
	}
	return inputError(err)
}

// checkMeasures refuses a summary of a measure that no run has, naming the
// measures the runs do have (a misspelt --measure would otherwise give an
// empty table).
func checkMeasures(rows []experiment.Row, measures []string) error {
	have := map[string]bool{}
	for _, r := range rows {
		for m := range r.Measures {
			have[m] = true
		}
	}
	for _, m := range measures {
		if !have[m] {
			known := slices.Sorted(maps.Keys(have))
			return usagef("sweep: no run has the measure %q%s; these runs have %s", m, suggest(m, known), strings.Join(known, ", "))
		}
	}
	return nil
}

// checkMeasuresBefore refuses, before any run, a measure that no run of
// the sweep can have: each algorithm's smallest point, run for one step,
// has every measure of a message-passing run (its message types included)
// and the measures a population protocol reports from its first step;
// details that a protocol reports only at its end (epidemic-term's
// declarer_id) are left to the check after the runs.
func checkMeasuresBefore(points []*experiment.Point, measures []string) error {
	size := func(p *experiment.Point) int {
		if p.Kind == experiment.Population {
			return p.PP.N
		}
		return p.Spec.N
	}
	smallest := map[string]*experiment.Point{}
	var probe []*experiment.Point
	for _, p := range points {
		name := p.Spec.Algorithm
		if p.Kind == experiment.Population {
			name = p.Protocol.Name
		}
		if q, ok := smallest[name]; !ok || size(p) < size(q) {
			smallest[name] = p
		}
	}
	for _, p := range points {
		name := p.Spec.Algorithm
		if p.Kind == experiment.Population {
			name = p.Protocol.Name
		}
		if smallest[name] == p {
			probe = append(probe, p)
		}
	}
	rows := experiment.ProbeRows(probe)
	for _, m := range measures {
		for _, r := range rows {
			if _, ok := r.Measures[m]; ok || r.Kind == experiment.Population && !messagePassingMeasure(m) {
				continue
			}
			known := slices.Sorted(maps.Keys(r.Measures))
			return usagef("sweep: --measure %s: %s has no such measure%s; its runs have %s", m, r.Name, suggest(m, known), strings.Join(known, ", "))
		}
	}
	return nil
}

// messagePassingMeasure says whether m is a measure of message-passing
// runs only, which their one-step probe has whole.
func messagePassingMeasure(m string) bool {
	switch m {
	case "messages", "bits", "time", "max_node_messages":
		return true
	}
	return strings.HasPrefix(m, "messages:")
}

// reportSkipped writes one line per group of configurations the grid left
// out because they break their algorithm's model.
func reportSkipped(w io.Writer, command string, g *experiment.Grid) {
	for _, k := range g.Skipped {
		fmt.Fprintf(w, "elect: %s: %s (--force runs them, --strict refuses the sweep)\n", command, k)
	}
}

// Memory a sweep keeps per run besides the run itself: its job, and with
// --summary its row (measures in a map, the configuration's strings).
const (
	sweepJobBytes = int64(unsafe.Sizeof(experiment.Job{})) + 8
	sweepRowBytes = 640
)

// checkSweepMemory refuses a sweep of runs jobs whose bookkeeping alone
// would not fit in the memory limit (each run is checked on its own when
// the grid is built).
func checkSweepMemory(runs int, summary bool, limit int64) error {
	if limit <= 0 {
		limit = scenario.DefaultMemLimit()
	}
	per := sweepJobBytes
	if summary {
		per += sweepRowBytes
	}
	if need := int64(runs) * per; need > limit {
		return usagef("sweep: %d runs need about %s of memory for their jobs%s, more than the limit of %s; use fewer trials or sizes, --shard, or raise --mem-limit",
			runs, scenario.BytesString(need), map[bool]string{true: " and summary rows", false: ""}[summary], scenario.BytesString(limit))
	}
	return nil
}
