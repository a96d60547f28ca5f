package reference

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/trace"
)

// Replay runs cfg on the reference engine in the order of a recorded
// execution: the trace of a run of the same configuration (election.Tracer's
// lines, as the goroutine runtime and the TCP runtime record them, or as
// the simulator writes them under FIFO or synchronous delivery), in format
// version 2 (whose header must name the same algorithm and n) or in the
// headerless version 1, read with package trace. Its
// "wake" (spontaneous), "deliver", "drop" and "timer" lines are the
// schedule, taken in file order; every other line is ignored. Under a FIFO
// delivery model a "deliver" line takes the oldest message in flight on
// its link, and must name the same message type and payload, or the replay
// stops with an error that names the line; under the others (the
// checker's bag executions) it takes the first message in flight on its
// link that it names. A record that ends with a "cut" line is an
// execution that never ends (a checker's counterexample): its "loop" line
// marks the state it must come back to at the cut, which the replay
// checks, reporting the run as a non-termination violation. A "cut" line
// with reason "violation" and no "loop" (a checker's counterexample whose
// every completion would break another property first) ends the replay
// there: the run is reported as it stands, messages in flight or not. A step in
// which a node's code panics ends the replay, as it ends a run. Under
// synchronous delivery a line's
// "t" is its round; otherwise the time of the replay, like that of the
// runtimes with real timing, is the causal depth.
//
// The same configuration and record give the same counts, decisions and
// checks as the run that was recorded: nodes see the same inputs in the
// same order, and draw from the same seeded random sources.
func Replay(cfg election.Config, record io.Reader) (*election.Result, error) {
	if cfg.Delivery != election.Sync {
		cfg.CausalTime = true
	}
	rd, err := trace.NewReader(record)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	scheduled := false
	if h := rd.Header(); h != nil {
		if h.Algorithm != cfg.Algorithm.Name || h.N != cfg.Graph.N {
			return nil, fmt.Errorf("replay: the trace is a run of %s at n = %d, not of %s at n = %d", h.Algorithm, h.N, cfg.Algorithm.Name, cfg.Graph.N)
		}
		if h.Faults != "" {
			// The record's faults: its lines say what they did, and the
			// monitor judges the run under them.
			spec, err := faults.Parse(h.Faults)
			if err != nil {
				return nil, fmt.Errorf("replay: the trace's faults %s: %w", bounded.QuoteString(h.Faults), bounded.CutError(err))
			}
			cfg.Faults = spec
			scheduled = h.Runtime == "check" && explicitSchedule(spec)
		}
	}
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	e.crashed = make([]bool, e.n)
	if scheduled {
		// A checker's counterexample: its faults are an explicit schedule
		// (crash:node=I@step=S or @t=0, loss:msg=M, dup:msg=M), which the
		// replay applies as a run does, the record giving the order of
		// the steps; its fault lines, if any, are the schedule's effects.
		e.scheduled = true
		for _, c := range e.faults.timedCrashes { // at time 0: explicitSchedule allows no other time
			e.crash(c.node)
		}
		e.faults.timedCrashes = nil
	} else {
		// A replay draws no schedule of its own: it follows the record's
		// "lose", "dup", "delay" and "crash" lines.
		e.faults = nil
		if cfg.Faults != nil {
			e.routes = []route{}
		}
	}
	e.queue = nil
	e.newest = cfg.Delivery != election.Sync
	if e.trace != nil && e.newest {
		e.trace.SetUnit(1) // the replay's time is its causal depth
	}
	e.replay = map[int64][]event{}
	e.replayTimers = make([][]event, e.n)
	var loop []byte // the network's state at the "loop" line
	loopLine := 0
	e.early = make([]*event, e.n)
	src := &recordLines{rd: rd}
	for {
		l, line, err := src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		switch l.Ev {
		case "truncated":
			return nil, fmt.Errorf("replay, line %d: the trace was cut at its size limit (%d bytes); only whole runs replay", line, l.Limit)
		case "loop":
			if loop, err = e.networkState(); err != nil {
				return nil, fmt.Errorf("replay, line %d: %w", line, bounded.CutError(err))
			}
			loopLine = line
			continue
		case "cut":
			if loop == nil && l.Reason == "violation" {
				// A checker's counterexample cut where it broke a
				// property that no completion keeps: the run is reported
				// as it stands there (messages may be in flight).
				if e.trace != nil {
					e.trace.Cut(l.Reason)
				}
				return e.Finish()
			}
			// A record that is not a whole run: a checker's execution that
			// never ends, which must come back to its loop's state.
			if loop == nil {
				return nil, fmt.Errorf("replay, line %d: the record is cut without a \"loop\" line: it is not a whole run", line)
			}
			now, err := e.networkState()
			if err != nil {
				return nil, fmt.Errorf("replay, line %d: %w", line, bounded.CutError(err))
			}
			if !bytes.Equal(now, loop) {
				return nil, fmt.Errorf("replay, line %d: the record is cut as a loop, but the network is not in the state it was in at line %d", line, loopLine)
			}
			e.mon.Violate(election.PropNonTermination, fmt.Sprintf("the execution came back at line %d of the record to the state it was in at line %d, and can repeat those steps for ever", line, loopLine))
			return e.Finish()
		}
		if err := e.replayLine(&l); err != nil {
			return nil, fmt.Errorf("replay, line %d: %w", line, bounded.CutError(err))
		}
		if l.Ev == "wake" && !l.Spontaneous {
			e.wakeEarly(&l, src)
		}
		if len(e.routes) > 0 {
			switch l.Ev {
			case "send", "lose", "dup", "delay", "state", "decide", "learn", "halt", "violation":
			default:
				e.flushRoutes()
			}
		}
		if e.stopped {
			// A node's code panicked: the run ends there, as it did
			// where it was recorded (the checker's counterexample of a
			// panic ends with that step), messages in flight or not.
			return e.Finish()
		}
	}
	e.flushRoutes()
	inFlight := 0
	for _, q := range e.replay {
		for _, ev := range q {
			// A message to a crashed node may vanish unrecorded (one that
			// woke it, when it crashed on waking, in the simulator's
			// records).
			if !e.crashed[ev.node] {
				inFlight++
			}
		}
	}
	if inFlight > 0 {
		return nil, fmt.Errorf("replay: the record ends with %d messages in flight; it is not a whole run of this configuration (same algorithm, n, IDs, seed and flags?)", inFlight)
	}
	return e.Finish()
}

