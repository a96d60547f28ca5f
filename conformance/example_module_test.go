package conformance_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExampleModuleRunsTheKit runs the test of examples/custom-algorithm, a
// module of its own that imports this one through a replace: its algorithm
// passes the kit (every check run, none failed), and built with -tags
// broken (a copy of the algorithm whose non-initiators forget to send
// their IDs) it fails, with the kit's messages: the elects check and the
// exhaustive checker both catch it, with a run to repeat and a
// counterexample. The build needs no network: the module cache has every
// dependency.
func TestExampleModuleRunsTheKit(t *testing.T) {
	t.Parallel() // the go command's builds overlap the catalog's checks
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to test the example module: %v", err)
	}
	goTest := func(args ...string) (string, error) {
		cmd := exec.Command(goTool, append([]string{"test", "-count=1", "-v"}, args...)...)
		cmd.Dir = filepath.Join("..", "examples", "custom-algorithm")
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := goTest("-run", "TestAllTheWayConforms", ".")
	if err != nil {
		t.Fatalf("the example's own test fails: %v\n%s", err, out)
	}
	for _, check := range []string{"declaration", "states", "elects", "engines", "snapshots", "exhaustive"} {
		if !strings.Contains(out, "--- PASS: TestAllTheWayConforms/"+check+" ") {
			t.Errorf("the example's test did not pass the %s check:\n%s", check, out)
		}
	}

	out, err = goTest("-tags", "broken", "-run", "TestAllTheWayConforms", ".")
	if err == nil {
		t.Fatalf("the broken copy passes the kit:\n%s", out)
	}
	for _, want := range []string{
		"--- FAIL: TestAllTheWayConforms/elects",
		"conformance: all-the-way: elects: outcome violation: wrong-leader",
		"the run: elect run all-the-way --n ",
		"--- FAIL: TestAllTheWayConforms/exhaustive",
		"conformance: all-the-way: exhaustive: n = 3, fifo delivery, initiators subsets",
		"the counterexample (a trace for 'elect run --replay FILE')",
		"--- PASS: TestAllTheWayConforms/engines", // the engines agree on the bug
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the broken copy's failure does not say %q:\n%s", want, out)
		}
	}
}
