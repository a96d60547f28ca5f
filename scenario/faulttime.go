package scenario

import (
	"math"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/internal/format"
	"github.com/electkit/elect/topology"
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

// FaultWait is the wall time that the delays of a fault specification
// make a run with real timing wait, at least, with a time unit of tick
// (0: election.DefaultFaultTick) on a graph whose diameter is at least
// hops: an election's news crosses the network, so some chain of at least
// hops messages, one after the other, carries it, and each message of the
// chain is late by what the delay clauses add on average (delayPerHop).
func FaultWait(spec *faults.Spec, tick time.Duration, hops int) time.Duration {
	if tick <= 0 {
		tick = election.DefaultFaultTick
	}
	perHop, once := delayPerHop(spec)
	wait := (perHop*float64(max(hops, 1)) + once) * float64(tick)
	if wait >= float64(math.MaxInt64) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(wait)
}

// delayPerHop is what the delay clauses add to each message on average, in
// time units (p times d for a clause with a probability), and what a
// clause that hits one message (msg=) adds to a chain at most once.
func delayPerHop(spec *faults.Spec) (perHop, once float64) {
	if spec == nil {
		return 0, 0
	}
	for _, c := range spec.Clauses {
		switch {
		case c.Kind != elect.FaultDelay:
		case c.P > 0:
			perHop += c.P * float64(c.D)
		case c.Msg > 0:
			once = max(once, float64(c.D))
		}
	}
	return perHop, once
}

// CheckFaultWait refuses a fault specification whose delays make a run on
// graph g wait longer than MaxFaultDelay of wall time at least (FaultWait
// along g's diameter); CheckFaultTiming bounds each delay alone.
func CheckFaultWait(spec *faults.Spec, tick time.Duration, g *topology.Graph) error {
	if err := CheckFaultTiming(spec, tick); err != nil {
		return err
	}
	hops := g.DiameterLowerBound()
	wait := FaultWait(spec, tick, hops)
	if wait <= MaxFaultDelay {
		return nil
	}
	if tick <= 0 {
		tick = election.DefaultFaultTick
	}
	perHop, _ := delayPerHop(spec)
	return errorf("%s makes the run wait %v of wall time at least (its news crosses %d hops, each late by %s time units of --fault-tick %v on average), more than %v; use smaller delays, a shorter --fault-tick, or --force",
		spec, wait.Round(time.Second), hops, format.Number(perHop, 4), tick, MaxFaultDelay)
}
