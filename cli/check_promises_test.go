package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
)

// The command-line tests of issue 31: `elect check` keeps every promise it
// prints.

// TestCheckChangRobertsBoundMutantExits1 (issue 31: "a Chang-Roberts mutant:
// FAIL 22 against 10 in the bounds list, verdict ok"): a declared bound the
// algorithm breaks fails the verdict, with exit status 1, in the text and
// in the JSON.
func TestCheckChangRobertsBoundMutantExits1(t *testing.T) {
	cr, _ := catalog.Default().Lookup("chang-roberts")
	mutant := *cr
	mutant.Name = "chang-roberts-tight"
	mutant.Bounds = append(append([]elect.Bound(nil), cr.Bounds...), elect.Bound{
		Name: "ELECTION messages", Quantity: elect.Messages, Types: []string{"ELECTION"}, Relation: elect.AtMost, Formula: "2n",
		Value: func(c elect.BoundContext) float64 { return float64(2 * c.N) },
	})
	cat, err := catalog.Default().With(&mutant)
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := MainWith(cat, []string{"check", mutant.Name, "--n", "4"}, &out, &errOut)
	if code != 1 || !strings.Contains(out.String(), "verdict   bound-failed") || !strings.Contains(out.String(), "FAIL  ELECTION messages <= 2n  closest: 10 against 8 with --ids") {
		t.Errorf("text: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	code = MainWith(cat, []string{"check", mutant.Name, "--n", "4", "--json"}, &out, &errOut)
	var r struct {
		Verdict string `json:"verdict"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || code != 1 || r.Verdict != "bound-failed" {
		t.Errorf("json: exit %d, %v\n%s", code, err, out.String())
	}
}

// replayLine matches the replay command check prints.
var replayLine = regexp.MustCompile(`(?m)^ +(elect run .* --replay \S+)$`)

// runAsPrinted runs the replay command check printed, word by word as a
// shell would split it (the test's paths have no spaces or quotes).
func runAsPrinted(t *testing.T, out string) (int, string) {
	t.Helper()
	m := replayLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no replay command printed:\n%s", out)
	}
	args := strings.Fields(m[1])[1:]
	code, replayed, errOut := runCLI(args...)
	return code, replayed + errOut
}

// TestCheckReplayCommandAsPrinted (issue 31: "the printed replay command
// omits parameters (--variant, --announce, --initiators, ...): the Peterson
// untagged hint fails as printed"): the command check prints for a
// counterexample, run as printed, replays it to the same property, for
// checks with an algorithm parameter, bag delivery, --announce, chosen
// initiators, a randomized algorithm's seed and a topology of its own.
func TestCheckReplayCommandAsPrinted(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct {
		args     []string
		property string
	}{
		{[]string{"peterson", "--n", "4", "--variant", "untagged", "--delivery", "bag", "--force"}, "no-leader"},
		{[]string{"chang-roberts", "--n", "3", "--ids", "1,1,1", "--force"}, "multiple-leaders"},
		// In every wake order: node 0 wakes, its ELECTION(1) wakes node
		// 1, which takes it for its own and is elected; node 2, whose ID
		// is 1 too, takes the LEADER(1) for its own come back and stops
		// it, and node 0 never learns: 3 steps.
		{[]string{"chang-roberts", "--n", "3", "--ids", "1,1,1", "--force", "--wake-order", "all"}, "not-informed"},
		{[]string{"lcr", "--n", "3", "--ids", "1,1,1", "--force", "--announce"}, "multiple-leaders"},
		{[]string{"hs", "--n", "3", "--ids", "1,2,1", "--force", "--announce"}, "wrong-leader"},
		{[]string{"all-to-all", "--n", "3", "--ids", "1,1,1", "--force", "--initiators", "subsets"}, "multiple-leaders"},
		{[]string{"lcr-random", "--n", "3", "--bits", "1", "--seed", "3", "--ids", "1,1,1", "--force"}, "multiple-leaders"},
		{[]string{"humblet", "--n", "3", "--seed", "2", "--ids", "1,1,1", "--force"}, "no-leader"},
		{[]string{"dolev-klawe-rodeh", "--n", "4", "--delivery", "bag", "--force"}, "panic"},
	} {
		file := filepath.Join(dir, "c"+itoa(i)+".jsonl")
		code, out, errOut := runCLI(append(append([]string{"check"}, c.args...), "--counterexample", file)...)
		if code != 1 || !strings.Contains(out, "verdict   violation") {
			if strings.Contains(out, "verdict   ok") && c.property == "" {
				continue // no violation to replay with these options
			}
			t.Fatalf("%v: exit %d\n%s%s", c.args, code, out, errOut)
		}
		property := regexp.MustCompile(`(?m)^violation ([a-z-]+):`).FindStringSubmatch(out)[1]
		if c.property != "" && property != c.property {
			t.Errorf("%v: %s, want %s", c.args, property, c.property)
		}
		code, replayed := runAsPrinted(t, out)
		if code != 1 || !strings.Contains(replayed, "outcome   "+property) && !strings.Contains(replayed, "\nviolation "+property+":") {
			t.Errorf("%v: the printed command replays with exit %d:\n%s\n(check said %s)\n%s", c.args, code, replayed, property, out)
		}
	}
}

// TestCheckSynchronousViolationRerunsAsPrinted: a synchronous check's
// violation (slow-fast with the literal wake-up rule, seed 003) prints the
// 'elect run' command that reruns it, with its initiators' rounds and its
// parameter, and that command, run as printed, breaks the same property.
func TestCheckSynchronousViolationRerunsAsPrinted(t *testing.T) {
	code, out, errOut := runCLI("check", "slow-fast", "--n", "3", "--initiators", "times", "--wake", "literal")
	m := regexp.MustCompile(`(?m)^ +(elect run .*--delivery sync.*)$`).FindStringSubmatch(out)
	if code != 1 || m == nil {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	code, rerun, _ := runCLI(strings.Fields(m[1])[1:]...)
	if code != 1 || !strings.Contains(rerun, "violation wrong-leader: node 1 with ID 2") {
		t.Errorf("%s: exit %d\n%s", m[1], code, rerun)
	}
}

// TestCheckViolationPrintsStepsAndSaves (issue 31: "without
// --counterexample a violation prints one line and neither the steps nor
// the flag that saves them"): the text output numbers the shortest
// violating execution's steps, saves it to a new file named after the
// check in the current directory (never over an existing one), and
// prints the command that replays it.
func TestCheckViolationPrintsStepsAndSaves(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errOut := runCLI("check", "chang-roberts", "--n", "3", "--ids", "1,1,1", "--force")
	if code != 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"the shortest execution that breaks it, 5 steps:",
		"  1. node 0 wakes up (initiator), sends ELECTION(j=1) to 1",
		"  4. node 0 receives ELECTION(j=1) from node 2 (right port), sends LEADER(j=1) to 1, decides elected",
		"  5. node 1 receives ELECTION(j=1) from node 0 (right port), sends LEADER(j=1) to 2, decides elected   <- multiple-leaders",
		"the execution is in chang-roberts-n3-multiple-leaders.jsonl",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if code, replayed := runAsPrinted(t, out); code != 1 || !strings.Contains(replayed, "outcome   multiple-leaders") {
		t.Errorf("replay: exit %d\n%s", code, replayed)
	}
	// A second check never overwrites the first file.
	_, out, _ = runCLI("check", "chang-roberts", "--n", "3", "--ids", "1,1,1", "--force", "--json")
	var r struct {
		Counterexample string `json:"counterexample"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Counterexample != "chang-roberts-n3-multiple-leaders-2.jsonl" {
		t.Errorf("second file: %v %q", err, r.Counterexample)
	}
	names, _ := filepath.Glob("*")
	if len(names) != 2 {
		t.Errorf("files left: %v", names)
	}
}

// TestCheckWorstWithViolationOrNothingFinished (issue 31: "--worst w.jsonl
// panics (index out of range) when a violation is found or no configuration
// finishes"): the violation is reported (exit 1), and no --worst file is
// made when no search ended.
func TestCheckWorstWithViolationOrNothingFinished(t *testing.T) {
	dir := t.TempDir()
	worst := filepath.Join(dir, "w.jsonl")
	code, out, errOut := runCLI("check", "lcr", "--n", "3", "--ids", "1,1,1", "--force", "--worst", worst, "--counterexample", filepath.Join(dir, "c.jsonl"))
	if code != 1 || !strings.Contains(out, "violation multiple-leaders") || !strings.Contains(errOut, "no --worst execution written") {
		t.Errorf("violation: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI("check", "hs", "--n", "4", "--max-states", "10", "--worst", worst)
	if code != 1 || !strings.Contains(out, "verdict   incomplete") || !strings.Contains(errOut, "no configuration's search ended") {
		t.Errorf("nothing finished: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(worst); err == nil {
		t.Errorf("%s was made with nothing in it", worst)
	}
	code, _, errOut = runCLI("check", "hs", "--n", "3", "--worst", worst)
	if data, err := os.ReadFile(worst); code != 0 || err != nil || !bytes.Contains(data, []byte(`"ev":"deliver"`)) {
		t.Errorf("hs n = 3: exit %d, %v, %s", code, err, errOut)
	}
}

// TestCheckHumbletJSON (issue 31: "elect check humblet --json fails with
// json: unsupported value: -Inf"): the report is one valid JSON object.
func TestCheckHumbletJSON(t *testing.T) {
	code, out, errOut := runCLI("check", "humblet", "--json")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
		t.Errorf("exit %d, %v\n%s%s", code, err, out, errOut)
	}
}

// TestCheckDolevKlaweRodehBagPanic (issue 31: "a panic inside algorithm
// code (dolev-klawe-rodeh --delivery bag --force) kills the checker"): it
// is reported as a violation with its counterexample.
func TestCheckDolevKlaweRodehBagPanic(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errOut := runCLI("check", "dolev-klawe-rodeh", "--delivery", "bag", "--force")
	if code != 1 || !strings.Contains(out, "violation panic: node") || !strings.Contains(out, "<- panic") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if code, replayed := runAsPrinted(t, out); code != 1 || !strings.Contains(replayed, "\nviolation panic: node 1 panicked") {
		t.Errorf("replay: exit %d\n%s", code, replayed)
	}
}

// TestCheckLCR12Refuses (issue 31: "lcr --n 11 and --n 12 run out of memory
// while listing ID assignments"): every assignment of 12 IDs is refused,
// counted and not listed, with exit 2 and what to pass instead; the
// default (one random assignment for n > 6) runs.
func TestCheckLCR12Refuses(t *testing.T) {
	wantBadInput(t, []string{"check", "lcr", "--n", "12", "--ids", "all", "--mem-limit", "16GiB", "--workers", "2"}, "39,916,800 configurations (every assignment of 1..12 up to rotation) need about 24.6 GiB to check, beyond the memory guard's 16.0 GiB; pass --ids LIST")
	if code, out, errOut := runCLI("check", "lcr", "--n", "12"); code != 0 {
		t.Errorf("one assignment: exit %d\n%s%s", code, out, errOut)
	}
	wantBadInput(t, []string{"check", "pll"}, "pll is a population protocol the checker does not take; it checks the population protocols angluin, epidemic, approx-majority")
}

// TestCheckInterruptedExits130 (issue 31: "Ctrl-C that prints what was
// finished (verdict incomplete) and exits 130"): a real SIGINT to a check
// of every assignment of HS at n = 8 (5,040 configurations) prints the
// report of the configurations that finished, verdict incomplete, exit
// status 130.
func TestCheckInterruptedExits130(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The signal must come after the command installed its handler: wait
	// longer when it did not.
	for _, wait := range []time.Duration{2 * time.Second, 8 * time.Second} {
		cmd := exec.Command(self, "check", "hs", "--n", "8", "--ids", "all", "--workers", "1")
		cmd.Env = append(os.Environ(), "ELECT_CLI_AS_MAIN=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(wait)
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		err = cmd.Wait()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || strings.Contains(stderr.String(), "elect: stopped by SIGINT") {
			continue // ended at once: the signal came before the search watched for it
		}
		if exit.ExitCode() != 130 || !strings.Contains(stdout.String(), "verdict   incomplete") ||
			!strings.Contains(stdout.String(), "configurations finished before Ctrl-C") || !strings.Contains(stderr.String(), "check interrupted") {
			t.Fatalf("exit %v\n%s%s", err, stdout.String(), stderr.String())
		}
		return
	}
	t.Fatal("the check never caught the signal")
}
