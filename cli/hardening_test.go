package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electkit/elect/catalog"
)

// forceTopologies are the topologies the forced-run tests and fuzz target
// put every algorithm on.
var forceTopologies = []string{"ring", "complete", "line", "star", "grid:4x4", "torus:3x3", "hypercube", "tree", "gnp:0.5"}

// TestForcedRunsEndWithAnOutcome (issue 21, Bugs): a forced run off its
// model ends with an outcome that names what went wrong, never a panic.
// Peterson's node calls a probe from an earlier half-phase impossible, and
// on a grid it gets one: the run is a violation naming the panic, on the
// simulator and on the reference engine alike.
func TestForcedRunsEndWithAnOutcome(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "peterson", "--topology", "grid:4x4", "--force"},
			[]string{"outcome   violation", "violation panic: node 1 panicked: ring: peterson candidate in half-phase 1 got a probe of half-phase 0", "messages  18 (probe 18, leader 0)"}},
		{[]string{"run", "peterson", "--topology", "grid:4x4", "--force", "--runtime", "reference"},
			[]string{"outcome   violation", "violation panic: node 1 panicked: ring: peterson candidate in half-phase 1 got a probe of half-phase 0", "messages  18 (probe 18, leader 0)"}},
		{[]string{"run", "franklin", "--topology", "star", "--n", "8", "--force"},
			[]string{"outcome   violation", "violation bad-port: node 1 sent on port 1, which it does not have"}},
		// Chang-Roberts forwards IDs round a grid's cycles for ever: the
		// forced run's own event limit stops it at once.
		{[]string{"run", "chang-roberts", "--topology", "grid:4x4", "--force"},
			[]string{"outcome   multiple-leaders", "stuck     stopped after 1000000 events, the limit of a forced run"}},
	} {
		code, out, errOut := runCLI(c.args...)
		if code != 1 || errOut != "" {
			t.Errorf("%v: exit %d, stderr %q, want 1 and nothing", c.args, code, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: no %q in\n%s", c.args, w, out)
			}
		}
	}
}

// TestForcedRunsOfEveryAlgorithmOnEveryTopology: every catalog algorithm,
// forced onto every topology in both timings, exits 0 or 1 with a record
// (or 2 with one line when the combination cannot be built at all).
func TestForcedRunsOfEveryAlgorithmOnEveryTopology(t *testing.T) {
	for _, alg := range catalog.Default().Names() {
		for _, topo := range forceTopologies {
			for _, timing := range []string{"sync", "async"} {
				args := []string{"run", alg, "--topology", topo, "--timing", timing, "--force", "--json", "--max-events", "200000"}
				if !strings.HasPrefix(topo, "grid") && !strings.HasPrefix(topo, "torus") {
					args = append(args, "--n", "8")
				}
				if err := forcedRunEnded(args); err != nil {
					t.Error(err)
				}
			}
		}
	}
}

// forcedRunEnded runs elect with args (a forced --json run) and says what
// is wrong unless it exits 0 or 1 with a record that names its outcome and
// nothing on standard error, or 2 with one line.
func forcedRunEnded(args []string) error {
	code, out, errOut := runCLI(args...)
	switch code {
	case 0, 1:
		var rec struct{ Outcome string }
		if err := json.Unmarshal([]byte(out), &rec); err != nil || rec.Outcome == "" || errOut != "" {
			return fmt.Errorf("%v: exit %d, record %q, stderr %q", args, code, out, errOut)
		}
	case 2:
		if strings.Count(errOut, "\n") != 1 {
			return fmt.Errorf("%v: exit 2 with stderr %q", args, errOut)
		}
	default:
		return fmt.Errorf("%v: exit %d, stderr %q", args, code, errOut)
	}
	return nil
}

// TestSweepKeepsPanickingRuns: a sweep whose runs panic writes each as a
// line with outcome violation and the panic's message, and goes on.
func TestSweepKeepsPanickingRuns(t *testing.T) {
	code, out, errOut := runCLI("sweep", "peterson,lcr", "--topology", "grid:4x4", "--force", "--trials", "3", "--n", "16")
	if code != 1 || !strings.Contains(errOut, "runs did not elect as promised") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d lines, want 6:\n%s", len(lines), out)
	}
	panics := 0
	for _, l := range lines {
		var rec struct{ Algorithm, Outcome, Violation string }
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err, l)
		}
		if strings.HasPrefix(rec.Violation, "panic: ") {
			panics++
		}
	}
	if panics == 0 {
		t.Errorf("no run panicked; the test no longer covers panics:\n%s", out)
	}
}

