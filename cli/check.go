package cli

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/check"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/internal/atomicfile"
	"github.com/electkit/elect/internal/cmdio"
	"github.com/electkit/elect/internal/format"
	"github.com/electkit/elect/scenario"
)

func init() {
	register(command{name: "check", summary: "check every schedule of a small network: properties, exact extremes, counterexamples", run: checkCommand})
}

const checkUsage = `usage: elect check ALGORITHM --n N [flags]

Explores every reachable state of a small network running ALGORITHM's own
node code: every order in which messages are delivered (the oldest of a link
under fifo, any message in flight under bag), the initiators waking first, in
node order (a simultaneous start), or with --wake-order all in every order
relative to the deliveries (bounds declared for a simultaneous start are then
not checked, and the report says so), and with --ids all every assignment of
the IDs 1..n (up to rotation on rings). It
checks at every state that no decision changes, that at most one node is
elected and that it holds the promised ID; at every end, that exactly one
leader exists and, when announcing, that every node knows it; and that no
execution runs for ever. It prints the exact largest and smallest number of
messages of each type, and the time (causal depth), over all executions,
each with an ID assignment that reaches it, next to the algorithm's declared
bounds. Synchronous algorithms (--delivery sync) have no scheduling choices:
every ID assignment (and initiator set) is run once.

examples:
  elect check lcr --n 5                      (all 24 assignments up to rotation: 9..15 election messages)
  elect check chang-roberts --n 4 --initiators subsets
  elect check chang-roberts --n 4 --wake-order all   (ELECTION messages 4..10: n, not 2n-1, at least)
  elect check hs --n 4 --ids decreasing --worst worst.jsonl
  elect check time-slice --n 6 --delivery sync
  elect check peterson --n 4 --variant untagged --delivery bag --force --counterexample bad.jsonl

Population protocols with few states (angluin, epidemic, approx-majority;
the name first: 'elect check angluin --n 8') are checked over their graph of
configurations (how many agents are in each state): every fair execution must
end in a correct stable configuration (every bottom strongly connected
component correct), and the probability of each ending under the uniformly
random scheduler is computed exactly.

Randomized algorithms on unidirectional rings (itai-rodeh, lcr-random):
--draws makes every draw a branch into each value of the range the algorithm
declares (Itai-Rodeh's ids in 1..n; lcr-random's 2^bits keys), cuts
executions after --max-draws draws, and prints the exact probability of each
message count (a fraction), next to the rate measured over --trials runs of
the simulator:
  elect check itai-rodeh --n 3 --draws --max-draws 9
  elect check lcr-random --n 4 --bits 2 --draws

--faults explores faults: crash:k=F every execution with at most F crashes
(any node, before any step or right after any of its steps), loss:k=L every
choice of at most L lost messages (any message in flight), dup:k=D of at
most D duplicated ones, joined with ';'. Only budgets can be enumerated: a
probability (loss:p=0.01) or a drawn schedule is refused (elect sweep
measures rates). A violation under a fault
the algorithm does not declare it tolerates ('elect list': tolerates) is an
expected failure (verdict expected-failure, exit 4); under faults it
tolerates, a violation (exit 1). The counterexample names its faults as an
explicit schedule (--faults 'loss:msg=4;crash:node=2@step=3'), which the
trace's header carries and 'elect run --replay' applies:
  elect check lcr --n 4 --faults loss:k=1      (no leader after one loss: 8 steps)
  elect check bully --n 5 --faults crash:k=2   (71,760 runs, 54,840 distinct fault schedules: one leader among the survivors)

A violation prints the shortest execution that breaks the property, step by
step, and is always saved as a trace: to --counterexample FILE, or to a new
file named after the check (ALG-nN-PROPERTY.jsonl) in the current directory.
The report prints the 'elect run ... --replay FILE' command that replays it;
--worst writes an execution with the most messages the same way.

Before it starts, the check counts its configurations and refuses (exit 2)
what its memory guard says cannot fit; on a terminal it shows its progress.
Ctrl-C (or SIGTERM, SIGHUP) stops it and prints the report of the
configurations that finished (verdict incomplete, exit 130, 143 or 129).

Exit status: 0 when every property holds in every execution and every
declared bound holds; 1 when a property fails (verdict violation), a bound
fails (bound-failed) or the search was incomplete; 4 when a property fails
only under a fault the algorithm does not tolerate (expected-failure); 2 for
bad input or a check too large for memory; 130 (143, 129) when a signal
stopped it.

flags:
`

func checkCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		if e, ok := check.LookupPopulation(args[0]); ok {
			if _, alg := cat.Lookup(args[0]); !alg {
				return checkPopulation(e, args[1:], stdout)
			}
		}
	}
	fs := newFlagSet("check", checkUsage)
	var f checkFlags
	f.register(fs, cat)
	name, err := parseOne(fs, args, stdout, "check takes one algorithm name (got %d); 'elect list' shows them")
	if err != nil {
		return err
	}
	opt, err := f.options(fs, cat, name)
	if err != nil {
		return err
	}
	// An output path that cannot be written is said before the search.
	var inputs []cmdio.Path
	if file, ok := strings.CutPrefix(f.topo, "file:"); ok {
		inputs = append(inputs, input("--topology file:", file))
	}
	if err := declareFiles("check", inputs, output("--counterexample", f.counter), output("--worst", f.worst)); err != nil {
		return err
	}
	var bar *checkProgress
	if isTerminal(stderr) {
		est, err := check.Estimated(opt)
		if err != nil {
			return usagef("%v", err)
		}
		bar = newCheckProgress(stderr, est, f.maxStates)
		opt.Progress = bar.update
	}
	opt.Stop = cmdio.Watch().Done()
	r, err := check.Run(opt)
	bar.finish()
	if err != nil {
		return usagef("%v", err)
	}
	return f.report(r, opt.IDs, opt.Spec, stdout, stderr)
}

// report saves the counterexample and the worst execution, prints the
// report and gives the exit status its verdict calls for.
func (f *checkFlags) report(r *check.Report, idText string, spec scenario.Spec, stdout, stderr io.Writer) error {
	if r.Verdict == "violation" || r.Verdict == "expected-failure" {
		// The execution is always saved, in --counterexample or a file
		// of its own, as a model checker saves its error trace.
		path, err := saveCounterexample(f.counter, r)
		if err != nil {
			return err
		}
		r.Counterexample = path
	}
	var worstNote string
	if f.worst != "" {
		wrote, err := writeTrace(f.worst, func(w io.Writer) (bool, error) { return r.WriteExtreme(w, len(r.Extremes)-2, true) })
		switch {
		case err != nil:
			return err
		case !wrote && r.Finished == 0:
			worstNote = fmt.Sprintf("no --worst execution written: no configuration's search ended (verdict %s)", r.Verdict)
		case !wrote:
			worstNote = "no --worst execution written: a synchronous check's runs are rerun with their IDs (elect run --ids)"
		}
	}
	if f.json {
		r.Replay = replayCommand(r, spec)
		if err := writeJSONLine(stdout, r); err != nil {
			return err
		}
	} else {
		printCheck(stdout, r, idText, replayCommand(r, spec))
	}
	if worstNote != "" {
		fmt.Fprintf(stderr, "elect: %s\n", worstNote)
	}
	switch {
	case r.Interrupted:
		fmt.Fprintf(stderr, "elect: check %s: %d of %d configurations finished; the report is of those\n", stoppedBy(), r.Finished, r.Configurations)
		return errInterrupted
	case r.Verdict == "expected-failure":
		return errExpectedFailure
	case r.Verdict != "ok":
		return errFailed
	}
	return nil
}

