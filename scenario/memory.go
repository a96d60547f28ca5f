package scenario

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/internal/footprint"
	"github.com/electkit/elect/topology"
)

// simBytesPerNode is the simulator's own memory per node besides the
// node itself (footprint.NodeBytes): its status word (8 bytes), the
// monitor's decision and leader arrays (9), and a node's random source
// when it draws (about 40; measured: lcr-random on a ring of 2*10^5 nodes
// holds 43 bytes a node more than lcr).
const simBytesPerNode = 64

// simBytesPerTimer is the simulator's memory for the pending timer of a
// node that takes timers (footprint.UsesTimers): a 32-byte entry of a
// heap that grows by doubling, with the arrays it outgrew (measured:
// time-slice on a ring holds 230 bytes a node, 96 beyond its state,
// arrays and message).
const simBytesPerTimer = 96

// simBytesPerMessage is the simulator's memory for one message in flight
// at its peak: a 40-byte delivery in the list of the instant it is due
// in (the current one and the next each have a list), the lists grown by
// doubling (up to twice what they hold) and the arrays outgrown garbage
// until the collector takes them (measured, as bytes beyond the nodes and
// links per message the estimate counts: 76 for lcr, 87 for hs, 99 for
// yoyo on a grid, 68 for echo on a grid with its two per port).
const simBytesPerMessage = 112

// fallbackMemory is the memory assumed when the machine's is unknown (no
// /proc/meminfo).
const fallbackMemory = 8 << 30

// memShare is the share of the machine's memory a run may take by default,
// in percent.
const memShare = 80

// DefaultMemLimit is the memory limit of a run when none is given: 80% of
// the machine's memory (MemTotal in /proc/meminfo), or of 8 GiB when that
// cannot be read.
func DefaultMemLimit() int64 {
	have := physicalMemory()
	if have <= 0 {
		have = fallbackMemory
	}
	return have / 100 * memShare
}

// DefaultMemLimitText describes the default limit for a flag's help.
func DefaultMemLimitText() string {
	if have := physicalMemory(); have > 0 {
		return fmt.Sprintf("%d%% of this machine's %s, %s", memShare, BytesString(have), BytesString(DefaultMemLimit()))
	}
	return fmt.Sprintf("%d%% of %s (this machine's memory is unknown)", memShare, BytesString(fallbackMemory))
}

// MemoryEstimate is what a run is expected to take at its peak, in bytes,
// by part.
type MemoryEstimate struct {
	Nodes    float64 // the nodes and the engine's per-node arrays
	Graph    float64 // adjacency arrays of general graphs
	InFlight float64 // messages in flight at once (at most, see below)
	Messages float64 // their memory
	Kept     float64 // what the caller keeps besides (Spec.KeptBytes)
}

// Total is the sum of the parts.
func (m MemoryEstimate) Total() float64 {
	return m.Nodes + m.Graph + m.Messages + m.Kept
}

