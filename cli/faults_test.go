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
	wantBadInput(t, []string{"run", "lcr", "--faults", "loss:k=1", "--runtime", "goroutines"}, "--faults runs on the simulator and the reference engine")
	wantBadInput(t, []string{"run", "lcr", "--delivery", "newest-first", "--faults", "crash:k=1"}, "speaks of time")
	// A record of a faulty run is not replayed (its lost messages would
	// stay in flight); the message says how to get the run again.
	record := filepath.Join(t.TempDir(), "lossy.jsonl")
	if code, _, errOut := runCLI("run", "lcr", "--n", "4", "--ids", "increasing", "--faults", "loss:msg=4", "--trace", record); code != 4 {
		t.Fatalf("the faulty run: exit %d, %s", code, errOut)
	}
	wantBadInput(t, []string{"run", "lcr", "--n", "4", "--ids", "increasing", "--replay", record}, `the trace is a run with --faults "loss:msg=4"`)
}
