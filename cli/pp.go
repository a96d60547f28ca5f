package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/experiment"
	"github.com/electkit/elect/internal/atomicfile"
	"github.com/electkit/elect/internal/cmdio"
	"github.com/electkit/elect/internal/format"
	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/protocols"
)

func init() {
	register(command{name: "pp", summary: "run population protocols (elect pp list)", run: ppCommand})
}

const ppUsage = `usage: elect pp PROTOCOL [flags]
       elect pp FILE.yaml|FILE.json [flags]
       elect pp list

Runs a population protocol: n agents, and at every step an ordered pair of
distinct agents chosen uniformly at random interacts. "interactions" is the
step at which the protocol's goal first held (see 'elect pp list'); parallel
time is interactions / n.

A protocol can also be written in a file (YAML or JSON: states, initial
configuration, rules, outputs, stop condition; see docs/pp-files.md and
examples/protocols/): 'elect pp examples/protocols/angluin.yaml --n 1e6'
runs it on the same engines, with the same flags. When the file's initial
configuration is given in counts, --n defaults to their sum.

Engines (--engine; every result records the one that ran in "engine"):
agent-array (exact reference, one state per agent, n <= 2^31), batched
(counts per state, Theta(sqrt n) interactions per batch), null-skipping
(jumps over interactions that change nothing), and auto (default): the agent
array for protocols that number their agents, for the with-repeats
scheduler and for a --trace of fewer than 16384 agents; below 16384 agents it
starts on the agent array (the agent array's run, draw for draw, while it
stays there) and moves to null-skipping when few pairs of agents can
change, and back; otherwise the count engine, which chooses by its
measured cost among batches, null-skipping and (moving the run onto it
when it fits and costs less) the agent array, and names the parts that ran
("batched+null-skipping+agent-array"). With several trials a progress bar
(trials done, time left) is shown on standard error when it is a terminal.
The count engines take n up to
2^60 and have the same law as the agent array, stopping at the same exact
step.

--trace FILE records one trial: the number of agents in each state at a few
hundred evenly (and, early in the run, geometrically) spaced steps and at the
end, as a trace (format version 2, docs/trace.md) that 'elect view FILE'
draws as a stacked area over parallel time, with the number of leaders.

Trial t (0-based) runs with seed S_t = seed for t = 0 and, for t >= 1, the
top 53 bits of the SplitMix64 finalizer of seed + t*0x9E3779B97F4A7C15; each
JSON line reports S_t, and '--seed S_t --trials 1' reruns that trial alone.

Exit status: 0 when every trial ended as the protocol promises, 1 otherwise,
2 for bad input.

flags:
`

// ppFlags are the flags of "elect pp"; protocol parameters are checked
// against the chosen protocol's parameter list.
type ppFlags struct {
	n, trials      int
	seed           uint64
	scheduler      string
	engine         string
	maxSteps       int64
	json, noStates bool
	trace          string
	tracePoints    int
	timeLimit      time.Duration
	// params are the protocols' parameters (protocols.ParamNames), as
	// given; the chosen protocol checks and sets them (Entry.SetParam).
	params map[string]*string
}

func (f *ppFlags) register(fs *flag.FlagSet) {
	sizeVar(fs, &f.n, "n", 1000, "number of agents (>= 2; up to 2^60 on the count engines; 1e9 and 2^30 are understood)")
	fs.StringVar(&f.engine, "engine", "auto", "simulation engine: "+strings.Join(pp.EngineNames(), ", "))
	fs.Uint64Var(&f.seed, "seed", 1, "seed of trial 0 (later trials derive theirs from it)")
	fs.IntVar(&f.trials, "trials", 1, "number of independent trials")
	f.params = map[string]*string{}
	for _, name := range protocols.ParamNames() {
		f.params[name] = fs.String(name, "", "protocol parameter: "+protocols.ParamHelp(name))
	}
	fs.StringVar(&f.scheduler, "scheduler", "ordered", "pair scheduler: "+strings.Join(pp.SchedulerNames(), ", "))
	fs.DurationVar(&f.timeLimit, "time-limit", 0, "stop a run after this much wall-clock time, as 30s or 5m, and report what it reached (outcome stopped; 0: no limit)")
	fs.Int64Var(&f.maxSteps, "max-steps", 0, "stop a trial after this many steps (0: the protocol's default limit)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object per trial")
	fs.BoolVar(&f.noStates, "no-states", false, "do not count distinct states (faster; states_seen is then 0)")
	fs.StringVar(&f.trace, "trace", "", "write the run's state counts over parallel time to this file (trace format v2, docs/trace.md; one trial; 'elect view FILE' draws it)")
	fs.IntVar(&f.tracePoints, "trace-points", 200, "with --trace: at least this many evenly spaced snapshots (at most twice as many), plus the first and the last")
}

func ppCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	var f ppFlags
	fs := newFlagSet("pp", ppUsage)
	f.register(fs)
	pos, err := parseInterleaved(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("pp: no protocol given; protocols: %s (or 'elect pp list')", strings.Join(protocols.Names(), ", "))
	}
	if len(pos) > 1 {
		return usagef("pp: one protocol expected, got %q", strings.Join(pos, " "))
	}
	if pos[0] == "list" {
		if f.json {
			return printPPListJSON(stdout)
		}
		printPPList(stdout)
		return nil
	}
	entry, err := f.protocol(fs, pos[0])
	if err != nil {
		return err
	}
	cfg, sched, err := f.config(fs, entry)
	if err != nil {
		return err
	}
	var inputs []cmdio.Path
	if protocols.IsFile(pos[0]) {
		inputs = append(inputs, input("the protocol file", pos[0]))
	}
	if err := declareFiles("pp", inputs, output("--trace", f.trace)); err != nil {
		return err
	}
	t := ppTrials{f: &f, fs: fs, entry: entry, cfg: cfg, sched: sched, stdout: stdout, stderr: stderr}
	if f.trace != "" {
		// The file is made now, so that a path that cannot be written is
		// said before the run, not after it. The trace is written whole
		// once the run ends (from its snapshots), so it is one file
		// renamed into place rather than a stream.
		if t.traceFile, err = createOutput("pp: --trace", f.trace); err != nil {
			return err
		}
		defer t.traceFile.Abort()
	}
	if err := t.run(); err != nil {
		return err
	}
	if !f.json {
		printPPSummary(stdout, entry, f, sched, t.results)
	}
	if t.stopped {
		fmt.Fprintf(stderr, "elect: pp %s after %d of %d trials (the last one stopped where it was)\n", stoppedBy(), len(t.results), f.trials)
		return errInterrupted
	}
	for _, r := range t.results {
		if !r.Outcome.Succeeded() {
			return errFailed
		}
	}
	return nil
}

// protocol finds the protocol named (or the protocol file given) on the
// command line; a file's own number of agents is the default --n.
func (f *ppFlags) protocol(fs *flag.FlagSet, name string) (protocols.Entry, error) {
	entry, ok := protocols.Lookup(name)
	if protocols.IsFile(name) {
		var err error
		if entry, err = protocols.LoadFile(name); err != nil {
			return entry, usagef("pp: %v", err)
		}
		if entry.DefaultN > 0 && !flagGiven(fs, "n") {
			f.n = entry.DefaultN
		}
	} else if !ok {
		return entry, usagef("pp: unknown protocol %q%s; protocols: %s (or a protocol file, NAME.yaml or NAME.json)", name, suggest(name, protocols.Names()), strings.Join(protocols.Names(), ", "))
	}
	return entry, nil
}

// config checks the flags against entry and makes the run's configuration.
func (f *ppFlags) config(fs *flag.FlagSet, entry protocols.Entry) (protocols.Config, pp.Scheduler, error) {
	cfg := protocols.Config{}
	var badParam error
	fs.Visit(func(fl *flag.Flag) {
		if v, ok := f.params[fl.Name]; ok && badParam == nil {
			if err := entry.SetParam(&cfg, fl.Name, *v); err != nil {
				badParam = usagef("pp: %v", err)
			}
		}
	})
	if badParam != nil {
		return cfg, 0, badParam
	}
	engine, err := pp.ParseEngine(f.engine)
	if err != nil {
		return cfg, 0, usagef("pp: unknown engine %q%s; engines: %s", f.engine, suggest(f.engine, pp.EngineNames()), strings.Join(pp.EngineNames(), ", "))
	}
	switch {
	case f.n < 2 || int64(f.n) > pp.MaxCountN:
		return cfg, 0, usagef("pp: --n must be between 2 and %d, got %d", int64(pp.MaxCountN), f.n)
	case f.trials < 1 || f.trials > 1e7:
		return cfg, 0, usagef("pp: --trials must be between 1 and 10000000, got %d", f.trials)
	case f.maxSteps < 0:
		return cfg, 0, usagef("pp: --max-steps must be >= 0 (0: the protocol's default), got %d", f.maxSteps)
	case f.timeLimit < 0:
		return cfg, 0, usagef("pp: --time-limit must not be negative, got %v (0: no limit)", f.timeLimit)
	case f.trace != "" && f.trials != 1:
		return cfg, 0, usagef("pp: --trace records one trial; got --trials %d (rerun a trial alone with its seed)", f.trials)
	case f.tracePoints < 1 || f.tracePoints > 100000:
		return cfg, 0, usagef("pp: --trace-points must be between 1 and 100000, got %d", f.tracePoints)
	}
	sched, err := pp.ParseScheduler(f.scheduler)
	if err != nil {
		return cfg, 0, usagef("pp: unknown scheduler %q%s; schedulers: %s", f.scheduler, suggest(f.scheduler, pp.SchedulerNames()), strings.Join(pp.SchedulerNames(), ", "))
	}
	cfg.N = f.n
	cfg.Options = pp.Options{Scheduler: sched, MaxSteps: f.maxSteps, TrackStates: !f.noStates, Engine: engine}
	return cfg, sched, nil
}

