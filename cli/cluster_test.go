package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	tracefmt "github.com/electkit/elect/trace"
)

// TestMain lets the test binary stand in for elect itself: 'cluster up'
// starts os.Executable() as each node, and with ELECT_CLI_AS_MAIN set the
// test binary runs the command line instead of the tests.
func TestMain(m *testing.M) {
	if os.Getenv("ELECT_CLI_AS_MAIN") == "1" {
		code := Main(os.Args[1:], os.Stdout, os.Stderr)
		writePeakRSS(os.Getenv("ELECT_TEST_PEAK_RSS"))
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// clusterRecord runs cluster init and cluster up --json and decodes the
// result.
func clusterRecord(t *testing.T, initArgs []string, upArgs ...string) (map[string]any, int, string) {
	t.Helper()
	t.Setenv("ELECT_CLI_AS_MAIN", "1")
	dir := filepath.Join(t.TempDir(), "c")
	code, out, errOut := runCLI(append([]string{"cluster", "init", dir, "--base-port", "0"}, initArgs...)...)
	if code != 0 {
		t.Fatalf("cluster init: exit %d: %s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(append([]string{"cluster", "up", dir, "--json"}, upArgs...)...)
	var rec map[string]any
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("cluster up: exit %d, not JSON: %v\n%s\n%s", code, err, out, errOut)
	}
	return rec, code, errOut
}

// TestClusterUp runs real clusters, one process per node, on loopback.
func TestClusterUp(t *testing.T) {
	cases := []struct {
		alg string
		n   string
	}{{"lcr", "8"}, {"hs", "16"}, {"peterson", "12"}, {"afek-gafni", "10"}}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		t.Run(c.alg, func(t *testing.T) {
			rec, code, errOut := clusterRecord(t, []string{"--alg", c.alg, "--n", c.n, "--seed", "5"})
			if code != 0 || rec["outcome"] != "elected" || rec["runtime"] != "tcp" {
				t.Fatalf("exit %d: %v\n%s", code, rec, errOut)
			}
			_, simOut, _ := runCLI("run", c.alg, "--n", c.n, "--seed", "5", "--json")
			var sim map[string]any
			json.Unmarshal([]byte(simOut), &sim)
			if c.alg != "afek-gafni" && rec["leader_id"] != sim["leader_id"] {
				t.Errorf("leader %v; the simulator's %v", rec["leader_id"], sim["leader_id"])
			}
			if c.alg == "lcr" && rec["messages"] != sim["messages"] {
				t.Errorf("lcr: %v messages; the simulator's %v (LCR's count does not depend on the order)", rec["messages"], sim["messages"])
			}
		})
	}
}

// TestClusterFaults: a node killed with SIGKILL and a node that never
// starts end the run with the outcome fault, naming the node, within the
// timeout, and the surviving nodes say which peer they lost.
func TestClusterFaults(t *testing.T) {
	rec, code, _ := clusterRecord(t, []string{"--alg", "lcr", "--n", "6"}, "--kill", "3@0s", "--timeout", "2s")
	if code != 3 || rec["outcome"] != "fault" || !strings.HasPrefix(rec["violation"].(string), "node 3 was killed") {
		t.Errorf("killed node: exit %d, %v: %v", code, rec["outcome"], rec["violation"])
	}
	rec, code, errOut := clusterRecord(t, []string{"--alg", "hs", "--n", "6"}, "--skip", "4", "--timeout", "1s")
	v, _ := rec["violation"].(string)
	if code != 3 || rec["outcome"] != "fault" || !strings.HasPrefix(v, "node 4 was never started") || !strings.Contains(v, "no link to node 4") {
		t.Errorf("missing node: exit %d, %v: %v\n%s", code, rec["outcome"], v, errOut)
	}
}

// TestClusterTraceReplays: the nodes' merged trace of a cluster run,
// replayed in the simulator's reference engine with the same flags, gives
// the cluster's counts, leader and time.
func TestClusterTraceReplays(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "order.jsonl")
	rec, code, errOut := clusterRecord(t, []string{"--alg", "peterson", "--n", "12", "--seed", "2"}, "--trace", trace)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI("run", "peterson", "--n", "12", "--seed", "2", "--replay", trace, "--json")
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errOut)
	}
	var replay map[string]any
	if err := json.Unmarshal([]byte(out), &replay); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"outcome", "leader_id", "messages", "messages_by_type", "time", "max_node_messages"} {
		if a, b := jsonText(rec[k]), jsonText(replay[k]); a != b {
			t.Errorf("%s: cluster %s, replay %s", k, a, b)
		}
	}
	// The merged trace is format version 2: one header, a send per message.
	data, _ := os.ReadFile(trace)
	tr, err := tracefmt.ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	sends := 0
	for _, ev := range tr.Events {
		if ev.Ev == "send" {
			sends++
		}
	}
	if tr.Header.Runtime != "cluster" || jsonText(float64(sends)) != jsonText(rec["messages"]) || bytes.Count(data, []byte(`"ev":"header"`)) != 1 {
		t.Errorf("merged trace: runtime %q, %d sends (messages %s)", tr.Header.Runtime, sends, jsonText(rec["messages"]))
	}
}

