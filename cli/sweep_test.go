package cli

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// sweep4x6x20 is the sweep: 4 algorithms x 6 sizes x 20 trials, with
// sizes small enough to run in about a second.
var sweep4x6x20 = []string{"sweep", "lcr,hs,peterson,chang-roberts", "--n", "4..128x2", "--trials", "20", "--seed", "7"}

// TestSweepSameLinesWithOneWorkerAndAll: per-trial seeds come from the master
// seed alone and lines are written in grid order, so 1 worker and every core
// print the same bytes (issue 7, "What it must show").
func TestSweepSameLinesWithOneWorkerAndAll(t *testing.T) {
	code1, one, e1 := runCLI(append(sweep4x6x20, "--workers", "1")...)
	workers := max(runtime.NumCPU(), 4) // more workers than cores still must not matter
	codeN, all, eN := runCLI(append(sweep4x6x20, "--workers", fmt.Sprint(workers))...)
	if code1 != 0 || codeN != 0 {
		t.Fatalf("exit %d / %d: %s %s", code1, codeN, e1, eN)
	}
	if got := strings.Count(one, "\n"); got != 4*6*20 {
		t.Fatalf("1 worker: %d lines, want %d", got, 4*6*20)
	}
	if one != all {
		t.Fatalf("1 worker and %d workers differ", workers)
	}
}

// TestSweepLinesAreRunRecords: a one-configuration sweep prints exactly what
// 'elect run --trials K --json' prints (same seeds seed+t, same encoding),
// and a population sweep exactly what 'elect pp --trials K --json' prints,
// each line with the sweep's fingerprint as its last field, "grid".
func TestSweepLinesAreRunRecords(t *testing.T) {
	for _, c := range []struct{ sweep, single []string }{
		{[]string{"sweep", "hs", "--n", "32", "--trials", "5", "--seed", "11", "--ids", "bit-reversal", "--delivery", "random"},
			[]string{"run", "hs", "--n", "32", "--trials", "5", "--seed", "11", "--ids", "bit-reversal", "--delivery", "random", "--json"}},
		{[]string{"sweep", "chang-roberts", "--n", "20", "--trials", "3", "--initiators", "3"},
			[]string{"run", "chang-roberts", "--n", "20", "--trials", "3", "--initiators", "3", "--json"}},
		{[]string{"sweep", "epidemic", "--n", "30000", "--trials", "2", "--seed", "5", "--no-states"},
			[]string{"pp", "epidemic", "--n", "30000", "--trials", "2", "--seed", "5", "--no-states", "--json"}},
		{[]string{"sweep", "epidemic-term", "--n", "100", "--trials", "4", "--seed", "5", "--m", "4"},
			[]string{"pp", "epidemic-term", "--n", "100", "--trials", "4", "--seed", "5", "--m", "4", "--json"}},
	} {
		c1, a, e1 := runCLI(c.sweep...)
		c2, b, e2 := runCLI(c.single...)
		if c1 != 0 || c2 != 0 {
			t.Fatalf("%v: exit %d / %d: %s %s", c.sweep, c1, c2, e1, e2)
		}
		if a := withoutGrid(t, a); a != b {
			t.Errorf("%v differs from %v:\n%s\nvs\n%s", c.sweep, c.single, a, b)
		}
	}
}

