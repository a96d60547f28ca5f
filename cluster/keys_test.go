package cluster

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
)

// TestNodeDirectoryHoldsOnlyItsOwnKey is the reproduction: 'cluster init'
// wrote ca.key and every node's key into the one directory that compose
// and the Kubernetes Secret handed to every node, so one compromised node
// could act as any other or mint certificates. Now each node's directory
// holds the description, the CA's certificate, its certificate and its key
// (mode 0600) and nothing else: no other node's key and no CA key. Each
// directory, copied alone to a place of its own (a machine of its own),
// runs its node, and the cluster elects.
func TestNodeDirectoryHoldsOnlyItsOwnKey(t *testing.T) {
	const n = 4
	dir, d := initCluster(t, scenario.Spec{Algorithm: "hs", N: n, Seed: 1})
	top := names(t, dir)
	if want := []string{"ca.key", "ca.pem", "cluster.json", "node-0", "node-1", "node-2", "node-3"}; !slices.Equal(top, want) {
		t.Errorf("the cluster directory holds %v, want %v", top, want)
	}
	machines := make([]string, n)
	for i := range n {
		nd := filepath.Join(dir, NodeName(i))
		want := []string{"ca.pem", "cluster.json", NodeName(i) + ".key", NodeName(i) + ".pem"}
		if got := names(t, nd); !slices.Equal(got, want) {
			t.Errorf("%s holds %v, want only %v", nd, got, want)
		}
		fi, err := os.Stat(filepath.Join(nd, NodeName(i)+".key"))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("node %d's key: %v %v, want mode 0600", i, fi.Mode(), err)
		}
		machines[i] = filepath.Join(t.TempDir(), "node")
		if err := os.CopyFS(machines[i], os.DirFS(nd)); err != nil {
			t.Fatal(err)
		}
		os.Chmod(filepath.Join(machines[i], NodeName(i)+".key"), 0o600)
	}
	res := make([]*NodeResult, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = RunNode(machines[i], NodeOptions{Index: i, Timeout: 10 * time.Second})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
	}
	if rec, err := Judge(d, nil, res, nil); err != nil || rec.Outcome != election.OutcomeElected {
		t.Fatalf("nodes on their own directories: %v %v", rec, err)
	}
}

// TestWorldReadableKeyIsWarnedAbout: a node whose key others may read says
// so, in one line naming the file and its mode, and runs; the others,
// whose keys are 0600, say nothing.
func TestWorldReadableKeyIsWarnedAbout(t *testing.T) {
	const n = 3
	dir, d := initCluster(t, scenario.Spec{Algorithm: "lcr", N: n, Seed: 1})
	key := filepath.Join(dir, NodeName(1), NodeName(1)+".key")
	if err := os.Chmod(key, 0o644); err != nil {
		t.Fatal(err)
	}
	var logs [n]bytes.Buffer
	var mu sync.Mutex
	res := make([]*NodeResult, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = RunNode(dir, NodeOptions{Index: i, Timeout: 10 * time.Second, Log: &lockedWriter{&mu, &logs[i]}})
		}()
	}
	wg.Wait()
	if rec, err := Judge(d, nil, res, nil); err != nil || rec.Outcome != election.OutcomeElected {
		t.Fatalf("%v %v %v", rec, err, errs)
	}
	want := "node 1: warning: the key " + key + " may be read by others (mode 0644)"
	if got := logs[1].String(); !strings.Contains(got, want) {
		t.Errorf("node 1's log:\n%s\nwant %q", got, want)
	}
	for _, i := range []int{0, 2} {
		if strings.Contains(logs[i].String(), "warning") {
			t.Errorf("node %d warned: %s", i, logs[i].String())
		}
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// TestClusterRunReport: the TCP run's report counts every message once on
// its link (the links' counts add up to the messages), measures the
// latency of every delivery, and lists the 2n directed links of a ring.
func TestClusterRunReport(t *testing.T) {
	const n = 8
	dir, d := initCluster(t, scenario.Spec{Algorithm: "lcr", N: n, Seed: 4})
	res, errs := runInProcess(t, dir, n, NodeOptions{Timeout: 10 * time.Second})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
	}
	rec, err := Judge(d, nil, res, nil)
	if err != nil || rec.Outcome != election.OutcomeElected {
		t.Fatalf("%v %v", rec, err)
	}
	tr := rec.Transport
	sum := int64(0)
	for _, l := range tr.PerLink {
		sum += l.Messages
	}
	if tr.Links != 2*n || sum != rec.Messages || tr.Latency.Count != rec.Messages || tr.Latency.Max <= 0 {
		t.Errorf("report: %d links, %d messages on them, %d latencies (max %v); the run sent %d", tr.Links, sum, tr.Latency.Count, tr.Latency.Max, rec.Messages)
	}
}
