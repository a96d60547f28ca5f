package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
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
// 1.97 GB. Its flow control keeps the run within a window per inbox
// (live's TestRunLCR6000DecreasingHoldsAWindowPerInbox; 30 MB peak RSS
// measured, the program's own 14 MB included), which LCR on decreasing
// IDs fills; on random IDs it holds far less (issue 42: the estimate of
// full windows refused runs that fit, 524 MiB estimated for lcr on 10^5
// nodes, 51 used). The estimate made up front is now the typical run's,
// and the guard that counts the runtime's buffers as they grow stops a
// run that outgrows its limit (live's TestQueueLimitStopsDuplicates). At
// 30 MB, once refused, the run is built with what the limit leaves its
// messages (it elects, at 14 MiB of RSS measured now).
func TestMemLimitCountsTheGoroutineRuntime(t *testing.T) {
	spec := Spec{Algorithm: "lcr", N: 6000, IDs: "decreasing", Seed: 1, Runtime: "goroutines", MemLimit: 30e6}
	cfg, err := Build(spec)
	if err != nil {
		t.Fatalf("30MB: %v", err)
	}
	if cfg.MaxQueueBytes <= 0 || cfg.MaxQueueBytes > 30e6 {
		t.Errorf("30MB: the run's messages may take %d bytes", cfg.MaxQueueBytes)
	}
	// Refused up front: the nodes alone do not fit.
	spec.MemLimit = 1e6
	if _, err := Build(spec); err == nil || !strings.Contains(err.Error(), "choose n below") {
		t.Fatalf("1MB: %v, want a refusal", err)
	}
}

// TestBuildTakesTheTopologysNodeCount: a Spec with N 0 takes the count of a
// topology that fixes one (grid, torus, an edge-list file), a wrong N is
// refused with the count, and N 0 on a topology that fixes none is refused.
func TestBuildTakesTheTopologysNodeCount(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, []byte("0 1\n1 2\n2 3\n3 0\n0 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for topo, want := range map[string]int{"grid:3x4": 12, "torus:3x5": 15, "file:" + path: 4} {
		cfg, err := Build(Spec{Algorithm: "echo", Topology: topo, Seed: 1})
		if err != nil || cfg.Graph.N != want || len(cfg.IDs) != want {
			t.Errorf("%s with N 0: %v; want %d nodes", topo, err, want)
		}
		if _, err := Build(Spec{Algorithm: "echo", N: want + 1, Topology: topo, Seed: 1}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("has %d nodes but --n is %d", want, want+1)) {
			t.Errorf("%s with N %d: %v", topo, want+1, err)
		}
	}
	if _, err := Build(Spec{Algorithm: "echo", Topology: "ring"}); err == nil || err.Error() != "n must be at least 1, got 0" {
		t.Errorf("ring with N 0: %v", err)
	}
}

// TestEdgeListReadStopsAtTheMemoryLimit: an edge-list file is read once,
// and the read stops as soon as its edges alone pass the memory limit (32
// bytes each at the peak of building the graph), with one clear error.
func TestEdgeListReadStopsAtTheMemoryLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "line.txt")
	var text strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&text, "%d %d\n", i, i+1)
	}
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Build(Spec{Algorithm: "echo", Topology: "file:" + path, MemLimit: 32 * 100})
	want := path + " (echo) has more than 100 edges, which need more than 3200 bytes of memory, more than the limit of 3200 bytes; use a smaller graph or raise --mem-limit"
	if err == nil || err.Error() != want || !IsUserError(err) {
		t.Fatalf("got %v, want %q", err, want)
	}
	if cfg, err := Build(Spec{Algorithm: "echo", Topology: "file:" + path, MemLimit: 1 << 30}); err != nil || cfg.Graph.N != 1001 {
		t.Fatalf("with room: %v", err)
	}
}

// TestEstimateMemoryInBytes pins the estimate --mem-limit checks before a
// run to its parts, from the sizes in internal/footprint and this
// package's: a change of a size or a formula shows here (and should show
// in the table of docs/runtimes.md, measured again with
// docs/memory-table.sh). The nodes' states are footprint.NodeBytes: lcr
// 40 bytes, time-slice 48, echo 72, afek-gafni 120.
func TestEstimateMemoryInBytes(t *testing.T) {
	cat := catalog.Default()
	for _, c := range []struct {
		alg, topo, runtime string
		n                  int
		delivery           election.Delivery
		want               MemoryEstimate
	}{
		// A node and the simulator's arrays, 40 + 64 bytes; a message per
		// link of the unidirectional ring, 112 bytes each.
		{"lcr", "ring", "", 1000, election.FIFO, MemoryEstimate{Nodes: 104000, InFlight: 1000, Messages: 112000}},
		// A pending timer per node besides, 96 bytes.
		{"time-slice", "ring", "", 1000, election.Sync, MemoryEstimate{Nodes: 1000 * (48 + 64 + 96), InFlight: 1000, Messages: 112000}},
		// Two messages a node (afek-gafni's declaration), below its
		// message bound and the n(n-1) links.
		{"afek-gafni", "complete", "", 1000, election.FIFO, MemoryEstimate{Nodes: 184000, InFlight: 2000, Messages: 224000}},
		// Echo declares two messages per port: 4 * 2n edges estimated on a
		// grid; the links as topology.MemoryBytes counts them (32 per
		// edge and per node).
		{"echo", "grid:10x10", "", 100, election.FIFO, MemoryEstimate{Nodes: 100 * (72 + 64), Graph: 32*200 + 32*100, InFlight: 800, Messages: 800 * 112}},
		// On goroutines: a record of 384 bytes a node and 48 a port, 96
		// bytes a message.
		{"lcr", "ring", "goroutines", 1000, election.FIFO, MemoryEstimate{Nodes: 1000*(40+384) + 2000*48, InFlight: 1000, Messages: 96000}},
		// A synchronous run's goroutine and record, 10 KiB a node, and 256
		// bytes a message.
		{"time-slice", "ring", "goroutines", 1000, election.Sync, MemoryEstimate{Nodes: 1000*(48+10240) + 2000*48, InFlight: 1000, Messages: 256000}},
		// Echo's bursts fill an inbox and an output of a window (16
		// messages on degree 4) at every node.
		{"echo", "grid:10x10", "goroutines", 100, election.FIFO, MemoryEstimate{Nodes: 100*(72+384+16*96) + 400*48, Graph: 32*200 + 32*100, InFlight: 800, Messages: 800 * 96}},
	} {
		alg, _ := cat.Lookup(c.alg)
		params := elect.Params{}
		for _, p := range alg.Params {
			params[p.Name] = p.Default
		}
		got := estimateMemory(alg, params, c.n, c.topo, 0, true, c.delivery, c.runtime)
		if got != c.want {
			t.Errorf("%s on %s (%s): %+v, want %+v", c.alg, c.topo, c.runtime, got, c.want)
		}
	}
}