// networkState encodes what a node could ever see of the network: every
// node's state, flags, decision and random stream, the messages in flight
// on each link (as a multiset unless links are FIFO) and the timers
// pending. Causal depths are left out: no node sees them, so equal
// encodings mean the same steps can follow.
func (e *Engine) networkState() ([]byte, error) {
	var b []byte
	for i, nd := range e.nodes {
		s, ok := nd.(elect.Snapshotter)
		if !ok {
			return nil, fmt.Errorf("%s's nodes cannot be compared (no elect.Snapshotter), so a loop cannot be checked", e.alg.Name)
		}
		b = s.AppendState(b)
		b = elect.AppendBool(b, e.woken[i])
		b = elect.AppendBool(b, e.halted[i])
		b = elect.AppendUint(b, uint64(e.mon.Decision(int32(i))))
		if r := e.nodeRand[i]; r != nil {
			st, _ := r.MarshalBinary()
			b = append(b, st...)
		}
		for _, t := range e.replayTimers[i] {
			if t.seq > e.cancelSeq[i] {
				b = elect.AppendInt(b, t.tag)
			}
		}
		b = append(b, '|')
	}
	keys := slices.Sorted(maps.Keys(e.replay))
	for _, k := range keys {
		msgs := make([]elect.Message, 0, len(e.replay[k]))
		for _, ev := range e.replay[k] {
			msgs = append(msgs, ev.msg)
		}
		if len(msgs) == 0 {
			continue
		}
		if !e.cfg.Delivery.IsFIFO() {
			slices.SortFunc(msgs, func(a, b elect.Message) int {
				return cmp.Or(cmp.Compare(a.Type, b.Type), cmp.Compare(a.ID, b.ID), cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B))
			})
		}
		b = elect.AppendInt(b, k)
		for _, m := range msgs {
			b = elect.AppendUint(b, uint64(m.Type))
			b = elect.AppendInts(b, int64(m.ID), m.A, m.B)
		}
		b = append(b, '|')
	}
	return b, nil
}

