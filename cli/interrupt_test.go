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

// TestInterruptedSweepExits130 (issue 21): Ctrl-C stops a sweep with exit
// status 130, the runs that ended written whole, and a line saying how to
// resume; --resume then runs only the others, and the file ends as an
// uninterrupted sweep's would.
func TestInterruptedSweepExits130(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "runs.jsonl")
	args := []string{"sweep", "lcr", "--n", "2000", "--trials", "400", "--workers", "1", "--out", out}
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), "ELECT_CLI_AS_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once the first runs are written (to the temporary file
	// that is renamed to out at the end).
	deadline := time.Now().Add(time.Minute)
	for {
		tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".runs.jsonl.elect-*.tmp"))
		var data []byte
		if len(tmps) == 1 {
			data, _ = os.ReadFile(tmps[0])
		}
		if bytes.Count(data, []byte("\n")) >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("exit %v, want status 130; stderr %q", err, stderr.String())
	}
	data, _ := os.ReadFile(out)
	written := bytes.Count(data, []byte("\n"))
	if want := "runs written; --resume " + out + " runs the others"; !strings.Contains(stderr.String(), want) || written == 0 || written == 400 {
		t.Fatalf("%d lines written, stderr %q; want some of 400 and %q", written, stderr.String(), want)
	}
	if !bytes.HasSuffix(data, []byte("}\n")) {
		t.Fatalf("the last line is cut: %q", data[max(0, len(data)-40):])
	}
	// Resume the same sweep (a sweep of another grid, even one with fewer
	// trials, is refused: the lines carry their grid's fingerprint).
	code, _, errOut := runCLI("sweep", "lcr", "--n", "2000", "--trials", "400", "--resume", out)
	if code != 0 || !strings.Contains(errOut, itoa(written)+" of 400 runs are already in") {
		t.Fatalf("resume: exit %d, stderr %q", code, errOut)
	}
	code, fresh, _ := runCLI("sweep", "lcr", "--n", "2000", "--trials", "400")
	resumed, _ := os.ReadFile(out)
	if code != 0 || string(resumed) != fresh {
		t.Errorf("the resumed file differs from an uninterrupted sweep's output:\n%s\nwant\n%s", resumed, fresh)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
