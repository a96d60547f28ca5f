package cluster

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/internal/footprint"
	"github.com/electkit/elect/scenario"
)

// dupHS is a run whose messages multiply: HS on 4 nodes with every message
// duplicated sends 2224 messages where it sends 24 without faults (the
// simulator's count), and each node applies a duplication per message it
// sends, each a FaultEvent in the list its line reports.
var dupHS = scenario.Spec{Algorithm: "hs", N: 4, Seed: 1, Faults: "dup:p=1"}

// runWithLimits runs every node of the cluster in dir in this process,
// node i under limits[i].
func runWithLimits(dir string, limits []int64) ([]*NodeResult, []error) {
	n := len(limits)
	res := make([]*NodeResult, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = RunNode(dir, NodeOptions{Index: i, Timeout: 10 * time.Second, MemLimit: limits[i]})
		}()
	}
	wg.Wait()
	return res, errs
}

// TestNodeStopsAtItsMemoryLimit (issue 42, on TCP): a node counts what it
// holds while it runs and stops with outcome memory-limit when it outgrows
// its limit, as the simulator, the reference engine and goroutines do; the
// losses its peers meet follow from it and are not the outcome. Each node
// gets its fixed part and 32 KiB, of which its guard leaves 16 KiB to what
// grows: the list of duplications the busiest node applies alone
// outgrows it, whatever the timing, so the run stops.
func TestNodeStopsAtItsMemoryLimit(t *testing.T) {
	dir, d := initCluster(t, dupHS)
	_, cfg, err := Load(NodeDir(dir, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	limits := make([]int64, d.N)
	most := 0
	for i := range d.N {
		nd, err := ReadDescriptionFile(filepath.Join(NodeDir(dir, i), DescriptionFile))
		if err != nil {
			t.Fatal(err)
		}
		limits[i] = nodeFixed(d, cfg, i, nd.FaultPlan.Bytes()).total() + 32<<10
		most = max(most, len(nd.FaultPlan.Sends))
	}
	if held := int64(most) * faultEventBytes; held <= 16<<10 {
		t.Fatalf("the busiest node applies %d duplications, %d bytes: within its budget, the case says nothing", most, held)
	}
	res, errs := runWithLimits(dir, limits)
	stopped := 0
	for i, err := range errs {
		var limited *MemoryLimitError
		switch {
		case errors.As(err, &limited):
			stopped++
			if !res[i].MemoryLimit || limited.Budget != 16<<10 || limited.Held <= limited.Budget ||
				!strings.Contains(res[i].Fault, "stopped at its memory limit: its inbox, pending writes and late messages held") {
				t.Errorf("node %d: %+v, line %+v", i, limited, res[i])
			}
		case err != nil && !errors.As(err, new(*FaultError)):
			t.Errorf("node %d: %v", i, err)
		}
	}
	if stopped == 0 {
		t.Fatalf("no node stopped at its limit: %v", errs)
	}
	rec, err := Judge(d, nil, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Outcome != election.MemoryLimit || rec.Violation != "" || rec.Result.Faults.Verdict != election.VerdictCut {
		t.Errorf("outcome %s (%s), verdict %s; want memory-limit, cut-short", rec.Outcome, rec.Violation, rec.Result.Faults.Verdict)
	}
}

// TestNodeRefusesALimitBelowItsStart: a node whose process, links and
// description alone would pass its limit is refused before it listens,
// with what it needs, by part.
func TestNodeRefusesALimitBelowItsStart(t *testing.T) {
	dir, _ := initCluster(t, scenario.Spec{Algorithm: "lcr", N: 4, Seed: 1})
	_, err := RunNode(dir, NodeOptions{Index: 0, MemLimit: 1 << 20})
	// LCR's node is 40 bytes (its ID, state and the leader's ID).
	fixed := footprint.TCPProgramBytes + footprint.TCPNodeBytes(4, 5) + 40
	want := fmt.Sprintf("node 0 needs about %s before its first message (the program %s, the process %s, its 5 links %s, the cluster's description %s, its node 40 bytes), more than --mem-limit 1.0 MiB; raise --mem-limit",
		scenario.BytesString(fixed), scenario.BytesString(footprint.TCPProgramBytes), scenario.BytesString(footprint.TCPProcessBytes), scenario.BytesString(5*footprint.TCPLinkBytes), scenario.BytesString(4*footprint.TCPPeerBytes))
	if err == nil || err.Error() != want {
		t.Errorf("RunNode under 1 MiB: %v", err)
	}
}

// TestUpRefusesAClusterOverItsLimit: CheckMemory refuses a cluster whose
// node processes and up's own would pass the limit, naming the estimate,
// and shares a limit that holds them among the nodes: each gets at least
// its estimate, and the shares and up's own fit in the limit.
func TestUpRefusesAClusterOverItsLimit(t *testing.T) {
	dir, d := initCluster(t, scenario.Spec{Algorithm: "lcr", N: 16, Seed: 1})
	_, cfg, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := EstimateMemory(dir, d, cfg)
	// Node 0 holds a control link to every other node.
	if m.Largest != 0 || m.Nodes[0]-m.Nodes[1] != 14*(footprint.TCPLinkBytes+2*512) {
		t.Errorf("largest node %d, node 0 %d bytes and node 1 %d: want node 0 with 14 links more", m.Largest, m.Nodes[0], m.Nodes[1])
	}
	total := m.Total()
	if _, err := CheckMemory(dir, d, cfg, total-1); err == nil ||
		!strings.Contains(err.Error(), "(lcr, n = 16) needs about "+scenario.BytesString(total)+" of memory on this machine (16 node processes of ") ||
		!strings.HasSuffix(err.Error(), "; raise --mem-limit, or run the nodes on several machines (docs/cluster.md)") {
		t.Errorf("a limit a byte short: %v", err)
	}
	for _, limit := range []int64{total, total + 1<<30} {
		limits, err := CheckMemory(dir, d, cfg, limit)
		if err != nil {
			t.Fatalf("limit %d: %v", limit, err)
		}
		sum := m.Up + m.Program
		for i, l := range limits {
			if l < m.Program+m.Nodes[i] {
				t.Errorf("limit %d: node %d gets %d, below its estimate %d and the program's pages", limit, i, l, m.Nodes[i])
			}
			sum += l - m.Program
		}
		if sum > limit || sum < limit-int64(d.N) {
			t.Errorf("limit %d: the shares and up's own make %d", limit, sum)
		}
	}
}

// TestFaultFreeRunFitsItsEstimate: a node given exactly its share of a
// limit equal to the cluster's estimate is not stopped by its guard in a
// run without faults (the estimate's room for its queues is what such a
// run holds, and more).
func TestFaultFreeRunFitsItsEstimate(t *testing.T) {
	dir, d := initCluster(t, scenario.Spec{Algorithm: "hs", N: 8, Seed: 2})
	_, cfg, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	limits, err := CheckMemory(dir, d, cfg, EstimateMemory(dir, d, cfg).Total())
	if err != nil {
		t.Fatal(err)
	}
	res, errs := runWithLimits(dir, limits)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
	}
	if rec, err := Judge(d, nil, res, nil); err != nil || rec.Outcome != election.OutcomeElected {
		t.Fatalf("%v %v", rec, err)
	}
}

// TestGuardCountsTheArraysItIsTold: the guard counts growth by capacity,
// nothing when an array did not grow, and a nil guard (none) nothing.
func TestGuardCountsTheArraysItIsTold(t *testing.T) {
	g := &memGuard{budget: 1000}
	g.grew(0, 8, inputBytes)
	g.grew(8, 8, inputBytes)
	g.add(footprint.TCPLateBytes)
	if want := 8*inputBytes + footprint.TCPLateBytes; g.held.Load() != want || g.over() != (want > 1000) {
		t.Errorf("held %d, over %v; want %d", g.held.Load(), g.over(), want)
	}
	g.add(-footprint.TCPLateBytes)
	g.grew(8, 16, inputBytes)
	if !g.over() {
		t.Errorf("16 inputs of %d bytes held within 1000", inputBytes)
	}
	var none *memGuard
	none.grew(0, 1<<20, 1)
	if none.over() {
		t.Error("a nil guard is over")
	}
}

// TestReadStatus: a node's line takes its peak and its own memory from
// /proc/self/status, in bytes; a field that is missing or not a count of
// kB is 0.
func TestReadStatus(t *testing.T) {
	status := "Name:\telect\nVmPeak:\t 1300000 kB\nVmHWM:\t   13312 kB\nVmRSS:\t 13000 kB\nRssAnon:\t    2048 kB\nRssFile:\t 10000 kB\n"
	if peak, anon := readStatus(strings.NewReader(status)); peak != 13312<<10 || anon != 2048<<10 {
		t.Errorf("peak %d, anon %d", peak, anon)
	}
	if peak, anon := readStatus(strings.NewReader("VmHWM:\tlots kB\nRssAnon: -5 kB\n")); peak != 0 || anon != 0 {
		t.Errorf("bad fields: peak %d, anon %d", peak, anon)
	}
	if peak, _ := processMemory(); peak < 0 {
		t.Errorf("this process's peak %d", peak)
	}
}

// FuzzReadStatus: no status file makes readStatus panic or report a
// negative size.
func FuzzReadStatus(f *testing.F) {
	f.Add([]byte("VmHWM:\t   13312 kB\nRssAnon:\t    2048 kB\n"))
	f.Add([]byte("VmHWM: 99999999999999999999 kB\n"))
	f.Add([]byte(strings.Repeat("x", 5000) + "\nVmHWM: 1 kB\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if peak, anon := readStatus(bytes.NewReader(data)); peak < 0 || anon < 0 {
			t.Fatalf("peak %d, anon %d", peak, anon)
		}
	})
}
