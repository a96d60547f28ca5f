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

// TestLongDelaysDoNotWait (issue 42: "delay:p=1,d=1000000 ... accepted and
// the run hangs silently"): a delay is late by d time units of the
// simulator's time on every runtime, so LCR on 16 goroutines with every
// message late by 10^6 ends at once with the simulator's figures (its
// messages, delays and time, 10^6 per hop of the leader's round); the flag
// that made a time unit last wall time is retired, and says so.
func TestLongDelaysDoNotWait(t *testing.T) {
	args := []string{"run", "lcr", "--n", "16", "--faults", "delay:p=1,d=1000000", "--json"}
	simCode, sim, _ := runCLI(args...)
	code, live, errOut := runCLI(append(args, "--runtime", "goroutines")...)
	if code != simCode || code == 2 || errOut != "" {
		t.Fatalf("goroutines: exit %d (the simulator's %d), %s", code, simCode, errOut)
	}
	for _, field := range []string{`"messages":`, `"delayed":`, `"time":`} {
		if a, b := jsonField(sim, field), jsonField(live, field); a == "" || a != b {
			t.Errorf("%s %s in the simulator, %s on goroutines", field, a, b)
		}
	}
	if got := jsonField(sim, `"time":`); len(got) < 8 {
		t.Errorf("time %s: every hop late by 10^6 should make it at least 10^7", got)
	}
	wantBadInput(t, []string{"run", "lcr", "--runtime", "goroutines", "--fault-tick", "1ms"}, "-fault-tick; it was retired: a delay fault is late by d time units of the simulator's time on every runtime")
	wantBadInput(t, []string{"cluster", "init", filepath.Join(t.TempDir(), "c"), "--alg", "lcr", "--fault-tick", "1ms"}, "it was retired")
}

// jsonField is the value that follows field (`"name":`) in a JSON line, up
// to the next comma or brace ("" when absent).
func jsonField(line, field string) string {
	_, rest, ok := strings.Cut(line, field)
	if !ok {
		return ""
	}
	end := strings.IndexAny(rest, ",}")
	if end < 0 {
		return ""
	}
	return rest[:end]
}