// saveCounterexample writes r's violating execution as a trace to path, or,
// when path is "", to a new file named after the check in the current
// directory (never one that exists). It returns the path written, or ""
// when the check has no trace to write (a synchronous check: its runs are
// rerun with their IDs; --draws).
func saveCounterexample(path string, r *check.Report) (string, error) {
	var buf bytes.Buffer
	wrote, err := r.WriteCounterexample(&buf)
	if err != nil && r.Probabilities == nil {
		return "", err
	}
	if !wrote || err != nil {
		return "", nil
	}
	if path != "" {
		_, err := writeTrace(path, func(w io.Writer) (bool, error) { _, err := w.Write(buf.Bytes()); return true, err })
		return path, err
	}
	base := fmt.Sprintf("%s-n%d-%s", r.Algorithm, r.N, cmp.Or(r.Property, "violation"))
	for k := 1; k < 1000; k++ {
		name := base + ".jsonl"
		if k > 1 {
			name = fmt.Sprintf("%s-%d.jsonl", base, k)
		}
		switch err := createNew(name, buf.Bytes()); {
		case err == nil:
			return name, nil
		case !errors.Is(err, fs.ErrExist):
			return "", fmt.Errorf("saving the counterexample: %w", err)
		}
	}
	return "", fmt.Errorf("saving the counterexample: %s.jsonl and 998 numbered files like it exist; give --counterexample FILE", base)
}

// createNew writes data to a new file name, through a temporary file
// linked into place, so that neither an existing file nor a partial one
// is ever left at name.
func createNew(name string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".elect-check-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Link(tmp.Name(), name)
}

// writeTrace writes a trace to path through write, via a temporary file
// renamed into place; when write reports that there is nothing to write,
// no file is made.
func writeTrace(path string, write func(io.Writer) (bool, error)) (bool, error) {
	f, err := atomicfile.Create(path, 0o666)
	if err != nil {
		return false, usagef("%v", err)
	}
	defer f.Abort()
	w := bufio.NewWriter(f)
	wrote, err := write(w)
	if err == nil {
		err = w.Flush()
	}
	if err != nil || !wrote {
		return false, err
	}
	if err := f.Commit(); err != nil {
		return false, err
	}
	return true, nil
}

