package cluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electkit/elect/scenario"
)

// TestInitRefusesOffModelRunsWithoutFlagsItLacks is issue 43's small item:
// `cluster init --alg bully` said "it needs --timing sync (...; use --force
// to run it anyway)", and neither flag applies to init (its --force
// replaces a cluster's directory). A synchronous algorithm is refused as
// the runtime's (refuseSynchronous, the one place that says it), and
// another broken assumption names itself without the flags.
func TestInitRefusesOffModelRunsWithoutFlagsItLacks(t *testing.T) {
	for _, c := range []struct {
		spec scenario.Spec
		want string
	}{
		{scenario.Spec{Algorithm: "bully", N: 4, Seed: 1}, "bully is a synchronous algorithm, and the TCP runtime has no round synchroniser: run it in the simulator (elect run bully) or on --runtime goroutines"},
		{scenario.Spec{Algorithm: "afek-gafni", N: 4, Seed: 1, Topology: "ring"}, "afek-gafni runs on complete graphs, not on ring (assumption: complete graph; a cluster runs an algorithm in its model only)"},
	} {
		dir := t.TempDir()
		_, err := Init(dir, c.spec, InitOptions{Host: "127.0.0.1"})
		if err == nil || err.Error() != c.want {
			t.Errorf("init %s: %v\nwant %s", c.spec.Algorithm, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "--force") || strings.Contains(err.Error(), "--timing")) {
			t.Errorf("init %s suggests a flag init does not have: %v", c.spec.Algorithm, err)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("init %s refused, but wrote %d files", c.spec.Algorithm, len(left))
		}
	}
}

// TestKeyWarningCountsGroupBits is issue 43's small item: the warning
// ignored group bits although docs/cluster.md says any group or other bit
// counts. A key this process owns is warned about at 0640, 0604 and 0644,
// not at 0600 or 0400.
func TestKeyWarningCountsGroupBits(t *testing.T) {
	key := filepath.Join(t.TempDir(), "node-0.key")
	if err := os.WriteFile(key, []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	for mode, warned := range map[os.FileMode]bool{0o600: false, 0o400: false, 0o640: true, 0o604: true, 0o644: true, 0o620: true} {
		if err := os.Chmod(key, mode); err != nil {
			t.Fatal(err)
		}
		got := KeyWarning(key)
		if (got != "") != warned {
			t.Errorf("mode %04o: warning %q, want one: %v", mode, got, warned)
		}
	}
}
