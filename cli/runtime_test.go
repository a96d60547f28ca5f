package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunOnGoroutinesAndReplay: a run on goroutines prints the simulator's
// record plus "runtime": "goroutines"; its recorded order, replayed with
// the same flags, gives the same counts and decisions.
func TestRunOnGoroutinesAndReplay(t *testing.T) {
	record := filepath.Join(t.TempDir(), "order.jsonl")
	args := []string{"run", "peterson", "--n", "40", "--seed", "3", "--json"}
	code, out, errOut := runCLI(append(args, "--runtime", "goroutines", "--trace", record)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var live, replay map[string]any
	if err := json.Unmarshal([]byte(out), &live); err != nil {
		t.Fatal(err)
	}
	if live["runtime"] != "goroutines" || live["outcome"] != "elected" || live["wall_seconds"].(float64) <= 0 {
		t.Fatalf("unexpected record %s", out)
	}
	code, out, errOut = runCLI(append(args, "--replay", record)...)
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errOut)
	}
	if err := json.Unmarshal([]byte(out), &replay); err != nil {
		t.Fatal(err)
	}
	if replay["runtime"] != "replay" {
		t.Errorf("replay record says runtime %v", replay["runtime"])
	}
	for _, k := range []string{"outcome", "leader_index", "leader_id", "messages", "bits", "time", "all_know_leader", "max_node_messages"} {
		if a, b := jsonText(live[k]), jsonText(replay[k]); a != b {
			t.Errorf("%s: goroutines %s, replay %s", k, a, b)
		}
	}
	if a, b := jsonText(live["messages_by_type"]), jsonText(replay["messages_by_type"]); a != b {
		t.Errorf("messages by type: goroutines %s, replay %s", a, b)
	}
	// The same record with other IDs is another execution: refused.
	code, _, errOut = runCLI("run", "peterson", "--n", "40", "--seed", "4", "--replay", record)
	if code != 1 && code != 2 || !strings.Contains(errOut, "replay") {
		t.Errorf("replay with another seed: exit %d, %q", code, errOut)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestRuntimeBadInput(t *testing.T) {
	for _, c := range []badInput{
		{[]string{"run", "lcr", "--runtime", "gorutines"}, `unknown runtime "gorutines" (did you mean "goroutines"?)`},
		{[]string{"run", "lcr", "--runtime", "goroutines", "--delivery", "random"}, "random delivery exists only in the simulator"},
		{[]string{"run", "lcr", "--replay", "/nonexistent/order.jsonl"}, "cannot read the record to replay"},
		{[]string{"run", "lcr", "--replay", "x", "--runtime", "goroutines"}, "--replay runs on the reference engine"},
		{[]string{"run", "lcr", "--replay", "x", "--trials", "2"}, "--replay replays one run"},
		{[]string{"sweep", "lcr", "--runtime", "threads"}, `unknown runtime "threads"`},
	} {
		wantBadInput(t, c.args, c.want)
	}
}
