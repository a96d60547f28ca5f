package reference

// The reference engine's faults, written from docs/faults.md ("The
// schedule, step by step"), one function for each of its paragraphs, and
// sharing no code with the simulator's: the differential test holds each
// to the other, so that a mistake in either shows. The specification's
// parsed clauses (package faults) are the input; what they mean is decided
// here.

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
)

// faultPlan is one run's faults: drawn before the run (drawFaultPlan),
// then asked about every message sent (fateOfNextMessage) and told of
// every step a node takes (stepTaken).
type faultPlan struct {
	messageClauses []messageClause // every clause but the crashes, in the order written
	sent           int64           // messages sent so far: the number of the last one

	timedCrashes []timedCrash // crashes at a time not applied yet, in the order they happen
	crashAfter   []int64      // by node: the step it crashes right after (0: none)
	steps        []int64      // by node: the steps it has taken
}

// timedCrash is a crash at a time: node crashes at time units at.
type timedCrash struct {
	node int32
	at   int64
}

// messageClause is a loss, dup, delay or partition clause: which messages
// it hits, and what it does to them.
type messageClause struct {
	kind elect.Faults // FaultLoss, FaultDup, FaultDelay or FaultPartition
	d    int64        // delay: the time units it adds

	numbers map[int64]bool // k= and msg=: the numbers of the messages it hits

	p     float64   // p=: the chance of a hit, drawn for every message
	draws *rand.PCG // p=: the clause's stream

	sideA, sideB []int // partition: the two sides
	from, to     int64 // partition: from this time, up to (not including) that one
}

// messageFate is what the plan does to one message sent.
type messageFate struct {
	number     int64        // the message's number in sending order
	lostBy     elect.Faults // FaultLoss or FaultPartition when lost, else 0
	late       int64        // time units added to its delay
	duplicated bool
}

// drawFaultPlan draws the run's faults from spec and the seed, as "Drawing
// it, before the run" says; nil without faults.
func drawFaultPlan(spec *faults.Spec, n int, seed uint64) (*faultPlan, error) {
	if spec == nil {
		return nil, nil
	}
	if err := spec.Check(n); err != nil { // a node outside 0..n-1, too many crashes
		return nil, err
	}
	plan := &faultPlan{crashAfter: make([]int64, n), steps: make([]int64, n)}
	crashedAlready := make([]bool, n) // by node: a clause before (or this one) crashes it
	for index, c := range spec.Clauses {
		stream := func() *rand.PCG {
			return election.StreamSource(seed, "faults-"+c.Kind.String(), uint64(index))
		}
		switch {
		case c.Kind == elect.FaultCrash && c.Node >= 0 && c.Step > 0:
			// With two such clauses on one node, the smaller S counts.
			if s := plan.crashAfter[c.Node]; s == 0 || c.Step < s {
				plan.crashAfter[c.Node] = c.Step
			}
			crashedAlready[c.Node] = true
		case c.Kind == elect.FaultCrash && c.Node >= 0:
			plan.timedCrashes = append(plan.timedCrashes, timedCrash{node: int32(c.Node), at: c.At})
			crashedAlready[c.Node] = true
		case c.Kind == elect.FaultCrash:
			rng := rand.New(stream())
			by := orN(c.By, n)
			chosen := int64(0)
			for _, node := range rng.Perm(n) {
				if chosen == c.K {
					break
				}
				if crashedAlready[node] {
					continue
				}
				crashedAlready[node] = true
				plan.timedCrashes = append(plan.timedCrashes, timedCrash{node: int32(node), at: rng.Int64N(by + 1)})
				chosen++
			}
		case c.Kind == elect.FaultPartition:
			plan.messageClauses = append(plan.messageClauses, messageClause{kind: c.Kind,
				sideA: c.A, sideB: c.B, from: c.From, to: c.To})
		case c.K > 0:
			plan.messageClauses = append(plan.messageClauses, messageClause{kind: c.Kind, d: c.D,
				numbers: floydSample(rand.New(stream()), min(c.K, orN(c.By, n)), orN(c.By, n))})
		case c.Msg > 0:
			plan.messageClauses = append(plan.messageClauses, messageClause{kind: c.Kind, d: c.D,
				numbers: map[int64]bool{c.Msg: true}})
		default: // p=
			plan.messageClauses = append(plan.messageClauses, messageClause{kind: c.Kind, d: c.D,
				p: c.P, draws: stream()})
		}
	}
	slices.SortStableFunc(plan.timedCrashes, func(a, b timedCrash) int { // by time, then by node
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.node, b.node))
	})
	return plan, nil
}

// orN is by, or n when by is not given (0).
func orN(by int64, n int) int64 {
	if by == 0 {
		return int64(n)
	}
	return by
}

// floydSample draws k distinct numbers in 1..by: for j = by-k+1, ..., by,
// t = 1 + Int64N(j), and j instead of t when t was drawn already.
func floydSample(rng *rand.Rand, k, by int64) map[int64]bool {
	drawn := map[int64]bool{}
	for j := by - k + 1; j <= by; j++ {
		t := 1 + rng.Int64N(j)
		if drawn[t] {
			t = j
		}
		drawn[t] = true
	}
	return drawn
}

