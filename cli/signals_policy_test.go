package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/internal/atomicfile"
	"github.com/electkit/elect/internal/cmdio"
)

// The command test-hang exists only in the test binary run as elect
// (TestMain, ELECT_CLI_AS_MAIN=1), so that the help and its golden files
// do not see it: it starts a whole-file output (a temporary file), says
// "started", optionally watches for the first signal and says
// "stopping" when it comes, and then never reaches a safe point, as a
// command stuck in a long step would not.
func init() {
	if os.Getenv("ELECT_CLI_AS_MAIN") != "1" {
		return
	}
	register(command{name: "test-hang", summary: "(tests only)", run: func(_ *catalog.Catalog, args []string, stdout, _ io.Writer) error {
		f, err := atomicfile.Create(args[0], 0o666)
		if err != nil {
			return err
		}
		defer f.Abort()
		if len(args) > 1 && args[1] == "watch" {
			stop := cmdio.Watch()
			fmt.Fprintln(stdout, "started")
			<-stop.Done()
			fmt.Fprintln(stdout, "stopping")
		} else {
			fmt.Fprintln(stdout, "started")
		}
		select {}
	}})
}

// TestSecondSignalEndsAtOnce (issue 42: "a second Ctrl-C is swallowed"):
// the first SIGTERM asks a command that watches to stop at its next safe
// point, and a second signal, SIGINT, ends it at once with status 130
// even though that point never comes; a command that does not watch is
// ended by the first signal (143). Either way the temporary file of its
// unfinished output is removed and the target never made.
func TestSecondSignalEndsAtOnce(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		watch   bool
		signals []syscall.Signal
		status  int
		said    string
	}{
		{true, []syscall.Signal{syscall.SIGTERM, syscall.SIGINT}, 130, "elect: SIGINT again: stopped at once"},
		{false, []syscall.Signal{syscall.SIGTERM}, 143, "elect: stopped by SIGTERM"},
		{false, []syscall.Signal{syscall.SIGHUP}, 129, "elect: stopped by SIGHUP"},
	} {
		dir := t.TempDir()
		args := []string{"test-hang", filepath.Join(dir, "out.html")}
		if c.watch {
			args = append(args, "watch")
		}
		cmd := exec.Command(self, args...)
		cmd.Env = append(os.Environ(), "ELECT_CLI_AS_MAIN=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(out)
		if !lines.Scan() || lines.Text() != "started" {
			t.Fatalf("%v: the command did not start: %q", args, lines.Text())
		}
		for k, sig := range c.signals {
			cmd.Process.Signal(sig)
			if k == 0 && c.watch && (!lines.Scan() || lines.Text() != "stopping") {
				t.Fatalf("%v: the first signal did not ask the command to stop: %q", args, lines.Text())
			}
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if got := exitStatus(err); got != c.status || !strings.Contains(stderr.String(), c.said) {
				t.Errorf("%v, %v: exit %d, stderr %q; want %d and %q", args, c.signals, got, stderr.String(), c.status, c.said)
			}
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			t.Fatalf("%v, %v: still running a minute after the signals", args, c.signals)
		}
		if es, _ := os.ReadDir(dir); len(es) != 0 {
			t.Errorf("%v: %d files left in the directory, want none", args, len(es))
		}
	}
}
