package cluster

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/internal/footprint"
	"github.com/electkit/elect/scenario"
)

// The memory guard of a node (issue 42: every runtime counts what it
// really holds while it runs and stops at --mem-limit, as the simulator's
// queues, the reference engine's and the goroutine runtime's buffers do).
//
// A node holds a fixed part from its start (footprint.TCPNodeBytes: the
// process and its links; its algorithm's node, footprint.NodeBytes; its
// part of the fault plan, faultplan.Part.Bytes), which must fit in its
// limit or it refuses to start, and a part that grows as it runs: its
// inbox, its links' pending writes, the late messages of delay faults
// waiting for their time, and the list of faults it applied. The growing
// part is counted where it grows, by the capacity of the arrays that hold
// it (an inbox or a link's pending writes is two arrays that the main loop
// and a link's writer swap, so only a growth changes what they hold), and
// the main loop checks it after every input: past what the limit leaves
// it, the node stops with outcome memory-limit (MemoryLimitError). What the
// limit leaves the growing part is half of what the fixed part leaves of
// the limit, as the simulator's queue budget (scenario's queueBudget): an
// array grows by doubling, its old array garbage until the collector takes
// it, and the collector lets garbage grow to the size of what is live.

// memGuard counts what a node holds against its limit.
type memGuard struct {
	limit int64 // the node's --mem-limit
	fixed int64 // what it holds from its start (nodeFixed)
	// budget is what the limit leaves the growing part; held is what that
	// part holds (written by the main loop and the links' readers).
	budget int64
	held   atomic.Int64
}

// newMemGuard is the guard of node r under limit (0: the default,
// scenario.DefaultMemLimit, as every runtime's --mem-limit). A node whose
// fixed part does not fit in the limit is refused.
func newMemGuard(r *nodeRun, limit int64) (*memGuard, error) {
	if limit <= 0 {
		limit = scenario.DefaultMemLimit()
	}
	g := &memGuard{limit: limit}
	var plan int64
	if r.d.FaultPlan != nil {
		plan = r.d.FaultPlan.Bytes()
	}
	fixed := nodeFixed(r.d, r.cfg, r.me, plan)
	if g.fixed = fixed.total(); g.fixed > limit {
		return nil, fmt.Errorf("node %d needs about %s before its first message (%s), more than --mem-limit %s; raise --mem-limit",
			r.me, scenario.BytesString(g.fixed), fixed, scenario.BytesString(limit))
	}
	g.budget = (limit - g.fixed) / 2
	return g, nil
}

// nodeParts is what a node holds from its start, by part.
type nodeParts struct {
	links                                     int
	program, process, link, peers, node, plan int64
}

// nodeFixed is what node i of the cluster d (whose run is cfg) holds from
// its start, with plan the bytes of its part of the fault plan: the
// program's pages (shared by the nodes of a machine), the process's own,
// its links (one per port, and its control links: node 0 has one to
// every other node), the description of every node, its algorithm's node.
func nodeFixed(d *Description, cfg *election.Config, i int, plan int64) nodeParts {
	links := cfg.Graph.Degree(i) + 1
	if i == 0 {
		links = cfg.Graph.Degree(i) + d.N - 1
	}
	all := footprint.TCPNodeBytes(d.N, links)
	return nodeParts{
		links: links, program: footprint.TCPProgramBytes, process: footprint.TCPProcessBytes, link: footprint.TCPNodeBytes(0, links) - footprint.TCPProcessBytes,
		peers: all - footprint.TCPNodeBytes(0, links), node: footprint.NodeBytes(cfg.Algorithm, cfg.Params), plan: plan,
	}
}

func (p nodeParts) total() int64 { return p.program + p.own() }

// own is what the node holds of its own, the program's pages aside.
func (p nodeParts) own() int64 { return p.process + p.link + p.peers + p.node + p.plan }

