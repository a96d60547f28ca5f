package cli

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// initTestCluster runs cluster init into a new directory with args.
func initTestCluster(t *testing.T, args ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "c")
	if code, out, errOut := runCLI(append([]string{"cluster", "init", dir, "--base-port", "0"}, args...)...); code != 0 {
		t.Fatalf("cluster init: exit %d: %s%s", code, out, errOut)
	}
	return dir
}

// TestClusterRefusesANodeOfAnotherDescription is issue 43's reproduction:
// a node whose cluster.json named another algorithm joined, and the run
// ended with a failed bound and no word of the mismatch. Now every node,
// a process of its own, sends its description's digest in its hello and
// the node dialled answers with its own: node 2 (hs where the cluster runs
// lcr) and the peers it meets refuse each other at once, each with one
// line naming both digests and the field that differs, and `cluster up`
// reports the fault (exit 3). (A node that met neither end may wait for
// its timeout: its peer has left.)
func TestClusterRefusesANodeOfAnotherDescription(t *testing.T) {
	t.Setenv("ELECT_CLI_AS_MAIN", "1")
	dir := initTestCluster(t, "--alg", "lcr", "--n", "4", "--seed", "1")
	path := filepath.Join(dir, "node-2", "cluster.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `"algorithm": "lcr"`, `"algorithm": "hs"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("cluster", "up", dir, "--json", "--timeout", "5s")
	var rec map[string]any
	if err := json.Unmarshal([]byte(out), &rec); err != nil || code != 3 || rec["outcome"] != "fault" {
		t.Fatalf("exit %d, %v: %s\n%s", code, err, out, errOut)
	}
	mismatch := regexp.MustCompile(`node (\d): node (\d) runs another description than node (\d): digest ([0-9a-f]{16}) here, ([0-9a-f]{16}) at node (\d); they differ in algorithm \(every node`)
	violation := rec["violation"].(string)
	found := mismatch.FindAllStringSubmatch(violation, -1)
	var own, others int
	var digests = map[string]string{} // node 2's, and the others'
	for _, m := range found {
		if m[1] != m[3] || m[2] != m[6] {
			t.Errorf("%q: the node that says it and the peer it names do not match", m[0])
		}
		if m[1] == "2" {
			own++
			digests["2"], digests["others"] = m[4], m[5]
		} else if m[2] == "2" {
			others++
		}
	}
	if own != 1 || others == 0 {
		t.Fatalf("node 2 named the mismatch %d times, its peers %d times; want once and at least once:\n%s", own, others, violation)
	}
	for _, m := range found {
		if m[1] != "2" && (m[4] != digests["others"] || m[5] != digests["2"]) {
			t.Errorf("%q: digests differ from node 2's %s and the cluster's %s", m[0], digests["2"], digests["others"])
		}
	}
	t.Logf("exit %d, %.2f s; violation: %s", code, rec["wall_seconds"], violation)
}

// TestClusterUpRefusesANodesDirectory is issue 43's reproduction: given a
// node's directory, `cluster up` started the processes and failed after
// the whole timeout (exit 3). It now refuses at once (exit 2), naming the
// directory as node 1's and the cluster's directory to give instead; a
// port already held by another program is refused the same way, named
// first.
func TestClusterUpRefusesANodesDirectory(t *testing.T) {
	t.Setenv("ELECT_CLI_AS_MAIN", "1")
	dir := initTestCluster(t, "--alg", "lcr", "--n", "4")
	node := filepath.Join(dir, "node-1")
	code, out, errOut := runCLI("cluster", "up", node, "--timeout", "20s")
	want := "elect: " + node + " is node 1's directory, not a cluster's: it holds no node-0.pem of node 0; give cluster up the cluster's directory (" + dir + ", it seems), or run this node alone with 'elect node " + node + " --index 1'\n"
	if code != 2 || out != "" || errOut != want {
		t.Errorf("cluster up NODE-DIR: exit %d, %q\n%s\nwant exit 2 and %q", code, out, errOut, want)
	}
	d, err := os.ReadFile(filepath.Join(dir, "cluster.json"))
	if err != nil {
		t.Fatal(err)
	}
	var desc struct {
		Nodes []struct{ Address string }
	}
	if err := json.Unmarshal(d, &desc); err != nil {
		t.Fatal(err)
	}
	held, err := net.Listen("tcp", desc.Nodes[2].Address)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	code, out, errOut = runCLI("cluster", "up", dir, "--timeout", "20s")
	want = "elect: node 2 cannot listen on " + desc.Nodes[2].Address + ": listen tcp " + desc.Nodes[2].Address + ": bind: address already in use"
	if code != 2 || out != "" || !strings.HasPrefix(errOut, want) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("cluster up with node 2's port held: exit %d, %q\n%s\nwant exit 2 and a line beginning %q", code, out, errOut, want)
	}
}