// fateOfNextMessage numbers the next message sent, from node from to node
// to at tick now (unit ticks make a time unit), and decides its fate, as
// "Numbering the messages" and "Deciding a message's fate" say.
func (plan *faultPlan) fateOfNextMessage(from, to int32, now, unit int64) messageFate {
	plan.sent++
	fate := messageFate{number: plan.sent}
	for k := range plan.messageClauses {
		c := &plan.messageClauses[k]
		if !c.hits(fate.number, from, to, now, unit) { // every clause is asked: p= draws
			continue
		}
		switch c.kind {
		case elect.FaultLoss, elect.FaultPartition:
			if fate.lostBy == 0 { // the first to lose it names the cause
				fate.lostBy = c.kind
			}
		case elect.FaultDelay:
			fate.late += c.d
		case elect.FaultDup:
			fate.duplicated = true
		}
	}
	if fate.lostBy != 0 {
		return messageFate{number: fate.number, lostBy: fate.lostBy} // neither duplicated nor delayed
	}
	return fate
}

// hits says whether the clause hits message number no, sent from node from
// to node to at tick now.
func (c *messageClause) hits(no int64, from, to int32, now, unit int64) bool {
	switch {
	case c.draws != nil:
		u := rand.New(c.draws).Float64()
		return u < c.p
	case c.numbers != nil:
		return c.numbers[no]
	default: // a partition: across it, within its window of time
		across := slices.Contains(c.sideA, int(from)) && slices.Contains(c.sideB, int(to)) ||
			slices.Contains(c.sideB, int(from)) && slices.Contains(c.sideA, int(to))
		within := c.from*unit <= now && now < c.to*unit
		return across && within
	}
}

// sendUnderFaults sends the message ev (to its receiver, on port q) that
// node i sent on port p under the run's faults, as "Recording it and
// sending it on" says: the send line is written already.
func (e *Engine) sendUnderFaults(i int32, p elect.Port, ev event) {
	to, q, m := ev.node, ev.port, ev.msg
	fate := e.faults.fateOfNextMessage(i, to, e.now, e.unit)
	if fate.lostBy != 0 {
		e.mon.Lost(fate.number, i, p, to, m, fate.lostBy, e.monitorNow())
		return
	}
	// The time units each copy that travels is late by: the message,
	// then its duplicate, which travels on time.
	lateness := []int64{fate.late}
	if fate.late > 0 {
		e.mon.Delayed(fate.number, i, p, to, m, fate.late, e.monitorNow())
	}
	if fate.duplicated {
		e.mon.Duplicated(fate.number, i, p, to, m, e.monitorNow())
		lateness = append(lateness, 0)
	}
	e.mon.Routed(i, to, q, m, len(lateness))
	for _, late := range lateness {
		if e.replay != nil {
			// A replay of a checker's counterexample, whose schedule
			// is explicit: the record says when each copy arrives.
			e.holdForReplay(i, ev)
			continue
		}
		e.enqueue(i, p, ev, late)
	}
}

// crashesDue applies the crashes at a time of T <= the tick at, at the
// start of that instant: the run has reached its first event due at or
// after T ("Crashes").
func (e *Engine) crashesDue(at int64) {
	plan := e.faults
	if len(plan.timedCrashes) == 0 || plan.timedCrashes[0].at*e.unit > at {
		return
	}
	e.now = at // the crash's time is the instant's
	for len(plan.timedCrashes) > 0 && plan.timedCrashes[0].at*e.unit <= at {
		e.crash(plan.timedCrashes[0].node)
		plan.timedCrashes = plan.timedCrashes[1:]
	}
}

// stepTaken counts a step node i has ended, and crashes it if its crash
// comes right after that step.
func (e *Engine) stepTaken(i int32) {
	plan := e.faults
	plan.steps[i]++
	if plan.steps[i] == plan.crashAfter[i] {
		e.crash(i)
	}
}

// crash stops node i for good, unless it is down already (crashed, or
// terminated): it takes no more steps, and what reaches it is dropped.
func (e *Engine) crash(i int32) {
	if e.halted[i] {
		return
	}
	e.halted[i] = true
	e.mon.Crash(i, e.monitorNow())
}

// monitorNow is the time the monitor is told of an event, in ticks: the
// run's clock, or in the replay of a checker's counterexample (whose trace
// is this replay's own, its time the causal depth) the depth its trace's
// lines carry (the deepest so far), so that a cause names the time of the
// trace's line. (A record of a run keeps its runtime's rule: a fault line's
// time is its node's causal depth, see replayFault.)
func (e *Engine) monitorNow() int64 {
	if e.scheduled && e.newest {
		return e.maxDepth * e.unit
	}
	return e.now
}

// clone returns an independent copy of the plan, its streams' states
// included (Snapshot).
func (plan *faultPlan) clone() *faultPlan {
	if plan == nil {
		return nil
	}
	c := *plan
	c.messageClauses = slices.Clone(plan.messageClauses)
	for k := range c.messageClauses {
		if d := c.messageClauses[k].draws; d != nil {
			state := *d
			c.messageClauses[k].draws = &state
		}
	}
	c.timedCrashes = slices.Clone(plan.timedCrashes)
	c.steps = slices.Clone(plan.steps)
	return &c
}