// ppTrials runs the trials of elect pp and keeps their results.
type ppTrials struct {
	f         *ppFlags
	fs        *flag.FlagSet
	entry     protocols.Entry
	cfg       protocols.Config
	sched     pp.Scheduler
	traceFile *atomicfile.File
	stdout    io.Writer
	stderr    io.Writer
	results   []pp.Result
	stopped   bool // a signal stopped the trials
}

func (t *ppTrials) run() error {
	f, entry, cfg := t.f, t.entry, t.cfg
	enc := json.NewEncoder(t.stdout)
	var sampler *pp.Sampler
	if t.traceFile != nil {
		sampler = &pp.Sampler{Points: f.tracePoints}
		cfg.Options.Sample = sampler
	}
	// A signal stops the running trial inside its run, at its next
	// progress report (about ten a second), as --time-limit does.
	stop := cmdio.Watch()
	// Several trials: one bar over the trials (trials done, time left),
	// each trial's share moved by its interactions against the expected
	// or measured number when one is known; on a terminal only.
	var trialsBar *progressBar
	if f.trials > 1 {
		trialsBar = newProgressBar(t.stderr, entry.Name, int64(f.trials)*trialUnits, "")
	}
	defer trialsBar.finish()
	for trial := range f.trials {
		if stop.Err() != nil {
			break
		}
		cfg.Seed = pp.TrialSeed(f.seed, trial)
		var bar *progressBar
		expected, known := expectedInteractions(entry.Name, f.n, t.sched, f.maxSteps)
		if !f.json && f.trials == 1 {
			switch measured, ok := measuredInteractions(entry.Name, cfg); {
			case known:
				bar = newProgressBar(t.stderr, entry.Name, int64(expected), "expected")
			case ok:
				bar = newProgressBar(t.stderr, entry.Name, int64(measured), "estimated from the reproductions' means")
			default:
				bar = newProgressBar(t.stderr, entry.Name, 0, "")
			}
		}
		cfg.Options.Progress = ppProgress(bar, f.timeLimit, stop)
		if trialsBar != nil {
			if !known {
				expected, _ = measuredInteractions(entry.Name, cfg)
			}
			cfg.Options.Progress = trialProgress(trialsBar, trial, f.trials, expected, cfg.Options.Progress)
		}
		res, err := entry.Run(cfg)
		bar.finish()
		trialsBar.set(int64(trial+1)*trialUnits, fmt.Sprintf("%d of %d trials done", trial+1, f.trials))
		if err != nil {
			if entry.File != "" {
				return usagef("pp: %v", err)
			}
			return usagef("pp %s: %v", entry.Name, err)
		}
		if f.json {
			if err := enc.Encode(res); err != nil {
				return err
			}
		}
		t.results = append(t.results, res)
		if sampler != nil {
			if err := t.writeTrace(sampler, cfg.Seed, res); err != nil {
				return err
			}
		}
	}
	t.stopped = stop.Err() != nil
	return nil
}

// writeTrace writes the trial's trace (its snapshots) and commits it.
func (t *ppTrials) writeTrace(sampler *pp.Sampler, seed uint64, res pp.Result) error {
	th := pp.TraceHeader{Protocol: t.entry.Name, Title: t.entry.Goal, Params: ppParams(t.fs, t.f.params), Seed: seed, StateFields: t.entry.StateFields}
	w := bufio.NewWriterSize(t.traceFile, 1<<16)
	err := pp.WriteTrace(w, th, sampler, res)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = t.traceFile.Commit()
	}
	if err != nil {
		return err
	}
	if !t.f.json {
		fmt.Fprintf(t.stderr, "trace: %s (%d snapshots; elect view %s)\n", t.f.trace, len(sampler.Snapshots), t.f.trace)
	}
	return nil
}

