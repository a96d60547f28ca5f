package cluster

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/electkit/elect"
	"github.com/electkit/elect/faultplan"
	"github.com/electkit/elect/internal/footprint"
)

// Faults (the description's "faults") on the TCP runtime: `elect cluster
// init` resolves the run's schedule once (package faultplan/resolve) and
// writes each node's part into the node's own description (fault_plan), so
// that a node applies it alone, where it sends and where it has taken a
// step. A lost message is never written to
// its link; a duplicate is written twice; a late one is held until nothing
// can pass it on its link (below: late in the simulator's time); a node that
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
	// held are its late messages not yet written, by arrival then
	// sending (heldFrame).
	held    []heldFrame
	heldSeq int64
}

// newFaults takes the node's part of the run's schedule from its
// description. A description with faults and without the node's part was
// written by an elect that had each node resolve the schedule itself.
func (r *nodeRun) newFaults() error {
	part := r.d.FaultPlan
	if part == nil || int(part.Node) != r.me {
		return fmt.Errorf("node %d: the description has faults (%s) but not this node's part of their schedule (fault_plan), which 'elect cluster init' writes since the nodes stopped resolving it themselves: run 'elect cluster init' again", r.me, r.d.Faults)
	}
	r.flt = &nodeFaults{sender: part.Sender(), crash: part.CrashOf()}
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

// stepped counts a step, after which the node writes the held late
// messages nothing can pass any more, and crashes if the plan says so.
func (r *nodeRun) stepped() {
	f := r.flt
	if len(f.held) > 0 {
		r.releaseDue()
	}
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
// (lost), late (held, below), and twice (duplicated).
func (r *nodeRun) sendFaulty(p elect.Port, to int32, m elect.Message, fr *Frame) {
	f := r.flt
	s, hit := f.sender.Next()
	if !hit {
		r.writeOnTime(p, fr)
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
		late := *fr
		late.Depth += s.Delay
		r.hold(p, &late)
	} else {
		r.writeOnTime(p, fr)
	}
	if s.Dup {
		r.writeOnTime(p, fr)
	}
}

// A late message is late in the simulator's time, as on goroutines
// (live/faults.go): sent at the node's depth t, it arrives at t+1+d (its
// frame's depth), and on one link the simulator delivers by arrival, a late
// message before an on-time one arriving with it. The node holds it, not
// counted as written, and writes it behind what it wrote before on its
// link only when nothing it can still send there may pass it: when it
// writes an on-time message on that link arriving no earlier
// (writeOnTime), after a step once its depth has reached the arrival less
// one (releaseDue), or when the termination waves find nothing left in the
// whole cluster but held messages: node 0 then asks every node for its
// earliest held arrival and count (a held wave: a probe with B =
// probeHeld), and has the earliest everywhere written (a probe with B =
// probeRelease and C = that arrival), since every step from then is at
// that time or later. So each link delivers in the simulator's order, and
// a node whose inputs come on one link (LCR's) sends the simulator's
// messages.

// heldFrame is a late message the node holds: on its port, its seq-th.
type heldFrame struct {
	port  elect.Port
	seq   int64
	frame Frame
}

// hold keeps a late message, in order of arrival, then of sending.
func (r *nodeRun) hold(p elect.Port, fr *Frame) {
	f := r.flt
	f.heldSeq++
	k := len(f.held)
	for k > 0 && f.held[k-1].frame.Depth > fr.Depth {
		k--
	}
	f.held = slices.Insert(f.held, k, heldFrame{port: p, seq: f.heldSeq, frame: *fr})
	r.mem.add(footprint.TCPLateBytes)
}

// writeOnTime writes an on-time message, after the held ones on its link
// that arrive no later.
func (r *nodeRun) writeOnTime(p elect.Port, fr *Frame) {
	f := r.flt
	for k := 0; k < len(f.held) && f.held[k].frame.Depth <= fr.Depth; {
		if f.held[k].port != p {
			k++
			continue
		}
		r.writeHeld(k)
	}
	r.wire++
	r.queue(r.data[p], fr)
}

// releaseDue writes, after a step, the held messages that nothing the node
// sends from now on can pass: those arriving no later than its depth plus
// one.
func (r *nodeRun) releaseDue() {
	f := r.flt
	for len(f.held) > 0 && f.held[0].frame.Depth <= r.depth+1 {
		r.writeHeld(0)
	}
}

// releaseHeld writes the held messages arriving at or before arrive (node
// 0's release, when nothing else is left in the cluster).
func (r *nodeRun) releaseHeld(arrive int64) {
	f := r.flt
	for len(f.held) > 0 && f.held[0].frame.Depth <= arrive {
		r.writeHeld(0)
	}
}

// writeHeld writes the k-th held message.
func (r *nodeRun) writeHeld(k int) {
	f := r.flt
	h := f.held[k]
	f.held = slices.Delete(f.held, k, k+1)
	r.mem.add(-footprint.TCPLateBytes) // in its link's pending writes from now on
	h.frame.Sent = r.batchAt
	r.wire++
	r.queue(r.data[h.port], &h.frame)
}

// heldReport is the node's answer to a held wave: its earliest held
// arrival (-1: none) and how many it holds.
func (r *nodeRun) heldReport() (first, count int64) {
	if r.flt == nil || len(r.flt.held) == 0 {
		return -1, 0
	}
	return r.flt.held[0].frame.Depth, int64(len(r.flt.held))
}

// The kinds of probe (Frame.B of a FrameProbe): a termination wave's, a
// held wave's, and a release of the held messages arriving at or before
// Frame.C.
const (
	probeCounters = 0
	probeHeld     = 1
	probeRelease  = 2
)
