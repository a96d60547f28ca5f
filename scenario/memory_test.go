package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
)

// TestMessageBoundFromDeclaredBounds: the worst case of a run's messages is
// the sum of the declared upper bounds that cover every message type, or
// the bound on all messages when there is one.
func TestMessageBoundFromDeclaredBounds(t *testing.T) {
	cat := catalog.Default()
	c := elect.BoundContext{N: 10, Edges: 45, Initiators: 10, AllAtZero: true, MaxID: 9, Params: elect.Params{}}
	for _, tc := range []struct {
		alg  string
		want float64
		ok   bool
	}{
		{"lcr", 10*11/2 + 10, true},   // election <= n(n+1)/2, leader == n
		{"all-to-all", 10 * 9, true},  // ID messages == n(n-1)
		{"itai-rodeh", 0, false},      // only a lower bound
		{"slow-fast", 3*10 - 2, true}, // messages <= 3n-2 with a simultaneous start, below 5n
	} {
		alg, _ := cat.Lookup(tc.alg)
		params := elect.Params{}
		for _, p := range alg.Params {
			params[p.Name] = p.Default
		}
		c.Params = params
		got, ok := MessageBound(alg, c)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("%s: %v %v, want %v %v", tc.alg, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"6GiB": 6 << 30, "500MB": 500e6, "8e9": 8e9, "1024": 1024, "1.5KiB": 1536, "2gb": 2e9, "0": 0} {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Errorf("%s: %d %v, want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1GB", "6XB", "NaN", "1e30"} {
		if _, err := ParseBytes(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// TestSpecNodesReadsWeightedEdgeLists: the scan that fixes n from an edge
// list before the memory guard reads weighted edges (a third column) too.
func TestSpecNodesReadsWeightedEdgeLists(t *testing.T) {
	dir := t.TempDir()
	for text, want := range map[string]int{
		"0 1 5\n1 2 7\n2 3 1\n":    4,
		"0 1\n1 2\n":               3,
		"nodes 9\n0 1 2.5\n":       9,
		"# a comment\n0 4 1 # x\n": 5,
	} {
		path := filepath.Join(dir, "g.txt")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if n, ok := SpecNodes("file:" + path); !ok || n != want {
			t.Errorf("%q: %d %v, want %d", text, n, ok, want)
		}
	}
}

// TestMemLimitCountsTheGoroutineRuntime is the reproduction `elect run lcr
// --n 6000 --ids decreasing --runtime goroutines --mem-limit 100MB`, which
// was accepted on an estimate of one message per link and peaked at
// 1.97 GB. The guard now counts what the goroutine runtime holds: a
// node's record and buffers of a window per node (live.NodeBytes),
// whatever the run sends; its flow control keeps the run within that
// (live's TestRunLCR6000DecreasingHoldsAWindowPerInbox; 43 MB peak RSS
// measured, the program's own 14 MB included). So 100 MB is enough and
// 30 MB is not.
func TestMemLimitCountsTheGoroutineRuntime(t *testing.T) {
	spec := Spec{Algorithm: "lcr", N: 6000, IDs: "decreasing", Seed: 1, Runtime: "goroutines", MemLimit: 100e6}
	if _, err := Build(spec); err != nil {
		t.Fatalf("100MB: %v", err)
	}
	spec.MemLimit = 30e6
	_, err := Build(spec)
	if err == nil || !strings.Contains(err.Error(), "inboxes") || !strings.Contains(err.Error(), "choose n below") {
		t.Fatalf("30MB: %v, want a refusal that counts the inboxes", err)
	}
	// The simulator needs less for the same run.
	spec.Runtime, spec.MemLimit = "sim", 20e6
	if _, err := Build(spec); err != nil {
		t.Fatalf("simulator at 20MB: %v", err)
	}
}
