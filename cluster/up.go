package cluster

import (
	"bufio"
	"bytes"
	"encoding/json"
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
	"github.com/electkit/elect/internal/atomicfile"
	"github.com/electkit/elect/reference"
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
}

// Up runs every node of the cluster in dir as a child process, gathers
// their lines and judges the election (Judge). The record's WallSeconds is
// the time from the first start to the last exit.
func Up(dir string, opt UpOptions) (*scenario.Record, []*NodeResult, error) {
	d, _, err := Load(dir, opt.Catalog)
	if err != nil {
		return nil, nil, err
	}
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
	traceDir := ""
	if opt.Trace != "" || d.Faults != "" {
		// A run with faults is always recorded: the cause is taken from
		// its record (causeFromRecord).
		if traceDir, err = os.MkdirTemp("", "elect-cluster-trace-"); err != nil {
			return nil, nil, err
		}
		defer os.RemoveAll(traceDir)
	}
	lines := make([]*NodeResult, d.N)
	exits := make([]string, d.N)
	var logMu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	procs := make([]*exec.Cmd, d.N)
	// What the nodes' goroutines and the fault timers share, under mu:
	// which nodes have exited and when, and which were found silent.
	var mu sync.Mutex
	exitedAt := make([]time.Duration, d.N)
	exited := make([]bool, d.N)
	silent := make([]string, d.N)
	firstExit := make(chan struct{})
	var firstOnce sync.Once
	for i := range d.N {
		if slices.Contains(opt.Skip, i) {
			exits[i] = "was never started"
			continue
		}
		args := append(slices.Clone(opt.Command[1:]), NodeDir(dir, i), "--index", strconv.Itoa(i), "--timeout", opt.Timeout.String())
		if traceDir != "" {
			args = append(args, "--trace", filepath.Join(traceDir, NodeName(i)+".jsonl"))
		}
		cmd := exec.Command(opt.Command[0], args...)
		var out bytes.Buffer
		cmd.Stdout = &out
		stderr, err := cmd.StderrPipe()
		if err != nil {
			return nil, nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, nil, fmt.Errorf("starting node %d: %v", i, err)
		}
		procs[i] = cmd
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				logMu.Lock()
				fmt.Fprintf(opt.Log, "[node %d] %s\n", i, sc.Text())
				logMu.Unlock()
			}
			err := cmd.Wait()
			mu.Lock()
			exited[i], exitedAt[i] = true, time.Since(start)
			mu.Unlock()
			firstOnce.Do(func() { close(firstExit) })
			var line NodeResult
			if json.Unmarshal(bytes.TrimSpace(out.Bytes()), &line) == nil {
				lines[i] = &line
			}
			var ee *exec.ExitError
			mu.Lock()
			why := silent[i]
			mu.Unlock()
			switch {
			case why != "":
				exits[i] = why
			case errors.As(err, &ee) && !ee.Exited():
				exits[i] = fmt.Sprintf("was killed (%v)", ee)
			case err != nil:
				exits[i] = fmt.Sprintf("exited with %v", err)
			}
		}()
	}
	// Faults to inject, timed from the run's start; a kill that finds its
	// node gone did nothing, and says so.
	type pending struct {
		timer *time.Timer
		late  func()
	}
	var injected []pending
	inject := func(k Kill, what string, sig os.Signal) {
		p := procs[k.Index]
		if p == nil {
			return
		}
		late := func() {
			fmt.Fprintf(opt.Late, "%s %d@%v came too late: node %d had exited %.3g s after the start, so it did nothing\n",
				what, k.Index, k.After, k.Index, exitedAt[k.Index].Seconds())
		}
		injected = append(injected, pending{late: late, timer: time.AfterFunc(time.Until(start.Add(k.After)), func() {
			mu.Lock()
			defer mu.Unlock()
			if exited[k.Index] {
				late()
				return
			}
			p.Process.Signal(sig)
		})})
	}
	for _, k := range opt.Kills {
		inject(k, "--kill", os.Kill)
	}
	for _, k := range opt.Stops {
		inject(k, "--stop", syscall.SIGSTOP)
	}
	// Once a node has exited, the others have Grace to follow; a node
	// still running then is silent: named, and killed.
	allDone := make(chan struct{})
	go func() {
		select {
		case <-firstExit:
		case <-allDone:
			return
		}
		mu.Lock()
		first := -1
		for i, e := range exited {
			if e && (first < 0 || exitedAt[i] < exitedAt[first]) {
				first = i
			}
		}
		mu.Unlock()
		select {
		case <-time.After(opt.Grace):
		case <-allDone:
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for i, p := range procs {
			if p != nil && !exited[i] {
				silent[i] = fmt.Sprintf("was silent: still running %v after node %d exited (stopped or hung), killed", opt.Grace, first)
				p.Process.Kill()
			}
		}
	}()
	wg.Wait()
	close(allDone)
	for _, k := range injected {
		if k.timer.Stop() { // every node exited before its time came
			mu.Lock()
			k.late()
			mu.Unlock()
		}
	}
	wall := time.Since(start)
	rec, err := Judge(d, opt.Catalog, lines, exits)
	if err != nil {
		return nil, lines, err
	}
	rec.WallSeconds = wall.Seconds()
	if t := rec.Transport; t != nil && wall > 0 {
		t.WallSeconds = wall.Seconds()
		t.MessagesPerSecond = float64(rec.Messages) / wall.Seconds()
	}
	if traceDir != "" {
		merged := opt.Trace
		if merged == "" {
			merged = filepath.Join(traceDir, "merged.jsonl")
		}
		if err := mergeTraces(traceDir, d.N, merged); err != nil {
			return rec, lines, err
		}
		if d.Faults != "" {
			causeFromRecord(d, opt.Catalog, rec, merged)
		}
	}
	return rec, lines, nil
}