// replayCommand is the 'elect run' command that replays r's counterexample:
// the algorithm, n and IDs, and every option of the check that changes the
// run (the topology, the algorithm's parameters, --announce, --force, the
// seed of a randomized algorithm, the delivery and the initiators).
//
// A synchronous check writes no trace (its runs have no other schedule):
// the command then reruns the violating configuration.
func replayCommand(r *check.Report, spec scenario.Spec) string {
	sync := r.Delivery == "sync" && r.Violation != ""
	if r.Counterexample == "" && !sync {
		return ""
	}
	args := []string{"elect", "run", r.Algorithm, "--n", strconv.Itoa(r.N), "--ids", strings.TrimPrefix(check.IDsFlag(r.ViolationIDs), "list:")}
	if spec.Topology != "" {
		args = append(args, "--topology", spec.Topology)
	}
	for _, k := range slices.Sorted(maps.Keys(spec.Params)) {
		args = append(args, "--"+k, spec.Params[k])
	}
	if spec.Announce {
		args = append(args, "--announce")
	}
	if spec.Force {
		args = append(args, "--force")
	}
	if r.Seed != 0 {
		args = append(args, "--seed", strconv.FormatUint(r.Seed, 10))
	}
	switch r.Delivery {
	case "bag":
		args = append(args, "--delivery", "random") // a bag execution: the replay takes the message each line names
	case "sync":
		args = append(args, "--delivery", "sync")
	}
	if r.ViolationWake != nil {
		args = append(args, "--initiators", strings.TrimSpace(wakeText(r.ViolationWake)))
	}
	if r.FaultSchedule != "" && r.Counterexample == "" {
		// A rerun applies the schedule; a replay takes it from the
		// record's header.
		args = append(args, "--faults", r.FaultSchedule)
		if sync && r.Broken.Property == election.PropNonTermination {
			// The run that goes on for ever, to the check's limit.
			args = append(args, "--max-events", strconv.FormatInt(r.MaxEvents, 10))
		}
	}
	if r.Counterexample != "" {
		args = append(args, "--replay", r.Counterexample)
	}
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

func plural(k int, one, many string) string {
	if k == 1 {
		return one
	}
	return many
}

// budgetText says a fault budget in words: "at most 2 crashes and at most
// 1 lost message".
func budgetText(spec string) string {
	var parts []string
	for _, c := range strings.Split(spec, ";") {
		kind, k, _ := strings.Cut(c, ":k=")
		noun := map[string]string{"crash": "crash", "loss": "lost message", "dup": "duplicated message"}[kind]
		if k != "1" {
			noun = map[string]string{"crash": "crashes", "loss": "lost messages", "dup": "duplicated messages"}[kind]
		}
		parts = append(parts, "at most "+k+" "+noun)
	}
	return strings.Join(parts, " and ")
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./:,@=+%", c))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func printCheck(w io.Writer, r *check.Report, idText, replay string) {
	configs := fmt.Sprintf("%d configurations", r.Configurations)
	if r.Configurations == 1 {
		configs = "1 configuration"
	}
	if r.Delivery == "sync" && r.Faults != "" {
		// Each state of a synchronous check is a run; a run one of whose
		// faults did not happen repeats a smaller schedule's.
		fmt.Fprintf(w, "%s, n = %d, %s delivery, ids %s: %s, %d runs (%d distinct fault schedules), %d events, %.2f s\n",
			r.Algorithm, r.N, r.Delivery, idText, configs, r.States, r.FaultSchedules, r.Transitions, r.Seconds)
	} else {
		fmt.Fprintf(w, "%s, n = %d, %s delivery, ids %s: %s, %d states, %d transitions, %.2f s\n",
			r.Algorithm, r.N, r.Delivery, idText, configs, r.States, r.Transitions, r.Seconds)
	}
	fmt.Fprintf(w, "verdict   %s\n", r.Verdict)
	if r.Interrupted {
		fmt.Fprintf(w, "          interrupted: %d of %d configurations finished before %s\n", r.Finished, r.Configurations, signalName())
	}
	if r.Reduction != "none" {
		fmt.Fprintf(w, "          %s reduction: one node's deliveries stand for all where they can (--reduction none explores every interleaving)\n", r.Reduction)
	}
	if r.WakeOrder == "all" {
		fmt.Fprintln(w, "          wake order: every order of the initiators' wake-ups and the deliveries (an initiator a message reaches first is woken by it)")
	}
	if r.Faults != "" {
		fmt.Fprintf(w, "faults    every execution with %s (%s tolerates %s); the declared bounds, promises without faults, are not checked\n", budgetText(r.Faults), r.Algorithm, r.Tolerates)
		if r.Verdict == "expected-failure" {
			fmt.Fprintf(w, "          an expected failure: %s does not declare that it tolerates the faults that break it\n", r.Algorithm)
		}
	}
	if r.Seed != 0 && r.Probabilities == nil {
		fmt.Fprintf(w, "          %s is randomized: its draws are fixed by --seed %d (every schedule of that seed's draws, not every coin flip)\n", r.Algorithm, r.Seed)
	}
	if r.Violation != "" {
		wake := ""
		if r.ViolationWake != nil {
			wake = " --initiators" + wakeText(r.ViolationWake)
		}
		if r.FaultSchedule != "" {
			wake += " --faults " + shellQuote(r.FaultSchedule)
		}
		fmt.Fprintf(w, "violation %s\n          with --ids %s%s\n", r.Violation, check.IDsFlag(r.ViolationIDs), wake)
		if r.Delivery == "sync" && r.FaultSchedule != "" {
			faults := strings.Count(r.FaultSchedule, ";") + 1
			what := fmt.Sprintf("%d events", r.CounterexampleSteps)
			if r.Broken.Property == election.PropNonTermination {
				what = "it runs to the event limit"
			}
			fmt.Fprintf(w, "          the failing run with the fewest faults (then the fewest events): %d %s, %s\n", faults, plural(faults, "fault", "faults"), what)
		}
		if r.Delivery != "sync" {
			fmt.Fprintf(w, "          cost: %d states and %d transitions to find a violation, %d states and %d transitions to find the shortest (breadth-first)\n",
				r.States, r.Transitions, r.ShortestStates, r.ShortestTransitions)
			if r.ShortestCut > 0 {
				fmt.Fprintf(w, "          the search for the shortest took its state limit (--max-states in all, after the first configuration) in %d configurations: the execution below is the shortest found, not surely the shortest\n", r.ShortestCut)
			}
		}
		printSteps(w, r)
		switch {
		case replay != "" && r.Counterexample != "":
			fmt.Fprintf(w, "          the execution is in %s; replay it:\n          %s\n", r.Counterexample, replay)
		case replay != "":
			fmt.Fprintf(w, "          a synchronous run has no other schedule; rerun it:\n          %s\n", replay)
		}
		return
	}
	if r.Verdict == "incomplete" && !r.Interrupted {
		if r.Finished == 0 {
			fmt.Fprintln(w, "          every configuration reached --max-states before its search ended: no extremes (raise --max-states)")
			return
		}
		fmt.Fprintf(w, "          %d of %d configurations reached --max-states: the extremes below are over the other %d\n", r.Configurations-r.Finished, r.Configurations, r.Finished)
	}
	if r.Probabilities != nil {
		printProbabilities(w, r.Probabilities)
		return
	}
	if r.Finished == 0 {
		return
	}
	fmt.Fprintf(w, "%-14s %10s  %-22s %10s  %s\n", "over all", "min", "reached with --ids", "max", "reached with --ids")
	for _, e := range r.Extremes {
		name := e.Quantity
		if name == "time" {
			name = "time (depth)"
			if r.Delivery == "sync" {
				name = "time (rounds)"
			}
		}
		fmt.Fprintf(w, "%-14s %10d  %-22s %10d  %s\n", name, e.Min, strings.TrimPrefix(check.IDsFlag(e.MinIDs), "list:")+wakeText(e.MinWake), e.Max, strings.TrimPrefix(check.IDsFlag(e.MaxIDs), "list:")+wakeText(e.MaxWake))
	}
	if len(r.Bounds) > 0 {
		fmt.Fprintln(w, "bounds (in every configuration)")
	}
	for _, b := range r.Bounds {
		verdict := "ok  "
		if !b.Holds {
			verdict = "FAIL"
		}
		how := fmt.Sprintf("closest: %s against %s", format.Number(b.Worst, 6), format.Number(b.Bound, 6))
		if b.Holds && b.Worst == b.Bound {
			how += " (tight)"
		}
		if !b.Holds {
			how += " with --ids " + strings.TrimPrefix(check.IDsFlag(b.WorstIDs), "list:")
		}
		fmt.Fprintf(w, "  %s  %s  %s\n", verdict, b.Name, how)
	}
	for _, name := range r.SimultaneousOnly {
		fmt.Fprintf(w, "  --    %s  not checked: declared for a simultaneous start, and the initiators wake in every order\n", name)
	}
}

// checkProgress is the progress line of a check on a terminal: the
// configurations done (with the time left, from their rate), the distinct
// states so far and per second, and the states to expect in all, from the
// configurations done so far.
type checkProgress struct {
	bar *progressBar
	// single: one configuration, whose share done is its states against
	// --max-states (the time left is then an upper bound).
	single bool
}

// newCheckProgress prints the estimate of a check on w (a terminal) and
// starts its progress line.
func newCheckProgress(w io.Writer, est *check.Estimate, maxStates int64) *checkProgress {
	configs := groupInt(est.Configurations) + " configurations"
	if est.Configurations == 1 {
		configs = "1 configuration"
	}
	fmt.Fprintf(w, "elect: checking %s (%s), up to %s of memory (the guard: %s)\n",
		configs, est.Describe, scenario.BytesString(int64(est.Bytes)), scenario.BytesString(est.Limit))
	if est.Configurations <= 1 {
		return &checkProgress{bar: newProgressBar(w, "check", maxStates, "at most: at --max-states"), single: true}
	}
	return &checkProgress{bar: newProgressBar(w, "check", est.Configurations, "")}
}

func (p *checkProgress) update(pr check.Progress) {
	if p == nil {
		return
	}
	rate := float64(pr.States) / max(pr.Elapsed.Seconds(), 1e-9)
	text := fmt.Sprintf("%s/%s configurations, %s states, %s states/s", groupInt(pr.Done), groupInt(pr.Configurations), groupInt(pr.States), groupInt(int64(rate)))
	if pr.Done > 0 && pr.Done < pr.Configurations {
		text += fmt.Sprintf(", about %s states in all", groupInt(pr.States*pr.Configurations/pr.Done))
	}
	if p.single {
		p.bar.set(pr.States, text)
		return
	}
	p.bar.set(pr.Done, text)
}

func (p *checkProgress) finish() {
	if p != nil {
		p.bar.finish()
	}
}

// groupInt writes k with thousands separators.
func groupInt(k int64) string {
	s := strconv.FormatInt(k, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// printSteps prints the violating execution as numbered steps: who
// wakes, who delivers what from whom, what each node sends and decides,
// and where the property breaks.
func printSteps(w io.Writer, r *check.Report) {
	steps := r.Steps()
	if len(steps) == 0 {
		return
	}
	what := "the shortest execution that breaks it"
	if r.ShortestCut > 0 {
		what = "the shortest execution found that breaks it"
	}
	if r.Broken.Property == election.PropNonTermination {
		what = "an execution that goes round for ever: the way into the cycle and once round it"
	}
	fmt.Fprintf(w, "          %s, %d steps:\n", what, len(steps))
	width := len(strconv.Itoa(len(steps)))
	for k, st := range steps {
		var b strings.Builder
		switch {
		case st.Fault == "crashed-at-start":
			fmt.Fprintf(&b, "node %d crashes before anything happens", st.Node)
		case st.Fault == "lost":
			fmt.Fprintf(&b, "%s from node %d to node %d (%s port) is lost", st.Message, st.From, st.Node, st.Port)
		case st.Fault == "duplicated":
			fmt.Fprintf(&b, "%s from node %d to node %d (%s port) is duplicated: a copy follows it", st.Message, st.From, st.Node, st.Port)
		case st.Fault == "crashed-before-message":
			fmt.Fprintf(&b, "%s from node %d wakes node %d (%s port), which crashes before taking it", st.Message, st.From, st.Node, st.Port)
		case st.Wake:
			fmt.Fprintf(&b, "node %d wakes up (initiator)", st.Node)
		case st.Dropped:
			fmt.Fprintf(&b, "node %d drops %s from node %d (%s port): it has halted", st.Node, st.Message, st.From, st.Port)
		default:
			fmt.Fprintf(&b, "node %d receives %s from node %d (%s port)", st.Node, st.Message, st.From, st.Port)
		}
		if len(st.Sent) > 0 {
			fmt.Fprintf(&b, ", sends %s", strings.Join(st.Sent, ", "))
		}
		if st.Decided != "" {
			fmt.Fprintf(&b, ", decides %s", st.Decided)
		}
		if st.Learned != "" {
			fmt.Fprintf(&b, ", learns leader %s", st.Learned)
		}
		if st.Fault == "crashed" {
			b.WriteString(", then crashes")
		}
		if st.Broken.Found() {
			fmt.Fprintf(&b, "   <- %s", st.Broken.Name())
		}
		if st.LoopStart {
			fmt.Fprintf(w, "          -- the cycle starts here --\n")
		}
		fmt.Fprintf(w, "  %*d. %s\n", width, k+1, b.String())
	}
	if r.Broken.Property == election.PropNonTermination {
		fmt.Fprintf(w, "          -- back to the state where the cycle started --\n")
	} else if !steps[len(steps)-1].Broken.Found() {
		fmt.Fprintf(w, "          -- the execution ends here: %s --\n", r.Property)
	}
}

// printProbabilities prints the exact probabilities of a check with
// --draws, next to the simulator's rates.
func printProbabilities(w io.Writer, p *check.Probabilities) {
	fmt.Fprintf(w, "          every draw is one of %d equally likely values; executions are cut after %d draws\n", p.Draws, p.MaxDraws)
	fmt.Fprintf(w, "ends      %s (one leader, every check held, within %d draws)\n", p.Ends, p.MaxDraws)
	fmt.Fprintf(w, "cut       %s (more draws needed)\n", p.Cut)
	measured := "simulator"
	if p.Trials > 0 {
		measured = fmt.Sprintf("simulator (%d runs, seeds 1..%d)", p.Trials, p.Trials)
	}
	fmt.Fprintf(w, "%-9s %-28s %s\n", "messages", "probability (exact)", measured)
	for _, m := range p.Messages {
		prob := m.Probability.String()
		if p.ExactBelow >= 0 && m.Messages >= p.ExactBelow {
			prob += " +cut" // executions cut at the cap may end with this count too
		}
		rate := ""
		if p.Trials > 0 {
			rate = fmt.Sprintf("%.4f ± %.4f", m.Measured, m.MeasuredSE)
		}
		fmt.Fprintf(w, "%-9d %-28s %s\n", m.Messages, prob, rate)
	}
	if p.ExactBelow >= 0 {
		fmt.Fprintf(w, "          below %d messages the probabilities are complete; from %d on (+cut), executions cut at the cap may add to them\n", p.ExactBelow, p.ExactBelow)
	}
}

const checkPopulationUsage = `usage: elect check PROTOCOL --n N [--max-states K] [--json] [protocol flags]

Explores the graph of configurations of a population protocol (how many of
the n agents are in each state; every ordered pair of agents may interact
next). Under the fairness of population protocols every execution ends in a
bottom strongly connected component of that graph and visits all of it, so
the protocol is correct from its initial configuration exactly when every
bottom component is: the goal reached and, for protocols that start with
leaders, exactly one. Each bottom component is printed with one of its
configurations, a shortest way into it, and the probability that the
uniformly random scheduler ends there (exact, over the same graph).

protocols: angluin, epidemic (--variant prose|literal), approx-majority (--a A)

examples:
  elect check angluin --n 10
  elect check approx-majority --n 10 --a 6    (two endings: all A with probability 0.746, all B)

Exit status: 0 when every bottom component is correct; 1 when one is not (or
the search was incomplete); 2 for bad input.

flags:
`

func checkPopulation(e check.PopulationEntry, args []string, stdout io.Writer) error {
	fs := newFlagSet("check", checkPopulationUsage)
	var n int
	sizeVar(fs, &n, "n", 6, "number of agents (the configurations grow like n^(states-1))")
	maxStates := fs.Int64("max-states", 2_000_000, "stop after this many configurations (verdict incomplete)")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	params := map[string]*string{}
	for _, p := range e.Params {
		params[p.Name] = fs.String(p.Name, "", p.Help+" (default "+p.Default+")")
	}
	pos, err := parseInterleaved(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("check %s takes no other argument (got %q)", e.Name, pos)
	}
	if *maxStates < 1 {
		return usagef("--max-states must be at least 1, got %d", *maxStates)
	}
	o := check.PopulationOptions{Protocol: e.Name, N: n, MaxStates: *maxStates, Params: map[string]string{}}
	for k, v := range params {
		o.Params[k] = *v
	}
	r, err := e.Run(o)
	if err != nil {
		return usagef("%v", err)
	}
	if *asJSON {
		if err := writeJSONLine(stdout, r); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "%s, n = %d: %d configurations, %d transitions, %.2f s\n", r.Protocol, r.N, r.Configurations, r.Transitions, r.Seconds)
		fmt.Fprintf(stdout, "property  %s\n", r.Property)
		fmt.Fprintf(stdout, "verdict   %s\n", r.Verdict)
		if r.Violation != "" {
			fmt.Fprintf(stdout, "violation %s\n", r.Violation)
		}
		if r.Verdict != "incomplete" {
			fmt.Fprintf(stdout, "initial   %s\n", r.Initial)
			for _, b := range r.Bottoms {
				verdict := "correct"
				if !b.Correct {
					verdict = "WRONG"
				}
				size := "1 configuration"
				if b.Configurations != 1 {
					size = fmt.Sprintf("%d configurations", b.Configurations)
				}
				fmt.Fprintf(stdout, "ending    %-7s %s (%s), probability %.6f, reached in %d interactions: %s\n",
					verdict, b.Example, size, b.Probability, len(b.Path), strings.Join(b.Path, " "))
			}
			fmt.Fprintf(stdout, "P(correct ending) = %.6f under the uniformly random scheduler\n", r.CorrectProbability)
		}
	}
	if r.Verdict != "ok" {
		return errFailed
	}
	return nil
}

// wakeText writes the wake-up rounds that reach an extreme as the
// --initiators of 'elect run' (" nodes:0@0,2@1"), or "" when the check did
// not choose initiators.
func wakeText(rounds []int64) string {
	if rounds == nil {
		return ""
	}
	var parts []string
	for i, r := range rounds {
		if r >= 0 {
			parts = append(parts, fmt.Sprintf("%d@%d", i, r))
		}
	}
	return " nodes:" + strings.Join(parts, ",")
}
