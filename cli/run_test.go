package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunBadInput: every kind of bad input named by the foundation issue gets
// exactly one line on stderr, saying what is wrong, and exit status 2.
func TestRunBadInput(t *testing.T) {
	for _, c := range []badInput{
		{[]string{"run", "lcr", "--n", "0"}, "n must be at least 1"},
		{[]string{"run", "lcr", "--n", "-5"}, "n must be at least 1"},
		{[]string{"run", "lcr", "--n", "1000000000"}, "of memory"},
		{[]string{"run", "lcr", "--n", "3000000000"}, "larger than the simulator's limit"},
		{[]string{"run", "lrc"}, `unknown algorithm "lrc" (did you mean "lcr"?)`},
		{[]string{"run", "chang-robert"}, `(did you mean "chang-roberts"?)`},
		{[]string{"run", "lcr", "--n", "3", "--ids", "1,1,2"}, "needs unique IDs, but nodes 0 and 1 both hold 1"},
		{[]string{"run", "lcr", "--n", "3", "--ids", "anonymous"}, "needs unique IDs"},
		{[]string{"run", "lcr", "--n", "3", "--ids", "1,x,2"}, `"x" is not an ID`},
		{[]string{"run", "lcr", "--n", "3", "--ids", "1,2"}, "the ID list has 2 IDs but n is 3"},
		{[]string{"run", "lcr", "--n", "3", "--ids", "list:"}, `"" is not an ID`},
		{[]string{"run", "lcr", "--n", "3", "--ids", "sorted"}, `unknown arrangement "sorted"`},
		{[]string{"run", "lcr", "--n", "12", "--ids", "bit-reversal"}, "bit-reversal needs n to be a power of two; 12 is not (try 16)"},
		{[]string{"run", "lcr", "--n", "8", "--ids", "range:5..9"}, "range 5..9 holds 5 distinct IDs, fewer than n = 8"},
		{[]string{"run", "lcr", "--delivery", "lifo"}, `unknown delivery model "lifo"`},
		{[]string{"run", "lcr", "--delivery", "radom"}, `(did you mean "random"?)`},
		{[]string{"run", "lcr", "--timing", "sync", "--delivery", "fifo"}, "--timing sync needs --delivery sync"},
		{[]string{"run", "lcr", "--timing", "partial"}, `unknown timing "partial"`},
		{[]string{"run", "lcr", "--topology", "complete"}, "lcr runs on rings, not on complete (assumption: unidirectional ring"},
		{[]string{"run", "lcr", "--topology", "moebius"}, `unknown topology "moebius"`},
		{[]string{"run", "lcr", "--topology", "rng"}, `unknown topology "rng" (did you mean "ring"?)`},
		{[]string{"run", "time-slice", "--timing", "async"}, "is a synchronous algorithm; it needs --timing sync"},
		{[]string{"run", "afek-gafni", "--timing", "sync"}, "is an asynchronous algorithm"},
		{[]string{"run", "peterson", "--variant", "untagged", "--delivery", "random"}, "assumption: FIFO channels"},
		{[]string{"run", "lcr", "--initiators", "0"}, "0 initiators asked for"},
		{[]string{"run", "lcr", "--initiators", "nodes:1,1"}, "initiator 1 is listed twice"},
		{[]string{"run", "lcr", "--initiators", "nodes:99"}, `initiator "99" is not a node index in 0..15`},
		{[]string{"run", "lcr", "--initiators", "some"}, `unknown initiators "some"`},
		{[]string{"run", "lcr", "--n", "abc"}, `run: --n: "abc" is not a whole number: write it as 1000000, 1e6 or 2^20`},
		{[]string{"run", "lcr", "--colour"}, "flag provided but not defined: -colour"},
		{[]string{"run"}, "run takes one algorithm name (got 0)"},
		{[]string{"run", "lcr", "hs"}, "run takes one algorithm name (got 2)"},
		{[]string{"run", "lcr", "--trials", "0"}, "--trials must be at least 1"},
		{[]string{"run", "lcr", "--trials", "2", "--trace", "t.jsonl"}, "--trace writes one run"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"list", "extra"}, "list takes no arguments"},
	} {
		wantBadInput(t, c.args, c.want)
	}
}

// TestRunBadInputLeavesNoTraceFile: a refused run creates no trace file.
func TestRunBadInputLeavesNoTraceFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	if code, _, _ := runCLI("run", "lcr", "--ids", "1,1", "--n", "2", "--trace", path); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("trace file exists after bad input: %v", err)
	}
}

