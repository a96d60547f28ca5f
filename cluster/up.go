package cluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/scenario"
)

// Kill is a fault to inject: node Index is killed with SIGKILL (or stopped
// with SIGSTOP, in UpOptions.Stops) After the run's start, the moment Up
// begins starting the nodes.
type Kill struct {
	Index int
	After time.Duration
}

// ParseKill reads I@DELAY (node index, Go duration: 3@200ms).
func ParseKill(s string, n int) (Kill, error) {
	idx, delay, ok := strings.Cut(s, "@")
	i, err := strconv.Atoi(idx)
	if !ok || err != nil || i < 0 || i >= n {
		return Kill{}, fmt.Errorf("--kill %q: write I@DELAY with I a node index in 0..%d and DELAY a duration such as 200ms", s, n-1)
	}
	d, err := time.ParseDuration(delay)
	if err != nil || d < 0 {
		return Kill{}, fmt.Errorf("--kill %q: %q is not a duration such as 200ms or 1s", s, delay)
	}
	return Kill{Index: i, After: d}, nil
}

// UpOptions configure `elect cluster up`.
type UpOptions struct {
	// Command is the program and leading arguments that run one node
	// (the elect binary and "node"); Up appends DIR --index I --timeout D.
	Command []string
	Catalog *catalog.Catalog
	Timeout time.Duration
	Kills   []Kill
	// Trace, when set, is the file that receives the nodes' merged trace.
	Trace string
	// Log receives the nodes' log lines, each prefixed by its node.
	Log io.Writer
	// Skip lists nodes not to start (a node that never starts: its peers
	// must report it).
	Skip []int
	// Stops are nodes to stop with SIGSTOP (a node that hangs, silent,
	// without closing its connections).
	Stops []Kill
	// Grace is how long the other nodes may run once one has exited (0:
	// twice Timeout). Nodes still running then are silent (stopped, or
	// hung): Up names them, kills them, and the outcome is fault.
	Grace time.Duration
	// Late receives a line for each kill that came after its node had
	// exited, and so did nothing (nil: discarded).
	Late io.Writer
	// Replay, when set, replays the merged record of a run with faults on
	// an engine (the CLI sets reference.Replay), whose cause then replaces
	// Judge's (causeFromRecord); nil keeps Judge's, the first fault in
	// the record's order.
	Replay func(election.Config, io.Reader) (*election.Result, error)
	// StopWait is how long Up waits for its nodes to end on the SIGTERM it
	// forwards when its context is cancelled, before it kills them (0:
	// DefaultStopWait); closing Hurry (a second signal) ends the wait at
	// once.
	StopWait time.Duration
	Hurry    <-chan struct{}
	// MemLimits, when set, are the nodes' memory limits, by node (each
	// node gets --mem-limit: CheckMemory's shares of the cluster's).
	MemLimits []int64
}

// Up runs every node of the cluster in dir as a child process, gathers
// their lines and judges the election (Judge). The record's WallSeconds is
// the time from the first start to the last exit.
//
// When ctx is cancelled (the CLI cancels it on SIGINT or SIGTERM) Up stops
// the run: it sends SIGTERM to every node still running (and SIGCONT to
// those --stop had stopped, so that they can end), waits for them at most
// opt.StopWait (or until opt.Hurry is closed), kills those still running,
// removes its temporary files, and returns a *StoppedError that says where
// it stopped; nothing is judged.
func Up(ctx context.Context, dir string, opt UpOptions) (*scenario.Record, []*NodeResult, error) {
	d, _, err := Load(dir, opt.Catalog)
	if err != nil {
		return nil, nil, err
	}
	if err := CheckUpDir(dir, d); err != nil {
		return nil, nil, err
	}
	if err := CheckParts(dir, d); err != nil {
		return nil, nil, err
	}
	u := newUpRun(d, dir, opt.withDefaults())
	if opt.Trace != "" || d.Faults != "" && opt.Replay != nil {
		// A run with faults is recorded when its cause can be taken from
		// its record (causeFromRecord).
		if u.traceDir, err = os.MkdirTemp("", "elect-cluster-trace-"); err != nil {
			return nil, nil, err
		}
		defer os.RemoveAll(u.traceDir)
	}
	u.start = time.Now()
	if err := u.startNodes(); err != nil {
		u.killAll()
		u.wg.Wait()
		return nil, nil, err
	}
	u.injectFaults()
	go u.watchGrace()
	cancelled := make(chan struct{})
	go func() {
		defer close(cancelled)
		u.watchCancel(ctx)
	}()
	u.wg.Wait()
	close(u.allDone)
	<-cancelled
	u.reportLate()
	wall := time.Since(u.start)
	if u.stop != nil {
		u.stop.After = wall
		u.stop.Cause = context.Cause(ctx)
		return nil, u.lines, u.stop
	}
	if err := u.refusedOutput(); err != nil {
		return nil, u.lines, err
	}
	return u.judge(wall)
}