// FuzzForcedRuns: any catalog algorithm forced onto any topology, timing,
// delivery model, size and seed ends with exit 0 or 1 and a record, or
// exit 2 with one line: never a panic.
func FuzzForcedRuns(f *testing.F) {
	f.Add(uint8(3), uint8(4), uint8(1), uint8(0), uint8(16), uint64(1))
	f.Add(uint8(4), uint8(3), uint8(1), uint8(2), uint8(8), uint64(5))
	f.Add(uint8(1), uint8(4), uint8(0), uint8(0), uint8(9), uint64(2))
	names := catalog.Default().Names()
	deliveries := []string{"", "fifo", "random", "random-fifo", "newest-first"}
	f.Fuzz(func(t *testing.T, alg, topo, timing, delivery, n uint8, seed uint64) {
		args := []string{"run", names[int(alg)%len(names)], "--topology", forceTopologies[int(topo)%len(forceTopologies)],
			"--force", "--json", "--max-events", "100000", "--seed", fmt.Sprint(seed)}
		if timing%2 == 0 {
			args = append(args, "--timing", "sync")
		} else if d := deliveries[int(delivery)%len(deliveries)]; d != "" {
			args = append(args, "--delivery", d)
		}
		if !strings.Contains(args[3], ":") || strings.HasPrefix(args[3], "gnp") {
			args = append(args, "--n", fmt.Sprint(1+int(n)%64))
		}
		if err := forcedRunEnded(args); err != nil {
			t.Fatal(err)
		}
	})
}

// TestMemoryGuard (issue 21, Bugs): runs whose nodes, links, messages in
// flight or kept trials would not fit are refused before anything is
// allocated, with the estimate and the limit, in one line, exit 2.
func TestMemoryGuard(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(big, []byte("nodes 1000000000\n0 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []badInput{
		{[]string{"run", "echo", "--topology", "file:" + big, "--mem-limit", "16GiB"},
			"n = 1000000000 (echo) needs about 156.5 GiB of memory (nodes 126.7 GiB, links 29.8 GiB), more than the limit of 16.0 GiB; use a smaller graph or raise --mem-limit"},
		{[]string{"run", "all-to-all", "--n", "100000", "--mem-limit", "16GiB"},
			"n = 100000 (all-to-all) needs about 1.0 TiB of memory (nodes 9.9 MiB, up to 1e+10 messages in flight 1.0 TiB), more than the limit of 16.0 GiB; choose n below 12386 or raise --mem-limit"},
		{[]string{"run", "lcr", "--n", "16", "--trials", "1000000000", "--mem-limit", "16GiB"},
			"kept results 29.8 GiB), more than the limit of 16.0 GiB; use fewer trials, --json (which keeps nothing), or raise --mem-limit"},
		{[]string{"sweep", "all-to-all", "--n", "100,100000", "--mem-limit", "16GiB"},
			"sweep: n = 100000 (all-to-all) needs about 1.0 TiB"},
		{[]string{"sweep", "lcr", "--n", "16", "--trials", "10000000", "--summary", "--mem-limit", "1GiB"},
			"sweep: 10000000 runs need about 6.3 GiB of memory for their jobs and summary rows, more than the limit of 1.0 GiB"},
		{[]string{"run", "lcr", "--mem-limit", "6XB"}, `run: --mem-limit: "6XB" is not a size in bytes: write it as 6GiB, 500MB or 8e9`},
	} {
		wantBadInput(t, c.args, c.want)
	}
	// The choice of n the refusal suggests fits, and the one above it not.
	if code, _, errOut := runCLI("run", "all-to-all", "--n", "12385", "--mem-limit", "16GiB", "--max-events", "1"); code == 2 {
		t.Errorf("n = 12385 was refused: %s", errOut)
	}
	if code, _, _ := runCLI("run", "all-to-all", "--n", "12386", "--mem-limit", "16GiB", "--max-events", "1"); code != 2 {
		t.Errorf("n = 12386 was not refused")
	}
}

// TestTimeLimit (issue 21): --time-limit stops a long run on the wall
// clock and reports what it reached, as outcome stopped. It stops a
// population run at the limit, never before on a guess (issue 42): the
// first second of angluin on 10^7 agents once put its end far beyond the
// limit, though the count engine gets faster as the run goes on and it
// ends in seconds.
func TestTimeLimit(t *testing.T) {
	code, out, errOut := runCLI("run", "hs", "--n", "1000000", "--delivery", "random", "--time-limit", "300ms")
	if code != 1 || errOut != "" || !strings.Contains(out, "outcome   stopped") || !strings.Contains(out, "stopped   at --time-limit") {
		t.Errorf("run: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
	code, out, errOut = runCLI("pp", "angluin", "--n", "1e6", "--engine", "agent-array", "--time-limit", "1s")
	if code != 1 || !strings.Contains(out, "outcomes: stopped 1") || strings.Contains(errOut, "expected to take") {
		t.Errorf("pp: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
	code, out, errOut = runCLI("pp", "angluin", "--n", "1e7", "--seed", "5", "--time-limit", "1m")
	if code != 0 || !strings.Contains(out, "outcomes: elected 1") {
		t.Errorf("pp within its limit: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
	code, out, _ = runCLI("run", "lcr", "--n", "16", "--time-limit", "1m")
	if code != 0 || !strings.Contains(out, "outcome   elected") {
		t.Errorf("a run within its limit: exit %d\n%s", code, out)
	}
}
