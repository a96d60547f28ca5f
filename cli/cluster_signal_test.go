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

// children returns the processes whose parent is pid, with their state
// (R, S, T for stopped...), from /proc.
func children(t *testing.T, pid int) map[int]byte {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	out := map[int]byte{}
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		k := bytes.LastIndexByte(stat, ')')
		if k < 0 {
			continue
		}
		f := strings.Fields(string(stat[k+1:]))
		if len(f) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid == pid {
			out[child] = f[0][0]
		}
	}
	return out
}

// TestClusterUpStopsOnASignal (issue 42): SIGTERM (or SIGINT) to a real
// 'cluster up' whose node 1 hangs stopped (--stop) reaches every node: up
// resumes the stopped one, waits for them all, removes its temporary files
// ($TMPDIR/elect-cluster-trace-*, which a run with faults has), says where
// it stopped and exits 143 (or 130); no node process is left.
func TestClusterUpStopsOnASignal(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sig  syscall.Signal
		name string
		exit int
	}{{syscall.SIGTERM, "SIGTERM", 143}, {syscall.SIGINT, "SIGINT", 130}} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("ELECT_CLI_AS_MAIN", "1")
			dir := filepath.Join(t.TempDir(), "c")
			if code, out, errOut := runCLI("cluster", "init", dir, "--base-port", "0", "--alg", "lcr", "--n", "4", "--faults", "loss:msg=3"); code != 0 {
				t.Fatalf("cluster init: exit %d: %s%s", code, out, errOut)
			}
			tmp := t.TempDir()
			cmd := exec.Command(self, "cluster", "up", dir, "--stop", "1@0s", "--timeout", "10m", "--grace", "10m")
			cmd.Env = append(os.Environ(), "ELECT_CLI_AS_MAIN=1", "TMPDIR="+tmp)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			// Signal once the 4 nodes run, node 1 stopped: without a
			// signal the run would wait 10 minutes for it.
			var nodes map[int]byte
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
				nodes = children(t, cmd.Process.Pid)
				stopped := 0
				for _, state := range nodes {
					if state == 'T' {
						stopped++
					}
				}
				if len(nodes) == 4 && stopped == 1 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("after a minute: nodes %v (want 4, one stopped); stderr:\n%s", nodes, stderr.String())
				}
			}
			if traces, _ := filepath.Glob(filepath.Join(tmp, "elect-cluster-trace-*")); len(traces) != 1 {
				t.Fatalf("temporary files %v: the run with faults records its nodes' traces there", traces)
			}
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != c.exit {
				t.Fatalf("exit %v, want status %d; stderr:\n%s", err, c.exit, stderr.String())
			}
			want := "elect: cluster up stopped (" + c.name + ") "
			tail := " after the start: no node had exited, nodes 0, 1, 2, 3 ended on SIGTERM (node 1 resumed from SIGSTOP first), no node killed; nothing judged, temporary files removed\n"
			if !strings.Contains(stderr.String(), want) || !strings.HasSuffix(stderr.String(), tail) {
				t.Errorf("stderr:\n%s\nwant a last line with %q and %q", stderr.String(), want, tail)
			}
			for pid := range nodes {
				if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid))); err == nil {
					t.Errorf("node process %d is still there", pid)
				}
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("left in TMPDIR: %v", left)
			}
		})
	}
}
