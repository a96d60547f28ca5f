package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckCommand: the JSON report of LCR at n = 5 has the exact extremes
// (2n-1 and n(n+1)/2 election messages), and a counterexample written by
// check replays to the same failure.
func TestCheckCommand(t *testing.T) {
	code, out, errOut := runCLI("check", "lcr", "--n", "5", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Verdict     string           `json:"verdict"`
		States      int64            `json:"states"`
		MessagesMax map[string]int64 `json:"messages_max"`
		MessagesMin map[string]int64 `json:"messages_min"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Verdict != "ok" || r.MessagesMax["election"] != 15 || r.MessagesMin["election"] != 9 || r.States == 0 {
		t.Errorf("lcr n=5: %s", out)
	}
	file := filepath.Join(t.TempDir(), "bad.jsonl")
	code, out, _ = runCLI("check", "lcr", "--n", "3", "--ids", "1,1,1", "--force", "--counterexample", file)
	if code != 1 || !strings.Contains(out, "multiple-leaders") || !strings.Contains(out, "--replay "+file) {
		t.Fatalf("equal IDs: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI("run", "lcr", "--n", "3", "--ids", "1,1,1", "--force", "--replay", file)
	if code != 1 || !strings.Contains(out, "multiple-leaders") {
		t.Errorf("the counterexample replayed: exit %d\n%s", code, out)
	}
}

func TestCheckBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "lcrr"}, `unknown algorithm "lcrr" (did you mean "lcr"?)`},
		{[]string{"check", "lcr", "--n", "40"}, "use 1..12"},
		{[]string{"check", "lcr", "--delivery", "lifo"}, `--delivery "lifo": use fifo, bag or sync`},
		{[]string{"check", "lcr", "--initiators", "some"}, `--initiators "some"`},
		{[]string{"check", "lcr", "--max-states", "0"}, "--max-states must be at least 1"},
	} {
		code, _, errOut := runCLI(c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", c.args, code, errOut, c.want)
		}
	}
}
