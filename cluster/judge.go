package cluster

import (
	"fmt"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
)

// Fault is the outcome of a cluster run that could not finish: a node was
// lost.
const Fault election.Outcome = "fault"

// Judge turns the nodes' lines into the record `elect run` prints: the
// simulator's monitor checks the decisions and learned leaders, the counts
// are what the nodes sent, and the time is the deepest causal chain.
// A nil line is a node that printed none (it died); faults become the
// outcome "fault", naming the lost node.
func Judge(d *Description, cat *catalog.Catalog, lines []*NodeResult, exits []string) (*scenario.Record, error) {
	spec := d.Spec(cat)
	cfg, err := scenario.Build(spec)
	if err != nil {
		return nil, err
	}
	cfg.CausalTime = true
	mon := election.NewMonitor(cfg, nil, nil, nil)
	end := election.End{TypeCounts: make([]int64, len(cfg.Algorithm.Messages))}
	// The nodes that died or never ran come first: the others' faults
	// follow from them.
	var dead, faults []string
	depth := int64(0)
	for i, l := range lines {
		if l == nil {
			why := "printed no result"
			if i < len(exits) && exits[i] != "" {
				why = exits[i]
			}
			dead = append(dead, fmt.Sprintf("node %d %s", i, why))
			continue
		}
		if l.Fault != "" {
			faults = append(faults, fmt.Sprintf("node %d: %s", i, l.Fault))
		}
		switch l.Decision {
		case elect.Elected.String():
			mon.Decide(int32(i), elect.Elected, 0)
		case elect.NotElected.String():
			mon.Decide(int32(i), elect.NotElected, 0)
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
	if len(dead)+len(faults) > 0 {
		res.Outcome = Fault
		res.Violation = strings.Join(append(dead, faults...), "; ")
	}
	rec := scenario.NewRecord(spec, cfg, res)
	rec.Runtime = "tcp"
	return rec, nil
}

// transport is the run report of a cluster run from the nodes' lines: the
// messages per link (each node's by port, to its neighbours), the merged
// latencies, and the rate over the slowest node's wall time (Up replaces
// it with the run's own).
func transport(d *Description, lines []*NodeResult, messages int64) *election.Transport {
	var links []election.LinkCount
	var lat election.Latency
	wall := 0.0
	for i, l := range lines {
		if l == nil {
			continue
		}
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
	return election.NewTransport(links, &lat, messages, wall)
}
