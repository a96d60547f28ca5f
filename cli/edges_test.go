package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSweepOfAnImpossibleGridRefusedAtOnce (issue 35: 'elect sweep lcr
// --n 8..1000000000x2' validated for 58 s and 1.47 GB before exit 2): the
// grid's points are checked largest first, so the point that cannot run
// is named before any other is built.
func TestSweepOfAnImpossibleGridRefusedAtOnce(t *testing.T) {
	wantBadInput(t, []string{"sweep", "lcr", "--n", "8..1000000000x2", "--mem-limit", "16GiB"},
		"sweep: n = 536870912 (lcr) needs about 108.0 GiB of memory")
}

// TestSweepSummaryMeasureFooRefusedBeforeTheRuns (issue 35: 'sweep
// --summary --measure foo' failed only after the runs): a measure no
// algorithm of the sweep has is refused before the first run, naming the
// algorithm and its measures; so is one that only some have.
func TestSweepSummaryMeasureFooRefusedBeforeTheRuns(t *testing.T) {
	out := filepath.Join(t.TempDir(), "runs.jsonl")
	wantBadInput(t, []string{"sweep", "lcr,hs", "--n", "64..4096x2", "--trials", "1000", "--summary", "--measure", "foo", "--out", out},
		`sweep: --measure foo: lcr has no such measure; its runs have bits, leaders, max_node_messages, messages, messages:election, messages:leader, time`)
	wantBadInput(t, []string{"sweep", "lcr,hs", "--n", "64", "--summary", "--measure", "messages:ELECTION"},
		`sweep: --measure messages:ELECTION: lcr has no such measure (did you mean "messages:election"?)`)
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written", out)
	}
	// A protocol's detail that only a whole run reports is checked after
	// the runs, as before.
	code, stdout, errOut := runCLI("sweep", "epidemic-term", "--n", "100", "--trials", "2", "--summary", "--measure", "declarer_id")
	if code != 0 || !strings.Contains(stdout, "declarer_id") {
		t.Errorf("epidemic-term's declarer_id: exit %d, %q %q", code, stdout, errOut)
	}
}

// TestMergeOfShard1Of2WithShard2Of3Refused (issue 35: the merge exited 0
// with a trial missing): every line of a shard carries its shard and
// grid, and merge refuses a set that does not cover the grid exactly.
func TestMergeOfShard1Of2WithShard2Of3Refused(t *testing.T) {
	dir := t.TempDir()
	shard := func(name string, args ...string) string {
		p := filepath.Join(dir, name)
		all := append([]string{"sweep", "lcr", "--n", "8,16", "--trials", "3", "--out", p}, args...)
		if code, _, errOut := runCLI(all...); code != 0 {
			t.Fatalf("%v: exit %d, %s", all, code, errOut)
		}
		return p
	}
	full := shard("full.jsonl")
	s12, s22 := shard("s12.jsonl", "--shard", "1/2"), shard("s22.jsonl", "--shard", "2/2")
	s23 := shard("s23.jsonl", "--shard", "2/3")
	other := shard("other.jsonl", "--shard", "2/2", "--seed", "9")
	wantBadInput(t, []string{"merge", s12, s23}, "s23.jsonl is shard 2/3 but "+s12+" is shard 1/2 of the same sweep")
	wantBadInput(t, []string{"merge", s12, other}, "shards of different sweeps")
	wantBadInput(t, []string{"merge", s12}, "shard 2/2 of the sweep is missing")
	wantBadInput(t, []string{"merge", s12, s12}, "are both shard 1/2")
	data, _ := os.ReadFile(s22)
	cut := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(cut, data[:strings.IndexByte(string(data), '\n')+1], 0o644)
	wantBadInput(t, []string{"merge", s12, cut}, "cut.jsonl (shard 2/2) has 1 of its 3 runs")
	// The shards of one split merge, in either order, into the unsharded
	// output, byte for byte.
	want, _ := os.ReadFile(full)
	for _, files := range [][]string{{s12, s22}, {s22, s12}} {
		code, out, errOut := runCLI(append([]string{"merge"}, files...)...)
		if code != 0 || out != string(want) {
			t.Errorf("merge %v: exit %d, %s; the output differs from the unsharded sweep's", files, code, errOut)
		}
	}
}

