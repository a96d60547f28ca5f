package cli

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExamples runs every `elect ...` line of the README's sh blocks
// in-process, so the manual's examples cannot rot. A line whose comment says
// "exit 1" must exit 1 (it shows a failure on purpose); every other line must
// exit 0. Lines that write files or use the shell (redirections, variables,
// pipes) are documentation of shell use and are skipped.
func TestReadmeExamples(t *testing.T) {
	f, err := os.Open("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var examples []string
	inSh := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "```sh"):
			inSh = true
		case strings.HasPrefix(line, "```"):
			inSh = false
		case inSh:
			line = strings.TrimPrefix(line, "go run ./cmd/")
			if strings.HasPrefix(line, "elect ") {
				examples = append(examples, line)
			}
		}
	}
	if len(examples) < 10 {
		t.Fatalf("found %d examples in README.md; the parser or the README changed", len(examples))
	}
	// Examples such as reproduce write files in the working directory, so
	// they run in a temporary one, with a copy of the example protocol
	// files that 'elect pp examples/protocols/...' reads.
	protos, _ := filepath.Glob("../examples/protocols/*")
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "examples", "protocols"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range protos {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "examples", "protocols", filepath.Base(p)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	for _, ex := range examples {
		command, comment, _ := strings.Cut(ex, "#")
		if strings.ContainsAny(command, "$>{|&") || strings.Contains(command, "--out") {
			continue
		}
		command = strings.TrimSpace(command)
		t.Run(command, func(t *testing.T) {
			if long := readmeLongExample(command); long != "" {
				longTest(t, long)
			}
			args := strings.Fields(command)[1:]
			want := 0
			if strings.Contains(comment, "exit 1") {
				want = 1
			}
			if code := Main(args, io.Discard, io.Discard); code != want {
				t.Errorf("README example %q: exit %d, want %d", command, code, want)
			}
		})
	}
}

// readmeLongExample says why a README example is too long for the default
// suite (it runs when ELECT_LONG_TESTS is set, as .ci/run does in a step of
// its own), or "" for an example the default suite runs.
func readmeLongExample(command string) string {
	switch {
	case strings.Contains(command, "reproduce --quick"):
		return "reproduce --quick takes about 40 s (TestReproduceQuickPasses runs it in the default suite)"
	case strings.Contains(command, "pp pll --n 100000"):
		return "P_LL at n = 100000 takes up to two minutes on the agent array when a seed waits out a CountUp period"
	}
	return ""
}
