package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestFaultsExitStatus: --faults on run and sweep. A failure under a fault
// the algorithm does not tolerate exits with 4 and says so; Bully under
// crashes exits 0; a bad specification or a runtime that cannot apply it
// is bad input (exit 2, one line).
func TestFaultsExitStatus(t *testing.T) {
	code, out, _ := runCLI("run", "lcr", "--n", "8", "--seed", "3", "--faults", "loss:k=1")
	if code != 4 || !strings.Contains(out, "verdict   expected-failure") || !strings.Contains(out, "cause     on the path of node 4 (ID 7): message 5 (election j=7)") {
		t.Errorf("lcr, one loss: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI("run", "bully", "--n", "16", "--faults", "crash:k=3,by=3", "--json")
	var rec struct {
		Outcome string `json:"outcome"`
		Spec    string `json:"faults_spec"`
		Faults  struct {
			Verdict string  `json:"verdict"`
			Crashed []int32 `json:"crashed"`
		} `json:"faults"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil || code != 0 || rec.Outcome != "elected" || rec.Spec != "crash:k=3,by=3" ||
		rec.Faults.Verdict != "survived" || len(rec.Faults.Crashed) == 0 {
		t.Errorf("bully, 3 crashes: exit %d, %v, %+v", code, err, rec)
	}
	code, _, errOut := runCLI("sweep", "lcr", "--n", "8", "--trials", "20", "--faults", "loss:k=1")
	if code != 4 || !strings.Contains(errOut, "failed under a fault their algorithm does not tolerate") {
		t.Errorf("sweep: exit %d, %s", code, errOut)
	}
	wantBadInput(t, []string{"run", "lcr", "--faults", "loss:k=x"}, `faults: "loss:k=x": k="x": not an integer`)
	wantBadInput(t, []string{"run", "lcr", "--n", "4", "--faults", "crash:node=4@t=1"}, "faults: crash:node=4@t=1: node 4 is not in 0..3")
	wantBadInput(t, []string{"run", "lcr", "--delivery", "newest-first", "--faults", "crash:k=1"}, "speaks of time")
	// A record of a faulty run replays: its lines say which messages were
	// lost.
	record := filepath.Join(t.TempDir(), "lossy.jsonl")
	code, simOut, errOut := runCLI("run", "lcr", "--n", "4", "--ids", "increasing", "--faults", "loss:msg=4", "--trace", record)
	if code != 4 {
		t.Fatalf("the faulty run: exit %d, %s", code, errOut)
	}
	wantBadInput(t, []string{"run", "lcr", "--n", "4", "--ids", "increasing", "--faults", "loss:msg=4", "--replay", record}, "--faults and --replay")
	code, out, errOut = runCLI("run", "lcr", "--n", "4", "--ids", "increasing", "--replay", record)
	if code != 4 || reportLines(out) != reportLines(simOut) || !strings.Contains(out, "message 4 (election j=3) from node 3 to node 0 at time 0, lost") {
		t.Errorf("the replay: exit %d, %s\n%s\nthe run:\n%s", code, errOut, out, simOut)
	}
}

// reportLines are the lines of a report that say what happened, without
// the runtime's own (wall time, rates, latencies).
func reportLines(out string) string {
	var keep []string
	for l := range strings.SplitSeq(out, "\n") {
		for _, k := range []string{"outcome", "faults ", "cause ", "verdict", "messages", "waiting"} {
			if strings.HasPrefix(l, k) {
				keep = append(keep, l)
			}
		}
	}
	return strings.Join(keep, "\n")
}

// TestFaultsOnGoroutinesAndTCP: the commands. --faults on
// --runtime goroutines and on a cluster reports the faults as the
// simulator's run does (the lines faults, cause, verdict; the JSON faults
// object), with the same exit status.
func TestFaultsOnGoroutinesAndTCP(t *testing.T) {
	for _, f := range []string{"loss:msg=3", "loss:msg=5"} {
		args := []string{"run", "lcr", "--n", "8", "--seed", "3", "--faults", f}
		simCode, simOut, _ := runCLI(args...)
		code, out, errOut := runCLI(append(args, "--runtime", "goroutines")...)
		if code != simCode || reportLines(out) != reportLines(simOut) || !strings.Contains(out, "verdict") {
			t.Errorf("%s on goroutines: exit %d (simulator %d) %s\n%s\nsimulator:\n%s", f, code, simCode, errOut, out, simOut)
		}
		rec, code, errOut := clusterRecord(t, []string{"--alg", "lcr", "--n", "8", "--seed", "3", "--faults", f})
		_, simJSON, _ := runCLI(append(args, "--json")...)
		var want map[string]any
		json.Unmarshal([]byte(simJSON), &want)
		for _, k := range []string{"outcome", "leader_id", "messages", "faults", "faults_spec"} {
			if a, b := jsonText(rec[k]), jsonText(want[k]); a != b || code != simCode {
				t.Errorf("%s on tcp: exit %d (simulator %d), %s %s; the simulator's %s\n%s", f, code, simCode, k, a, b, errOut)
			}
		}
	}
	wantBadInput(t, []string{"cluster", "init", filepath.Join(t.TempDir(), "c"), "--alg", "lcr", "--faults", "loss:q=1"}, "faults:")
}

// TestCheckFaultsExitStatus: 'elect check --faults' exits 4 when the
// algorithm fails only under a fault it does not tolerate (LCR, one loss),
// 0 when it holds (Bully, two crashes at n = 4), and 2 with one line for a
// budget the checker cannot enumerate.
func TestCheckFaultsExitStatus(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI("check", "lcr", "--n", "3", "--faults", "loss:k=1", "--counterexample", filepath.Join(dir, "lcr.jsonl"))
	if code != 4 || !strings.Contains(out, "verdict   expected-failure") || !strings.Contains(out, "with --ids list:1,2,3 --faults loss:msg=3") || strings.Contains(out, "--faults loss:msg=3 --replay") {
		t.Errorf("lcr, one loss: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI("check", "bully", "--n", "4", "--faults", "crash:k=2"); code != 0 || !strings.Contains(out, "6564 runs (4812 distinct fault schedules)") {
		t.Errorf("bully, two crashes: exit %d\n%s%s", code, out, errOut)
	}
	wantBadInput(t, []string{"check", "lcr", "--n", "3", "--faults", "loss:p=0.01"}, "a probability cannot be enumerated (elect sweep measures its rate)")
	wantBadInput(t, []string{"check", "lcr", "--n", "3", "--faults", "crash:node=1@t=0"}, "it names one schedule")
	wantBadInput(t, []string{"check", "lcr", "--n", "3", "--faults", "crash:k=1", "--draws"}, "--faults and --draws")
}
