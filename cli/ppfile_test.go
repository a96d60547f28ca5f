package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPPFileRuns: 'elect pp FILE' runs a protocol file with the flags of
// 'elect pp' (here --n, --trials, --seed, --engine, --json), and the file
// version of angluin gives the built-in protocol's runs on the agent array.
func TestPPFileRuns(t *testing.T) {
	ex := filepath.Join("..", "examples", "protocols")
	out, errs, code := runPP("pp", filepath.Join(ex, "angluin.yaml"), "--n", "300", "--trials", "4", "--seed", "9", "--json", "--engine", "agent-array")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	ref, _, _ := runPP("pp", "angluin", "--n", "300", "--trials", "4", "--seed", "9", "--json", "--engine", "agent-array")
	var got, want []int64
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m struct {
			Protocol     string `json:"protocol"`
			Outcome      string `json:"outcome"`
			Interactions int64  `json:"interactions"`
			Details      struct {
				File    string           `json:"file"`
				Outputs map[string]int64 `json:"outputs"`
			} `json:"details"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		if m.Protocol != "angluin" || m.Outcome != "elected" || m.Details.Outputs["leader"] != 1 || !strings.HasSuffix(m.Details.File, "angluin.yaml") {
			t.Errorf("bad record %s", l)
		}
		got = append(got, m.Interactions)
	}
	for _, l := range strings.Split(strings.TrimSpace(ref), "\n") {
		var m struct{ Interactions int64 }
		_ = json.Unmarshal([]byte(l), &m)
		want = append(want, m.Interactions)
	}
	if len(got) != 4 || jsonOf(got) != jsonOf(want) {
		t.Errorf("file runs %v, built-in runs %v", got, want)
	}
	// A consensus protocol succeeds (exit 0) with the goal-reached outcome,
	// on the count engines too; the summary names the goal.
	out, errs, code = runPP("pp", filepath.Join(ex, "approx-majority.yaml"), "--n", "1e6", "--trials", "2")
	if code != 0 || !strings.Contains(out, "goal: every agent outputs A") || !strings.Contains(out, "outcomes: goal-reached 2") || !strings.Contains(out, "engine=batched") {
		t.Errorf("approx-majority: exit %d\n%s%s", code, out, errs)
	}
	// --n defaults to the initial counts' sum.
	dir := t.TempDir()
	p := filepath.Join(dir, "counts.yaml")
	os.WriteFile(p, []byte("name: c\nstates: [L, F]\ninitial: {L: 10, F: 90}\nrules: [[L, L, L, F]]\noutput: {L: leader, F: follower}\nstop: one-leader\n"), 0o644)
	if out, errs, code := runPP("pp", p); code != 0 || !strings.Contains(out, "n=100 ") {
		t.Errorf("counts: exit %d\n%s%s", code, out, errs)
	}
}

func jsonOf(x any) string { b, _ := json.Marshal(x); return string(b) }

// TestPPFileBadInput: a bad file is one line on stderr naming the file and
// the line, and exit status 2.
func TestPPFileBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write("bad.yaml", "name: x\nstates: [L, F]\ninitial: {L: all}\nrules:\n  - [L, Q, L, F]\noutput: {L: leader, F: follower}\nstop: one-leader\n")
	counts := write("counts.yaml", "name: c\nstates: [L, F]\ninitial: {L: 10, F: 90}\nrules: [[L, L, L, F]]\noutput: {L: leader, F: follower}\nstop: one-leader\n")
	for _, tc := range []badInput{
		{[]string{"pp", bad}, bad + `:5: rule: responder: unknown state "Q"; states: L, F`},
		{[]string{"pp", counts, "--n", "1000"}, counts + ":3: the initial configuration has 100 agents, not n = 1000"},
		{[]string{"pp", filepath.Join(dir, "missing.yaml")}, "missing.yaml: cannot read: no such file or directory"},
		{[]string{"pp", dir + "/x.json"}, "x.json: cannot read"},
		{[]string{"pp", counts, "--m", "3"}, "c has no parameter --m"},
	} {
		wantBadInput(t, tc.args, tc.want)
	}
}

// TestSweepProtocolFile: a protocol file sweeps beside a built-in
// protocol; the records are what 'elect pp FILE --json' prints.
func TestSweepProtocolFile(t *testing.T) {
	file := filepath.Join("..", "examples", "protocols", "epidemic.json")
	out, errs, code := runPP("sweep", file+",epidemic", "--n", "100,200", "--trials", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 8 {
		t.Fatalf("want 8 records, got %d:\n%s", len(lines), out)
	}
	single, _, _ := runPP("pp", file, "--n", "100", "--trials", "2", "--json")
	if withoutGrid(t, strings.Join(lines[:2], "\n")+"\n") != single {
		t.Errorf("sweep records differ from elect pp's:\n%s\n%s", strings.Join(lines[:2], "\n"), single)
	}
	if _, errs, code := runPP("sweep", "nosuch.yaml", "--n", "100"); code != 2 || !strings.Contains(errs, "nosuch.yaml: cannot read") {
		t.Errorf("missing file in a sweep: exit %d, %q", code, errs)
	}
}

// TestPPApproxMajorityListedAndRuns (issue 21): approximate majority is in
// 'elect pp list' (text and JSON), runs with --fraction-a, succeeds (exit
// 0) when it reaches consensus on A, and refuses a fraction out of (0, 1].
func TestPPApproxMajorityListedAndRuns(t *testing.T) {
	out, _, _ := runPP("pp", "list")
	js, _, _ := runPP("pp", "list", "--json")
	if !strings.Contains(out, "approx-majority\n") || !strings.Contains(out, "--fraction-a (default 0.6)") || !strings.Contains(js, `"name": "approx-majority"`) {
		t.Errorf("pp list lacks approx-majority:\n%s", out)
	}
	out, errs, code := runPP("pp", "approx-majority", "--n", "20000", "--trials", "3", "--json")
	if code != 0 || strings.Count(out, `"outcome":"goal-reached"`) != 3 || strings.Count(out, `"holding_a":20000`) != 3 {
		t.Errorf("exit %d: %s%s", code, out, errs)
	}
	// 30% A: consensus on B, so the goal (all A) is never reached.
	if _, _, code := runPP("pp", "approx-majority", "--n", "500", "--fraction-a", "0.3", "--max-steps", "200000"); code != 1 {
		t.Errorf("30%% A: exit %d, want 1 (step limit)", code)
	}
	for _, bad := range []string{"0", "1.5", "-0.2"} {
		if _, errs, code := runPP("pp", "approx-majority", "--fraction-a", bad); code != 2 || !strings.Contains(errs, "--fraction-a must be in (0, 1]") {
			t.Errorf("--fraction-a %s: exit %d, %q", bad, code, errs)
		}
	}
	if _, errs, code := runPP("pp", "angluin", "--fraction-a", "0.5"); code != 2 || !strings.Contains(errs, "angluin has no parameter --fraction-a") {
		t.Errorf("angluin --fraction-a: exit %d, %q", code, errs)
	}
}