// String names the parts for people.
func (p nodeParts) String() string {
	s := fmt.Sprintf("the program %s, the process %s, its %d links %s, the cluster's description %s, its node %s",
		scenario.BytesString(p.program), scenario.BytesString(p.process), p.links, scenario.BytesString(p.link), scenario.BytesString(p.peers), scenario.BytesString(p.node))
	if p.plan > 0 {
		s += ", its part of the fault plan " + scenario.BytesString(p.plan)
	}
	return s
}

// grew counts an array of elements of size bytes that grew from capacity
// before to after (nothing when it did not grow). A nil guard counts
// nothing.
func (g *memGuard) grew(before, after int, size int64) {
	if g != nil && after != before {
		g.held.Add(int64(after-before) * size)
	}
}

// add counts bytes more held (fewer when negative).
func (g *memGuard) add(bytes int64) {
	if g != nil {
		g.held.Add(bytes)
	}
}

// over reports whether the growing part holds more than the limit leaves
// it.
func (g *memGuard) over() bool { return g != nil && g.held.Load() > g.budget }

// stop is the error that ends the node at its limit.
func (g *memGuard) stop(me int) *MemoryLimitError {
	return &MemoryLimitError{Node: me, Held: g.held.Load(), Budget: g.budget, Fixed: g.fixed, Limit: g.limit}
}

// inputBytes is the size of an entry of a node's inbox.
const inputBytes = int64(unsafe.Sizeof(input{}))

// faultEventBytes is the size of an entry of the list of faults a node
// applied.
const faultEventBytes = int64(unsafe.Sizeof(FaultEvent{}))

// MemoryLimitError is a node's end at its memory limit: what it held
// while it ran outgrew what its --mem-limit leaves it. The run's outcome
// is memory-limit (Judge), and `elect node` exits 1, as `elect run` does
// on the other runtimes.
type MemoryLimitError struct {
	Node int
	// Held is what the node's growing part held (its inbox, its links'
	// pending writes, its late messages, the faults it applied), Budget
	// what the limit leaves it, Fixed what the node held from its start,
	// Limit the node's --mem-limit.
	Held, Budget, Fixed, Limit int64
}

func (e *MemoryLimitError) Error() string {
	return fmt.Sprintf("node %d stopped at its memory limit: its inbox, pending writes and late messages held %s, more than the %s that --mem-limit %s leaves them beside the %s it holds from its start",
		e.Node, scenario.BytesString(e.Held), scenario.BytesString(e.Budget), scenario.BytesString(e.Limit), scenario.BytesString(e.Fixed))
}

// processMemory is what a node's line reports of the memory its process
// really took (0 where the system does not say, as without /proc): its
// peak resident memory (VmHWM in /proc/self/status), which counts the
// pages of the program's file that it touched (shared with every other
// node of the machine, which the kernel holds once), and its anonymous
// resident memory now (RssAnon: its heap and stacks, its own alone), which
// at its end is close to its peak (the Go runtime returns freed memory
// to the system minutes later).
func processMemory() (peak, anon int64) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	return readStatus(f)
}

// readStatus reads VmHWM and RssAnon from a /proc/PID/status file, in
// bytes (0 for a field that is missing or not a count of kB). It reads at
// most statusLimit bytes, in lines of at most 4 KiB.
func readStatus(r io.Reader) (peak, anon int64) {
	kib := func(v string) int64 {
		k, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		if err != nil || k < 0 || k > 1<<40 {
			return 0
		}
		return k << 10
	}
	sc := bufio.NewScanner(io.LimitReader(r, statusLimit))
	sc.Buffer(nil, 4<<10)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			peak = kib(v)
		} else if v, ok := strings.CutPrefix(sc.Text(), "RssAnon:"); ok {
			anon = kib(v)
		}
	}
	return peak, anon
}

// statusLimit bounds what readStatus reads: a status file is about 1.5 KiB.
const statusLimit = 64 << 10

// upBytesPerNode is what `cluster up` holds for each node it runs: the
// process's handle and pipes, the goroutines that read its log and its
// line, and their buffers (measured: up's own resident memory, RssAnon,
// peaks at 3.5 MiB for 64 nodes and 8.1 MiB for 256, 23 KiB a node more).
const upBytesPerNode = 32 << 10

