package scenario

import (
	"fmt"

	"github.com/electkit/elect/election"
)

// Record is one run as `elect run --json` and sweeps print it: the
// configuration, then the result. Field names are part of the public
// interface.
type Record struct {
	Algorithm  string            `json:"algorithm"`
	N          int               `json:"n"`
	Seed       uint64            `json:"seed"`
	IDs        string            `json:"ids"`
	Topology   string            `json:"topology"`
	Timing     string            `json:"timing"`
	Delivery   string            `json:"delivery"`
	Initiators int               `json:"initiators"`
	Announce   bool              `json:"announce"`
	Params     map[string]string `json:"params,omitempty"`
	Forced     bool              `json:"forced,omitempty"`
	// ForcedEventLimit is the event limit a forced run off its model got
	// when none was given (ForcedEventLimit).
	ForcedEventLimit int64 `json:"forced_event_limit,omitempty"`
	// Runtime names what ran the nodes when it was not the simulator:
	// "reference", "goroutines", or "replay" (a recorded execution replayed
	// on the reference engine).
	Runtime string `json:"runtime,omitempty"`
	// Faults is the fault specification of the run (canonical form), when
	// it has one.
	Faults string `json:"faults_spec,omitempty"`
	// WallSeconds is the run's wall-clock time on runtimes with real timing.
	WallSeconds float64 `json:"wall_seconds,omitempty"`
	*election.Result
}

// PanicRecord is the record of a run of s that panicked with value p before
// it could be measured: the configuration as s gives it, outcome violation
// with the panic's message, nothing counted.
func PanicRecord(s Spec, p any) *Record {
	ids := s.IDs
	if ids == "" {
		ids = "random"
	}
	rec := &Record{
		Algorithm: s.Algorithm, N: s.N, Seed: s.Seed, IDs: ids,
		Topology: s.Topology, Timing: s.Timing, Delivery: s.Delivery,
		Announce: s.Announce, Forced: s.Force,
		Result: &election.Result{
			Outcome: election.OutcomeViolation, LeaderIndex: -1, LeaderID: -1, MessagesByType: map[string]int64{},
		},
	}
	rec.SetViolation(election.NewViolation(election.PropPanic, fmt.Sprintf("the run panicked: %v", p)))
	if s.Runtime != "sim" {
		rec.Runtime = s.Runtime
	}
	if len(s.Params) > 0 {
		rec.Params = s.Params
	}
	return rec
}

// NewRecord describes the run of cfg (built from s) that gave res.
func NewRecord(s Spec, cfg *election.Config, res *election.Result) *Record {
	timing := "async"
	if cfg.Delivery == election.Sync {
		timing = "sync"
	}
	idText := s.IDs
	if idText == "" {
		idText = "random"
	}
	var params map[string]string
	if len(cfg.Params) > 0 {
		params = cfg.Params
	}
	rec := &Record{
		Algorithm: cfg.Algorithm.Name, N: cfg.Graph.N, Seed: s.Seed, IDs: idText,
		Topology: cfg.Graph.Name, Timing: timing, Delivery: cfg.Delivery.String(),
		Initiators: cfg.BoundContext().Initiators, Announce: cfg.Announce, Params: params,
		Forced: s.Force && cfg.CheckModel() != nil, Result: res,
	}
	if cfg.Faults != nil {
		rec.Faults = cfg.Faults.String()
	}
	if rec.Forced && cfg.MaxEvents != s.MaxEvents {
		rec.ForcedEventLimit = cfg.MaxEvents
	}
	return rec
}

// ExpectedFailure reports whether the run failed under a fault its
// algorithm does not declare it tolerates (verdict expected-failure).
func (r *Record) ExpectedFailure() bool {
	return r.Result != nil && r.Result.Faults != nil && r.Result.Faults.Verdict == election.VerdictExpected
}

// Succeeded reports whether the run elected as promised and every check held.
func (r *Record) Succeeded() bool {
	if r.Result == nil || r.Outcome != election.OutcomeElected {
		return false
	}
	for _, c := range r.Checks {
		if !c.Holds {
			return false
		}
	}
	return true
}
