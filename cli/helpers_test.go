package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files testdata/*.stdout")

// runCLI runs elect in-process and returns its exit status and outputs.
func runCLI(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// runPP is runCLI with its results in the order the pp tests read them:
// stdout, stderr and the exit status.
func runPP(args ...string) (string, string, int) {
	code, out, errOut := runCLI(args...)
	return out, errOut, code
}

// badInput is a command line that must be refused as bad input, and a part
// of the line that must say why.
type badInput struct {
	args []string
	want string
}

// wantBadInput runs args in-process and requires what the command promises
// on bad input: exit status 2, nothing on stdout, and one line on stderr
// that starts with "elect: " and contains want. It returns stderr.
func wantBadInput(t *testing.T, args []string, want string) string {
	t.Helper()
	code, out, errOut := runCLI(args...)
	if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasSuffix(errOut, "\n") ||
		!strings.HasPrefix(errOut, "elect: ") || !strings.Contains(errOut, want) {
		t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2, no output and one line with %q", args, code, out, errOut, want)
	}
	return errOut
}

// checkGolden compares out with testdata/NAME.stdout, or writes it there
// when the test runs with -update.
func checkGolden(t *testing.T, name, out string) {
	t.Helper()
	path := filepath.Join("testdata", name+".stdout")
	if *update {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("output differs from %s (rerun the test with its -update flag to rewrite it):\n%s", path, out)
	}
}

// longTest skips a test that takes longer than the default suite allows
// (why says how long and what covers it meanwhile) unless ELECT_LONG_TESTS
// is set; .ci/run sets it in a step of its own, with an explicit -timeout.
func longTest(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("ELECT_LONG_TESTS") == "" {
		t.Skip("long (" + why + "): set ELECT_LONG_TESTS=1 to run it")
	}
}