// ClusterMemory is what a cluster run by `cluster up` on one machine is
// estimated to take: the program's pages, which its processes share,
// every node process's own memory (Nodes, its largest in Largest) and
// up's own.
type ClusterMemory struct {
	Program int64
	Nodes   []int64 // by node: its own fixed part and twice its queues' room
	Largest int     // the node that takes the most
	Up      int64   // cluster up's own process
}

// Total is the sum of the parts.
func (m ClusterMemory) Total() int64 {
	t := m.Program + m.Up
	for _, b := range m.Nodes {
		t += b
	}
	return t
}

// EstimateMemory estimates the memory of the cluster in dir (described by
// d, whose run is cfg) when `cluster up` runs it on one machine: each
// node's fixed part (nodeFixed: the process, its links, the description, its
// algorithm's node and its part of the fault plan, taken as four times
// what it adds to the node's description file: a send of the plan takes
// 16 bytes or more in JSON, 32 in memory, in an array up to twice that)
// and the room its inbox and pending writes need (footprint.TCPQueueBytes),
// twice (what the node's guard leaves its growing part is half of what its
// limit leaves beside the fixed part), and up's own process.
func EstimateMemory(dir string, d *Description, cfg *election.Config) ClusterMemory {
	m := ClusterMemory{Program: footprint.TCPProgramBytes, Nodes: make([]int64, d.N), Up: footprint.TCPProcessBytes + int64(d.N)*upBytesPerNode}
	var shared int64
	if info, err := os.Stat(filepath.Join(dir, DescriptionFile)); err == nil {
		shared = info.Size()
	}
	for i := range d.N {
		var plan int64
		if d.Faults != "" {
			if info, err := os.Stat(filepath.Join(NodeDir(dir, i), DescriptionFile)); err == nil {
				plan = 4 * max(info.Size()-shared, 0)
			}
		}
		fixed := nodeFixed(d, cfg, i, plan)
		m.Nodes[i] = fixed.own() + 2*footprint.TCPQueueBytes(fixed.links)
		if m.Nodes[i] > m.Nodes[m.Largest] {
			m.Largest = i
		}
	}
	return m
}

// CheckMemory refuses, before any process starts, a cluster whose
// estimated memory (EstimateMemory) is more than limit (0: the default of
// every --mem-limit, scenario.DefaultMemLimit), with the estimate and what
// to do. A cluster that fits gets each node's limit: the program's pages,
// its own estimate and its share of what the limit leaves beside the
// estimates, in proportion to its own, so that together the nodes (whose
// program pages the kernel holds once) and up hold at most limit.
func CheckMemory(dir string, d *Description, cfg *election.Config, limit int64) ([]int64, error) {
	if limit <= 0 {
		limit = scenario.DefaultMemLimit()
	}
	m := EstimateMemory(dir, d, cfg)
	total := m.Total()
	if total > limit {
		parts := nodeFixed(d, cfg, m.Largest, 0)
		return nil, fmt.Errorf("cluster up: %s (%s, n = %d) needs about %s of memory on this machine (%d node processes of %s to %s each, the largest node %d's with its %d links; the program's pages they share %s; cluster up's own %s), more than --mem-limit %s; raise --mem-limit, or run the nodes on several machines (docs/cluster.md)",
			dir, d.Algorithm, d.N, scenario.BytesString(total), d.N, scenario.BytesString(slices.Min(m.Nodes)), scenario.BytesString(m.Nodes[m.Largest]),
			m.Largest, parts.links, scenario.BytesString(m.Program), scenario.BytesString(m.Up), scenario.BytesString(limit))
	}
	// Each node's limit is for its process alone, whose memory the
	// program's pages are part of.
	nodes := total - m.Up - m.Program
	limits := make([]int64, d.N)
	for i, b := range m.Nodes {
		limits[i] = m.Program + b + int64(float64(limit-total)*float64(b)/float64(nodes))
	}
	return limits, nil
}