// refusedOutput is the error of the first node whose standard output was
// refused (readResult), naming the others, or nil.
func (u *upRun) refusedOutput() error {
	var first error
	var others []int
	for i, err := range u.refused {
		switch {
		case err == nil:
		case first == nil:
			first = err
		default:
			others = append(others, i)
		}
	}
	if len(others) > 0 {
		return fmt.Errorf("%w (and %s's output too)", first, nodeList(others))
	}
	return first
}

// withDefaults fills the options left zero.
func (opt UpOptions) withDefaults() UpOptions {
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if opt.Late == nil {
		opt.Late = io.Discard
	}
	if opt.Grace <= 0 {
		opt.Grace = 2 * opt.Timeout
	}
	if opt.StopWait <= 0 {
		opt.StopWait = DefaultStopWait
	}
	return opt
}

// DefaultStopWait is how long Up waits for its nodes to end on SIGTERM
// before it kills them (UpOptions.StopWait).
const DefaultStopWait = 5 * time.Second

// StoppedError is Up's error when its context was cancelled: where the run
// stopped, and what became of each node.
type StoppedError struct {
	Cause error         // the context's cause (the signal)
	After time.Duration // from the first start to the last exit
	// Exited are the nodes that had exited before the stop, Terminated
	// those that ended on the SIGTERM Up forwarded (Resumed of them had
	// been stopped by --stop and got SIGCONT), Killed those still running
	// after UpOptions.StopWait, killed.
	Exited, Terminated, Resumed, Killed []int
}

func (e *StoppedError) Error() string {
	cause := "cancelled"
	if e.Cause != nil {
		cause = e.Cause.Error()
	}
	return fmt.Sprintf("cluster up stopped (%s) %.3g s after the start: %s had exited, %s ended on SIGTERM (%s resumed from SIGSTOP first), %s killed; nothing judged, temporary files removed",
		cause, e.After.Seconds(), nodeList(e.Exited), nodeList(e.Terminated), nodeList(e.Resumed), nodeList(e.Killed))
}

// nodeList names nodes for people: "no node", "node 3", "nodes 0, 2".
func nodeList(nodes []int) string {
	switch len(nodes) {
	case 0:
		return "no node"
	case 1:
		return "node " + strconv.Itoa(nodes[0])
	}
	text := make([]string, len(nodes))
	for k, i := range nodes {
		text[k] = strconv.Itoa(i)
	}
	return "nodes " + strings.Join(text, ", ")
}

// upRun is one run of Up: the nodes' processes and what their goroutines,
// the fault timers and the watchers share.
type upRun struct {
	d        *Description
	dir      string
	opt      UpOptions
	traceDir string
	start    time.Time
	procs    []*exec.Cmd
	lines    []*NodeResult
	exits    []string
	// refused[i] is why node i's standard output was refused (readResult),
	// killed[i] whether it ended on a signal.
	refused []error
	killed  []bool
	logMu   sync.Mutex
	wg      sync.WaitGroup
	// Under mu: which nodes have exited and when, which were found silent
	// or stopped by --stop, and the stop when ctx was cancelled.
	mu       sync.Mutex
	exitedAt []time.Duration
	exited   []bool
	silent   []string
	stopped  []bool
	stop     *StoppedError
	// firstExit is closed when a node exits, allDone when all have.
	firstExit chan struct{}
	firstOnce sync.Once
	allDone   chan struct{}
	injected  []pendingFault
}

// pendingFault is a --kill or --stop timed from the run's start, and the
// line to write when it comes after its node exited.
type pendingFault struct {
	timer *time.Timer
	late  func()
}

func newUpRun(d *Description, dir string, opt UpOptions) *upRun {
	return &upRun{
		d: d, dir: dir, opt: opt,
		procs: make([]*exec.Cmd, d.N), lines: make([]*NodeResult, d.N), exits: make([]string, d.N),
		refused: make([]error, d.N), killed: make([]bool, d.N),
		exitedAt: make([]time.Duration, d.N), exited: make([]bool, d.N), silent: make([]string, d.N), stopped: make([]bool, d.N),
		firstExit: make(chan struct{}), allDone: make(chan struct{}),
	}
}

