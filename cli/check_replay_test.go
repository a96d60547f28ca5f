package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/electkit/elect/catalog"
)

// rerunLine is the command a check prints under a counterexample: the
// replay of its trace, or the rerun of a synchronous run.
var rerunLine = regexp.MustCompile(`(?m)^ +(?:the execution is in \S+; replay it|a synchronous run has no other schedule; rerun it):\n +(elect run .*)$`)

// replayVerdicts is what a replayed run's fault verdict ("verdict" line of
// elect run) is for each verdict of the check that found it, with the exit
// status both share.
var replayVerdicts = map[string]struct {
	run  string
	exit int
}{
	"expected-failure": {"expected-failure", 4},
	"violation":        {"violated", 1},
}

// replayEveryCounterexample checks every algorithm of the catalog at size n
// under one crash, one lost message and one duplicated message, with every
// node an initiator and with every set of initiators, and runs the command
// each counterexample prints, as printed: the replay (or the rerun of a
// synchronous run) must end with the check's verdict, the check's exit
// status and the property the check names. It returns the counterexamples
// replayed.
func replayEveryCounterexample(t *testing.T, n int) int {
	dir := t.TempDir()
	replayed := 0
	for _, alg := range catalog.Default().All() {
		for _, budget := range []string{"crash:k=1", "loss:k=1", "dup:k=1"} {
			for _, initiators := range []string{"all", "subsets"} {
				file := filepath.Join(dir, fmt.Sprintf("%s-%d-%s-%s.jsonl", alg.Name, n, budget[:strings.Index(budget, ":")], initiators))
				args := []string{"check", alg.Name, "--n", fmt.Sprint(n), "--faults", budget, "--initiators", initiators, "--counterexample", file}
				code, out, errOut := runCLI(args...)
				switch {
				case code == 2 && initiators == "subsets" && strings.Contains(errOut, "needs every node to wake up"):
					continue // no initiator sets to choose
				case code == 2 && (strings.Contains(errOut, "hypercube needs n a power of two") || strings.Contains(errOut, "runs on grids")):
					continue // no network of n nodes for this algorithm
				case code == 0:
					continue // no counterexample: the algorithm holds
				}
				verdict := regexp.MustCompile(`(?m)^verdict +(\S+)$`).FindStringSubmatch(out)
				property := regexp.MustCompile(`(?m)^violation ([a-z-]+):`).FindStringSubmatch(out)
				rerun := rerunLine.FindStringSubmatch(out)
				if verdict == nil || property == nil || rerun == nil {
					t.Errorf("%s: exit %d, no counterexample to replay:\n%s%s", strings.Join(args, " "), code, out, errOut)
					continue
				}
				want, ok := replayVerdicts[verdict[1]]
				if !ok || code != want.exit {
					t.Errorf("%s: verdict %s with exit %d", strings.Join(args, " "), verdict[1], code)
					continue
				}
				replayed++
				rcode, rout, rerr := runCLI(strings.Fields(rerun[1])[1:]...)
				got := regexp.MustCompile(`(?m)^verdict +(\S+)$`).FindStringSubmatch(rout)
				outcome := property[1]
				if outcome == "non-termination" {
					outcome = "(non-termination|step-limit)" // a synchronous rerun reaches the event limit
				}
				sameProperty := regexp.MustCompile(`(?m)^(outcome +|violation )` + outcome + `(:|$)`).MatchString(rout)
				if rcode != code || got == nil || got[1] != want.run || !sameProperty {
					t.Errorf("%s: the check says %s (exit %d, %s); %s replays with exit %d:\n%s%s\nthe check:\n%s",
						strings.Join(args, " "), verdict[1], code, property[1], rerun[1], rcode, rout, rerr, out)
				}
				if strings.Contains(rerun[1], "--replay") {
					causeTimeIsTheTraces(t, rout, file)
				}
			}
		}
	}
	return replayed
}

// TestEveryCounterexampleReplaysToItsVerdict (issue 45: "a crash between
// the wake-up a message causes and that message is lost in the record"):
// at n = 3, every counterexample of every algorithm of the catalog under
// one crash (at every point: before any step, after any step, between the
// wake-up a message causes and the message), one loss and one duplicate,
// with and without --initiators subsets, replays as printed to the check's
// verdict, exit status and property.
func TestEveryCounterexampleReplaysToItsVerdict(t *testing.T) {
	replayed := replayEveryCounterexample(t, 3)
	t.Logf("n = 3: %d counterexamples replayed to the check's verdict and exit status", replayed)
	if replayed < 100 {
		t.Errorf("only %d counterexamples at n = 3", replayed)
	}
}

