package check

import (
	"bytes"
	"io"
	"slices"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/reference"
)

// writeSchedule writes an execution as a trace (format version 2), which
// `elect run --replay` replays and `elect view` shows: the schedule (wake
// and deliver lines, with decisions) is replayed on the reference engine,
// whose trace has every send, state and violation, and whose header names
// the runtime "check". An execution that does not replay as a whole run
// (one cut because it never ends) is written as its schedule alone.
func (m *model) writeSchedule(w io.Writer, steps []step) error {
	var schedule, full bytes.Buffer
	if err := m.writeSteps(&schedule, steps, -1, ""); err != nil {
		return err
	}
	cfg := *m.cfg
	cfg.Trace, cfg.TraceLimit = &full, 0
	out := schedule.Bytes()
	if _, err := reference.Replay(cfg, bytes.NewReader(out)); err == nil {
		out = full.Bytes()
	}
	out = bytes.Replace(out, []byte(`"runtime":"reference"`), []byte(`"runtime":"check"`), 1)
	out = bytes.Replace(out, []byte(`"runtime":"sim"`), []byte(`"runtime":"check"`), 1)
	_, err := w.Write(out)
	return err
}

// writeCounterexample writes the execution steps, which breaks property,
// as a trace that replays to that property: completed to the end of a run
// (complete) when the completion's replay reports the same property, and
// otherwise (every completion would break another property first, as a
// decision changed after a second leader) cut where the property broke,
// with a "cut" line of reason "violation" that the replay stops at.
func (m *model) writeCounterexample(w io.Writer, steps []step, property election.Property) error {
	var out bytes.Buffer
	if err := m.writeSchedule(&out, m.complete(steps)); err != nil {
		return err
	}
	if m.replaysTo(out.Bytes(), property) {
		_, err := w.Write(out.Bytes())
		return err
	}
	var schedule, full bytes.Buffer
	if err := m.writeSteps(&schedule, steps, -1, "violation"); err != nil {
		return err
	}
	cfg := *m.cfg
	cfg.Trace, cfg.TraceLimit = &full, 0
	data := schedule.Bytes()
	if _, err := reference.Replay(cfg, bytes.NewReader(data)); err == nil {
		data = full.Bytes()
	}
	data = bytes.Replace(data, []byte(`"runtime":"reference"`), []byte(`"runtime":"check"`), 1)
	_, err := w.Write(data)
	return err
}

// replaysTo says whether trace replays to a run that breaks property: a
// violation of it, or the outcome of its name.
func (m *model) replaysTo(trace []byte, property election.Property) bool {
	res, err := reference.Replay(*m.cfg, bytes.NewReader(trace))
	if err != nil {
		return false
	}
	got := res.Outcome.Property()
	if res.Outcome == election.OutcomeViolation {
		got = res.Broken.Property
	}
	return got == property
}

// writeLoop writes an execution that never ends as its schedule: steps
// return to the state after their first loopFrom steps, marked with a
// "loop" line there and a "cut" line at the end; the replay checks that
// the two states are equal.
func (m *model) writeLoop(w io.Writer, steps []step, loopFrom int) error {
	return m.writeSteps(w, steps, loopFrom, election.PropNonTermination.String())
}

// writeSteps writes an execution's schedule as trace lines: wake-ups,
// deliveries and decisions, with a "loop" line before step loopFrom (when
// it is >= 0) and a "cut" line with reason cut at the end (when it is not
// "").
func (m *model) writeSteps(w io.Writer, steps []step, loopFrom int, cut string) error {
	var now int64
	tr := election.NewTracer(w, m.cfg, func() int64 { return now })
	tr.SetRuntime("check") // a replay applies the header's explicit faults to a checker's record
	s := m.initial()
	sent := make([]int64, m.nq()-2)
	for i, st := range steps {
		if i == loopFrom {
			tr.Loop()
		}
		switch {
		case st.fault == stepLose || st.fault == stepDup || st.fault == stepCrashNow:
			// The engine applies the fault from the trace's schedule.
		case st.wake:
			if s.pending[st.node] && !s.woken[st.node] && !s.halted[st.node] {
				tr.Wake(st.node, true)
			}
		default:
			f := s.links[m.cfg.Graph.PortIndex(st.node, st.port)][st.k]
			now = f.depth
			tr.Deliver(st.node, st.port, f.msg, s.halted[st.node])
		}
		before := slices.Clone(s.dec)
		m.apply(s, st, sent)
		for i, d := range s.dec {
			if d != before[i] {
				tr.Decide(int32(i), d)
			}
		}
	}
	if cut != "" {
		tr.Cut(cut)
	}
	return tr.Flush()
}

// complete extends a counterexample to a whole execution, so that its
// trace replays as a run: the properties it violated stay violated
// (decisions are irrevocable). At each state it takes the first step that
// breaks no other property (a second leader after a wrong one would
// replay as multiple-leaders), or the first step when every one does. An
// execution that a panic stopped ends there, as a run does; one that
// never ends is cut after as many steps again.
func (m *model) complete(steps []step) []step {
	s := m.initial()
	sent := make([]int64, m.nq()-2)
	for _, st := range steps {
		m.apply(s, st, sent)
	}
	m.linkLog = m.linkLog[:0]
	out := append([]step(nil), steps...)
	for range len(steps) + 1000 {
		next := m.enabled(s, nil)
		if len(next) == 0 {
			break
		}
		next = slices.DeleteFunc(next, func(st step) bool { return st.fault != 0 }) // no more faults
		pick := next[0]
		for _, st := range next {
			var u undo
			m.save(&u, s, st.node)
			v := m.apply(s, st, sent)
			stopped := s.stopped
			m.restore(s, &u)
			s.stopped = false
			if v == nil && !stopped {
				pick = st
				break
			}
		}
		m.apply(s, pick, sent)
		m.linkLog = m.linkLog[:0]
		out = append(out, pick)
	}
	return out
}
