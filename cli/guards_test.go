package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// runChild runs the test binary as elect with args, in a process of its
// own, and returns its exit status, output and peak resident memory in
// bytes: the VmHWM the child writes of itself (writePeakRSS), or where
// there is no /proc its rusage, which on Linux starts at this process's
// peak (os/exec's vfork shares its memory until the exec) and so can only
// be larger.
func runChild(t *testing.T, args ...string) (code int, stdout, stderr string, peak int64) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	peakFile := filepath.Join(t.TempDir(), "peak-rss")
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), "ELECT_CLI_AS_MAIN=1", "ELECT_TEST_PEAK_RSS="+peakFile)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatal(err)
	}
	kib, err := strconv.ParseInt(readFileOr(peakFile), 10, 64)
	if err != nil || kib <= 0 {
		ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			t.Skip("no resource usage of a child on this system")
		}
		kib = ru.Maxrss
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String(), kib << 10
}

// readFileOr is the file at path's contents, "" when it cannot be read.
func readFileOr(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// TestMemLimitHoldsWhileRunning (issue 42): HS with every message
// duplicated multiplies its replies at each hop ('elect run hs --n 10000
// --faults dup:p=1 --mem-limit 500MB' passed 16.5 GB before it was
// killed). The memory guard counts the messages the run holds while it
// runs: on every runtime the run stops with outcome memory-limit, the
// line that says so and exit status 1, its process never past the limit
// by more than the program's own memory (a run of 8 nodes). On goroutines
// the fault plan, resolved before the run by a simulator run with the
// same limit (faultplan/resolve; an entry per duplicate), is held through
// the run and comes out of its budget (package runner): 65 MiB before, 49
// now, the program's own 12 included.
func TestMemLimitHoldsWhileRunning(t *testing.T) {
	if testing.Short() {
		t.Skip("three runs of up to a few seconds")
	}
	const limit = 50_000_000
	code, _, errOut, base := runChild(t, "run", "lcr", "--n", "8")
	if code != 0 {
		t.Fatalf("run lcr --n 8: exit %d: %s", code, errOut)
	}
	for _, runtime := range []string{"sim", "reference", "goroutines"} {
		code, out, errOut, peak := runChild(t, "run", "hs", "--n", "2000", "--faults", "dup:p=1", "--mem-limit", "50MB", "--runtime", runtime)
		t.Logf("%s: peak %.1f MiB, the program alone %.1f MiB", runtime, float64(peak)/(1<<20), float64(base)/(1<<20))
		if code != 1 || errOut != "" || !strings.Contains(out, "outcome   memory-limit\n") ||
			!strings.Contains(out, "memory    stopped at --mem-limit: ") || !strings.Contains(out, "verdict   cut-short\n") {
			t.Errorf("%s: exit %d, stderr %q, output\n%s", runtime, code, errOut, out)
		}
		if peak > limit+base {
			t.Errorf("%s: the process peaked at %d bytes, over the limit %d and the program's own %d", runtime, peak, limit, base)
		}
	}
	// The simulator's run is deterministic, to the message.
	code, out, _, _ := runChild(t, "run", "hs", "--n", "2000", "--faults", "dup:p=1", "--mem-limit", "50MB", "--json")
	if code != 1 || !strings.Contains(out, `"outcome":"memory-limit"`) || !strings.Contains(out, `"messages":`+simDupMessages+`,`) {
		t.Errorf("--json: exit %d\n%s", code, out)
	}
}

// simDupMessages is how many messages the simulator's run of HS on 2000
// nodes with every message duplicated had sent when its queues reached
// what --mem-limit 50MB leaves them.
const simDupMessages = "299000"

// TestFaultDelaysOverAnHourRefused (issue 42): on goroutines and TCP a
// time unit of a delay fault lasts --fault-tick of wall time, and a delay
// that holds a message back more than an hour makes a run look hung: it
// is refused before the run, saying what is allowed, unless --force, and
// so is one whose delays add up to more than an hour along the network's
// diameter (the shortest chain of messages an election needs). The
// simulator, whose time is simulated, takes any delay.
func TestFaultDelaysOverAnHourRefused(t *testing.T) {
	wantBadInput(t, []string{"run", "lcr", "--n", "4", "--runtime", "goroutines", "--faults", "delay:p=1,d=3600001"},
		"delay:p=1,d=3600001 holds a message back 3600001 time units of --fault-tick 1ms, 1h0m0.001s of wall time, more than 1h0m0s; use d <= 3600000 at this tick (or a shorter --fault-tick), or --force")
	wantBadInput(t, []string{"run", "lcr", "--n", "4", "--runtime", "goroutines", "--faults", "delay:p=0.5,d=1", "--fault-tick", "1000h"},
		"--fault-tick 1000h0m0s is longer than 1h0m0s")
	// Each delay of 1000 s is under the hour, but LCR's news crosses 8
	// hops of a ring of 16 (its diameter), each late by 10^6 time units.
	wantBadInput(t, []string{"run", "lcr", "--n", "16", "--runtime", "goroutines", "--faults", "delay:p=1,d=1000000"},
		"delay:p=1,d=1000000 makes the run wait 2h13m20s of wall time at least (its news crosses 8 hops, each late by 1000000 time units of --fault-tick 1ms on average), more than 1h0m0s; use smaller delays, a shorter --fault-tick, or --force")
	wantBadInput(t, []string{"run", "lcr", "--n", "16", "--runtime", "goroutines", "--faults", "delay:p=0.25,d=2000000"},
		"makes the run wait 1h6m40s of wall time at least (its news crosses 8 hops, each late by 500000 time units")
	dir := filepath.Join(t.TempDir(), "c")
	wantBadInput(t, []string{"cluster", "init", dir, "--alg", "lcr", "--n", "4", "--faults", "delay:p=1,d=1000", "--fault-tick", "4s"},
		"cluster init: delay:p=1,d=1000 holds a message back 1000 time units of --fault-tick 4s, 1h6m40s of wall time")
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a refused cluster init left %s: %v", dir, err)
	}
	// An hour at most, and the simulator's simulated time, are taken.
	if code, _, errOut := runCLI("run", "lcr", "--n", "4", "--faults", "delay:p=1,d=1000000", "--json"); code == 2 {
		t.Errorf("the simulator refused a long delay: %s", errOut)
	}
	if code, _, errOut := runCLI("run", "lcr", "--n", "4", "--runtime", "goroutines", "--faults", "delay:msg=1,d=10", "--json"); code == 2 || errOut != "" {
		t.Errorf("goroutines refused a delay of 10 ms, or said something: exit %d, %s", code, errOut)
	}
	// A wait under the hour but over 10 s is said before the run starts
	// (stopped here at once by its --time-limit).
	code, _, errOut := runCLI("run", "lcr", "--n", "4", "--runtime", "goroutines", "--faults", "delay:msg=1,d=20000", "--time-limit", "1ms", "--json")
	if code == 2 || !strings.HasPrefix(errOut, "elect: the delays of delay:msg=1,d=20000 make this run wait 20s of wall time at least (each time unit lasts --fault-tick 1ms); Ctrl-C stops it\n") {
		t.Errorf("a 20 s wait: exit %d, stderr %q", code, errOut)
	}
}
