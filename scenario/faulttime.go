package scenario

import (
	"time"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
)

// MaxFaultDelay is the longest wall time one delay fault may hold a
// message back on the runtimes with real timing (goroutines, TCP), where
// a time unit lasts the fault tick: beyond it a run looks hung, and only
// --force runs it.
const MaxFaultDelay = time.Hour

// CheckFaultTiming refuses a fault specification that, with a time unit
// of tick of wall time (0: election.DefaultFaultTick), holds one message
// back longer than MaxFaultDelay; the error says what is allowed.
func CheckFaultTiming(spec *faults.Spec, tick time.Duration) error {
	if tick <= 0 {
		tick = election.DefaultFaultTick
	}
	d := spec.MaxDelay()
	if d == 0 {
		return nil
	}
	most := int64(MaxFaultDelay / tick)
	if d <= most {
		return nil
	}
	wall := "more than 10^6 hours"
	if d < int64(1e6*float64(time.Hour)/float64(tick)) {
		wall = (time.Duration(d) * tick).String()
	}
	if most < 1 {
		return errorf("--fault-tick %v is longer than %v, the most one delay may hold a message back in wall time, and %s delays messages; use a tick of at most %v, or --force", tick, MaxFaultDelay, spec, MaxFaultDelay)
	}
	return errorf("%s holds a message back %d time units of --fault-tick %v, %s of wall time, more than %v; use d <= %d at this tick (or a shorter --fault-tick), or --force",
		spec, d, tick, wall, MaxFaultDelay, most)
}
