package reference_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDifferentialTestCatchesMutants: a deliberate bug in the simulator's
// fault routing fails the differential test under faults. The test binary
// of this package is built once with the tag elect_mutant (sim/mutant_on.go),
// which reads the bug to put in from ELECT_MUTANT; run with each mutant,
// TestReferenceMatchesSimulatorUnderFaults must fail with a difference
// between the engines (not a build error, not a panic); run with none, a
// differential test under faults must pass, so that the tagged build is not
// broken by itself. The mutants are the simulator's own list, which it
// prints when ELECT_MUTANT names none of them.
func TestDifferentialTestCatchesMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the package's tests again with a bug put in (-short)")
	}
	goTool, err := exec.LookPath("go") // go test puts its own first on PATH
	if err != nil {
		t.Fatalf("the go tool is needed to build the tests with a mutant: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "reference-mutant.test")
	if out, err := exec.Command(goTool, "test", "-c", "-tags", "elect_mutant", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building the tests with -tags elect_mutant: %v\n%s", err, out)
	}
	run := func(mutant, test string) (string, error) {
		cmd := exec.Command(bin, "-test.run", "^"+test+"$")
		cmd.Env = append(os.Environ(), "ELECT_MUTANT="+mutant)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	out, err := run("no-such-mutant", "TestReferenceMatchesSimulatorUnderFaults")
	list := regexp.MustCompile(`is none of the mutants: ([a-z -]+)`).FindStringSubmatch(out)
	if err == nil || list == nil {
		t.Fatalf("ELECT_MUTANT=no-such-mutant: want the simulator to refuse it and list its mutants, got %v:\n%s", err, out)
	}
	mutants := strings.Fields(list[1])
	if len(mutants) < 2 {
		t.Fatalf("the simulator lists %d mutants (%q); the check wants several", len(mutants), list[1])
	}

	if out, err := run("", "FuzzDifferentialFaults"); err != nil {
		t.Fatalf("the tagged build without a mutant fails the differential test: %v\n%s", err, out)
	}

	differ := regexp.MustCompile(`the engines' (results|traces) differ`)
	for _, mutant := range mutants {
		out, err := run(mutant, "TestReferenceMatchesSimulatorUnderFaults")
		var exit *exec.ExitError
		switch {
		case err == nil:
			t.Errorf("mutant %s: the differential test under faults passed; it must catch the bug", mutant)
		case !errors.As(err, &exit) || exit.ExitCode() != 1 || !differ.MatchString(out):
			t.Errorf("mutant %s: the differential test failed, but not by a difference between the engines (%v):\n%s", mutant, err, lastLines(out, 20))
		default:
			t.Logf("mutant %s: caught (%s)", mutant, differ.FindString(out))
		}
	}
}

// lastLines is the end of a long output.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
