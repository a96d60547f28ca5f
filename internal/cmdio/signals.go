package cmdio

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/electkit/elect/internal/atomicfile"
)

// Signals is the signals the policy handles: SIGINT (Ctrl-C), SIGTERM
// (kill, Slurm and Kubernetes at a time limit or on preemption) and
// SIGHUP (a closed terminal).
var Signals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

var catching struct {
	mu       sync.Mutex
	users    int
	ch       chan os.Signal
	done     chan struct{}
	ctx      context.Context
	cancel   context.CancelCauseFunc
	watched  bool
	received os.Signal
	hurry    chan struct{} // closed by a second signal when a caller took it (Hurry)
}

// exit ends the process and stderr is where the policy says why; tests
// of the policy replace them.
var (
	exit             = os.Exit
	stderr io.Writer = os.Stderr
)

// Catch installs the signal policy until release is called (calls nest:
// the policy stays while any caller holds it). Until a command calls
// Watch, a signal ends the process at once.
func Catch() (release func()) {
	c := &catching
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.users == 0 {
		c.ch = make(chan os.Signal, 2)
		c.done = make(chan struct{})
		c.ctx, c.cancel = context.WithCancelCause(context.Background())
		c.watched, c.received, c.hurry = false, nil, nil
		signal.Notify(c.ch, Signals...)
		go handle(c.ch, c.done)
	}
	c.users++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.users--; c.users == 0 {
				signal.Stop(c.ch)
				close(c.done)
				c.cancel(nil)
			}
		})
	}
}

// handle carries out the policy for the signals that arrive on ch.
func handle(ch chan os.Signal, done chan struct{}) {
	c := &catching
	for {
		var sig os.Signal
		select {
		case sig = <-ch:
		case <-done:
			return
		}
		c.mu.Lock()
		first, watched, hurry := c.received == nil, c.watched, c.hurry
		if first {
			c.received = sig
			c.cancel(SignalError{sig})
		} else if hurry != nil {
			c.hurry = nil
		}
		c.mu.Unlock()
		if first && watched {
			continue
		}
		if !first && hurry != nil {
			close(hurry) // the caller ends promptly itself (cluster up stops its nodes)
			continue
		}
		atomicfile.RemovePending()
		trimStreams()
		if first {
			fmt.Fprintf(stderr, "elect: stopped by %s\n", Name(sig))
		} else {
			fmt.Fprintf(stderr, "elect: %s again: stopped at once\n", Name(sig))
		}
		exit(ExitCodeOf(sig))
	}
}

// SignalError is the cause (context.Cause) of Watch's context when a
// signal cancelled it; its text is the signal's name.
type SignalError struct{ Signal os.Signal }

func (e SignalError) Error() string { return Name(e.Signal) }

// Watch returns the context that the first signal cancels (its cause a
// SignalError; its Err context.Canceled), and tells the
// policy that the caller stops at its next safe point when it is
// cancelled (instead of being ended at once). Without Catch it is a
// context that is never cancelled.
func Watch() context.Context {
	c := &catching
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.users == 0 {
		return context.Background()
	}
	c.watched = true
	return c.ctx
}

// Hurry returns a channel that a second signal closes, and tells the
// policy that the caller, which watches (Watch), then ends promptly
// itself instead of being ended at once: for a command that must not
// leave things behind even then ('cluster up' kills its nodes). A third
// signal ends the process at once. Without Catch it is never closed.
func Hurry() <-chan struct{} {
	c := &catching
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.users == 0 {
		return nil
	}
	c.watched = true
	if c.hurry == nil {
		c.hurry = make(chan struct{})
	}
	return c.hurry
}

// Received is the signal that cancelled Watch's context, or nil.
func Received() os.Signal {
	c := &catching
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.received
}

// ExitCode is the exit status of a command that a signal stopped: 128
// plus the number of the signal received (130 for SIGINT, 143 for
// SIGTERM, 129 for SIGHUP), and 130 when none was (a stop the command
// reports as an interruption).
func ExitCode() int {
	if sig := Received(); sig != nil {
		return ExitCodeOf(sig)
	}
	return 130
}

// ExitCodeOf is 128 plus sig's number, as a shell reports a command that
// sig ended.
func ExitCodeOf(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// Name is a signal's usual name: SIGINT, SIGTERM, SIGHUP.
func Name(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return sig.String()
}
