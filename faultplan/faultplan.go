// Package faultplan is the fault layer of the runtimes with real timing
// (the goroutine runtime, package live, and the TCP cluster, package
// cluster): it resolves a run's fault specification (election.Config.Faults)
// into what their transports apply, message by message and node by node.
//
// A runtime with real timing has no global order of its messages: two
// nodes send at once, and on TCP they are separate processes. What is
// deterministic there is each node's own count of what it sends and of the
// steps it takes, and for an algorithm whose every node sees its inputs in
// an order the interleaving cannot change (LCR, whose node has one
// incoming link; any synchronous algorithm behind the round barrier) each
// node's k-th message is the same message on every runtime. So the
// schedule is resolved once, before the run, to (sender, k-th send) and
// (node, steps):
//
//   - Resolve runs the configuration on the simulator (package sim) with
//     the same seed and faults, under the runtime's delivery model (fifo,
//     with every initiator waking at time 0 as the real runtimes wake them,
//     or sync), and reads its trace: every message the schedule hit (lost,
//     to a loss clause or a partition; duplicated; delayed, by how much) is
//     named by its sender and the sender's count, with its number in the
//     simulator's sending order, the number the report gives it; every
//     crash by its node and the steps the node had taken (a wake-up, a
//     delivery or a timer is a step), with its time.
//   - The runtime then loses, duplicates or delays node i's k-th message as
//     the plan says, whatever the interleaving (Sender), and crashes node i
//     right after its S-th step (S = 0: before its first).
//
// Under an order-independent algorithm the real run then meets exactly
// the faults of the simulated one and ends as it does. Under another, the
// k-th message of a node may be another message than in the simulator:
// it is still the one hit, deterministically, and the record names it.
// Messages the resolving run never sent (it stopped at its event limit, or
// the real run sent more) meet no fault.
package faultplan

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/sim"
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

// Plan is a run's faults resolved for a runtime with real timing.
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

// Resolve runs cfg on the simulator and resolves its fault schedule
// (package doc). cfg must have faults, and a delivery model of the
// runtimes with real timing (fifo or sync).
func Resolve(cfg election.Config) (*Plan, error) {
	if cfg.Faults == nil {
		return nil, fmt.Errorf("faultplan: the run has no faults")
	}
	if cfg.Delivery != election.Sync && cfg.Delivery != election.FIFO {
		return nil, fmt.Errorf("faultplan: %s delivery: the runtimes with real timing have fifo links (or the sync round barrier)", cfg.Delivery)
	}
	n := cfg.Graph.N
	c := cfg
	c.Progress, c.TraceLimit, c.CausalTime = nil, 0, false
	if c.Delivery == election.FIFO && c.Wake != nil {
		// The real runtimes do not wait for wake-up times: every
		// initiator wakes at the start.
		c.Wake = slices.Clone(c.Wake)
		for k := range c.Wake {
			c.Wake[k].At = 0
		}
	}
	pr, pw := io.Pipe()
	c.Trace = pw
	type outcome struct {
		res *election.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := sim.Run(c)
		pw.CloseWithError(err)
		done <- outcome{res, err}
	}()
	p, perr := read(pr, n)
	pr.CloseWithError(io.ErrClosedPipe) // unblocks the simulator if reading failed
	out := <-done
	if out.err != nil {
		return nil, fmt.Errorf("faultplan: resolving the schedule on the simulator: %w", out.err)
	}
	if perr != nil {
		return nil, fmt.Errorf("faultplan: reading the simulator's trace: %w", perr)
	}
	p.Cut = out.res.Outcome == election.StepLimit
	return p, nil
}

// read reads the resolving run's trace. It reads only what it needs of
// each line, without decoding the JSON (the simulator's own Tracer wrote it,
// with its fields in a fixed order): most lines are states and deliveries,
// and decoding them all would cost ten times the simulation.
func read(r io.Reader, n int) (*Plan, error) {
	p := &Plan{sends: make([][]Send, n), crash: make([]Crash, n)}
	for i := range p.crash {
		p.crash[i] = Crash{Node: int32(i), Steps: -1}
	}
	steps := make([]int64, n)
	sent := make([]int64, n)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	line := 0
	var last struct{ from, k int64 }
	for sc.Scan() {
		line++
		l := sc.Bytes()
		ev := text(l, "ev")
		var key string
		switch ev {
		case "wake", "timer", "crash":
			key = "node"
		case "deliver":
			key = "to"
		case "send", "lose", "dup", "delay":
			key = "from"
		default:
			continue
		}
		head := l
		if k := bytes.Index(l, []byte(`"payload":`)); k >= 0 {
			head = l[:k]
		}
		i, ok := number(head, key)
		if !ok || i < 0 || i >= int64(n) {
			return nil, fmt.Errorf("line %d: no node in 0..%d: %s", line, n-1, l)
		}
		switch ev {
		case "wake", "timer", "deliver":
			steps[i]++
		case "send":
			sent[i]++
			p.Messages++
			last.from, last.k = i, sent[i]
		case "crash":
			at, _ := number(head, "t")
			c := Crash{Node: int32(i), Steps: steps[i], At: at}
			p.crash[i] = c
			p.crashes = append(p.crashes, c)
		default: // a fault of the message just sent
			no, _ := number(head, "no")
			if i != last.from || no != p.Messages {
				return nil, fmt.Errorf("line %d: a %s line that does not follow its send", line, ev)
			}
			list := p.sends[i]
			if len(list) == 0 || list[len(list)-1].K != last.k {
				list = append(list, Send{K: last.k, No: no})
				p.sends[i] = list
			}
			s := &list[len(list)-1]
			tail := l[len(head):]
			if k := bytes.IndexByte(tail, '}'); k >= 0 {
				tail = tail[k:] // after the payload
			}
			switch ev {
			case "lose":
				s.Lost = elect.FaultLoss
				if text(tail, "cause") == "partition" {
					s.Lost = elect.FaultPartition
				}
			case "dup":
				s.Dup = true
			case "delay":
				s.Delay, _ = number(tail, "by")
			}
		}
	}
	return p, sc.Err()
}

// text is the string value of key in a line of JSON ("" if absent).
func text(l []byte, key string) string {
	k := bytes.Index(l, []byte(`"`+key+`":"`))
	if k < 0 {
		return ""
	}
	v := l[k+len(key)+4:]
	end := bytes.IndexByte(v, '"')
	if end < 0 {
		return ""
	}
	return string(v[:end])
}

// number is the integer value of key in a line of JSON.
func number(l []byte, key string) (int64, bool) {
	k := bytes.Index(l, []byte(`"`+key+`":`))
	if k < 0 {
		return 0, false
	}
	v := l[k+len(key)+3:]
	end := 0
	for end < len(v) && (v[end] == '-' || v[end] >= '0' && v[end] <= '9') {
		end++
	}
	x, err := strconv.ParseInt(string(v[:end]), 10, 64)
	return x, err == nil
}

// Sender is one node's cursor on the plan's messages: the node's own, used
// by one goroutine at a time.
type Sender struct {
	plan []Send
	sent int64
}

// Sender returns node i's cursor.
func (p *Plan) Sender(i int32) Sender { return Sender{plan: p.sends[i]} }

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

// CrashOf returns node i's crash, if it crashes.
func (p *Plan) CrashOf(i int32) (Crash, bool) {
	c := p.crash[i]
	return c, c.Steps >= 0
}

// Crashes returns the crashes in the order the resolving run had them.
func (p *Plan) Crashes() []Crash { return p.crashes }

// Hits returns node i's messages the plan hits, by K.
func (p *Plan) Hits(i int32) []Send { return p.sends[i] }
