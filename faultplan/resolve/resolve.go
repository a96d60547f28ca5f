// Package resolve resolves a run's fault schedule (election.Config.Faults)
// into a faultplan.Plan for the runtimes with real timing, by running the
// configuration on the simulator (package sim) and reading its trace. It is
// the orchestrator's side of package faultplan: whoever starts a run on
// goroutines or on TCP (package runner, `elect cluster init`) resolves the
// schedule once here and hands each node its part, so that the runtimes
// themselves link no engine.
//
// The resolving run has the same seed and faults as the real one, under
// the runtime's delivery model (fifo, with every initiator waking at time 0
// as the real runtimes wake them, or sync); every message its trace shows
// hit by a fault is named by its sender and the sender's count, and every
// crash by its node and the steps the node had taken (package faultplan).
package resolve

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faultplan"
	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/sim"
)

// Faults runs cfg on the simulator and resolves its fault schedule
// (package doc). cfg must have faults, and a delivery model of the
// runtimes with real timing (fifo or sync).
func Faults(cfg election.Config) (*faultplan.Plan, error) {
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
	p.Cut = out.res.Outcome == election.StepLimit || out.res.Outcome == election.MemoryLimit
	return p, nil
}

// simTraceLimits are those of the resolving run's trace, read through the
// pipe as the simulator writes it: its lines are a trace's, and it is as
// long as the run (the simulator's own output, which nothing else holds),
// its lines at most 64 MiB (a node's state).
var simTraceLimits = bounded.Limits{What: "the resolving run's trace", MaxBytes: math.MaxInt64, MaxLine: 64 << 20}

// read reads the resolving run's trace. It reads only what it needs of
// each line, without decoding the JSON (the simulator's own Tracer wrote it,
// with its fields in a fixed order): most lines are states and deliveries,
// and decoding them all would cost ten times the simulation.
func read(r io.Reader, n int) (*faultplan.Plan, error) {
	p := faultplan.NewPlan(n)
	steps := make([]int64, n)
	sent := make([]int64, n)
	sc := bounded.NewLines(r, "", simTraceLimits)
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
			return nil, fmt.Errorf("line %d: no node in 0..%d: %s", line, n-1, bounded.Quote(l))
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
			p.AddCrash(faultplan.Crash{Node: int32(i), Steps: steps[i], At: at})
		default: // a fault of the message just sent
			no, _ := number(head, "no")
			if i != last.from || no != p.Messages {
				return nil, fmt.Errorf("line %d: a %s line that does not follow its send", line, ev)
			}
			s := p.Message(int32(i), last.k, no)
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