// causeFromRecord sets the cause of a run with faults from the replay of
// its merged record: the monitor takes a failed run's cause from the
// promised leader's causal path, which it follows message by message,
// and only the record has every message (Judge sees the nodes' lines,
// which list the faults alone). A record that does not replay (a node was
// lost) leaves Judge's cause, the first fault in the record's order.
func causeFromRecord(d *Description, cat *catalog.Catalog, rec *scenario.Record, merged string) {
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
	res, err := reference.Replay(*cfg, f)
	if err == nil && res.Faults != nil {
		rec.Result.Faults.Cause = res.Faults.Cause
	}
}

// mergeTraces merges the nodes' traces into one file ordered by (Lamport
// time, node), keeping each node's own order: an order consistent with
// causality, since a delivery's time exceeds that of the handler that sent
// the message. Every node's trace begins with the same header (format
// version 2) but for nothing; the merged file has it once, first. A node's
// lines come in the order of its Lamport clock, which never goes back, so
// the merge streams: it holds one line per node, never a whole trace.
func mergeTraces(dir string, n int, out string) error {
	type cursor struct {
		sc   *bufio.Scanner
		t    int64
		node int
		text []byte
	}
	// next reads c's next event line (false at the end of its file).
	var header []byte
	next := func(c *cursor) bool {
		for c.sc.Scan() {
			text := c.sc.Bytes()
			var head struct {
				T  int64  `json:"t"`
				Ev string `json:"ev"`
			}
			if len(text) == 0 || json.Unmarshal(text, &head) != nil {
				continue
			}
			if head.Ev == "header" {
				if header == nil {
					header = slices.Clone(text)
				}
				continue
			}
			c.t, c.text = head.T, text
			return true
		}
		return false
	}
	var live []*cursor
	for i := range n {
		f, err := os.Open(filepath.Join(dir, NodeName(i)+".jsonl"))
		if err != nil {
			continue // a node that never started or died before writing
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		c := &cursor{sc: sc, node: i}
		if next(c) {
			live = append(live, c)
		}
	}
	less := func(a, b *cursor) bool { return a.t < b.t || a.t == b.t && a.node < b.node }
	f, err := atomicfile.Create(out, 0o666)
	if err != nil {
		return err
	}
	defer f.Abort()
	w := bufio.NewWriter(f)
	if header != nil {
		w.Write(header)
		w.WriteByte('\n')
	}
	for len(live) > 0 {
		k := 0
		for j := range live {
			if less(live[j], live[k]) {
				k = j
			}
		}
		w.Write(live[k].text)
		w.WriteByte('\n')
		if !next(live[k]) {
			live = slices.Delete(live, k, k+1)
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Commit()
}