// estimateMemory estimates a run of alg on n nodes of topo: its nodes,
// its links and its messages in flight at their peak. Messages in flight
// at once are estimated as one per link in each direction the algorithm
// sends on (one per link of a unidirectional ring: what an instant of a
// run whose nodes all send, LCR's first, holds), or what the algorithm
// declares (elect.Algorithm.InFlight), and at most its declared message
// bound (the most it may send in a whole run). The estimate is a typical
// run's peak, within 2x above it on the catalog's runs measured
// (docs/runtimes.md); a run that holds more messages (LCR on decreasing
// IDs, duplicates) is stopped while it runs when its queues outgrow its
// limit (election.Config.MaxQueueBytes).
//
// On the goroutine runtime every node has a record of its own, and in a
// synchronous run a goroutine (footprint.GoroutineNodeBytes), and every
// port a counter (footprint.PortBytes); an asynchronous run's messages in
// flight are estimated as the simulator's, at
// footprint.GoroutineMessageBytes each, a synchronous run's at
// footprint.SyncMessageBytes. Its flow control bounds them by the nodes'
// windows (footprint.GoroutineInFlightPerNode), which a run fills only
// when its algorithm keeps that many in flight (LCR on decreasing IDs).
func estimateMemory(alg *elect.Algorithm, params elect.Params, n int, topo string, fileEdges int64, announce bool, delivery election.Delivery, runtime string) MemoryEstimate {
	nn := float64(n)
	var m MemoryEstimate
	node := float64(footprint.NodeBytes(alg, params))
	if topo == "complete" && alg.Model.Topology != elect.Complete {
		m.Graph += nn * nn * 8
	}
	if strings.HasPrefix(topo, "file:") {
		// As topology.MemoryBytes: 32 bytes per edge and per node at the
		// peak of building the adjacency arrays.
		m.Graph += 32*float64(fileEdges) + 32*nn
	} else {
		m.Graph += float64(topology.MemoryBytes(topo, n))
	}
	edges := estimateEdges(topo, nn, fileEdges)
	links := 2 * edges // the directed links
	if alg.Model.Topology == elect.UniRing {
		links = edges
	}
	sync := delivery == election.Sync
	ctx := elect.BoundContext{
		N: n, Edges: int(min(edges, math.MaxInt32)), Initiators: n, Announce: announce, Sync: sync,
		AllAtZero: true, MinID: 0, MaxID: elect.ID(n - 1), MinInitiatorID: 0, Params: params,
	}
	m.InFlight = links
	bursts := false
	if alg.InFlight != nil {
		m.InFlight = alg.InFlight(ctx)
		bursts = m.InFlight > links
	}
	if b, ok := MessageBound(alg, ctx); ok {
		m.InFlight = min(m.InFlight, b)
	}
	if runtime != "goroutines" {
		perNode := node + simBytesPerNode
		if footprint.UsesTimers(alg, params) {
			perNode += simBytesPerTimer
		}
		m.Nodes = nn * perNode
		m.Messages = m.InFlight * simBytesPerMessage
		return m
	}
	degree := int(min(math.Round(2*edges/max(nn, 1)), math.MaxInt32/4))
	m.Nodes = nn*(node+float64(footprint.GoroutineNodeBytes(degree, sync, bursts))) + 2*edges*footprint.PortBytes
	if sync {
		m.Messages = m.InFlight * footprint.SyncMessageBytes
	} else {
		m.InFlight = min(m.InFlight, nn*float64(footprint.GoroutineInFlightPerNode(degree)))
		m.Messages = m.InFlight * footprint.GoroutineMessageBytes
	}
	return m
}

// estimateEdges is the number of links of topo on n nodes.
func estimateEdges(topo string, n float64, fileEdges int64) float64 {
	name, arg, _ := strings.Cut(topo, ":")
	switch name {
	case "ring":
		return n
	case "complete":
		return n * (n - 1) / 2
	case "line", "star", "tree":
		return max(n-1, 0)
	case "grid", "torus":
		return 2 * n
	case "hypercube":
		return n * math.Max(1, math.Log2(n)) / 2
	case "gnp":
		if p, err := strconv.ParseFloat(arg, 64); err == nil && p >= 0 && p <= 1 {
			return p * n * (n - 1) / 2
		}
	case "file":
		return float64(fileEdges)
	}
	return n
}

