package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startElect starts the test binary as elect (TestMain) with args; the caller
// waits for it.
func startElect(t *testing.T, stdout, stderr *bytes.Buffer, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), "ELECT_CLI_AS_MAIN=1")
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// exitStatus is a finished command's exit status, or -1 when a signal
// killed it.
func exitStatus(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err == nil {
		return 0
	}
	return -2
}

// waitLines waits until path holds at least n line breaks (a minute at
// most).
func waitLines(t *testing.T, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if data, _ := os.ReadFile(path); bytes.Count(data, []byte("\n")) >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never had %d lines", path, n)
}

// TestSweepKeepsFinishedRunsThroughSignalsAndKills (issue 42: "SIGTERM
// and SIGKILL during a sweep, then resume to a byte-identical result"):
// a sweep stopped by SIGINT, SIGTERM or SIGHUP exits 130, 143 or 129 and
// one killed by SIGKILL dies, and either way its --out file holds every
// run that ended, as whole lines, and no temporary file is left; --resume
// then runs only the others, and the file ends byte for byte as an
// uninterrupted sweep's output.
func TestSweepKeepsFinishedRunsThroughSignalsAndKills(t *testing.T) {
	args := []string{"sweep", "lcr", "--n", "2000", "--trials", "400", "--workers", "1"}
	code, fresh, errOut := runCLI(args...)
	if code != 0 {
		t.Fatalf("the uninterrupted sweep: exit %d, %s", code, errOut)
	}
	for _, c := range []struct {
		sig    syscall.Signal
		status int
	}{{syscall.SIGTERM, 143}, {syscall.SIGKILL, -1}, {syscall.SIGINT, 130}, {syscall.SIGHUP, 129}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "runs.jsonl")
			var stdout, stderr bytes.Buffer
			cmd := startElect(t, &stdout, &stderr, append(args, "--out", out)...)
			waitLines(t, out, 2)
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			if got := exitStatus(cmd.Wait()); got != c.status {
				t.Fatalf("exit status %d, want %d; stderr %q", got, c.status, stderr.String())
			}
			if c.status > 0 && !strings.Contains(stderr.String(), "runs written; --resume "+out+" runs the others") {
				t.Errorf("stderr %q does not say how to resume", stderr.String())
			}
			if es, _ := os.ReadDir(dir); len(es) != 1 {
				t.Errorf("%d files in the directory, want only %s", len(es), out)
			}
			data := records(t, out)
			written := bytes.Count(data, []byte("\n"))
			if written == 0 || written == 400 || !bytes.HasSuffix(data, []byte("}\n")) {
				t.Fatalf("%d lines written, ending %q; want some of 400, whole", written, data[max(0, len(data)-40):])
			}
			// Resume the same sweep (one of another grid is refused: the
			// lines carry their grid's fingerprint).
			code, _, errOut := runCLI(append(args, "--resume", out)...)
			if code != 0 || !strings.Contains(errOut, strconv.Itoa(written)+" of 400 runs are already in") {
				t.Fatalf("resume: exit %d, stderr %q", code, errOut)
			}
			if resumed, _ := os.ReadFile(out); string(resumed) != fresh {
				t.Errorf("the resumed file differs from an uninterrupted sweep's output:\n%s\nwant\n%s", resumed, fresh)
			}
		})
	}
}

// TestPPSignalStopsInsideTheTrial (issue 42: a multi-trial pp waited for
// the running trial on Ctrl-C): SIGINT during the first of three long
// trials stops that trial where it is (outcome stopped, as --time-limit
// does) and exits 130 at once. The timeout is generous on purpose: the
// run takes seconds per trial, the stop a tenth of a second, and the test
// asserts the exit and its status, not a speed.
func TestPPSignalStopsInsideTheTrial(t *testing.T) {
	var stdout, stderr bytes.Buffer
	cmd := startElect(t, &stdout, &stderr, "pp", "pll", "--n", "1000000000", "--trials", "3", "--json")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	time.Sleep(300 * time.Millisecond) // inside the first trial (it takes seconds)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if got := exitStatus(err); got != 130 {
			t.Fatalf("exit status %d, want 130; stderr %q", got, stderr.String())
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("pp still running a minute after SIGINT; stderr %q", stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if strings.Contains(stderr.String(), "elect: stopped by SIGINT") {
		return // the signal came before the trials began: ended at once, as promised
	}
	if len(lines) != 1 || !strings.Contains(lines[0], `"outcome":"stopped"`) ||
		!strings.Contains(stderr.String(), "pp interrupted (SIGINT) after 1 of 3 trials") {
		t.Errorf("stdout %q, stderr %q; want the first trial stopped where it was", stdout.String(), stderr.String())
	}
}

// TestStandardOutputFullFails (issue 42: 'elect list > /dev/full' exited
// 0): a command whose standard output cannot be written exits 1 with one
// line that says so.
func TestStandardOutputFullFails(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"list"}, {"version"}, {"--help"}, {"help"}, {"run", "--help"},
		{"run", "lcr", "--n", "8"}, {"run", "lcr", "--n", "8", "--json"},
		{"check", "lcr", "--n", "3"}, {"pp", "angluin", "--n", "50"},
		{"sweep", "lcr", "--n", "8", "--trials", "2"},
	} {
		cmd := exec.Command(self, args...)
		cmd.Env = append(os.Environ(), "ELECT_CLI_AS_MAIN=1")
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		err := cmd.Run()
		if got := exitStatus(err); got != 1 || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%v > /dev/full: exit %d, stderr %q; want 1 and one line", args, got, stderr.String())
		}
	}
}

