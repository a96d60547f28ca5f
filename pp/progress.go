package pp

import (
	"time"

	"github.com/electkit/elect/election"
)

// Progress is what a run reports between chunks of interactions when
// Options.Progress is set: how far it is, for a progress bar, and the
// chance to stop it.
type Progress struct {
	Interactions int64
	ParallelTime float64
	Leaders      int64
	// MaxSteps is the run's step limit.
	MaxSteps int64
}

// Stopped: the caller stopped the run before its goal (Options.Progress
// returned false: an interrupt, or a wall-clock limit); the result's
// figures are those of the step at which it stopped.
const Stopped = election.Stopped

// progressEvery is about how often a run calls Options.Progress (a
// variable for the tests, which report at every chance).
var progressEvery = 100 * time.Millisecond

// reporter calls Options.Progress from inside an engine's loop, between
// two of its natural steps (a batch of pairs, a batch of the count
// engines), so that reporting never changes where the engine cuts its
// work and the run stays the same, draw for draw. It reads the clock once
// every few loop turns only.
type reporter struct {
	fn     func(Progress) bool
	turns  int
	last   time.Time
	halted bool // fn returned false: the run stops with outcome Stopped
}

// due reports, once every `every` turns and then only when progressEvery
// has passed, that it is time to call fn.
func (r *reporter) due(every int) bool {
	r.turns++
	if r.turns < every {
		return false
	}
	r.turns = 0
	now := time.Now()
	if r.last.IsZero() {
		r.last = now
	}
	if now.Sub(r.last) < progressEvery {
		return false
	}
	r.last = now
	return true
}

// report calls fn with p and reports whether the run goes on.
func (r *reporter) report(p Progress) bool {
	if !r.fn(p) {
		r.halted = true
	}
	return !r.halted
}

func (s *Sim[S, P]) progress() Progress {
	return Progress{Interactions: s.step, ParallelTime: float64(s.step) / float64(s.n), Leaders: s.leaders, MaxSteps: s.maxSteps}
}

func (s *CountSim[S, P]) progress() Progress {
	return Progress{Interactions: s.step, ParallelTime: float64(s.step) / float64(s.c.n), Leaders: s.c.leaders, MaxSteps: s.maxSteps}
}

// stoppedUnless is res, with outcome Stopped when the caller stopped the
// run (halted) before it reached its goal or step limit.
func stoppedUnless(halted bool, res Result) Result {
	if halted && res.Outcome == StepLimit {
		res.Outcome = Stopped
	}
	return res
}
