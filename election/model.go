package election

import (
	"fmt"

	"github.com/electkit/elect"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/topology"
)

// AssumptionError says which assumption of an algorithm's model a
// configuration breaks.
type AssumptionError struct {
	Assumption string // e.g. "FIFO channels"
	Detail     string
}

func (e *AssumptionError) Error() string {
	return fmt.Sprintf("%s (assumption: %s; use --force to run it anyway and watch it fail)", e.Detail, e.Assumption)
}

// CheckModel returns an AssumptionError for the first assumption of the
// algorithm's declared model that cfg breaks, or nil.
func (cfg *Config) CheckModel() error { return cfg.checkModel(false) }

// CheckModelOfDistinctIDs is CheckModel for a configuration whose maker
// knows its IDs to be distinct (it generated them as a permutation, say,
// ids.Spec.Distinct): it does not look for a repeated ID again.
func (cfg *Config) CheckModelOfDistinctIDs() error { return cfg.checkModel(true) }

func (cfg *Config) checkModel(distinctIDs bool) error {
	alg, m := cfg.Algorithm, cfg.Algorithm.RunModel(cfg.Params)
	fail := func(assumption, format string, args ...any) error {
		return &AssumptionError{Assumption: assumption, Detail: alg.Name + " " + fmt.Sprintf(format, args...)}
	}
	switch m.Topology {
	case elect.UniRing, elect.BiRing:
		if cfg.Graph.Kind != topology.Ring {
			return fail(m.Topology.String(), "runs on rings, not on %s", cfg.Graph.Name)
		}
	case elect.Complete:
		if cfg.Graph.Kind != topology.Complete {
			return fail(m.Topology.String(), "runs on complete graphs, not on %s", cfg.Graph.Name)
		}
	}
	if m.SenseOfDirection && !cfg.Graph.SenseOfDirection() {
		return fail("sense of direction", "needs ports labelled with a sense of direction (complete:chordal, hypercube), not %s", cfg.Graph.Name)
	}
	if cfg.Delivery == Sync && !m.Sync {
		return fail("asynchronous model", "is an asynchronous algorithm; choose an asynchronous delivery (--timing async)")
	}
	if cfg.Delivery != Sync && !m.Async {
		return fail("synchronous model", "is a synchronous algorithm; it needs --timing sync")
	}
	if m.FIFO && !cfg.Delivery.IsFIFO() {
		return fail("FIFO channels", "needs FIFO channels, and %s delivery can reorder messages on a link", cfg.Delivery)
	}
	if m.UniqueIDs && !distinctIDs {
		if i, j, dup := ids.Duplicate(cfg.IDs); dup {
			return fail("unique IDs", "needs unique IDs, but nodes %d and %d both hold %d", i, j, cfg.IDs[i])
		}
	}
	if m.Weighted {
		// The edge weights a run derives from IDs tie on a self-loop or a
		// double link: the rings of one and two nodes (every other graph
		// the tool builds is simple).
		if n := int64(cfg.Graph.N); cfg.Graph.Edges() > n*(n-1)/2 {
			return fail("distinct edge weights", "needs distinct edge weights, and %s on %d nodes has a self-loop or a double link; use at least 3 nodes", cfg.Graph.Name, n)
		}
	}
	if m.WakeUp == elect.AllAtOnce && cfg.Wake != nil {
		at := make([]bool, cfg.Graph.N)
		for _, w := range cfg.Wake {
			if w.At != 0 {
				return fail("simultaneous wake-up", "needs every node to wake at time 0, but node %d wakes at %d", w.Node, w.At)
			}
			at[w.Node] = true
		}
		for i, ok := range at {
			if !ok {
				return fail("simultaneous wake-up", "needs every node to wake at time 0, but node %d is not an initiator", i)
			}
		}
	}
	return nil
}
