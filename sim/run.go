// Package sim is the deterministic discrete-event simulator: it runs the
// nodes of one algorithm on one network under one delivery model, monitors
// the election at every step, and measures messages, bits and time.
//
// Events are totally ordered by (time, kind, creation order), every random
// choice comes from streams derived from one master seed, and no map order or
// goroutine timing reaches a result: the same Config gives the same Result
// and the same trace, byte for byte. Idle time is skipped, never looped over.
//
// What every runtime shares (the run's Config and Result, the delivery
// models, the Monitor, the Tracer, the random streams) lives in package
// election; the reference engine (package reference) stands beside this one,
// and a differential test keeps the two identical.
//
// The files: run.go (this API), engine.go (the event loops), env.go (the
// engine as the nodes' Env: sends routed, decisions to the monitor), queue.go (delivery lists, the time
// wheel, the timer heap), nodes.go (where nodes live: the speed layer).
package sim

import (
	"fmt"

	"github.com/electkit/elect/election"
)

// Run executes cfg to its end and returns the result. It returns an error
// only for a malformed Config (a caller's bug or unchecked input); everything
// the algorithm does wrong is reported in the Result.
func Run(cfg election.Config) (*election.Result, error) {
	e, err := newEngine(&cfg)
	if err != nil {
		return nil, err
	}
	e.loopRecovered()
	r := e.finish()
	e.releaseBuffers()
	if e.trace != nil {
		if err := e.trace.Flush(); err != nil {
			return r, fmt.Errorf("sim: writing the trace: %w", err)
		}
	}
	return r, nil
}

// loopRecovered is loop, with a node's panic turned into the run's
// violation: a forced run off its model may drive a node into a state its
// code calls impossible, and that run must still end with an outcome that
// says so (outcome violation, "panic: node I panicked: ..."). The run stops
// where the panic left it; what was counted so far is reported.
func (e *engine) loopRecovered() {
	defer func() {
		if p := recover(); p != nil {
			e.mon.Violate(election.PropPanic, election.PanicMessage(e.current, p), e.current)
			// Deliveries counted ahead (instant) and not reached are no
			// events: the panicking one is the last.
			if e.batchLen > 0 {
				e.events -= int64(e.batchLen - 1 - e.batchAt)
			}
		}
	}()
	e.loop()
}
