// Package faultplan is the fault schedule of the runtimes with real timing
// (the goroutine runtime, package live, and the TCP cluster, package
// cluster) as data: what happens to each node's k-th message and after
// which of its steps it crashes. It is what those runtimes apply, message
// by message and node by node; it links no engine.
//
// A runtime with real timing has no global order of its messages: two
// nodes send at once, and on TCP they are separate processes. What is
// deterministic there is each node's own count of what it sends and of the
// steps it takes, and for an algorithm whose every node sees its inputs in
// an order the interleaving cannot change (LCR, whose node has one
// incoming link; any synchronous algorithm behind the round barrier) each
// node's k-th message is the same message on every runtime. So the
// schedule is resolved once, before the run, by whoever starts it (package
// faultplan/resolve runs the configuration on the simulator and reads its
// trace), to (sender, k-th send) and (node, steps):
//
//   - every message the schedule hit (lost, to a loss clause or a
//     partition; duplicated; delayed, by how much) is named by its sender
//     and the sender's count, with its number in the resolving run's
//     sending order, the number the report gives it (Send);
//   - every crash by its node and the steps the node had taken (a wake-up,
//     a delivery or a timer is a step), with its time (Crash).
//
// The runtime then loses, duplicates or delays node i's k-th message as the
// plan says, whatever the interleaving (Sender), and crashes node i right
// after its S-th step (S = 0: before its first). Each node needs only its
// own share (Part), which is what a TCP node's description carries, so that
// a node on another machine applies it alone.
//
// Under an order-independent algorithm the real run then meets exactly
// the faults of the simulated one and ends as it does. Under another, the
// k-th message of a node may be another message than in the simulator:
// it is still the one hit, deterministically, and the record names it.
// Messages the resolving run never sent (it stopped at its event limit, or
// the real run sent more) meet no fault.
package faultplan

import (
	"encoding/json"
	"fmt"
	"unsafe"

	"github.com/electkit/elect"
)

// Send is what the plan does to one message: its sender's K-th.
type Send struct {
	K int64 // the sender's count of its messages, from 1
	// No is the message's number in the resolving run's sending order:
	// what the report and the record call it.
	No int64
	// Lost is elect.FaultLoss or elect.FaultPartition when the message is
	// lost, else 0.
	Lost elect.Faults
	// Dup: the message is delivered twice.
	Dup bool
	// Delay is the time units it is late by (0: on time).
	Delay int64
}

// Crash is one node's crash: right after its Steps-th step.
type Crash struct {
	Node  int32
	Steps int64 // steps it takes before it crashes (0: none)
	At    int64 // the crash's time in the resolving run (rounds or time units)
}

// Plan is a run's faults resolved for a runtime with real timing: every
// node's part.
type Plan struct {
	sends   [][]Send // by sender, by K
	crash   []Crash  // by node; Steps < 0: none
	crashes []Crash  // in the resolving run's order
	// Messages is how many messages the resolving run sent, and Cut
	// whether a limit stopped it (then messages after those meet no
	// fault).
	Messages int64
	Cut      bool
}

// NewPlan returns the plan of a run of n nodes that hits nothing yet: the
// resolver adds what its run met (Message, AddCrash).
func NewPlan(n int) *Plan {
	p := &Plan{sends: make([][]Send, n), crash: make([]Crash, n)}
	for i := range p.crash {
		p.crash[i] = Crash{Node: int32(i), Steps: -1}
	}
	return p
}

// Bytes is the memory the plan holds: its arrays, by capacity. A runtime
// holds it all through its run (each node's cursor reads its part), so
// the plan comes out of the run's memory budget (package runner).
func (p *Plan) Bytes() int64 {
	b := int64(unsafe.Sizeof(*p)) + int64(cap(p.sends))*int64(unsafe.Sizeof([]Send(nil))) + int64(cap(p.crash)+cap(p.crashes))*int64(unsafe.Sizeof(Crash{}))
	for _, l := range p.sends {
		b += int64(cap(l)) * int64(unsafe.Sizeof(Send{}))
	}
	return b
}

// N is the number of nodes the plan is for.
func (p *Plan) N() int { return len(p.crash) }

// Message returns the plan's entry for sender's k-th message, numbered no
// in the resolving run, adding it if it has none: the resolver then sets
// what happens to it. k must not be below the sender's last entry's.
func (p *Plan) Message(sender int32, k, no int64) *Send {
	list := p.sends[sender]
	if len(list) > 0 && list[len(list)-1].K > k {
		panic(fmt.Sprintf("faultplan: node %d's message %d added after its message %d", sender, k, list[len(list)-1].K))
	}
	if len(list) == 0 || list[len(list)-1].K != k {
		list = append(list, Send{K: k, No: no})
		p.sends[sender] = list
	}
	return &list[len(list)-1]
}

// AddCrash adds c's crash, after those added before it.
func (p *Plan) AddCrash(c Crash) {
	p.crash[c.Node] = c
	p.crashes = append(p.crashes, c)
}

// Sender returns node i's cursor.
func (p *Plan) Sender(i int32) Sender { return Sender{plan: p.sends[i]} }

// CrashOf returns node i's crash, if it crashes.
func (p *Plan) CrashOf(i int32) (Crash, bool) {
	c := p.crash[i]
	return c, c.Steps >= 0
}

// Crashes returns the crashes in the order the resolving run had them.
func (p *Plan) Crashes() []Crash { return p.crashes }