// MessageBound returns the most messages a run may send by its algorithm's
// declared bounds in context c: the smallest applicable "<=" or "==" bound
// on all messages, or a sum of such bounds that covers every message type
// (a type's bound that does not apply to c standing in when no applicable
// one names it). ok is false when some message type has no such bound.
func MessageBound(alg *elect.Algorithm, c elect.BoundContext) (bound float64, ok bool) {
	bound = math.Inf(1)
	covered := make([]bool, len(alg.Messages))
	index := map[string]int{}
	for i, t := range alg.Messages {
		index[t.Name] = i
	}
	type upper struct {
		types   []int
		value   float64
		applies bool
	}
	var uppers []upper
	for _, b := range alg.Bounds {
		if b.Quantity != elect.Messages || b.Relation == elect.AtLeast || b.Value == nil {
			continue
		}
		applies := b.Applies == nil || b.Applies(c)
		v := b.Value(c)
		if math.IsNaN(v) || v < 0 {
			continue
		}
		if len(b.Types) == 0 {
			if applies {
				bound = min(bound, v)
			}
			continue
		}
		u := upper{value: v, applies: applies}
		for _, name := range b.Types {
			if i, ok := index[name]; ok {
				u.types = append(u.types, i)
			}
		}
		uppers = append(uppers, u)
	}
	// A cover of the types by the smallest bound naming each type still
	// uncovered; a bound that does not apply to c stands in for a type no
	// applicable bound names (lcr's "leader messages == n" speaks of runs
	// with announcement; without, the type is not sent and n is an upper
	// bound still).
	better := func(a, b upper) bool {
		if a.applies != b.applies {
			return a.applies
		}
		return a.value < b.value
	}
	sum := 0.0
	for t := range alg.Messages {
		if covered[t] {
			continue
		}
		best := -1
		for k, u := range uppers {
			for _, ut := range u.types {
				if ut == t && (best < 0 || better(u, uppers[best])) {
					best = k
				}
			}
		}
		if best < 0 {
			sum = math.Inf(1)
			break
		}
		sum += uppers[best].value
		for _, ut := range uppers[best].types {
			covered[ut] = true
		}
	}
	bound = min(bound, sum)
	return bound, !math.IsInf(bound, 1)
}

// checkMemory refuses, before anything is allocated, a run of s on n
// nodes of topo (with fileEdges edges when it is an edge-list file) that
// would not fit in its memory limit, with the estimate and the limit. A
// run that fits gets the memory its queues of messages may hold while it
// runs (election.Config.MaxQueueBytes, queueBudget).
func checkMemory(alg *elect.Algorithm, params elect.Params, s Spec, n int, topo string, fileEdges int64, announce bool, delivery election.Delivery) (queueBytes int64, err error) {
	limit := memLimit(s)
	file := strings.HasPrefix(topo, "file:")
	est := estimateMemory(alg, params, n, topo, fileEdges, announce, delivery, s.Runtime)
	est.Kept = float64(s.KeptBytes)
	if est.Total() <= float64(limit) {
		return queueBudget(est, limit), nil
	}
	parts := fmt.Sprintf("nodes %s", BytesString(int64(est.Nodes)))
	if est.Graph > 0 {
		parts += ", links " + BytesString(int64(est.Graph))
	}
	switch {
	case est.Messages >= 1<<20:
		parts += fmt.Sprintf(", up to %.4g messages in flight %s", est.InFlight, BytesString(int64(est.Messages)))
	case s.Runtime == "goroutines" && delivery != election.Sync:
		parts += fmt.Sprintf(" with their inboxes and up to %.4g messages in flight", est.InFlight)
	}
	if est.Kept > 0 {
		parts += ", kept results " + BytesString(int64(est.Kept))
	}
	advice := ""
	switch {
	case file:
		advice = "; use a smaller graph or raise --mem-limit"
	case est.Total()-est.Kept > float64(limit):
		// The largest n that fits, by bisection (the estimate grows with n).
		lo, hi := 0, n
		for lo+1 < hi {
			mid := lo + (hi-lo)/2
			e := estimateMemory(alg, params, mid, topo, 0, announce, delivery, s.Runtime)
			e.Kept = est.Kept
			if e.Total() <= float64(limit) {
				lo = mid
			} else {
				hi = mid
			}
		}
		if lo >= 1 {
			advice = fmt.Sprintf("; choose n below %d or raise --mem-limit", lo+1)
		} else {
			advice = "; raise --mem-limit"
		}
	default:
		advice = "; use fewer trials, --json (which keeps nothing), or raise --mem-limit"
	}
	return 0, errorf("n = %d (%s) needs about %s of memory (%s), more than the limit of %s%s",
		n, alg.Name, BytesString(int64(min(est.Total(), math.MaxInt64/2))), parts, BytesString(limit), advice)
}

