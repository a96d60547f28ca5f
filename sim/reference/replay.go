package reference

import (
	"fmt"
	"io"
	"strconv"

	"github.com/electkit/elect"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/trace"
)

// Replay runs cfg on the reference engine in the order of a recorded
// execution: the trace of a run of the same configuration (sim.Tracer's
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
// link that it names. Under synchronous delivery a line's
// "t" is its round; otherwise the time of the replay, like that of the
// runtimes with real timing, is the causal depth.
//
// The same configuration and record give the same counts, decisions and
// checks as the run that was recorded: nodes see the same inputs in the
// same order, and draw from the same seeded random sources.
func Replay(cfg sim.Config, record io.Reader) (*sim.Result, error) {
	if cfg.Delivery != sim.Sync {
		cfg.CausalTime = true
	}
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	e.queue = nil
	e.newest = cfg.Delivery != sim.Sync
	if e.trace != nil && e.newest {
		e.trace.SetUnit(1) // the replay's time is its causal depth
	}
	e.replay = map[int64][]event{}
	e.replayTimers = make([][]event, e.n)
	rd, err := trace.NewReader(record)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if h := rd.Header(); h != nil {
		if h.Algorithm != cfg.Algorithm.Name || h.N != cfg.Graph.N {
			return nil, fmt.Errorf("replay: the trace is a run of %s at n = %d, not of %s at n = %d", h.Algorithm, h.N, cfg.Algorithm.Name, cfg.Graph.N)
		}
	}
	for {
		l, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		if l.Ev == "truncated" {
			return nil, fmt.Errorf("replay, line %d: the trace was cut at its size limit (%d bytes); only whole runs replay", rd.Line(), l.Limit)
		}
		if err := e.replayLine(&l); err != nil {
			return nil, fmt.Errorf("replay, line %d: %w", rd.Line(), err)
		}
	}
	inFlight := 0
	for _, q := range e.replay {
		inFlight += len(q)
	}
	if inFlight > 0 {
		return nil, fmt.Errorf("replay: the record ends with %d messages in flight; it is not a whole run of this configuration (same algorithm, n, IDs, seed and flags?)", inFlight)
	}
	return e.Finish()
}

func (e *Engine) replayLine(l *trace.Event) error {
	switch l.Ev {
	case "wake", "deliver", "drop", "timer":
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
	if e.cfg.Delivery == sim.Sync {
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
		port, err := parsePort(e.g, l.Port)
		if err != nil {
			return err
		}
		key := e.g.PortIndex(node, port)
		q := e.replay[key]
		if len(q) == 0 {
			return fmt.Errorf("no message is in flight to node %d on port %s", node, l.Port)
		}
		// FIFO links deliver their oldest message; other delivery models
		// (a checker's bag) the first one in flight that the line names.
		k := 0
		if !e.cfg.Delivery.IsFIFO() {
			for k < len(q)-1 && sameMessage(e.alg, q[k].msg, l) != nil {
				k++
			}
		}
		ev := q[k]
		if err := sameMessage(e.alg, ev.msg, l); err != nil {
			return fmt.Errorf("node %d, port %s: %w", node, l.Port, err)
		}
		e.replay[key] = append(q[:k:k], q[k+1:]...)
		e.events++
		e.deliver(ev)
	case "timer":
		ts := e.replayTimers[node]
		k := 0
		for k < len(ts) && (ts[k].seq <= e.cancelSeq[node] || ts[k].tag != l.Tag || e.cfg.Delivery == sim.Sync && ts[k].at != e.now) {
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
