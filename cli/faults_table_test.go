package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// faultsTableRow is a row of docs/faults-table.md (docs/faults-table.sh).
type faultsTableRow struct {
	alg, fault, verdict, shortest, example string
	states                                 int64
}

// readFaultsTable reads the rows of docs/faults-table.md, by algorithm
// and fault.
func readFaultsTable(t *testing.T) map[string]faultsTableRow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "faults-table.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]faultsTableRow{}
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) != 9 || !strings.HasPrefix(line, "| `") {
			continue
		}
		r := faultsTableRow{alg: strings.Trim(cells[0], "| `"), fault: strings.Trim(cells[2], "`"), verdict: cells[3], shortest: cells[4], example: strings.TrimSuffix(cells[8], " |")}
		r.states, _ = strconv.ParseInt(cells[5], 10, 64)
		rows[r.alg+" "+r.fault] = r
	}
	return rows
}

// TestFaultsTableRows re-checks rows of docs/faults-table.md: the checker's
// verdict, shortest counterexample and states as the table says (LCR loses
// its leader to one loss in 8 steps; Bully holds under two crashes; flood-max
// under one loss), and LCR's counterexample replays, with the command the
// table gives, to no leader (exit 4), and opens in the viewer.
func TestFaultsTableRows(t *testing.T) {
	rows := readFaultsTable(t)
	for _, key := range []string{"lcr loss:k=1", "lcr crash:k=1", "bully crash:k=2", "bully loss:k=1", "flood-max loss:k=1", "ring-skip crash:k=1"} {
		row, ok := rows[key]
		if !ok {
			t.Errorf("docs/faults-table.md has no row %q", key)
			continue
		}
		args := []string{"check", row.alg, "--n", "4", "--faults", row.fault, "--max-states", "200000", "--workers", "1", "--json",
			"--counterexample", filepath.Join(t.TempDir(), "ce.jsonl")}
		code, out, errOut := runCLI(args...)
		var rep struct {
			Verdict  string `json:"verdict"`
			Property string `json:"property"`
			States   int64  `json:"states"`
			Steps    int64  `json:"counterexample_steps"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v: exit %d, %v: %s", args, code, err, errOut)
		}
		verdict := rep.Verdict
		if rep.Property != "" {
			verdict += " (" + rep.Property + ")"
		}
		if verdict != row.verdict || rep.States != row.states || rep.Steps != 0 && !strings.HasPrefix(row.shortest, strconv.FormatInt(rep.Steps, 10)+" ") {
			t.Errorf("%s: the check says %s, %d states, shortest %d; the table %s, %d, %q", key, verdict, rep.States, rep.Steps, row.verdict, row.states, row.shortest)
		}
		want := map[string]int{"ok": 0, "expected-failure": 4, "violation": 1}[rep.Verdict]
		if code != want {
			t.Errorf("%s: exit %d, want %d", key, code, want)
		}
	}
	lcr := rows["lcr loss:k=1"]
	if lcr.verdict != "expected-failure (no-leader)" || lcr.shortest != "8 steps" {
		t.Errorf("lcr, one loss: %+v; want an expected failure, no leader after 8 steps", lcr)
	}
	if rows["bully crash:k=2"].verdict != "ok" {
		t.Errorf("bully, two crashes: %+v; want ok", rows["bully crash:k=2"])
	}
	// The counterexample replays with the command the table gives.
	m := regexp.MustCompile("`(elect run [^`]*)`; `elect view ([^`]*)`").FindStringSubmatch(lcr.example)
	if m == nil {
		t.Fatalf("lcr's counterexample: %q", lcr.example)
	}
	var replay []string
	for _, a := range strings.Fields(m[1])[1:] {
		if strings.HasPrefix(a, "docs/") {
			a = filepath.Join("..", a)
		}
		replay = append(replay, a)
	}
	code, out, errOut := runCLI(replay...)
	if code != 4 || !strings.Contains(out, "outcome   no-leader") || !strings.Contains(out, "verdict   expected-failure") {
		t.Errorf("%v: exit %d\n%s%s", replay, code, out, errOut)
	}
	page := filepath.Join(t.TempDir(), "lcr.html")
	if code, _, errOut := runCLI("view", filepath.Join("..", m[2]), "--out", page); code != 0 {
		t.Errorf("elect view %s: exit %d: %s", m[2], code, errOut)
	}
}