// TestPlotMeasureMessagesELECTIONNamesLCR (issue 35: the figure left lcr
// out with exit 0): a measure that no record of an algorithm has is an
// error naming the algorithm.
func TestPlotMeasureMessagesELECTIONNamesLCR(t *testing.T) {
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs.jsonl")
	if code, _, errOut := runCLI("sweep", "lcr,hs", "--n", "16,32", "--trials", "2", "--out", runs); code != 0 {
		t.Fatal(errOut)
	}
	wantBadInput(t, []string{"plot", runs, "--measure", "messages:ELECTION", "--out", filepath.Join(dir, "f.png")},
		`plot: --measure messages:ELECTION: no record of lcr has it (did you mean "messages:election"?)`)
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("%d files in the directory, want only the runs", len(es))
	}
}

// TestReplayWithOtherFlagsRefusedShowingTheDifference (issue 35: --replay
// never compared the record's seed, IDs or parameters with the command
// line's).
func TestReplayWithOtherFlagsRefusedShowingTheDifference(t *testing.T) {
	dir := t.TempDir()
	lcr := filepath.Join(dir, "lcr.jsonl")
	ir := filepath.Join(dir, "ir.jsonl")
	lr := filepath.Join(dir, "lr.jsonl")
	for _, args := range [][]string{
		{"run", "lcr", "--n", "8", "--seed", "3", "--trace", lcr},
		{"run", "itai-rodeh", "--n", "5", "--seed", "4", "--ids", "4,2,3,1,0", "--trace", ir},
		{"run", "lcr-random", "--n", "5", "--bits", "3", "--trace", lr},
	} {
		if code, _, errOut := runCLI(args...); code > 1 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	wantBadInput(t, []string{"run", "lcr", "--n", "8", "--replay", lcr},
		"--replay "+lcr+" was made with other flags: its node 0 has ID 0, this command's 2 (--ids 0,1,5,2,7,6,4,3)")
	wantBadInput(t, []string{"run", "itai-rodeh", "--n", "5", "--ids", "4,2,3,1,0", "--replay", ir},
		"its seed is 4, this command's 1 (--seed 4)")
	wantBadInput(t, []string{"run", "lcr-random", "--n", "5", "--bits", "4", "--replay", lr},
		"its --bits is 3, this command's 4")
	// The same flags replay, and a deterministic algorithm's seed does
	// not matter once its IDs are the record's.
	for _, args := range [][]string{
		{"run", "lcr", "--n", "8", "--seed", "3", "--replay", lcr},
		{"run", "lcr", "--n", "8", "--ids", "0,1,5,2,7,6,4,3", "--replay", lcr},
		{"run", "itai-rodeh", "--n", "5", "--seed", "4", "--ids", "4,2,3,1,0", "--replay", ir},
	} {
		if code, _, errOut := runCLI(args...); code != 0 {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}

// TestClusterInitIntoExistingDirectoryRefusedUnlessForce (issue 35: init
// overwrote the CA and keys and left stale node files): an existing
// cluster is refused; --force replaces the whole set, leaving no stale
// node directory and nothing elect did not make removed.
func TestClusterInitIntoExistingDirectoryRefusedUnlessForce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	if code, _, errOut := runCLI("cluster", "init", dir, "--alg", "lcr", "--n", "8", "--base-port", "0"); code != 0 {
		t.Fatal(errOut)
	}
	caBefore, _ := os.ReadFile(filepath.Join(dir, "ca.pem"))
	wantBadInput(t, []string{"cluster", "init", dir, "--alg", "hs", "--n", "4", "--base-port", "0"},
		"holds a cluster already (lcr, n = 8); --force replaces it")
	if ca, _ := os.ReadFile(filepath.Join(dir, "ca.pem")); string(ca) != string(caBefore) {
		t.Fatal("the refused init changed the CA")
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine\n"), 0o644)
	if code, _, errOut := runCLI("cluster", "init", dir, "--alg", "hs", "--n", "4", "--base-port", "0", "--force"); code != 0 {
		t.Fatal(errOut)
	}
	var names []string
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		names = append(names, e.Name())
	}
	want := "ca.key ca.pem cluster.json node-0 node-1 node-2 node-3 notes.txt"
	if strings.Join(names, " ") != want {
		t.Errorf("after --force the directory holds %v, want %s", names, want)
	}
	if ca, _ := os.ReadFile(filepath.Join(dir, "ca.pem")); string(ca) == string(caBefore) {
		t.Error("--force kept the old CA")
	}
	if code, _, errOut := runCLI("cluster", "init", dir+"-2", "--alg", "hs", "--n", "4", "--base-port", "0"); code != 0 {
		t.Fatal(errOut)
	}
	// A directory that holds something else is not a cluster to replace.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "data.csv"), []byte("1,2\n"), 0o644)
	wantBadInput(t, []string{"cluster", "init", other, "--alg", "lcr", "--n", "4", "--force"}, "is not empty and holds no cluster elect made")
	if es, _ := os.ReadDir(other); len(es) != 1 {
		t.Errorf("%s holds %d files", other, len(es))
	}
}

// TestClusterInitN66000RefusedFirst (issue 35: init made 132k files in
// 95 s that up and node then refused): one limit, checked before anything
// is made.
func TestClusterInitN66000RefusedFirst(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "big")
	wantBadInput(t, []string{"cluster", "init", dir, "--alg", "lcr", "--n", "66000"}, "n = 66000: a cluster has at most 65536 nodes")
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("%s was made", dir)
	}
}

