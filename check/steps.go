package check

import (
	"fmt"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
)

// Step is one step of a counterexample, as `elect check` prints it: a
// spontaneous wake-up, or the delivery of a message to a node (which
// wakes it first if it was asleep), with what the node then did.
type Step struct {
	Wake bool `json:"wake,omitempty"` // a spontaneous wake-up of Node
	Node int  `json:"node"`
	// From, Port and Message describe a delivery: the sender, the
	// receiver's port it comes on, and the message with its fields
	// ("ELECTION(j=3)").
	From    int    `json:"from,omitempty"`
	Port    string `json:"port,omitempty"`
	Message string `json:"message,omitempty"`
	// Dropped says the node had halted: the message is dropped.
	Dropped bool `json:"dropped,omitempty"`
	// Sent lists the messages the node sent, each with its receiver
	// ("ELECTION(j=3) to 2").
	Sent []string `json:"sent,omitempty"`
	// Decided is the node's new decision, if the step changed it
	// (elected or not-elected); Learned the leader's ID it learned.
	Decided string `json:"decided,omitempty"`
	Learned string `json:"learned,omitempty"`
	// Violation is the property the step broke, on the step that
	// breaks it (a property of the end, such as no-leader, is broken by
	// no step: it is the report's Violation): Broken's text.
	Violation string `json:"violation,omitempty"`
	// Broken is the property the step broke, as a value.
	Broken election.Violation `json:"-"`
	// LoopStart marks the step at which an execution without end comes
	// back to the state it loops from.
	LoopStart bool `json:"loop_start,omitempty"`
	// Fault names a fault move: "lost" (the message is lost: it never
	// arrives), "duplicated" (a copy of it follows it), "crashed" (the node crashes right after the step),
	// "crashed-before-message" (the message wakes the node, which crashes
	// before taking it) or "crashed-at-start" (before any step of the
	// run).
	Fault string `json:"fault,omitempty"`
}

// Steps returns the violating execution the report found, step by step:
// the shortest one that breaks the property (found breadth-first), or for
// non-termination the way into the cycle and once round it. nil when
// there is none (no violation, a synchronous check, or --draws).
func (r *Report) Steps() []Step {
	c := r.violationCfg
	if c == nil || c.cfg.Delivery == election.Sync || r.Probabilities != nil || len(r.counterexample) == 0 {
		return nil
	}
	x := c.newStateSpace()
	loopFrom := -1
	if c.violation.Property == election.PropNonTermination {
		loopFrom = c.loopFrom
	}
	return x.describe(r.counterexample, loopFrom)
}

// describe makes the printable steps of an execution.
func (m *model) describe(steps []step, loopFrom int) []Step {
	s := m.initial()
	sent := make([]int64, m.nq()-2)
	alg := m.cfg.Algorithm
	g := m.cfg.Graph
	var out []Step
	for k, st := range steps {
		d := Step{Node: int(st.node), Wake: st.wake, LoopStart: k == loopFrom}
		switch st.fault {
		case stepLose:
			d.Fault = "lost"
		case stepDup:
			d.Fault = "duplicated"
		case stepCrashAfter:
			d.Fault = "crashed"
		case stepCrashMid:
			d.Fault = "crashed-before-message"
		case stepCrashNow:
			d.Fault = "crashed-at-start"
		}
		if st.fault != stepCrashNow && !st.wake {
			f := s.links[g.PortIndex(st.node, st.port)][st.k]
			from, _ := g.Neighbor(st.node, st.port)
			d.From, d.Port, d.Message, d.Dropped = int(from), g.PortName(st.port), messageText(alg, f.msg), s.halted[st.node]
		}
		dec, knows := s.dec[st.node], s.knows[st.node]
		m.sends = m.sends[:0]
		v := m.apply(s, st, sent)
		m.linkLog = m.linkLog[:0]
		for _, so := range m.sends {
			d.Sent = append(d.Sent, fmt.Sprintf("%s to %d", messageText(alg, so.msg), m.linkTo[so.key]))
		}
		if s.dec[st.node] != dec {
			d.Decided = s.dec[st.node].String()
		}
		if k := s.knows[st.node]; k != knows && k >= 0 && !(d.Decided == "elected" && k == m.cfg.IDs[st.node]) {
			d.Learned = fmt.Sprint(k)
		}
		if v != nil {
			d.Broken, d.Violation = *v, v.String()
		}
		out = append(out, d)
	}
	return out
}

// messageText writes a message as its type and fields: "ELECTION(j=3)".
func messageText(alg *elect.Algorithm, m elect.Message) string {
	if int(m.Type) >= len(alg.Messages) {
		return fmt.Sprintf("type %d", m.Type)
	}
	mt := alg.Messages[m.Type]
	vals := [3]int64{int64(m.ID), m.A, m.B}
	var b strings.Builder
	b.WriteString(mt.Name)
	b.WriteByte('(')
	for k, f := range mt.Fields {
		if k > 0 {
			b.WriteString(", ")
		}
		if k < len(vals) {
			fmt.Fprintf(&b, "%s=%d", f, vals[k])
		}
	}
	b.WriteByte(')')
	return b.String()
}
