package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/electkit/elect/cluster"
	"github.com/electkit/elect/scenario"
)

// clusterEstimate initialises a cluster with args and returns its
// directory and the memory 'cluster up' estimates for it on this machine.
func clusterEstimate(t *testing.T, args ...string) (string, int64) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "c")
	if code, out, errOut := runCLI(append([]string{"cluster", "init", dir, "--base-port", "0"}, args...)...); code != 0 {
		t.Fatalf("cluster init: exit %d: %s%s", code, out, errOut)
	}
	d, cfg, err := cluster.Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return dir, cluster.EstimateMemory(dir, d, cfg).Total()
}

// TestClusterUpRefusesAClusterOverItsMemLimit (issue 43): 200 nodes took
// about 2.4 GiB with no guard (the sum of their peak RSS, which counts the
// program's pages every node shares). 'cluster up' now estimates the
// cluster's memory on this machine and refuses one over --mem-limit at
// once, before it starts a process: exit 2, one line with the estimate
// and what to do. At the estimate itself, a run without faults elects.
func TestClusterUpRefusesAClusterOverItsMemLimit(t *testing.T) {
	t.Setenv("ELECT_CLI_AS_MAIN", "1")
	dir, total := clusterEstimate(t, "--alg", "hs", "--n", "4", "--seed", "2")
	errOut := wantBadInput(t, []string{"cluster", "up", dir, "--mem-limit", strconv.FormatInt(total-1, 10)},
		"cluster up: "+dir+" (hs, n = 4) needs about "+scenario.BytesString(total)+" of memory on this machine (4 node processes of ")
	if !strings.HasSuffix(errOut, "; raise --mem-limit, or run the nodes on several machines (docs/cluster.md)\n") || strings.Contains(errOut, "[node") {
		t.Errorf("the refusal: %q", errOut)
	}
	code, out, errOut := runCLI("cluster", "up", dir, "--mem-limit", strconv.FormatInt(total, 10))
	if code != 0 || !strings.Contains(out, "outcome   elected: ") || !strings.Contains(out, "memory    node processes peaked at ") {
		t.Errorf("at the estimate: exit %d\n%s%s", code, out, errOut)
	}
	wantBadInput(t, []string{"cluster", "up", dir, "--mem-limit", "lots"}, `"lots" is not a size in bytes`)
}

// TestClusterNodeStopsAtItsMemLimit (issue 42 on TCP): a node counts what
// it holds while it runs (its inbox, its links' pending writes, its late
// messages, the faults it applied) and stops when that outgrows its
// --mem-limit, as the other runtimes stop a run: HS on 4 nodes with every
// message duplicated (2224 messages where 24 suffice) under a limit equal
// to the cluster's estimate ends with outcome memory-limit, the line that
// says so, verdict cut-short and exit 1, as 'elect run' does; run by hand,
// the node that stopped exits 1 and says why on its line, and its peers,
// which lost it, exit 3.
func TestClusterNodeStopsAtItsMemLimit(t *testing.T) {
	t.Setenv("ELECT_CLI_AS_MAIN", "1")
	dir, total := clusterEstimate(t, "--alg", "hs", "--n", "4", "--faults", "dup:p=1")
	code, out, errOut := runCLI("cluster", "up", dir, "--mem-limit", strconv.FormatInt(total, 10))
	if code != 1 || !strings.Contains(out, "outcome   memory-limit") || !strings.Contains(out, "memory    stopped at --mem-limit: ") ||
		!strings.Contains(out, "verdict   cut-short\n") || !strings.Contains(errOut, " stopped at its memory limit: its inbox, pending writes and late messages held ") {
		t.Errorf("cluster up: exit %d\n%s%s", code, out, errOut)
	}

	d, cfg, err := cluster.Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	limits, err := cluster.CheckMemory(dir, d, cfg, total)
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	codes := make([]int, d.N)
	lines := make([]string, d.N)
	var wg sync.WaitGroup
	for i := range d.N {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(self, "node", cluster.NodeDir(dir, i), "--index", strconv.Itoa(i), "--mem-limit", strconv.FormatInt(limits[i], 10), "--timeout", "20s")
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			err := cmd.Run()
			var ee *exec.ExitError
			if err != nil && !errors.As(err, &ee) {
				codes[i] = -1
			}
			codes[i] = cmd.ProcessState.ExitCode()
			lines[i] = stdout.String()
		}()
	}
	wg.Wait()
	stopped := 0
	for i, c := range codes {
		var line struct {
			MemoryLimit bool   `json:"memory_limit"`
			Fault       string `json:"fault"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &line); err != nil {
			t.Fatalf("node %d: exit %d, line %q: %v", i, c, lines[i], err)
		}
		switch {
		case c == 1 && line.MemoryLimit && strings.Contains(line.Fault, "stopped at its memory limit"):
			stopped++
		case c == 3 && !line.MemoryLimit && line.Fault != "":
		default:
			t.Errorf("node %d: exit %d, line %s", i, c, lines[i])
		}
	}
	if stopped == 0 {
		t.Errorf("no node stopped at its limit: exits %v", codes)
	}
}