// Hits returns node i's messages the plan hits, by K.
func (p *Plan) Hits(i int32) []Send { return p.sends[i] }

// Part returns node i's share of the plan.
func (p *Plan) Part(i int32) Part {
	part := Part{Node: i, Sends: p.sends[i]}
	if c, ok := p.CrashOf(i); ok {
		part.Crash = &c
	}
	return part
}

// Part is one node's share of a plan: all that node needs to apply it
// alone. Its JSON form is what a TCP node's description carries
// (MarshalJSON).
type Part struct {
	Node  int32
	Sends []Send // by K
	Crash *Crash // nil: the node does not crash
}

// Bytes is the memory the part holds: its messages' array, by capacity,
// and its crash. A node holds it through its run (its cursor reads it), so
// it comes out of the node's memory budget (package cluster), as a whole
// plan does out of a goroutine run's (Plan.Bytes).
func (p Part) Bytes() int64 {
	b := int64(unsafe.Sizeof(p)) + int64(cap(p.Sends))*int64(unsafe.Sizeof(Send{}))
	if p.Crash != nil {
		b += int64(unsafe.Sizeof(*p.Crash))
	}
	return b
}

// Sender returns the node's cursor on its messages.
func (p Part) Sender() Sender { return Sender{plan: p.Sends} }

// CrashOf returns the node's crash, with Steps -1 when it does not crash.
func (p Part) CrashOf() Crash {
	if p.Crash == nil {
		return Crash{Node: p.Node, Steps: -1}
	}
	return *p.Crash
}

// Sender is one node's cursor on the plan's messages: the node's own, used
// by one goroutine at a time.
type Sender struct {
	plan []Send
	sent int64
}

// Next counts one more message sent by the cursor's node and returns what
// the plan does to it, and whether it does anything.
func (s *Sender) Next() (Send, bool) {
	s.sent++
	if len(s.plan) == 0 || s.plan[0].K != s.sent {
		return Send{}, false
	}
	x := s.plan[0]
	s.plan = s.plan[1:]
	return x, true
}

// The JSON form of a Part:
//
//	{"node":1,"sends":[{"k":2,"no":6,"lost":"loss"},{"k":3,"no":9,"dup":true,"delay":2}],"crash":{"steps":4,"at":3}}
type (
	partJSON struct {
		Node  int32      `json:"node"`
		Sends []sendJSON `json:"sends,omitempty"`
		Crash *crashJSON `json:"crash,omitempty"`
	}
	sendJSON struct {
		K     int64  `json:"k"`
		No    int64  `json:"no"`
		Lost  string `json:"lost,omitempty"` // "loss" or "partition"
		Dup   bool   `json:"dup,omitempty"`
		Delay int64  `json:"delay,omitempty"`
	}
	crashJSON struct {
		Steps int64 `json:"steps"`
		At    int64 `json:"at"`
	}
)

// MarshalJSON writes the part in its JSON form (above).
func (p Part) MarshalJSON() ([]byte, error) {
	w := partJSON{Node: p.Node, Sends: make([]sendJSON, len(p.Sends))}
	for k, s := range p.Sends {
		w.Sends[k] = sendJSON{K: s.K, No: s.No, Dup: s.Dup, Delay: s.Delay}
		if s.Lost != 0 {
			w.Sends[k].Lost = s.Lost.String()
		}
	}
	if p.Crash != nil {
		w.Crash = &crashJSON{Steps: p.Crash.Steps, At: p.Crash.At}
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads a part in its JSON form and checks it: a node index
// from 0, messages by increasing count from 1, each hit by something (lost
// to "loss" or "partition", duplicated, or late by a positive delay), and
// counts and times that are not negative.
func (p *Part) UnmarshalJSON(data []byte) error {
	var w partJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("faultplan: not a node's part of a fault plan: %v", err)
	}
	if w.Node < 0 {
		return fmt.Errorf("faultplan: node %d is not a node index", w.Node)
	}
	out := Part{Node: w.Node}
	last := int64(0)
	for _, s := range w.Sends {
		if s.K <= last || s.No < 1 || s.Delay < 0 {
			return fmt.Errorf("faultplan: node %d: message k=%d no=%d delay=%d: counts must increase from 1, numbers be positive and delays not negative", w.Node, s.K, s.No, s.Delay)
		}
		last = s.K
		x := Send{K: s.K, No: s.No, Dup: s.Dup, Delay: s.Delay}
		switch s.Lost {
		case "":
		case elect.FaultLoss.String():
			x.Lost = elect.FaultLoss
		case elect.FaultPartition.String():
			x.Lost = elect.FaultPartition
		default:
			return fmt.Errorf("faultplan: node %d: message k=%d: lost %q; a message is lost to %q or %q", w.Node, s.K, s.Lost, elect.FaultLoss, elect.FaultPartition)
		}
		if x.Lost == 0 && !x.Dup && x.Delay == 0 {
			return fmt.Errorf("faultplan: node %d: message k=%d: nothing happens to it (neither lost, dup nor delay)", w.Node, s.K)
		}
		out.Sends = append(out.Sends, x)
	}
	if c := w.Crash; c != nil {
		if c.Steps < 0 || c.At < 0 {
			return fmt.Errorf("faultplan: node %d: crash after %d steps at time %d: neither may be negative", w.Node, c.Steps, c.At)
		}
		out.Crash = &Crash{Node: w.Node, Steps: c.Steps, At: c.At}
	}
	*p = out
	return nil
}