// TestOutputThatIsAnInputOrAnotherOutputRefused (issue 42: 'view t.jsonl
// --out t.jsonl' replaced the trace with the page, exit 0): for every
// command that writes files, an output that is one of its inputs, or two
// outputs that are the same file (by path, cleaned, or through a link),
// are refused as bad input before any work, and every file stays as it
// was.
func TestOutputThatIsAnInputOrAnotherOutputRefused(t *testing.T) {
	in := t.TempDir()
	trace, sweep, shard1, shard2 := writeInputs(t, in)
	protocol := filepath.Join(in, "p.yaml")
	if data, err := os.ReadFile("../examples/protocols/angluin.yaml"); err != nil {
		t.Fatal(err)
	} else {
		os.WriteFile(protocol, data, 0o644)
	}
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	dotA := filepath.Join(dir, ".", "sub", "..", "a")
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	linked := filepath.Join(dir, "linked.jsonl")
	if err := os.Link(trace, linked); err != nil {
		t.Fatal(err)
	}
	symlinked := filepath.Join(dir, "sym.png")
	os.WriteFile(filepath.Join(dir, "x.png"), nil, 0o644)
	os.Symlink(filepath.Join(dir, "x.png"), symlinked)
	inputBefore, outputBefore := snapshot(t, in), snapshot(t, dir)
	for _, c := range []badInput{
		{[]string{"view", trace, "--out", trace}, "is the input"},
		{[]string{"view", trace, "--svg", linked}, "is the input"},
		{[]string{"view", trace, "--out", a, "--svg", a, "--shiviz", a}, "are the same file"},
		{[]string{"view", trace, "--out", a, "--svg", dotA}, "are the same file"},
		{[]string{"run", "lcr", "--n", "6", "--replay", trace, "--trace", trace}, "is the input"},
		{[]string{"run", "lcr", "--n", "6", "--replay", trace, "--trace", linked}, "is the input"},
		{[]string{"run", "lcr", "--n", "6", "--trace", trace}, "exists; elect never replaces a file it is not continuing"},
		{[]string{"sweep", "lcr", "--n", "8", "--out", a, "--csv", dotA}, "are the same file"},
		{[]string{"sweep", "lcr", "--n", "8,16", "--trials", "2", "--resume", sweep, "--csv", sweep}, "are the same file"},
		{[]string{"sweep", "lcr", "--n", "8", "--out", sweep}, "--resume " + sweep + " adds the runs it lacks"},
		{[]string{"merge", shard1, shard2, "--out", shard2}, "is the input"},
		{[]string{"plot", sweep, "--out", filepath.Join(dir, "x.png") + "," + dir + "/./x.png"}, "are the same file"},
		{[]string{"plot", sweep, "--out", filepath.Join(dir, "x.png") + "," + symlinked}, "are the same file"},
		{[]string{"check", "lcr", "--n", "3", "--counterexample", a, "--worst", a}, "are the same file"},
		{[]string{"pp", protocol, "--trace", protocol}, "is the input"},
	} {
		wantBadInput(t, c.args, c.want)
	}
	if diff := sameTree(inputBefore, snapshot(t, in)); len(diff) > 0 {
		t.Errorf("inputs changed: %v", diff)
	}
	if diff := sameTree(outputBefore, snapshot(t, dir)); len(diff) > 0 {
		t.Errorf("outputs made or changed: %v", diff)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestSweepResumeStartsAMissingFile: --resume of a file that does not
// exist yet starts it, so that one command starts a preemptible shard and
// continues it after a restart; run again, it finds every run in.
func TestSweepResumeStartsAMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shard.jsonl")
	args := []string{"sweep", "lcr", "--n", "8,16", "--trials", "3", "--shard", "1/2", "--resume", path}
	code, _, errOut := runCLI(args...)
	if code != 0 || !strings.Contains(errOut, "does not exist yet; starting it") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	_, fresh, _ := runCLI("sweep", "lcr", "--n", "8,16", "--trials", "3", "--shard", "1/2")
	if got, _ := os.ReadFile(path); string(got) != fresh {
		t.Fatalf("the started file holds\n%s\nwant\n%s", got, fresh)
	}
	code, _, errOut = runCLI(args...)
	if got, _ := os.ReadFile(path); code != 0 || !strings.Contains(errOut, "3 of 3 runs are already in") || string(got) != fresh {
		t.Errorf("again: exit %d, stderr %q, file changed: %v", code, errOut, string(got) != fresh)
	}
}

// TestRunTraceKeepsWholeLinesThroughSignalsAndKills: a long traced run
// stopped by SIGTERM exits 143 with its report (outcome stopped) and a
// trace of whole lines up to the stop, and one killed by SIGKILL, which
// no process survives to flush or cut anything, leaves every event the
// tracer had written: the killed trace is a prefix, byte for byte, of the
// uninterrupted run's, holds at least the lines the test saw before the
// kill, and the trace reader and 'elect view' accept it (its unwritten
// end, NUL bytes, dropped: docs/trace.md); neither leaves another file.
// The trace is limited to 20 MB so that the run, which stops at its next
// progress report (every 2^20 events), does not write it all first.
func TestRunTraceKeepsWholeLinesThroughSignalsAndKills(t *testing.T) {
	args := []string{"run", "lcr", "--n", "3000", "--ids", "decreasing", "--trace-limit", "20MB", "--trace"}
	ref := filepath.Join(t.TempDir(), "ref.jsonl")
	if code, _, errOut := runCLI(append(args, ref)...); code != 0 {
		t.Fatalf("the uninterrupted run: exit %d, %s", code, errOut)
	}
	fresh, _ := os.ReadFile(ref)
	for _, c := range []struct {
		sig    syscall.Signal
		status int
	}{{syscall.SIGTERM, 143}, {syscall.SIGKILL, -1}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "t.jsonl")
			var stdout, stderr bytes.Buffer
			cmd := startElect(t, &stdout, &stderr, append(args, path)...)
			waitLines(t, path, 1000)
			seen := bytes.Count(records(t, path), []byte("\n"))
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			if got := exitStatus(cmd.Wait()); got != c.status {
				t.Fatalf("exit status %d, want %d; stderr %q", got, c.status, stderr.String())
			}
			if c.status > 0 && (!strings.Contains(stdout.String(), "outcome   stopped") ||
				!strings.Contains(stderr.String(), "run interrupted (SIGTERM) after 1 of 1 trials; the trace of what ran is in "+path)) {
				t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
			}
			data := records(t, path)
			whole := data[:bytes.LastIndexByte(data, '\n')+1]
			if c.sig != syscall.SIGKILL && len(whole) != len(data) {
				t.Errorf("a catchable signal left a cut last line %q", data[len(whole):])
			}
			if lines := bytes.Count(whole, []byte("\n")); lines < seen || !bytes.HasPrefix(fresh, data) || !bytes.HasPrefix(data, []byte(`{"ev":"header"`)) {
				t.Fatalf("the trace has %d whole lines (%d were seen before the signal), and is a prefix of the uninterrupted run's: %v", lines, seen, bytes.HasPrefix(fresh, data))
			}
			if len(whole) == len(data) { // no line cut short: the trace reads
				code, _, errOut := runCLI("view", path, "--out", filepath.Join(t.TempDir(), "t.html"))
				if code != 0 {
					t.Errorf("elect view of the stopped trace: exit %d, %s", code, errOut)
				}
			}
			if es, _ := os.ReadDir(dir); len(es) != 1 {
				t.Errorf("%d files in the directory, want only the trace", len(es))
			}
		})
	}
}

// records is the file at path without its unwritten end (the run of NUL
// bytes that a stream killed by SIGKILL leaves after its records, which
// every reader drops: internal/bounded).
func records(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(data, "\x00")
}
