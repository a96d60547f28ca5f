// Package runner runs a scenario (scenario.Spec) on the engine it names:
// the fast simulator (package sim), the reference engine (package
// reference, which also replays a recorded execution) or the goroutine
// runtime (package live). It is the one place below the CLI that chooses an
// engine, so that what describes a run (package scenario) links none; for
// the goroutine runtime it resolves the run's fault schedule first (package
// faultplan/resolve) and hands it over, since that runtime links no engine
// either.
package runner

import (
	"runtime"
	"time"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faultplan/resolve"
	"github.com/electkit/elect/live"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// Run builds and runs s on its runtime. A panic of the algorithm's code
// that the runtime did not turn into a violation itself (one while the
// nodes are built, say) is reported the same way: a record with outcome
// violation and the panic's message (scenario.PanicRecord), never a crash.
func Run(s scenario.Spec) (rec *scenario.Record, err error) {
	defer func() {
		if p := recover(); p != nil {
			rec, err = scenario.PanicRecord(s, p), nil
		}
	}()
	cfg, err := scenario.Build(s)
	if err != nil {
		return nil, err
	}
	return RunBuilt(s, cfg)
}

// RunBuilt runs cfg, which scenario.Build made of s, on s's runtime: Run
// without building the configuration again, for a caller that built it
// already (to validate the input before it creates any file, say). The
// caller may have set cfg's Trace, TraceLimit and Progress since. A panic
// is reported as Run reports it.
func RunBuilt(s scenario.Spec, cfg *election.Config) (rec *scenario.Record, err error) {
	defer func() {
		if p := recover(); p != nil {
			rec, err = scenario.PanicRecord(s, p), nil
			rec.N = cfg.Graph.N // s.N is 0 when the topology fixed the count
		}
	}()
	var res *election.Result
	runtime := s.Runtime
	start := time.Now()
	switch {
	case s.Replay != nil:
		runtime = "replay"
		res, err = reference.Replay(*cfg, s.Replay)
		if err != nil {
			return nil, &scenario.Error{Msg: err.Error()}
		}
	case runtime == "reference":
		res, err = reference.Run(*cfg)
	case runtime == "goroutines":
		res, err = runGoroutines(s, cfg)
	default:
		runtime = ""
		res, err = sim.Run(*cfg)
	}
	if err != nil {
		return nil, err
	}
	rec = scenario.NewRecord(s, cfg, res)
	if rec.Faults == "" && res.Faults != nil {
		rec.Faults = res.Faults.Spec // a replay's, from its record
	}
	rec.Runtime = runtime
	if runtime == "goroutines" {
		rec.WallSeconds = time.Since(start).Seconds()
	}
	return rec, nil
}

// runGoroutines runs cfg on the goroutine runtime, its fault schedule (if
// it has one) resolved before the run.
//
// The plan is memory the run holds while it runs, so it comes out of the
// run's budget (Config.MaxQueueBytes): the resolving run on the simulator
// has the whole budget, the live run what the plan leaves of it (at least
// a byte, so that a plan that takes it all stops the run at once with
// outcome memory-limit rather than lifting the limit). The simulator keeps
// a run's queues for its next run (a sync.Pool, let go by the second
// collection after), which on goroutines would be held beside the live
// run's own buffers: two collections let them go first ('elect run hs --n
// 2000 --faults dup:p=1 --mem-limit 50MB' peaked at 65 MiB, over the limit
// and the program's own 12; now 49).
func runGoroutines(s scenario.Spec, cfg *election.Config) (*election.Result, error) {
	var opt live.Options
	if cfg.Faults == nil {
		return live.RunWith(*cfg, opt)
	}
	c := *cfg
	if err := live.Check(&c); err != nil {
		return nil, err
	}
	plan, err := resolve.Faults(c)
	if err != nil {
		return nil, err
	}
	opt.Plan = plan
	c = *cfg
	if c.MaxQueueBytes > 0 {
		c.MaxQueueBytes = max(c.MaxQueueBytes-plan.Bytes(), 1)
		runtime.GC()
		runtime.GC()
	}
	return live.RunWith(c, opt)
}