// baseBytes is what the program holds before a run's first node: the Go
// runtime, the catalog, the command (measured: 13.7 MiB of RSS for
// 'elect run' of a ring of 8 nodes).
const baseBytes = 14 << 20

// queueBudget is the memory a run estimated as est may give its queues of
// messages while it runs under limit: what the limit leaves after the
// program itself, the nodes, the links and what the caller keeps, halved,
// since a queue's array grows by doubling (the old array is garbage until
// the collector takes it) and the collector lets garbage grow to the size
// of what is live. The messages of a run without faults fit in it (the
// estimate of its messages is part of what the check allowed); those of a
// run with duplicates or delays may not, and it stops at the limit
// (outcome memory-limit) instead of passing it.
func queueBudget(est MemoryEstimate, limit int64) int64 {
	rest := float64(limit) - baseBytes - (est.Total() - est.Messages)
	return int64(max(rest/2, est.Messages, 1<<20))
}

// memLimit is the memory limit of a run of s.
func memLimit(s Spec) int64 {
	if s.MemLimit > 0 {
		return s.MemLimit
	}
	return DefaultMemLimit()
}

// fileBytesPerEdge is the memory an edge of an edge-list file takes at the
// peak of building its graph, as topology.MemoryBytes counts it.
const fileBytesPerEdge = 32

// readEdgeList reads the edge-list file at path for a run of s, once: it
// stops as soon as the edges alone would pass the memory limit, which the
// memory guard then applies to the whole run.
func readEdgeList(alg *elect.Algorithm, path string, s Spec) (*topology.EdgeList, error) {
	limit := memLimit(s)
	l, err := topology.ReadEdgeListFile(path, max(1, limit/fileBytesPerEdge))
	var tooMany *topology.TooManyEdgesError
	if errors.As(err, &tooMany) {
		return nil, errorf("%s (%s) has more than %d edges, which need more than %s of memory, more than the limit of %s; use a smaller graph or raise --mem-limit",
			path, alg.Name, tooMany.Edges, BytesString(tooMany.Edges*fileBytesPerEdge), BytesString(limit))
	}
	if err != nil {
		return nil, errorf("%v", err)
	}
	if err := l.CheckNodes(path, s.N); err != nil {
		return nil, errorf("%v", err)
	}
	return l, nil
}

// FixesNodes reports whether a topology specification names a topology
// that fixes the node count (grid, torus, file), whether or not the
// specification is well formed: a Spec with N 0 then takes that count.
func FixesNodes(topo string) bool {
	name, _, _ := strings.Cut(topo, ":")
	return name == "grid" || name == "torus" || name == "file"
}

// SpecNodes is topology.SpecNodes without its error: the node count a
// topology specification fixes (grid:WxH, torus:WxH, file:PATH, whose
// edges are counted and not kept). ok is false when the specification
// fixes no count or is malformed (Build then says what is wrong).
func SpecNodes(topo string) (n int, ok bool) {
	k, ok, err := topology.SpecNodes(topo)
	if err != nil || !ok || k < 1 || k > MaxN {
		return 0, false
	}
	return k, true
}

// physicalMemory returns the machine's memory in bytes, or 0 if unknown.
func physicalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}

// BytesString writes a byte count for people: 1.5 GiB, 12.0 MiB.
func BytesString(b int64) string {
	switch {
	case b >= 1<<40:
		return fmt.Sprintf("%.1f TiB", float64(b)/(1<<40))
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", b)
}

// ParseBytes reads a size in bytes: a whole number (8000000000, 8e9) or
// one with a unit, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB
// (powers of 1024), in either case, as 6GiB or 500mb. Zero is a size
// (flags give it a meaning of their own: no limit, or the default).
func ParseBytes(v string) (int64, error) {
	bad := fmt.Errorf("%q is not a size in bytes: write it as 6GiB, 500MB or 8e9", v)
	t := strings.ToUpper(strings.TrimSpace(v))
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"TIB", 1 << 40}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}} {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f*mult >= math.MaxInt64/2 {
		return 0, bad
	}
	return int64(f * mult), nil
}