// TestClusterUpNamesASIGSTOPpedNode is the reproduction: SIGSTOP one node
// and the others exit, but 'cluster up' waited for it until it was
// resumed, and never named it. Now the others have --grace once one has
// exited; node 3, stopped by a real SIGSTOP, is then named silent and
// killed, and 'cluster up' exits 3 with the outcome fault.
func TestClusterUpNamesASIGSTOPpedNode(t *testing.T) {
	rec, code, errOut := clusterRecord(t, []string{"--alg", "lcr", "--n", "6"}, "--stop", "3@0s", "--timeout", "1s", "--grace", "1s")
	v, _ := rec["violation"].(string)
	if code != 3 || rec["outcome"] != "fault" || !strings.HasPrefix(v, "node 3 was silent: still running 1s after node") {
		t.Errorf("stopped node: exit %d, %v: %v\n%s", code, rec["outcome"], v, errOut)
	}
}

// TestClusterUpReportsALateKill is the reproduction 'cluster up k --kill
// 3@2s' on hs n = 8, which elected and exited 0 without a word: the kill
// counted from the last start and landed after node 3 had exited. Now it
// counts from the run's start and, when it comes after its node exited,
// says so (here at 60 s: every node has exited long before).
func TestClusterUpReportsALateKill(t *testing.T) {
	rec, code, errOut := clusterRecord(t, []string{"--alg", "hs", "--n", "8"}, "--kill", "3@60s")
	if code != 0 || rec["outcome"] != "elected" || !strings.Contains(errOut, "elect: cluster up: --kill 3@1m0s came too late: node 3 had exited") {
		t.Errorf("late kill: exit %d, %v; stderr:\n%s", code, rec["outcome"], errOut)
	}
}

// TestClusterUpRefusesAnOldFaultyCluster: a cluster written before init
// resolved the fault schedule (faults named, no node's part) is refused by
// 'cluster up' before any node starts: exit 2, one line saying to run init
// again.
func TestClusterUpRefusesAnOldFaultyCluster(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	if code, out, errOut := runCLI("cluster", "init", dir, "--base-port", "0", "--alg", "lcr", "--n", "3", "--faults", "loss:msg=2"); code != 0 {
		t.Fatalf("cluster init: exit %d: %s%s", code, out, errOut)
	}
	for i := range 3 {
		path := filepath.Join(dir, "node-"+strconv.Itoa(i), "cluster.json")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		if raw["fault_plan"] == nil {
			t.Fatalf("node %d's description has no fault_plan", i)
		}
		delete(raw, "fault_plan")
		data, _ = json.MarshalIndent(raw, "", "  ")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wantBadInput(t, []string{"cluster", "up", dir}, "run 'elect cluster init' again")
}
