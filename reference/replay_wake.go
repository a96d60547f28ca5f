package reference

import (
	"fmt"
	"slices"

	"github.com/electkit/elect"
	"github.com/electkit/elect/trace"
)

// recordLines reads a record's lines for Replay, with lines read ahead
// (wakeEarly) given back first.
type recordLines struct {
	rd    *trace.Reader
	ahead []recordLine
}

// recordLine is a line of a record and its number.
type recordLine struct {
	ev   trace.Event
	line int
}

// next returns the next line of the record and its number.
func (r *recordLines) next() (trace.Event, int, error) {
	if len(r.ahead) > 0 {
		l := r.ahead[0]
		r.ahead = r.ahead[1:]
		return l.ev, l.line, nil
	}
	ev, err := r.rd.Next()
	return ev, r.rd.Line(), err
}

// lookAheadLines is how many lines wakeEarly reads ahead at most: the
// effects of one wake-up (its sends, their faults, its state, a crash).
const lookAheadLines = 1 << 12

// wakeEarly carries out a "wake" line of a node that a message woke (l,
// not spontaneous) when the record names that message later: the engines
// write a wake-up's effects (its sends, the faults that hit them, a crash
// right after it) before the line of the message that caused it ("deliver",
// or "drop" when the node crashed on waking). The node is woken here, with
// that message, so that what the lines in between speak of exists when
// they come; the message's own line then hands it over (or drops it). A
// wake line whose message is not the next delivery in the record is left
// to that delivery, which wakes the node (a record of version 1, say).
func (e *Engine) wakeEarly(l *trace.Event, src *recordLines) {
	i := l.Node
	if i < 0 || int(i) >= e.n || e.woken[i] || e.halted[i] || e.early[i] != nil {
		return
	}
	var read []recordLine
	defer func() { src.ahead = append(read, src.ahead...) }()
	for len(read) < lookAheadLines {
		ev, line, err := src.next()
		if err != nil {
			return // the reader gives the error (io.EOF too) again when the replay reads on
		}
		ev.Vars = slices.Clone(ev.Vars) // the reader's buffer moves on
		read = append(read, recordLine{ev, line})
		switch ev.Ev {
		case "deliver", "drop":
			if ev.To != i {
				return
			}
			msg, err := e.takeInFlight(i, &ev)
			if err != nil {
				return // the delivery's line says what is wrong
			}
			e.early[i] = &msg
			e.wakeBy(msg)
			return
		case "wake", "timer", "loop", "cut", "truncated":
			return
		}
	}
}

// wakeBy wakes node ev.node with the message ev, which it has not taken
// yet: as deliver does before it hands a message over.
func (e *Engine) wakeBy(ev event) {
	i := ev.node
	if e.newest {
		e.depth[i] = max(e.depth[i], ev.depth)
		e.maxDepth = max(e.maxDepth, ev.depth)
	}
	e.woken[i] = true
	e.mon.Woke(i, false)
	e.call(i, func(env elect.Env) { e.nodes[i].Wake(env, false) })
}

// takeInFlight takes out of flight the message a "deliver" or "drop" line
// l to node i names: under FIFO the oldest of its link (or one a late one
// let pass), otherwise the first in flight that the line names.
func (e *Engine) takeInFlight(i int32, l *trace.Event) (event, error) {
	port, err := parsePort(e.g, l.Port)
	if err != nil {
		return event{}, err
	}
	key := e.g.PortIndex(i, port)
	q := e.replay[key]
	if len(q) == 0 {
		return event{}, fmt.Errorf("no message is in flight to node %d on port %s", i, l.Port)
	}
	k := 0
	if !e.cfg.Delivery.IsFIFO() {
		for k < len(q)-1 && sameMessage(e.alg, q[k].msg, l) != nil {
			k++
		}
	} else {
		for k < len(q)-1 && q[k].late && sameMessage(e.alg, q[k].msg, l) != nil {
			k++
		}
	}
	ev := q[k]
	if err := sameMessage(e.alg, ev.msg, l); err != nil {
		return event{}, fmt.Errorf("node %d, port %s: %w", i, l.Port, err)
	}
	e.replay[key] = append(q[:k:k], q[k+1:]...)
	return ev, nil
}
