package scenario

import (
	"github.com/electkit/elect/sim"
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
	*sim.Result
}

// Run builds and runs s.
func Run(s Spec) (*Record, error) {
	cfg, err := Build(s)
	if err != nil {
		return nil, err
	}
	res, err := sim.Run(*cfg)
	if err != nil {
		return nil, err
	}
	return NewRecord(s, cfg, res), nil
}

// NewRecord describes the run of cfg (built from s) that gave res.
func NewRecord(s Spec, cfg *sim.Config, res *sim.Result) *Record {
	timing := "async"
	if cfg.Delivery == sim.Sync {
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
	return &Record{
		Algorithm: cfg.Algorithm.Name, N: cfg.Graph.N, Seed: s.Seed, IDs: idText,
		Topology: cfg.Graph.Name, Timing: timing, Delivery: cfg.Delivery.String(),
		Initiators: cfg.BoundContext().Initiators, Announce: cfg.Announce, Params: params,
		Forced: s.Force && cfg.CheckModel() != nil, Result: res,
	}
}

// Succeeded reports whether the run elected as promised and every check held.
func (r *Record) Succeeded() bool {
	if r.Result == nil || r.Outcome != sim.OutcomeElected {
		return false
	}
	for _, c := range r.Checks {
		if !c.Holds {
			return false
		}
	}
	return true
}
