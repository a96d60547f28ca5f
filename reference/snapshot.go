package reference

import (
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/electkit/elect"
)

// Snapshot is an engine's whole state at one point of a run: the nodes
// (copied with elect.Snapshotter), the queue, the monitor, the counters and
// the random streams. Restore goes on from it, as often as wanted.
type Snapshot struct {
	e *Engine // a copy no one runs
}

// Snapshot copies the run's state. Every node must implement
// elect.Snapshotter.
func (e *Engine) Snapshot() (*Snapshot, error) {
	c, err := e.copy(nil)
	if err != nil {
		return nil, err
	}
	return &Snapshot{e: c}, nil
}

// Restore returns an engine that goes on from the snapshot, writing the
// rest of its trace (if the run traces) to trace: the lines that follow
// those written before the snapshot, without a header.
func (s *Snapshot) Restore(trace io.Writer) (*Engine, error) {
	return s.e.copy(trace)
}

// copy returns an independent copy of e whose trace goes to w.
func (e *Engine) copy(w io.Writer) (*Engine, error) {
	c := *e
	cfg := *e.cfg
	cfg.Trace = w
	c.cfg = &cfg
	c.nodes = make([]elect.Node, len(e.nodes))
	for i, node := range e.nodes {
		s, ok := node.(elect.Snapshotter)
		if !ok {
			return nil, fmt.Errorf("reference: %s nodes cannot be snapshotted (no elect.Snapshotter)", e.alg.Name)
		}
		c.nodes[i] = s.Clone()
	}
	c.woken = slices.Clone(e.woken)
	c.halted = slices.Clone(e.halted)
	c.sent = slices.Clone(e.sent)
	c.queue = slices.Clone(e.queue)
	c.typeCounts = slices.Clone(e.typeCounts)
	c.cancelSeq = slices.Clone(e.cancelSeq)
	c.linkLast = maps.Clone(e.linkLast)
	c.depth = slices.Clone(e.depth)
	c.faults = e.faults.clone()
	d := *e.delays
	c.delays = &d
	c.nodeRand = make([]*rand.PCG, len(e.nodeRand))
	for i, r := range e.nodeRand {
		if r != nil {
			v := *r
			c.nodeRand[i] = &v
		}
	}
	if w == nil && e.trace != nil {
		w = io.Discard // a snapshot keeps what its tracer knows, for Restore
	}
	c.setTrace(w)
	if c.trace != nil && e.trace != nil {
		c.trace.Continue(e.trace) // the rest of the trace: no header, states known
	}
	c.mon = e.mon.Clone(c.trace)
	c.rec = elect.NewRecorder(c.rand)
	return &c, nil
}
