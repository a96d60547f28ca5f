package cluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electkit/elect/scenario"
)

// TestLoadRefusesAnOversizedDescription: cluster.json was read whole with
// no limit, so a description replaced by something huge (a sparse file of
// 257 MiB here, or /dev/zero behind a link) was read into memory before
// any check. Load now refuses it from its size, naming the file and the
// limit, and a description with a line longer than 1 MiB at that line.
func TestLoadRefusesAnOversizedDescription(t *testing.T) {
	dir, _ := initCluster(t, scenario.Spec{Algorithm: "hs", N: 4, Seed: 1})
	desc := filepath.Join(dir, DescriptionFile)
	if err := os.Truncate(desc, DescriptionLimits.MaxBytes+1); err != nil {
		t.Fatal(err)
	}
	_, _, err := Load(dir, nil)
	if err == nil || !strings.Contains(err.Error(), "larger than 256 MiB") || !strings.Contains(err.Error(), desc) {
		t.Errorf("Load of a 257 MiB cluster.json: %v, want a refusal naming the file and the 256 MiB limit", err)
	}
	if err := os.WriteFile(desc, []byte(strings.Repeat("{", DescriptionLimits.MaxLine+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = Load(dir, nil)
	if err == nil || !strings.Contains(err.Error(), "line 1 is longer than 1 MiB") {
		t.Errorf("Load of a cluster.json with a 1 MiB line: %v, want the line refused", err)
	}
}

// TestNodeRefusesAnOversizedCA: a node read its CA file whole with no
// limit; it now refuses one larger than 1 MiB, naming it.
func TestNodeRefusesAnOversizedCA(t *testing.T) {
	dir, d := initCluster(t, scenario.Spec{Algorithm: "hs", N: 4, Seed: 1})
	ca := filepath.Join(NodeDir(dir, 0), d.CA)
	if err := os.Truncate(ca, caLimits.MaxBytes+1); err != nil {
		t.Fatal(err)
	}
	_, err := tlsConfig(dir, d, 0)
	if err == nil || !strings.Contains(err.Error(), "larger than 1 MiB") || !strings.Contains(err.Error(), ca) {
		t.Errorf("tlsConfig with a 1 MiB + 1 CA file: %v, want a refusal naming it", err)
	}
}
