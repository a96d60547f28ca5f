package general_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/electkit/elect/cli"
)

// command runs elect in-process and returns its exit status and output.
func command(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := cli.Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestCommandRunsGeneralAlgorithms: `elect run` elects with every check held
// for echo and flood-max on the topologies --topology names, and --n may be
// omitted for a grid (it has W*H nodes).
func TestCommandRunsGeneralAlgorithms(t *testing.T) {
	runs := [][]string{
		{"run", "echo", "--topology", "grid:10x10", "--n", "100", "--json"},
		{"run", "echo", "--topology", "grid:10x10", "--json"},
		{"run", "echo", "--topology", "torus:5x4", "--delivery", "random", "--initiators", "3", "--json"},
		{"run", "echo", "--topology", "gnp:0.2", "--n", "40", "--delivery", "newest-first", "--json"},
		{"run", "echo", "--topology", "tree", "--n", "50", "--trials", "5", "--json"},
		{"run", "echo", "--n", "12", "--json"}, // default topology: ring
		{"run", "flood-max", "--topology", "hypercube", "--n", "64", "--json"},
		{"run", "flood-max", "--topology", "star", "--n", "9", "--diam", "2", "--variant", "on-change", "--json"},
	}
	for _, args := range runs {
		code, out, errOut := command(args...)
		if code != 0 {
			t.Errorf("elect %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec struct {
				N       int    `json:"n"`
				Outcome string `json:"outcome"`
			}
			if err := json.Unmarshal([]byte(line), &rec); err != nil || rec.Outcome != "elected" {
				t.Errorf("elect %s: %v, record %s", strings.Join(args, " "), err, line)
			}
			if strings.Contains(strings.Join(args, " "), "grid:10x10") && rec.N != 100 {
				t.Errorf("elect %s: n = %d, want 100", strings.Join(args, " "), rec.N)
			}
		}
	}
}

// TestCommandRefusesBadTopologies: bad input is one line saying what is
// wrong and what is allowed, exit status 2.
func TestCommandRefusesBadTopologies(t *testing.T) {
	cases := [][2]string{
		{"run echo --topology grid:10x10 --n 50", "grid:10x10 has 100 nodes but --n is 50; omit --n or give --n 100"},
		{"run echo --topology torus:2x8", "both sides of a torus must be at least 3"},
		{"run flood-max --topology hypercube --n 60", "power of two"},
		{"run echo --topology gnp:0.001 --n 100", "connectivity threshold"},
		{"run echo --topology mesh", "unknown topology"},
		{"run flood-max --topology line --diam -3", "--diam"},
		{"run flood-max --timing async", "synchronous"},
		{"run peterson-mesh --topology grid:2x5", "both sides at least 3"},
		{"run peterson-mesh --topology torus:4x4", "is not one"},
		{"run peterson-mesh --n 7", "a graph of 7 nodes and 6 links is not one"},
	}
	for _, c := range cases {
		code, _, errOut := command(strings.Fields(c[0])...)
		if code != 2 || !strings.Contains(errOut, c[1]) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("elect %s: exit %d, stderr %q; want 2 and one line containing %q", c[0], code, errOut, c[1])
		}
	}
}
