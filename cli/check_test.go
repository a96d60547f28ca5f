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
	for _, c := range []badInput{
		{[]string{"check", "lcrr"}, `unknown algorithm "lcrr" (did you mean "lcr"?)`},
		{[]string{"check", "lcr", "--n", "40"}, "use 1..12"},
		{[]string{"check", "lcr", "--delivery", "lifo"}, `--delivery "lifo": use fifo, bag or sync`},
		{[]string{"check", "lcr", "--initiators", "some"}, `--initiators "some"`},
		{[]string{"check", "lcr", "--max-states", "0"}, "--max-states must be at least 1"},
		{[]string{"check", "lcr", "--initiators", "times"}, "--initiators times applies to synchronous checks"},
		{[]string{"check", "slow-fast", "--n", "3", "--wake-rounds", "2"}, "--wake-rounds 2: it goes with --initiators times"},
		{[]string{"check", "time-slice", "--n", "3", "--initiators", "times"}, "time-slice needs every node to wake at round 0"},
		{[]string{"check", "lcr", "--n", "3", "--draws"}, "lcr draws nothing"},
		{[]string{"check", "afek-gafni", "--n", "3", "--draws"}, "does not declare the range of its draws"},
		{[]string{"check", "lcr-random", "--n", "3", "--draws"}, "lower --max-draws or the draws' range"},
		{[]string{"check", "itai-rodeh", "--n", "3", "--max-draws", "3"}, "go with --draws"},
		{[]string{"check", "itai-rodeh", "--n", "3", "--draws", "--ids", "all"}, "one configuration at a time"},
		{[]string{"check", "itai-rodeh", "--n", "3", "--draws", "--trials", "-1"}, "--trials -1: use 0 or more"},
	} {
		wantBadInput(t, c.args, c.want)
	}
}

// TestCheckDraws: with --draws, Itai-Rodeh on 3 nodes ends within its
// first round (3 draws) with probability exactly 5/9, printed as a
// fraction beside the simulator's rate, and in the JSON.
func TestCheckDraws(t *testing.T) {
	code, out, errOut := runCLI("check", "itai-rodeh", "--n", "3", "--draws", "--max-draws", "3", "--trials", "500")
	if code != 0 || !strings.Contains(out, "ends      5/9 = 0.555556") || !strings.Contains(out, "simulator (500 runs") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI("check", "itai-rodeh", "--n", "3", "--draws", "--max-draws", "3", "--trials", "0", "--json")
	var r struct {
		Probabilities struct {
			Ends struct{ Num, Den uint64 } `json:"ends"`
		} `json:"probabilities"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 || r.Probabilities.Ends.Num != 5 || r.Probabilities.Ends.Den != 9 {
		t.Errorf("json: exit %d, %v: %s", code, err, out)
	}
}

// TestCheckPopulation: population protocols are checked over their
// configurations: Angluin's protocol always ends with one leader;
// approximate majority from 6 A against 4 B ends all A with probability
// 0.746094 (exit 1: the other ending is wrong); bad input exits 2.
func TestCheckPopulation(t *testing.T) {
	code, out, errOut := runCLI("check", "angluin", "--n", "8")
	if code != 0 || !strings.Contains(out, "verdict   ok") || !strings.Contains(out, "{L:1 F:7}") {
		t.Fatalf("angluin: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI("check", "approx-majority", "--n", "10", "--a", "6", "--json")
	var r struct {
		Verdict string  `json:"verdict"`
		P       float64 `json:"correct_probability"`
		Bottoms []struct {
			Correct bool `json:"correct"`
		} `json:"bottoms"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 || r.Verdict != "violation" || len(r.Bottoms) != 2 || r.P < 0.746 || r.P > 0.7461 {
		t.Errorf("approx-majority: exit %d, %v\n%s", code, err, out)
	}
	for _, args := range [][]string{
		{"check", "angluin", "--n", "1"},
		{"check", "approx-majority", "--n", "10", "--a", "11"},
		{"check", "epidemic", "--n", "4", "--variant", "nosuch"},
		{"check", "angluin", "extra"},
	} {
		if code, _, errOut := runCLI(args...); code != 2 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
}
