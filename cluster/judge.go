package cluster

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
)

// Judge turns the nodes' lines into the record `elect run` prints: the
// simulator's monitor checks the decisions and learned leaders, the counts
// are what the nodes sent, and the time is the deepest causal chain.
// A nil line is a node that printed none (it died); faults become the
// outcome "fault" (election.OutcomeFault), naming the lost node, unless a
// node's own code broke a property (its line's Property: a panic, a send
// its model forbids, a changed decision), which the monitor reports as a
// violation, as on every runtime, the losses it caused aside. The faults of a run with --faults
// (each line lists those its node applied) go to the monitor in the merged
// record's order; the report's cause is then the first of them, since
// Judge does not see the messages that make the promised leader's causal
// path (Up takes the cause from the replay of the merged record). A node
// that stopped at its memory limit (its line's MemoryLimit) makes the
// outcome memory-limit, as on every runtime, the losses it caused aside.
func Judge(d *Description, cat *catalog.Catalog, lines []*NodeResult, exits []string) (*scenario.Record, error) {
	spec := d.Spec(cat)
	cfg, err := scenario.Build(spec)
	if err != nil {
		return nil, err
	}
	cfg.CausalTime = true
	mon := election.NewMonitor(cfg, nil, nil, nil)
	end := election.End{TypeCounts: make([]int64, len(cfg.Algorithm.Messages))}
	// The nodes that died or never ran come first, then the faults that
	// name no lost peer (a port in use, another description): the others'
	// faults, which name the peer they lost, follow from them.
	var dead, faults, consequences []string
	broke := false
	depth := int64(0)
	// The decisions and the injected faults go to the monitor in the
	// order of the merged trace (Lamport time, node, the node's order), so
	// that it knows which nodes were up at each election.
	var happened []happening
	for i, l := range lines {
		if l == nil {
			continue
		}
		switch l.Decision {
		case elect.Elected.String():
			happened = append(happened, happening{l.DecidedLamport, i, l.DecidedSeq, elect.Elected, nil})
		case elect.NotElected.String():
			happened = append(happened, happening{l.DecidedLamport, i, l.DecidedSeq, elect.NotElected, nil})
		}
		for k := range l.Faults {
			f := &l.Faults[k]
			happened = append(happened, happening{f.Lamport, i, f.Seq, elect.Undecided, f})
		}
	}
	slices.SortFunc(happened, func(a, b happening) int {
		return cmp.Or(cmp.Compare(a.lamport, b.lamport), cmp.Compare(a.node, b.node), cmp.Compare(a.seq, b.seq))
	})
	for _, h := range happened {
		if h.fault == nil {
			mon.Decide(int32(h.node), h.decision, 0)
			continue
		}
		if err := applyFault(mon, cfg, int32(h.node), h.fault); err != nil {
			return nil, fmt.Errorf("node %d's line: %v", h.node, err)
		}
	}
	for i, l := range lines {
		if l == nil {
			why := "printed no result"
			if i < len(exits) && exits[i] != "" {
				why = exits[i]
			}
			dead = append(dead, fmt.Sprintf("node %d %s", i, why))
			continue
		}
		if l.Property != election.PropNone {
			mon.Violate(l.Property, l.Detail, int32(i))
			broke = true
		}
		switch {
		case l.MemoryLimit:
			// Its peers lost it: their faults follow from it.
			end.MemoryLimit = true
		case l.Fault == "":
		case l.Lost >= 0:
			consequences = append(consequences, fmt.Sprintf("node %d: %s", i, l.Fault))
		default:
			faults = append(faults, fmt.Sprintf("node %d: %s", i, l.Fault))
		}
		if l.Leader >= 0 {
			mon.Learn(int32(i), l.Leader)
		}
		for t, mt := range cfg.Algorithm.Messages {
			end.TypeCounts[t] += l.MessagesByType[mt.Name]
		}
		end.MaxNodeMessages = max(end.MaxNodeMessages, l.Sent)
		end.Events += l.Events
		depth = max(depth, l.Depth)
	}
	end.Time = float64(depth)
	res := mon.Finish(end)
	res.Transport = transport(d, lines, res.Messages)
	if len(dead)+len(faults)+len(consequences) > 0 && !broke && !end.MemoryLimit {
		res.Outcome = election.OutcomeFault
		res.Violation = strings.Join(slices.Concat(dead, faults, consequences), "; ")
	}
	rec := scenario.NewRecord(spec, cfg, res)
	rec.Runtime = "tcp"
	return rec, nil
}