// TestRunWhoseStepLimitMeansDaysWarns (issue 35: such a run showed only a
// spinner): once the speed is known, a run without an estimate of its
// end says how far its step limit is, when that is more than a day.
func TestRunWhoseStepLimitMeansDaysWarns(t *testing.T) {
	got := stepLimitNote(1e6, 1e12, "--max-events", 10*time.Second)
	if want := "; the --max-events limit (1e+12) is about 115.7 days away at this speed: --time-limit bounds the run"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	if got := stepLimitNote(1e6, 1e10, "step", 8*time.Second); got != "" {
		t.Errorf("a limit under a day away: note %q, want none", got)
	}
	var b *progressBar // no terminal: no bar, no note
	if got := b.limitNote(1e6, 1e12, "step", time.Minute); got != "" {
		t.Errorf("without a bar: note %q", got)
	}
}

// TestSweepResumeWithACutLastLine (issue 35: a file whose last line a hard
// kill cut could not be resumed): the cut line is dropped, said so, and
// its run made again; the file ends as an uninterrupted sweep's output.
func TestSweepResumeWithACutLastLine(t *testing.T) {
	out := filepath.Join(t.TempDir(), "runs.jsonl")
	code, fresh, _ := runCLI("sweep", "lcr", "--n", "8,16", "--trials", "3")
	if code != 0 {
		t.Fatal("sweep failed")
	}
	lines := strings.SplitAfter(fresh, "\n")
	cut := strings.Join(lines[:3], "") + lines[3][:len(lines[3])/2]
	os.WriteFile(out, []byte(cut), 0o644)
	code, _, errOut := runCLI("sweep", "lcr", "--n", "8,16", "--trials", "3", "--resume", out)
	if code != 0 || !strings.Contains(errOut, "the last line of "+out+" was cut short") || !strings.Contains(errOut, "3 of 6 runs are already in") {
		t.Fatalf("resume: exit %d, stderr %q", code, errOut)
	}
	if got, _ := os.ReadFile(out); string(got) != fresh {
		t.Errorf("the resumed file differs from the uninterrupted sweep's output")
	}
}

// TestNegativeTimeLimitAndSeedOutOfRange (issue 35): a negative
// --time-limit is refused, and '--seed -1' says the range.
func TestNegativeTimeLimitAndSeedOutOfRange(t *testing.T) {
	wantBadInput(t, []string{"run", "lcr", "--time-limit", "-5s"}, "--time-limit must not be negative, got -5s")
	wantBadInput(t, []string{"pp", "angluin", "--time-limit", "-1m"}, "--time-limit must not be negative, got -1m0s")
	wantBadInput(t, []string{"run", "lcr", "--seed", "-1"}, "--seed: -1 is out of range: use a whole number from 0 to 18446744073709551615")
	wantBadInput(t, []string{"pp", "angluin", "--seed", "-1"}, "--seed: -1 is out of range: use a whole number from 0 to 18446744073709551615")
	wantBadInput(t, []string{"run", "lcr", "--trials", "99999999999999999999"}, "--trials: 99999999999999999999 is out of range")
}

// TestReproduceEndsWithASummaryLine (issue 35: reproduce ended without
// one): the last line counts the claims by verdict, with the time; the
// help says how long the full set takes.
func TestReproduceEndsWithASummaryLine(t *testing.T) {
	code, out, errOut := runCLI("reproduce", "chang-roberts", "--quick", "--out", "")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if code != 0 || !strings.HasPrefix(last, "reproduce: 1 reproduction, 6 claims: 6 passed, 0 failed, 0 pending (") {
		t.Errorf("exit %d, last line %q, stderr %q", code, last, errOut)
	}
	_, help, _ := runCLI("reproduce", "--help")
	if !strings.Contains(help, "The full set takes longer: more than 4 minutes on two cores") {
		t.Errorf("the help does not say how long the full set takes:\n%s", help)
	}
}