// TestRunForceShowsTheFailure: --force runs a refused configuration and
// reports the failure with exit status 1: LCR on an anonymous ring elects
// every node (all IDs are equal, so every node gets "its own" ID back).
func TestRunForceShowsTheFailure(t *testing.T) {
	code, out, _ := runCLI("run", "lcr", "--n", "4", "--ids", "anonymous", "--force")
	if code != 1 || !strings.Contains(out, "outcome   multiple-leaders") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

// TestRunJSONFields: --json prints one object with every field the
// foundation issue names.
func TestRunJSONFields(t *testing.T) {
	code, out, errOut := runCLI("run", "chang-roberts", "--n", "10", "--initiators", "3", "--delivery", "random", "--json", "--seed", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	for _, f := range []string{"algorithm", "n", "seed", "ids", "timing", "delivery", "outcome", "leader_index", "leader_id",
		"leaders", "messages", "messages_by_type", "bits", "time", "all_know_leader", "checks"} {
		if _, ok := rec[f]; !ok {
			t.Errorf("field %q missing", f)
		}
	}
	if rec["outcome"] != "elected" || rec["leader_id"].(float64) != 9 || rec["initiators"].(float64) != 3 {
		t.Errorf("unexpected record %v", rec)
	}
	checks := rec["checks"].([]any)
	first := checks[0].(map[string]any)
	for _, f := range []string{"name", "expected", "actual", "holds"} {
		if _, ok := first[f]; !ok {
			t.Errorf("check field %q missing", f)
		}
	}
}

// TestRunTraceIsDeterministic: the same command writes the same trace twice.
func TestRunTraceIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	var traces []string
	for k := range 2 {
		path := filepath.Join(dir, []string{"a", "b"}[k])
		if code, _, errOut := runCLI("run", "lcr", "--n", "40", "--delivery", "random", "--initiators", "5", "--seed", "77", "--trace", path); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		traces = append(traces, string(b))
	}
	if traces[0] != traces[1] || strings.Count(traces[0], "\n") < 40 {
		t.Fatal("two runs with the same seed wrote different traces")
	}
}

// TestRunGolden pins the human-readable reports (go test -run TestRunGolden
// -update rewrites them).
func TestRunGolden(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"run_lcr", []string{"run", "lcr", "--n", "8", "--seed", "3"}},
		{"run_lcr_decreasing_announce", []string{"run", "lcr", "--n", "16", "--ids", "decreasing", "--announce", "--timing", "sync"}},
		{"run_cr_trials", []string{"run", "chang-roberts", "--n", "32", "--initiators", "4", "--delivery", "random-fifo", "--trials", "50"}},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errOut)
		}
		checkGolden(t, c.name, out)
	}
}

// FuzzRunArguments: no argument list makes elect run panic; every outcome is
// exit 0, 1 or 2, and exit 2 comes with one line on stderr.
func FuzzRunArguments(f *testing.F) {
	f.Add("lcr --n 5 --ids 3,1,2,0,4")
	f.Add("chang-roberts --n 7 --initiators nodes:1@2,3 --delivery newest-first")
	f.Add("lcr --n 8 --ids bit-reversal --timing sync --json")
	f.Add("lcr --n 4 --ids range:0..3 --max-events 3")
	f.Fuzz(func(t *testing.T, line string) {
		args := append([]string{"run"}, strings.Fields(line)...)
		for k, a := range args {
			if a == "--trace" || strings.HasPrefix(a, "--trace=") || strings.HasPrefix(a, "-trace") {
				args[k] = "--json" // never write files from the fuzzer
			}
		}
		if n := nArg(args); n > 200 || strings.Contains(line, "trials") || strings.Contains(line, "max-events") {
			return // keep each input fast; large runs are covered by the other tests
		}
		code, _, errOut := runCLI(args...)
		switch code {
		case 0, 1:
		case 2:
			if strings.Count(errOut, "\n") != 1 {
				t.Fatalf("%q: exit 2 with stderr %q", line, errOut)
			}
		default:
			t.Fatalf("%q: exit %d", line, code)
		}
	})
}

// nArg returns the value given to --n, or 0.
func nArg(args []string) int {
	for k, a := range args {
		if (a == "--n" || a == "-n") && k+1 < len(args) {
			var n int
			for _, c := range args[k+1] {
				if c < '0' || c > '9' {
					return 0
				}
				n = n*10 + int(c-'0')
				if n > 1<<30 {
					return n
				}
			}
			return n
		}
		if strings.HasPrefix(a, "--n=") || strings.HasPrefix(a, "-n=") {
			return 1 << 31
		}
	}
	return 0
}
