package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCustomAlgorithmModule builds examples/custom-algorithm, a module of
// its own that imports this one (through a replace) and hands the command
// an extended catalog, and runs the binary: its algorithm is listed, runs
// and elects with every check holding, and sweeps beside a shipped one. The
// build needs no network: the module cache has every dependency.
func TestCustomAlgorithmModule(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to build the example module: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "myelect")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	build.Dir = filepath.Join("..", "examples", "custom-algorithm")
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the example module: %v\n%s", err, out)
	}
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			t.Fatalf("myelect %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if out := run("list"); !strings.Contains(out, "all-the-way") || !strings.Contains(out, "lcr") {
		t.Errorf("list does not show the example's algorithm beside the shipped ones:\n%s", out)
	}
	var rec struct {
		Outcome  string `json:"outcome"`
		Messages int64  `json:"messages"`
		Checks   []struct {
			Name  string `json:"name"`
			Holds bool   `json:"holds"`
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(run("run", "all-the-way", "--n", "16", "--json")), &rec); err != nil {
		t.Fatal(err)
	}
	// Every one of the 16 IDs travels 16 hops.
	if rec.Outcome != "elected" || rec.Messages != 256 || len(rec.Checks) == 0 {
		t.Errorf("run all-the-way --n 16: outcome %s, %d messages, %d checks; want elected, 256", rec.Outcome, rec.Messages, len(rec.Checks))
	}
	for _, c := range rec.Checks {
		if !c.Holds {
			t.Errorf("check %q failed", c.Name)
		}
	}
	lines := strings.Split(strings.TrimSpace(run("sweep", "all-the-way,lcr", "--n", "8,16", "--trials", "2")), "\n")
	if len(lines) != 8 || !strings.Contains(lines[0], `"algorithm":"all-the-way"`) || !strings.Contains(lines[7], `"algorithm":"lcr"`) {
		t.Errorf("sweep gave %d lines, want 8 (2 algorithms x 2 sizes x 2 trials):\n%s", len(lines), strings.Join(lines, "\n"))
	}
}
