package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// gridField is the field every sweep line ends with: the fingerprint of
// its grid.
var gridField = regexp.MustCompile(`,"grid":"[0-9a-f]{16}"}$`)

// withoutGrid returns a sweep's output without the field "grid" of each
// line, failing the test when a line lacks it.
func withoutGrid(t *testing.T, out string) string {
	t.Helper()
	lines := strings.SplitAfter(out, "\n")
	for i, l := range lines {
		if l == "" {
			continue
		}
		body := strings.TrimSuffix(l, "\n")
		if !gridField.MatchString(body) {
			t.Fatalf("line %d has no field \"grid\" at its end: %.200s", i+1, body)
		}
		lines[i] = gridField.ReplaceAllString(body, "}") + l[len(body):]
	}
	return strings.Join(lines, "")
}

// TestSweepResumeRefusesAnotherSweepsFile (issue 42): --resume of a file
// that another sweep wrote (another algorithm, seed, number of trials or
// shard), or that carries no grid fingerprint, is refused with one line and
// exit 2, the file left as it was; the same sweep resumes it.
func TestSweepResumeRefusesAnotherSweepsFile(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	shard := filepath.Join(dir, "shard.jsonl")
	old := filepath.Join(dir, "old.jsonl")
	sweep := []string{"sweep", "lcr", "--n", "8,16", "--trials", "3"}
	if code, _, errOut := runCLI(append(sweep, "--out", whole)...); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(append(sweep, "--shard", "1/2", "--out", shard)...); code != 0 {
		t.Fatalf("sweep --shard: exit %d: %s", code, errOut)
	}
	data := must(os.ReadFile(whole))
	if err := os.WriteFile(old, []byte(withoutGrid(t, string(data))), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "hs", "--n", "8,16", "--trials", "3", "--resume", whole}, "whole.jsonl:1 is from another sweep"},
		{[]string{"sweep", "lcr", "--n", "8,16", "--trials", "3", "--seed", "2", "--resume", whole}, "is from another sweep"},
		{[]string{"sweep", "lcr", "--n", "8,16", "--trials", "4", "--resume", whole}, "is from another sweep"},
		{[]string{"sweep", "lcr", "--n", "8,16", "--trials", "3", "--faults", "loss:p=0.1", "--resume", whole}, "is from another sweep"},
		{append(sweep, "--shard", "1/2", "--resume", whole), "is from the sweep without --shard, not shard 1/2"},
		{append(sweep, "--shard", "2/2", "--resume", shard), "is from shard 1/2, not shard 2/2"},
		{append(sweep, "--resume", shard), "is from shard 1/2, not the sweep without --shard"},
		{append(sweep, "--resume", old), `old.jsonl:1 has no field "grid"`},
	} {
		wantBadInput(t, c.args, c.want)
	}
	if !bytes.Equal(must(os.ReadFile(whole)), data) {
		t.Errorf("a refused --resume changed %s", whole)
	}
	code, _, errOut := runCLI(append(sweep, "--resume", whole)...)
	if code != 0 || !strings.Contains(errOut, "6 of 6 runs are already in") || !bytes.Equal(must(os.ReadFile(whole)), data) {
		t.Errorf("the same sweep's --resume: exit %d, %q", code, errOut)
	}
}

// TestSweepRefusesRepeatsInItsGrid (issue 42): 'sweep lcr,lcr' would run
// seeds 1, 2, 1, 2 and summarise copies as new samples; a repeated
// algorithm, size or value is refused with one line naming it.
func TestSweepRefusesRepeatsInItsGrid(t *testing.T) {
	for _, c := range []badInput{
		{[]string{"sweep", "lcr,lcr", "--n", "8"}, "lcr is listed twice among the algorithms"},
		{[]string{"sweep", "lcr,hs", "lcr", "--n", "8"}, "lcr is listed twice among the algorithms"},
		{[]string{"sweep", "pll,pp:pll", "--n", "100"}, "pll and pp:pll name the same algorithm"},
		{[]string{"sweep", "lcr", "--n", "8,16,8"}, "size 8 appears twice"},
		{[]string{"sweep", "lcr", "--n", "8", "--ids", "random,increasing,random"}, "--ids random,increasing,random: random is listed twice"},
		{[]string{"sweep", "lcr", "--n", "8", "--delivery", "fifo,fifo"}, "--delivery fifo,fifo: fifo is listed twice"},
		{[]string{"sweep", "lcr", "--n", "8", "--initiators", "all,1,1"}, "--initiators all,1,1: 1 is listed twice"},
		{[]string{"sweep", "lcr-random", "--n", "8", "--bits", "8,8"}, "--bits 8,8: 8 is listed twice"},
	} {
		wantBadInput(t, c.args, c.want)
	}
	// allowed expands without repeats, beside a value it includes: the 5
	// delivery models lcr allows, fifo once.
	if code, out, errOut := runCLI("sweep", "lcr", "--n", "8", "--trials", "1", "--delivery", "fifo,allowed"); code != 0 || strings.Count(out, "\n") != 5 {
		t.Errorf("--delivery fifo,allowed: exit %d, %d lines, %s", code, strings.Count(out, "\n"), errOut)
	}
}