// TestSweepShardsMergeToTheUnshardedSweep: every k-way split, merged, is the
// unsharded sweep byte for byte (issue 7, "What it must show").
func TestSweepShardsMergeToTheUnshardedSweep(t *testing.T) {
	args := []string{"sweep", "lcr,franklin,pp:angluin", "--n", "5,9,16", "--trials", "7", "--seed", "3"}
	code, full, errOut := runCLI(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	total := strings.Count(full, "\n")
	dir := t.TempDir()
	for _, k := range []int{1, 2, 3, 8, total + 2} {
		var files []string
		for i := 1; i <= k; i++ {
			c, out, e := runCLI(append(args, "--shard", fmt.Sprintf("%d/%d", i, k))...)
			if c != 0 {
				t.Fatalf("shard %d/%d: exit %d: %s", i, k, c, e)
			}
			name := filepath.Join(dir, fmt.Sprintf("k%d-shard-%d.jsonl", k, i))
			if err := os.WriteFile(name, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
		}
		c, merged, e := runCLI(append([]string{"merge"}, files...)...)
		if c != 0 {
			t.Fatalf("merge of %d shards: exit %d: %s", k, c, e)
		}
		if merged != full {
			t.Errorf("merge of %d shards differs from the unsharded sweep", k)
		}
		if k >= 3 {
			// Out of order: each shard says which it is (issue 35), so
			// the merge is the same; a shard missing: refused.
			swapped := append([]string{"merge", files[1], files[0]}, files[2:]...)
			if c, out, e := runCLI(swapped...); c != 0 || out != full {
				t.Errorf("merge with shards 1 and 2 swapped: exit %d, stderr %q", c, e)
			}
			if c, _, e := runCLI(append([]string{"merge"}, files[:k-1]...)...); k <= total && (c != 2 || strings.Count(e, "\n") != 1) {
				t.Errorf("merge without the last shard: exit %d, stderr %q", c, e)
			}
		}
	}
}

// TestSweepSummaryAndCSV: the summary has a row per configuration and size
// with mean, sd, 95% CI, min, max and the fitted constant; the decreasing
// ring's LCR count n(n+1)/2 gives exactly the constant 0.5 + 1/(2n) against
// n^2, so the table can be checked by hand.
func TestSweepSummaryAndCSV(t *testing.T) {
	code, out, e := runCLI("sweep", "lcr", "--n", "8,16", "--ids", "decreasing", "--trials", "3", "--summary", "--measure", "messages")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	for _, want := range []string{"95% CI", "36", "136", "0.5625 / (n^2)", "0.5312 / (n^2)"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	code, out, e = runCLI("sweep", "lcr", "--n", "8", "--trials", "2", "--csv", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "kind,algorithm,n,seed,config,ok,") || !strings.Contains(lines[0], "messages:election") {
		t.Errorf("CSV:\n%s", out)
	}
}

// TestSweepBadInput: bad input gets one line on stderr and exit status 2, and
// no output file.
func TestSweepBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jsonl")
	for _, c := range []badInput{
		{[]string{"sweep"}, "no algorithm given"},
		{[]string{"sweep", "lrc"}, `(did you mean "lcr"?)`},
		{[]string{"sweep", "lcr", "--n", "0"}, "is not a size"},
		{[]string{"sweep", "lcr", "--n", "64..8x2"}, "ends below its start"},
		{[]string{"sweep", "lcr", "--n", "8..64x1"}, "bad step"},
		{[]string{"sweep", "lcr", "--n", "8..64"}, "needs a factor"},
		{[]string{"sweep", "lcr", "--n", "8,8"}, "appears twice"},
		{[]string{"sweep", "lcr", "--trials", "0"}, "--trials must be between"},
		{[]string{"sweep", "lcr", "--workers", "0"}, "--workers must be between"},
		{[]string{"sweep", "lcr", "--shard", "0/4"}, "bad shard"},
		{[]string{"sweep", "lcr", "--shard", "5/4"}, "bad shard"},
		{[]string{"sweep", "lcr", "--shard", "2"}, "--shard takes i/k"},
		{[]string{"sweep", "lcr", "--ids", "sorted"}, `unknown arrangement "sorted"`},
		{[]string{"sweep", "lcr", "--n", "12", "--ids", "bit-reversal"}, "bit-reversal needs n to be a power of two"},
		{[]string{"sweep", "lcr", "--delivery", "fifo,lifo"}, `unknown delivery model "lifo"`},
		{[]string{"sweep", "lcr", "--initiators", "all,,3"}, "empty item"},
		{[]string{"sweep", "lcr", "--n", "4", "--initiators", "9"}, "9 initiators asked for"},
		{[]string{"sweep", "lcr", "--bits", "8"}, "no algorithm of the sweep takes --bits"},
		{[]string{"sweep", "lcr-random", "--bits", "99"}, "--bits"},
		{[]string{"sweep", "pll", "--ids", "decreasing"}, "apply to message-passing algorithms"},
		{[]string{"sweep", "epidemic-term", "--m", "x"}, "--m must be an integer"},
		{[]string{"sweep", "pll", "--n", "1"}, "pll, n = 1"},
		{[]string{"sweep", "lcr", "--fit", "n^3"}, "unknown --fit"},
		{[]string{"sweep", "lcr", "--scheduler", "lifo"}, "unknown scheduler"},
		{[]string{"sweep", "pll", "--engine", "warp"}, "unknown engine"},
		{[]string{"sweep", "lcr", "--out", out, "--topology", "complete"}, "lcr runs on rings"},
		{[]string{"merge"}, "no shard file given"},
		{[]string{"merge", filepath.Join(dir, "missing.jsonl")}, "cannot read"},
	} {
		wantBadInput(t, c.args, c.want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("bad input left %s behind", out)
	}
}
