package cluster

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faultplan"
	"github.com/electkit/elect/internal/footprint"
)

// Faults (the description's "faults") on the TCP runtime: `elect cluster
// init` resolves the run's schedule once (package faultplan/resolve) and
// writes each node's part into the node's own description (fault_plan), so
// that a node applies it alone, where it sends and where it has taken a
// step. A lost message is never written to
// its link; a duplicate is written twice; a late one is written after its
// delay in real time (its time units times the fault tick); a node that
// crashes stops taking steps and drops what reaches it, but its process
// stays up and keeps answering the termination waves, so that the run ends
// as the others see it (a killed process, --kill, is another fault: a lost
// peer). The node's line lists what it applied (NodeResult.Faults), which
// Judge hands to the monitor in the order of the merged trace.

// FaultEvent is one fault a node applied: to a message it sent ("lose",
// "dup", "delay") or to itself ("crash").
type FaultEvent struct {
	Ev string `json:"ev"`
	// No is the message's number (faultplan.Send.No); Port, To and the
	// message (Type, the index of its type, and its fields) say which it
	// was; Cause is a loss's ("loss" or "partition"), By a delay's time
	// units.
	No    int64    `json:"no,omitempty"`
	Port  int      `json:"port,omitempty"`
	To    int      `json:"to,omitempty"`
	Type  int      `json:"type,omitempty"`
	ID    elect.ID `json:"id,omitempty"`
	A     int64    `json:"a,omitempty"`
	B     int64    `json:"b,omitempty"`
	Cause string   `json:"cause,omitempty"`
	By    int64    `json:"by,omitempty"`
	// Time is the fault's time: the node's causal depth at the step that
	// sent the message, or after which it crashed.
	Time int64 `json:"time"`
	// Lamport and Seq order the faults and decisions of all nodes as the
	// merged trace orders their lines: by Lamport time, node, and the
	// node's own order.
	Lamport int64 `json:"lamport"`
	Seq     int64 `json:"seq"`
}

// nodeFaults is the node's part of the plan and what it applied.
type nodeFaults struct {
	sender faultplan.Sender
	crash  faultplan.Crash // Steps < 0: it does not crash
	steps  int64
	at     int64 // the node's causal depth at the step being taken
	tick   time.Duration
}

// newFaults takes the node's part of the run's schedule from its
// description. A description with faults and without the node's part was
// written by an elect that had each node resolve the schedule itself.
func (r *nodeRun) newFaults() error {
	part := r.d.FaultPlan
	if part == nil || int(part.Node) != r.me {
		return fmt.Errorf("node %d: the description has faults (%s) but not this node's part of their schedule (fault_plan), which 'elect cluster init' writes since the nodes stopped resolving it themselves: run 'elect cluster init' again", r.me, r.d.Faults)
	}
	f := &nodeFaults{sender: part.Sender(), crash: part.CrashOf(), tick: election.DefaultFaultTick}
	if r.d.FaultTick != "" {
		f.tick, _ = time.ParseDuration(r.d.FaultTick) // checked by ParseDescription
	}
	r.flt = f
	return nil
}

// CheckParts returns an error when the cluster in dir, described by d, has
// faults and its nodes' descriptions lack their parts of the schedule (a
// cluster written before init resolved it): its nodes would refuse to run.
// Node 0's description stands for all (init writes them together).
func CheckParts(dir string, d *Description) error {
	if d.Faults == "" {
		return nil
	}
	sub := NodeDir(dir, 0)
	path := filepath.Join(sub, DescriptionFile)
	nd, err := ReadDescriptionFile(path)
	if err != nil {
		return err
	}
	if nd.FaultPlan == nil || nd.FaultPlan.Node != 0 {
		return fmt.Errorf("%s has faults (%s) but its nodes' descriptions do not carry their parts of the schedule (fault_plan), which 'elect cluster init' writes since the nodes stopped resolving it themselves: run 'elect cluster init' again", path, d.Faults)
	}
	return nil
}

// note records a fault or a decision in the node's order.
func (r *nodeRun) note(ev FaultEvent) {
	r.seq++
	ev.Lamport, ev.Seq = r.lamport, r.seq
	before := cap(r.faults)
	r.faults = append(r.faults, ev)
	r.mem.grew(before, cap(r.faults), faultEventBytes)
}

// stepped counts a step, after which the node crashes if the plan says so.
func (r *nodeRun) stepped() {
	f := r.flt
	f.steps++
	if f.steps == f.crash.Steps {
		r.crash()
	}
}

// crash stops the node's code for good, unless it has terminated.
func (r *nodeRun) crash() {
	if r.halted {
		return
	}
	r.halted = true
	if r.trace != nil {
		r.trace.Crash(int32(r.me))
	}
	r.note(FaultEvent{Ev: "crash", Time: r.flt.at})
}

// sendFaulty writes message m, sent on port p, as the plan says: not at all
// (lost), late (after its delay, through the main loop), and twice
// (duplicated).
func (r *nodeRun) sendFaulty(p elect.Port, to int32, m elect.Message, fr *Frame) {
	f := r.flt
	s, hit := f.sender.Next()
	if !hit {
		r.wire++
		r.queue(r.data[p], fr)
		return
	}
	ev := FaultEvent{No: s.No, Port: int(p), To: int(to), Type: int(m.Type), ID: m.ID, A: m.A, B: m.B, Time: f.at}
	if s.Lost != 0 {
		ev.Ev, ev.Cause = "lose", s.Lost.String()
		if r.trace != nil {
			r.trace.Fault("lose", s.No, int32(r.me), p, to, m, ev.Cause, 0)
		}
		r.note(ev)
		return
	}
	if s.Delay > 0 {
		ev.Ev, ev.By = "delay", s.Delay
		if r.trace != nil {
			r.trace.Fault("delay", s.No, int32(r.me), p, to, m, "", s.Delay)
		}
		r.note(ev)
		ev.By = 0
	}
	if s.Dup {
		ev.Ev = "dup"
		if r.trace != nil {
			r.trace.Fault("dup", s.No, int32(r.me), p, to, m, "", 0)
		}
		r.note(ev)
	}
	if s.Delay > 0 {
		// Counted as written now: it is in transit, so the termination
		// waves cannot see the run as over before it arrives.
		r.wire++
		late, l := *fr, r.data[p]
		r.mem.add(footprint.TCPLateBytes)
		time.AfterFunc(time.Duration(s.Delay)*f.tick, func() {
			r.mem.add(-footprint.TCPLateBytes) // in the inbox from now on
			r.post(input{kind: inLate, link: l, frame: late})
		})
	} else {
		r.wire++
		r.queue(r.data[p], fr)
	}
	if s.Dup {
		r.wire++
		r.queue(r.data[p], fr)
	}
}