// ppParams lists the protocol parameters (params) and run options given on
// the command line, for a trace's header.
func ppParams(fs *flag.FlagSet, params map[string]*string) map[string]string {
	ps := map[string]string{}
	fs.Visit(func(fl *flag.Flag) {
		_, param := params[fl.Name]
		if param || fl.Name == "scheduler" || fl.Name == "engine" || fl.Name == "max-steps" {
			ps[fl.Name] = fl.Value.String()
		}
	})
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// expectedInteractions is the expected number of interactions of a run
// when theory gives it exactly: Angluin et al.'s protocol from all leaders
// under the ordered scheduler takes n(n-1)/(k(k-1)) interactions on average
// to go from k leaders to k-1, (n-1)^2 in all.
func expectedInteractions(protocol string, n int, sched pp.Scheduler, maxSteps int64) (float64, bool) {
	if protocol != "angluin" || sched != pp.Ordered || maxSteps != 0 {
		return 0, false
	}
	return float64(n-1) * float64(n-1), true
}

// measuredInteractions estimates a run's interactions for the progress
// bar where theory gives only a growth: the growth times the constant the
// reproductions measured (docs/reproduce; mean parallel time over the
// largest sizes), for the protocols' default parameters and the ordered
// scheduler. It only sizes the bar; --time-limit does not stop a run on it.
func measuredInteractions(protocol string, c protocols.Config) (float64, bool) {
	if c.Options.Scheduler != pp.Ordered || c.Options.MaxSteps != 0 || c.M != 0 || c.Variant != "" && c.Variant != "prose" {
		return 0, false
	}
	n := float64(c.N)
	harmonic := math.Log(n) + 0.5772156649
	switch protocol {
	case "epidemic": // seed000-numbered/figure1: every agent informed after about n H_n
		return n * harmonic, true
	case "epidemic-term": // seed000-figure1: the declaration after about 2.56 n H_n (m = 4)
		if c.MinInteractions != 0 {
			return 0, false
		}
		return 2.56 * n * harmonic, true
	case "pll": // seed004-pll: mean parallel time about 6.8 lg n
		return 6.8 * n * math.Log2(n), true
	case "pll-sym": // seed004-pll-sym: about 6.9 lg n
		return 6.9 * n * math.Log2(n), true
	case "approx-majority": // approx-majority (60% A): about 1.1 lg n
		if c.FractionA != 0 && c.FractionA != 0.6 {
			return 0, false
		}
		return 1.1 * n * math.Log2(n), true
	}
	return 0, false
}

// ppProgress is a population run's progress report: it moves bar, and
// stops the run when stop is done or after limit of wall-clock time (0:
// no limit), never sooner: the count engines get cheaper per interaction
// as a run goes on (fewer agents change state), so the speed of its start
// says nothing of the time it has left. Nil when none of these is wanted.
func ppProgress(bar *progressBar, limit time.Duration, stop context.Context) func(pp.Progress) bool {
	if bar == nil && limit <= 0 && stop.Done() == nil {
		return nil
	}
	start := time.Now()
	return func(p pp.Progress) bool {
		bar.set(p.Interactions, fmt.Sprintf("parallel time %s, %s leaders", format.Number(p.ParallelTime, 4), format.Number(float64(p.Leaders), 4))+
			bar.limitNote(p.Interactions, p.MaxSteps, "step", time.Since(start)))
		if stop.Err() != nil {
			return false
		}
		return limit <= 0 || time.Since(start) < limit
	}
}

// trialUnits is a trial's share of the bar of a multi-trial run.
const trialUnits = 1000

// trialProgress moves the bar of a multi-trial run during trial t of
// trials (its share by the interactions against expected, when positive,
// up to 99%) and then calls next, if any, which decides whether the run
// goes on.
func trialProgress(bar *progressBar, t, trials int, expected float64, next func(pp.Progress) bool) func(pp.Progress) bool {
	return func(p pp.Progress) bool {
		var part int64
		if expected > 0 {
			part = int64(trialShare(float64(p.Interactions)/expected) * trialUnits)
		}
		bar.set(int64(t)*trialUnits+part, fmt.Sprintf("%d of %d trials done; trial %d at parallel time %s", t, trials, t+1, format.Number(p.ParallelTime, 4)))
		if next == nil {
			return true
		}
		return next(p)
	}
}

// trialShare is the share of its unit of the bar that a trial at r times
// its expected interactions has done: 0.8 r up to r = 1, then creeping
// towards 0.99 (0.895 at r = 2, 0.94 at r = 4), so that a trial that runs
// long (P_LL's slow seeds take several times the mean) does not sit at a
// full bar with no time left.
func trialShare(r float64) float64 {
	if r <= 1 {
		return 0.8 * r
	}
	return 0.8 + 0.19*(1-1/r)
}

// engineUsed names the engine of the trials (a list when they differ, in
// order of first use).
func engineUsed(rs []pp.Result) string {
	var names []string
	for _, r := range rs {
		if !slices.Contains(names, r.Engine) {
			names = append(names, r.Engine)
		}
	}
	return strings.Join(names, ",")
}

// printPPListJSON prints the protocols as one JSON array: name, goal,
// source and parameters of each.
func printPPListJSON(w io.Writer) error {
	type param struct {
		Name    string `json:"name"`
		Default string `json:"default"`
		Help    string `json:"help"`
	}
	type entry struct {
		Name   string  `json:"name"`
		Goal   string  `json:"goal"`
		Source string  `json:"source"` // with the seeds' keys (docs/sources.md)
		Cited  string  `json:"cited"`  // as 'elect pp list' prints it
		Params []param `json:"params"`
	}
	list := []entry{}
	for _, e := range protocols.Catalog {
		out := entry{Name: e.Name, Goal: e.Goal, Source: e.Source, Cited: catalog.CiteBrief(e.Source), Params: []param{}}
		for _, p := range e.Params {
			out.Params = append(out.Params, param{p.Name, p.Default, p.Help})
		}
		list = append(list, out)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(list)
}

// flagGiven reports whether the flag called name was set on the command
// line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

func printPPList(w io.Writer) {
	for _, e := range protocols.Catalog {
		fmt.Fprintf(w, "%s\n  goal:   %s\n  source: %s\n", e.Name, e.Goal, catalog.CiteBrief(e.Source))
		if len(e.Params) == 0 {
			fmt.Fprintf(w, "  params: none\n")
		}
		for _, p := range e.Params {
			fmt.Fprintf(w, "  --%s (default %s): %s\n", p.Name, p.Default, p.Help)
		}
	}
}

func printPPSummary(w io.Writer, e protocols.Entry, f ppFlags, sched pp.Scheduler, rs []pp.Result) {
	fmt.Fprintf(w, "%s: n=%d trials=%d seed=%d scheduler=%s engine=%s\n", e.Name, f.n, len(rs), f.seed, sched, engineUsed(rs))
	fmt.Fprintf(w, "goal: %s\n", e.Goal)
	var inter, par, states []float64
	for _, r := range rs {
		inter = append(inter, float64(r.Interactions))
		par = append(par, r.ParallelTime)
		states = append(states, float64(r.StatesSeen))
	}
	fmt.Fprintf(w, "%-14s %14s %14s %14s %14s\n", "", "mean", "sd", "min", "max")
	row := func(name string, xs []float64, format string) {
		s := experiment.Summarize(xs, 0, experiment.Growth{})
		fmt.Fprintf(w, "%-14s %14s %14s %14s %14s\n", name,
			fmt.Sprintf(format, s.Mean), fmt.Sprintf(format, s.SD), fmt.Sprintf(format, s.Min), fmt.Sprintf(format, s.Max))
	}
	row("interactions", inter, "%.1f")
	row("parallel time", par, "%.3f")
	if !f.noStates {
		row("states seen", states, "%.1f")
	}
	// Outcomes in a fixed order, then any violation messages.
	order := []pp.Outcome{pp.Elected, pp.GoalReached, pp.NoLeader, pp.MultipleLeaders, pp.StepLimit, pp.Stopped, pp.Violation}
	counts := map[pp.Outcome]int{}
	for _, r := range rs {
		counts[r.Outcome]++
	}
	var parts []string
	for _, o := range order {
		if counts[o] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", o, counts[o]))
		}
	}
	fmt.Fprintf(w, "outcomes: %s\n", strings.Join(parts, ", "))
	if counts[pp.Stopped] > 0 {
		fmt.Fprintln(w, "stopped: at --time-limit; the figures are those the runs had reached")
	}
	shown := 0
	for i, r := range rs {
		if r.Violation != "" && shown < 5 {
			fmt.Fprintf(w, "  trial %d (seed %d): %s\n", i, r.Seed, r.Violation)
			shown++
		}
	}
}