func (e *Engine) replayLine(l *trace.Event) error {
	if e.scheduled && (l.Ev == "crash" || l.Ev == "lose" || l.Ev == "dup" || l.Ev == "delay") {
		return nil // the explicit schedule makes them
	}
	switch l.Ev {
	case "wake", "deliver", "drop", "timer":
		e.flushRoutes()
	case "violation":
		// What the recorded run broke: the replay's monitor finds it again
		// (or not) by itself, but a property elect does not declare is no
		// record of an elect run.
		_, err := election.TraceViolation(l)
		return err
	case "crash":
		e.flushRoutes()
		return e.replayFault(l)
	case "lose", "dup", "delay":
		return e.replayFault(l)
	default:
		return nil
	}
	node := l.Node
	if l.Ev == "deliver" || l.Ev == "drop" {
		node = l.To
	}
	if node < 0 || int(node) >= e.n {
		return fmt.Errorf("node %d is not in 0..%d", node, e.n-1)
	}
	if e.cfg.Delivery == election.Sync {
		round, err := strconv.ParseInt(string(l.T), 10, 64)
		if err != nil || round < e.now {
			return fmt.Errorf("round %q is not a round at or after %d", l.T, e.now)
		}
		e.now = round
	}
	switch l.Ev {
	case "wake":
		if !l.Spontaneous {
			return nil // the delivery that follows wakes it
		}
		e.events++
		e.wake(node)
	case "deliver", "drop":
		// FIFO links deliver their oldest message, or one that a late
		// one (a delay fault) let pass; other delivery models (a
		// checker's bag) the first one in flight that the line names.
		// A message that woke its node early (wakeEarly) is out of
		// flight already.
		var ev event
		if early := e.early[node]; early != nil {
			ev, e.early[node] = *early, nil
		} else {
			var err error
			if ev, err = e.takeInFlight(node, l); err != nil {
				return err
			}
		}
		e.events++
		e.deliver(ev)
	case "timer":
		ts := e.replayTimers[node]
		k := 0
		for k < len(ts) && (ts[k].seq <= e.cancelSeq[node] || ts[k].tag != l.Tag || e.cfg.Delivery == election.Sync && ts[k].at != e.now) {
			k++
		}
		if k == len(ts) {
			return fmt.Errorf("node %d has no timer with tag %d due now", node, l.Tag)
		}
		e.replayTimers[node] = append(ts[:k], ts[k+1:]...)
		e.events++
		e.timer(node, l.Tag)
	}
	return nil
}

// sameMessage checks that m is the message a line says was delivered.
func sameMessage(alg *elect.Algorithm, m elect.Message, l *trace.Event) error {
	mt := alg.Messages[m.Type]
	if mt.Name != l.Type {
		return fmt.Errorf("the record delivers a %s message, but the oldest in flight is a %s message", l.Type, mt.Name)
	}
	vals := [3]int64{int64(m.ID), m.A, m.B}
	for k, f := range mt.Fields {
		if v, ok := l.Payload[f]; !ok || v != vals[k] {
			return fmt.Errorf("the record delivers %s %s = %d, but the oldest in flight has %d", mt.Name, f, l.Payload[f], vals[k])
		}
	}
	return nil
}

// parsePort reads a port as Graph.PortName writes it.
func parsePort(g *topology.Graph, s string) (elect.Port, error) {
	for _, p := range []elect.Port{elect.Left, elect.Right} {
		if g.Kind == topology.Ring && g.PortName(p) == s {
			return p, nil
		}
	}
	p, err := strconv.Atoi(s)
	if err != nil || g.Kind == topology.Ring || p < 0 || p > 1<<30 {
		return 0, fmt.Errorf("port %q is not a port name", s)
	}
	return elect.Port(p), nil
}