// startNodes starts every node not skipped, each watched by a goroutine
// of its own (watchNode).
func (u *upRun) startNodes() error {
	for i := range u.d.N {
		if slices.Contains(u.opt.Skip, i) {
			u.exits[i] = "was never started"
			continue
		}
		args := append(slices.Clone(u.opt.Command[1:]), NodeDir(u.dir, i), "--index", strconv.Itoa(i), "--timeout", u.opt.Timeout.String())
		if u.traceDir != "" {
			args = append(args, "--trace", filepath.Join(u.traceDir, NodeName(i)+".jsonl"))
		}
		if u.opt.MemLimits != nil {
			args = append(args, "--mem-limit", strconv.FormatInt(u.opt.MemLimits[i], 10))
		}
		cmd := exec.Command(u.opt.Command[0], args...)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		stderr, err := cmd.StderrPipe()
		if err != nil {
			return err
		}
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("starting node %d: %v", i, err)
		}
		u.procs[i] = cmd
		u.wg.Add(1)
		go u.watchNode(i, cmd, stderr, stdout)
	}
	return nil
}

// watchNode copies node i's log lines, reads its result line (readResult),
// waits for it, and keeps its line, or why its output was refused, and
// how it exited.
func (u *upRun) watchNode(i int, cmd *exec.Cmd, stderr, stdout io.ReadCloser) {
	defer u.wg.Done()
	result := make(chan nodeOutput, 1)
	go func() { result <- readResult(stdout, i, u.resultLimits(i)) }()
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		u.logMu.Lock()
		fmt.Fprintf(u.opt.Log, "[node %d] %s\n", i, sc.Text())
		u.logMu.Unlock()
	}
	out := <-result
	err := cmd.Wait()
	u.mu.Lock()
	u.exited[i], u.exitedAt[i] = true, time.Since(u.start)
	why := u.silent[i]
	u.mu.Unlock()
	u.firstOnce.Do(func() { close(u.firstExit) })
	var ee *exec.ExitError
	u.killed[i] = errors.As(err, &ee) && !ee.Exited()
	switch {
	case out.err != nil && out.cut && u.killed[i]:
		// Killed while it printed its result: it has none.
	case out.err != nil:
		u.refused[i] = out.err
	default:
		u.lines[i] = out.line
	}
	switch {
	case why != "":
		u.exits[i] = why
	case u.killed[i]:
		u.exits[i] = fmt.Sprintf("was killed (%v)", ee)
	case err != nil:
		u.exits[i] = fmt.Sprintf("exited with %v", err)
	}
}

// resultLimits are the limits of node i's standard output (resultLimits),
// from the size of its description, which holds its part of the fault
// plan.
func (u *upRun) resultLimits(i int) bounded.Limits {
	var desc int64
	if info, err := os.Stat(filepath.Join(NodeDir(u.dir, i), DescriptionFile)); err == nil {
		desc = info.Size()
	}
	return resultLimits(u.d.N, desc)
}

// injectFaults arms the --kill and --stop timers, timed from the run's
// start; a fault that finds its node gone did nothing, and says so.
func (u *upRun) injectFaults() {
	inject := func(k Kill, what string, sig os.Signal) {
		p := u.procs[k.Index]
		if p == nil {
			return
		}
		late := func() {
			fmt.Fprintf(u.opt.Late, "%s %d@%v came too late: node %d had exited %.3g s after the start, so it did nothing\n",
				what, k.Index, k.After, k.Index, u.exitedAt[k.Index].Seconds())
		}
		u.injected = append(u.injected, pendingFault{late: late, timer: time.AfterFunc(time.Until(u.start.Add(k.After)), func() {
			u.mu.Lock()
			defer u.mu.Unlock()
			switch {
			case u.stop != nil: // the run is being stopped
			case u.exited[k.Index]:
				late()
			default:
				p.Process.Signal(sig)
				u.stopped[k.Index] = u.stopped[k.Index] || sig == syscall.SIGSTOP
			}
		})})
	}
	for _, k := range u.opt.Kills {
		inject(k, "--kill", os.Kill)
	}
	for _, k := range u.opt.Stops {
		inject(k, "--stop", syscall.SIGSTOP)
	}
}

