package live

import (
	"sync"
	"sync/atomic"
)

// asyncRun is the state the goroutines of an asynchronous run share.
type asyncRun struct {
	*run
	pending atomic.Int64 // inputs that exist and are not fully handled
	events  atomic.Int64 // events reported by the nodes
	chunk   int64        // how many events a node handles between reports
	done    chan struct{}
	stopped atomic.Bool // the run is over: goroutines return when they wake
	endOnce sync.Once
}

// runAsync runs every node on its own goroutine until no input is left.
func (r *run) runAsync() {
	a := &asyncRun{run: r, done: make(chan struct{})}
	r.applyMu = r.trace == nil // a traced batch holds the mutex throughout
	var initiators []*node
	if r.cfg.Wake == nil {
		initiators = r.nodes
	} else {
		for _, w := range r.cfg.Wake {
			initiators = append(initiators, r.nodes[w.Node])
		}
	}
	a.chunk = min(max(a.maxEvents/int64(4*len(r.nodes)), 1), 1024)
	a.pending.Store(int64(len(initiators)))
	for _, nd := range initiators {
		nd.inbox = append(nd.inbox, envelope{wake: true})
	}
	if len(initiators) == 0 {
		return
	}
	var wg sync.WaitGroup
	for _, nd := range r.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.serve(nd)
		}()
	}
	for _, nd := range initiators {
		select {
		case nd.signal <- struct{}{}:
		default:
		}
	}
	<-a.done
	// Stop every goroutine: each finds the flag when it next wakes.
	a.stopped.Store(true)
	for _, nd := range r.nodes {
		select {
		case nd.signal <- struct{}{}:
		default: // a wake-up is pending already
		}
	}
	wg.Wait()
}

// end stops the run (once).
func (a *asyncRun) end() { a.endOnce.Do(func() { close(a.done) }) }

// serve is one node's goroutine: it waits for its inbox to fill, takes all
// of it and handles it.
func (a *asyncRun) serve(nd *node) {
	for range nd.signal {
		if a.stopped.Load() {
			return
		}
		nd.mu.Lock()
		batch := nd.inbox
		nd.inbox = nd.spare[:0]
		nd.mu.Unlock()
		a.handle(nd, batch)
		nd.spare = batch[:0]
	}
}

// handle runs nd's handlers for a batch of inputs and hands over what they
// sent. With a trace, the whole batch holds the run's mutex so that its
// lines stand together, before any of its messages can be received.
func (a *asyncRun) handle(nd *node, batch []envelope) {
	traced := a.trace != nil
	if traced {
		a.mu.Lock()
		a.clock = nd.depth
	}
	var depth int64
	for _, ev := range batch {
		if ev.wake {
			a.wake(nd, 0)
			continue
		}
		depth = max(depth, ev.depth)
		a.receive(nd, 0, ev)
	}
	if traced {
		a.mu.Unlock()
	}
	nd.maxDepth = max(nd.maxDepth, depth)
	// The event limit is checked on a shared count that each node updates
	// once per chunk of its own events, so that the count is not contended;
	// the chunk is small enough (a quarter of the limit over all nodes) that
	// a run stops soon after the limit.
	nd.unreported += int64(len(batch))
	if nd.unreported >= a.chunk && a.events.Add(nd.unreported) > a.maxEvents {
		nd.unreported = 0
		a.mu.Lock()
		a.stepLimit = true
		a.mu.Unlock()
		a.end()
		return
	}
	if nd.unreported >= a.chunk {
		nd.unreported = 0
	}
	out := nd.out
	// Count the messages before anyone can receive them, and discount the
	// batch only now that its handlers have returned (see the package doc).
	if a.pending.Add(int64(len(out)-len(batch))) == 0 {
		a.end()
		return
	}
	for k := 0; k < len(out); {
		to := out[k].to
		dst := a.nodes[to]
		dst.mu.Lock()
		wasEmpty := len(dst.inbox) == 0
		for ; k < len(out) && out[k].to == to; k++ {
			dst.inbox = append(dst.inbox, out[k].env)
		}
		dst.mu.Unlock()
		if wasEmpty {
			select {
			case dst.signal <- struct{}{}:
			default:
			}
		}
	}
	// Envelopes hold no pointers: the buffers are reused without clearing.
	nd.out = out[:0]
}