// flushRoutes tells the monitor of the messages the replayed step sent,
// lost or duplicated as the record's lines after it said, in sending order.
func (e *Engine) flushRoutes() {
	for _, r := range e.routes {
		if r.copies > 0 {
			e.mon.Routed(r.from, r.to, r.q, r.msg, r.copies)
		}
	}
	if e.routes != nil {
		e.routes = e.routes[:0]
	}
}

// replayFault carries out a fault line of the record: a message lost (taken
// out of flight), duplicated (a copy in flight right behind it) or delayed
// (marked late: later messages on its link may pass it), each the last
// message in flight on its link that the line names, which its sender has
// just sent; or a node crashed. The monitor records each as the run did,
// with the line's message number and time.
func (e *Engine) replayFault(l *trace.Event) error {
	// The fault's time: the line's round, or the node's causal depth (the
	// record's own clock may be a Lamport time).
	now := e.now
	node := l.From
	if l.Ev == "crash" {
		node = l.Node
	}
	if node < 0 || int(node) >= e.n {
		return fmt.Errorf("node %d is not in 0..%d", node, e.n-1)
	}
	if e.newest {
		now = e.depth[node]
	} else if t, err := strconv.ParseInt(string(l.T), 10, 64); err == nil {
		now = t * e.unit
	}
	if l.Ev == "crash" {
		i := node
		if !e.halted[i] {
			e.halted[i] = true
			e.crashed[i] = true
			e.mon.Crash(i, now)
		}
		return nil
	}
	from := node
	p, err := parsePort(e.g, l.Port)
	if err != nil || int(p) >= e.g.Degree(int(from)) {
		return fmt.Errorf("node %d has no port %q", from, l.Port)
	}
	to, q := e.g.Neighbor(from, p)
	if to != l.To {
		return fmt.Errorf("node %d's port %s leads to node %d, not %d", from, l.Port, to, l.To)
	}
	key := e.g.PortIndex(to, q)
	list := e.replay[key]
	k := len(list) - 1
	for k >= 0 && sameMessage(e.alg, list[k].msg, l) != nil {
		k--
	}
	if k < 0 {
		return fmt.Errorf("a %s line for a %s message from node %d to node %d, which is not in flight", l.Ev, l.Type, from, to)
	}
	m := list[k].msg
	rt := -1 // the message's route, not yet told to the monitor
	for j := len(e.routes) - 1; j >= 0; j-- {
		if r := e.routes[j]; r.from == from && r.to == to && r.msg == m && r.copies == 1 {
			rt = j
			break
		}
	}
	switch l.Ev {
	case "lose":
		cause := elect.FaultLoss
		if l.Cause == "partition" {
			cause = elect.FaultPartition
		}
		e.replay[key] = append(list[:k:k], list[k+1:]...)
		e.mon.Lost(l.No, from, p, to, m, cause, now)
		if rt >= 0 {
			e.routes[rt].copies = 0
		}
	case "dup":
		twin := list[k]
		twin.late = false
		e.replay[key] = slices.Insert(list, k+1, twin)
		e.mon.Duplicated(l.No, from, p, to, m, now)
		if rt >= 0 {
			e.routes[rt].copies = 2
		}
	case "delay":
		list[k].late = true
		e.mon.Delayed(l.No, from, p, to, m, l.By, now)
	}
	return nil
}

// explicitSchedule reports whether every clause of spec names what it hits
// (crash:node=I@step=S, crash:node=I@t=0, loss:msg=M, dup:msg=M), as the
// checker's counterexamples write their faults: a replay can then apply
// the schedule itself, in the record's order of steps.
func explicitSchedule(spec *faults.Spec) bool {
	for _, c := range spec.Clauses {
		ok := c.Kind == elect.FaultCrash && c.Node >= 0 && (c.Step > 0 || c.At == 0) ||
			(c.Kind == elect.FaultLoss || c.Kind == elect.FaultDup) && c.Msg > 0
		if !ok {
			return false
		}
	}
	return true
}