// TestEveryCounterexampleReplaysToItsVerdictAtFour is the same at n = 4:
// 119 counterexamples, 35 minutes under a load of 30 on 2 cores, too long
// even for CI's long pass (ELECT_LONG_TESTS, 30 minutes in all), so it has
// a variable of its own: ELECT_REPLAY_AT_FOUR=1 go test -run AtFour
// -timeout 60m ./cli/.
func TestEveryCounterexampleReplaysToItsVerdictAtFour(t *testing.T) {
	if os.Getenv("ELECT_REPLAY_AT_FOUR") == "" {
		t.Skip("35 minutes (n = 3 covers every fault kind meanwhile): set ELECT_REPLAY_AT_FOUR=1 to run it")
	}
	replayed := replayEveryCounterexample(t, 4)
	t.Logf("n = 4: %d counterexamples replayed to the check's verdict and exit status", replayed)
	if replayed < 100 {
		t.Errorf("only %d counterexamples at n = 4", replayed)
	}
}

// The faults a replay's cause line names, with their times.
var (
	causeCrash = regexp.MustCompile(`node (\d+) \(ID -?\d+\) crashed at time ([0-9.]+)`)
	causeFault = regexp.MustCompile(`message (\d+) \([^)]*\) from node \d+ to node \d+ at time ([0-9.]+), (lost|duplicated)`)
)

// causeTimeIsTheTraces requires that every fault the "cause" line of a
// replay (out) names at a time is at that time in the trace it replayed
// (file), when the trace has the fault's line (the crash line of the node,
// the lose or dup line of the message; an execution without end is written
// as its schedule, whose faults are in its header only).
func causeTimeIsTheTraces(t *testing.T, out, file string) {
	t.Helper()
	cause := regexp.MustCompile(`(?m)^cause +(.*)$`).FindStringSubmatch(out)
	if cause == nil {
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	type fault struct{ line, time string }
	var faults []fault
	for _, m := range causeCrash.FindAllStringSubmatch(cause[1], -1) {
		faults = append(faults, fault{`"ev":"crash","node":` + m[1] + `}`, m[2]})
	}
	for _, m := range causeFault.FindAllStringSubmatch(cause[1], -1) {
		ev := map[string]string{"lost": "lose", "duplicated": "dup"}[m[3]]
		faults = append(faults, fault{`"ev":"` + ev + `","no":` + m[1] + `,`, m[2]})
	}
	for _, f := range faults {
		at := regexp.MustCompile(`\{"t":([0-9.]+),` + regexp.QuoteMeta(f.line)).FindSubmatch(data)
		if at != nil && string(at[1]) != f.time {
			t.Errorf("%s: the cause (%s) says time %s; the trace's line {\"t\":%s,%s", file, cause[1], f.time, at[1], f.line)
		}
	}
}

// TestSimulatorsRecordOfACrashOnWakingReplays: LCR on 4 nodes, node 0 the
// only initiator, node 1 crashing at its first step, which is the wake-up
// node 0's message causes. The simulator's record says that message
// reached node 1 and was dropped (as the reference engine's does), so its
// replay crashes node 1 there too and ends as the run did (no leader,
// expected failure); before, the replay stopped at line 12 with "no
// message is in flight to node 2".
func TestSimulatorsRecordOfACrashOnWakingReplays(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "x.jsonl")
	flags := []string{"run", "lcr", "--n", "4", "--ids", "1,2,3,4", "--initiators", "nodes:0@0"}
	code, out, errOut := runCLI(append(flags, "--faults", "crash:node=1@step=1", "--trace", trace)...)
	if code != 4 || !strings.Contains(out, "verdict   expected-failure") {
		t.Fatalf("the run: exit %d\n%s%s", code, out, errOut)
	}
	code, replay, errOut := runCLI(append(flags, "--replay", trace)...)
	if code != 4 || errOut != "" {
		t.Fatalf("the replay: exit %d, %s", code, errOut)
	}
	for _, line := range []string{"outcome   no-leader", "crashed 1: node 1", "verdict   expected-failure"} {
		if !strings.Contains(replay, line) {
			t.Errorf("the replay says no %q:\n%s", line, replay)
		}
	}
}