// reportLate writes the line of each fault whose time never came, every
// node having exited before it.
func (u *upRun) reportLate() {
	for _, k := range u.injected {
		if k.timer.Stop() && u.stop == nil {
			u.mu.Lock()
			k.late()
			u.mu.Unlock()
		}
	}
}

// watchGrace gives the other nodes Grace to follow once one has exited; a
// node still running then is silent: named, and killed.
func (u *upRun) watchGrace() {
	select {
	case <-u.firstExit:
	case <-u.allDone:
		return
	}
	u.mu.Lock()
	first := -1
	for i, e := range u.exited {
		if e && (first < 0 || u.exitedAt[i] < u.exitedAt[first]) {
			first = i
		}
	}
	u.mu.Unlock()
	select {
	case <-time.After(u.opt.Grace):
	case <-u.allDone:
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.stop != nil {
		return
	}
	for i, p := range u.procs {
		if p != nil && !u.exited[i] {
			u.silent[i] = fmt.Sprintf("was silent: still running %v after node %d exited (stopped or hung), killed", u.opt.Grace, first)
			p.Process.Kill()
		}
	}
}

// watchCancel stops the run when ctx is cancelled before every node has
// exited (Up's doc).
func (u *upRun) watchCancel(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-u.allDone:
		return
	}
	u.mu.Lock()
	u.stop = &StoppedError{}
	var running []int
	for i, p := range u.procs {
		switch {
		case p == nil:
		case u.exited[i]:
			u.stop.Exited = append(u.stop.Exited, i)
		default:
			running = append(running, i)
			p.Process.Signal(syscall.SIGTERM)
			if u.stopped[i] {
				p.Process.Signal(syscall.SIGCONT) // the SIGTERM waits for it
				u.stop.Resumed = append(u.stop.Resumed, i)
			}
		}
	}
	u.mu.Unlock()
	wait := time.NewTimer(u.opt.StopWait)
	defer wait.Stop()
	select {
	case <-u.allDone:
	case <-wait.C:
	case <-u.opt.Hurry:
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, i := range running {
		if u.exited[i] {
			u.stop.Terminated = append(u.stop.Terminated, i)
		} else {
			u.procs[i].Process.Kill()
			u.stop.Killed = append(u.stop.Killed, i)
		}
	}
}

// killAll kills every node started.
func (u *upRun) killAll() {
	for _, p := range u.procs {
		if p != nil {
			p.Process.Kill()
		}
	}
}

// judge judges the run from the nodes' lines and, with a record, merges it
// (and takes a faulty run's cause from it).
func (u *upRun) judge(wall time.Duration) (*scenario.Record, []*NodeResult, error) {
	rec, err := Judge(u.d, u.opt.Catalog, u.lines, u.exits)
	if err != nil {
		return nil, u.lines, err
	}
	rec.WallSeconds = wall.Seconds()
	if t := rec.Transport; t != nil && wall > 0 {
		t.WallSeconds = wall.Seconds()
		t.MessagesPerSecond = float64(rec.Messages) / wall.Seconds()
	}
	if u.traceDir != "" {
		merged := u.opt.Trace
		if merged == "" {
			merged = filepath.Join(u.traceDir, "merged.jsonl")
		}
		if err := mergeTraces(u.traceDir, u.d.N, merged, u.killed); err != nil {
			return rec, u.lines, err
		}
		if u.d.Faults != "" && u.opt.Replay != nil {
			causeFromRecord(u.d, u.opt.Catalog, rec, merged, u.opt.Replay)
		}
	}
	return rec, u.lines, nil
}

// causeFromRecord sets the cause of a run with faults from the replay of
// its merged record (replay: the CLI's, reference.Replay): the monitor
// takes a failed run's cause from the promised leader's causal path, which
// it follows message by message, and only the record has every message
// (Judge sees the nodes' lines, which list the faults alone). A record that
// does not replay (a node was lost) leaves Judge's cause, the first fault
// in the record's order.
func causeFromRecord(d *Description, cat *catalog.Catalog, rec *scenario.Record, merged string, replay func(election.Config, io.Reader) (*election.Result, error)) {
	if rec.Result == nil || rec.Result.Faults == nil {
		return
	}
	cfg, err := scenario.Build(d.Spec(cat))
	if err != nil {
		return
	}
	cfg.Faults = nil // the record says what happened
	f, err := os.Open(merged)
	if err != nil {
		return
	}
	defer f.Close()
	res, err := replay(*cfg, f)
	if err == nil && res.Faults != nil {
		rec.Result.Faults.Cause = res.Faults.Cause
	}
}