// transport is the run report of a cluster run from the nodes' lines: the
// messages per link (each node's by port, to its neighbours), the merged
// latencies, the rate over the slowest node's wall time (Up replaces
// it with the run's own), the election phase (from the first message sent
// to the last received, by the nodes' clocks: one machine's, or clocks
// kept in step) and the nodes' peak memory.
func transport(d *Description, lines []*NodeResult, messages int64) *election.Transport {
	var links []election.LinkCount
	var lat election.Latency
	var peaks, anons []int64
	var firstSend, lastReceive int64
	wall := 0.0
	for i, l := range lines {
		if l == nil {
			continue
		}
		if l.PeakRSS > 0 && l.AnonRSS > 0 {
			peaks = append(peaks, l.PeakRSS)
			anons = append(anons, l.AnonRSS)
		}
		if l.FirstSend > 0 && (firstSend == 0 || l.FirstSend < firstSend) {
			firstSend = l.FirstSend
		}
		lastReceive = max(lastReceive, l.LastReceive)
		for p, c := range l.SentByPort {
			if p < len(d.Nodes[i].Neighbors) {
				links = append(links, election.LinkCount{From: i, To: d.Nodes[i].Neighbors[p], Messages: c})
			}
		}
		if l.Latency != nil {
			lat.Merge(l.Latency)
		}
		wall = max(wall, l.WallSeconds)
	}
	t := election.NewTransport(links, &lat, messages, wall)
	if firstSend > 0 && lastReceive > firstSend {
		t.ElectionSeconds = float64(lastReceive-firstSend) / 1e9
		t.ElectionMessagesPerSecond = float64(messages) / t.ElectionSeconds
	}
	if len(peaks) > 0 {
		t.NodePeakBytes, t.NodeAnonBytes = peakStats(peaks), peakStats(anons)
	}
	return t
}

// peakStats summarises the memory of processes.
func peakStats(b []int64) *election.PeakStats {
	slices.Sort(b)
	return &election.PeakStats{Min: b[0], Median: b[len(b)/2], Max: b[len(b)-1]}
}

// happening is a node's decision, or a fault it applied.
type happening struct {
	lamport  int64
	node     int
	seq      int64
	decision elect.Decision
	fault    *FaultEvent
}

// applyFault tells the monitor of a fault node i applied.
func applyFault(mon *election.Monitor, cfg *election.Config, i int32, f *FaultEvent) error {
	if f.Ev == "crash" {
		mon.Crash(i, f.Time)
		return nil
	}
	p := elect.Port(f.Port)
	if f.Port < 0 || f.Port >= cfg.Graph.Degree(int(i)) || f.Type < 0 || f.Type >= len(cfg.Algorithm.Messages) {
		return fmt.Errorf("a %s fault on port %d of a message of type %d, which the node cannot have sent", f.Ev, f.Port, f.Type)
	}
	to, _ := cfg.Graph.Neighbor(i, p)
	m := elect.Message{Type: elect.MsgType(f.Type), ID: f.ID, A: f.A, B: f.B}
	switch f.Ev {
	case "lose":
		cause := elect.FaultLoss
		if f.Cause == elect.FaultPartition.String() {
			cause = elect.FaultPartition
		}
		mon.Lost(f.No, i, p, to, m, cause, f.Time)
	case "dup":
		mon.Duplicated(f.No, i, p, to, m, f.Time)
	case "delay":
		mon.Delayed(f.No, i, p, to, m, f.By, f.Time)
	default:
		return fmt.Errorf("unknown fault %q", f.Ev)
	}
	return nil
}
