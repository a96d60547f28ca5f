package cluster

import (
	"fmt"
	"slices"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
)

// loop is the node's main loop: it wakes the node if it initiates, then
// handles inputs one at a time (the node code is never run concurrently),
// writing what the node sends to its links' writers, and flushing them
// whenever no input is waiting.
func (r *nodeRun) loop() (err error) {
	defer func() {
		// The node's code panicked (a fault can drive it off its model):
		// the node ends with a fault that says so, not the process.
		if p := recover(); p != nil {
			r.flush()
			err = r.violated(election.NewViolation(election.PropPanic, election.PanicMessage(int32(r.me), p), int32(r.me)))
		}
	}()
	r.batchAt = time.Now().UnixNano()
	if r.flt != nil && r.flt.crash.Steps == 0 {
		r.crash() // before its first step
	}
	if r.initiator() && !r.halted {
		r.events++
		r.lamport++
		r.clock = r.lamport
		r.woken = true
		if r.trace != nil {
			r.trace.Wake(int32(r.me), true)
		}
		if err := r.call(inputSpontaneousWake, 0, elect.Message{}); err != nil {
			return err
		}
		if r.flt != nil {
			r.stepped()
		}
	}
	r.lastHeard0 = time.Now()
	if r.me == 0 {
		r.startWave()
	}
	tick := time.NewTicker(r.opt.Timeout / 4)
	defer tick.Stop()
	var spare []input
	for {
		r.inMu.Lock()
		batch := r.inbox
		r.inbox = spare[:0]
		r.inMu.Unlock()
		if len(batch) == 0 {
			r.flush()
			select {
			case <-r.inSig:
			case <-tick.C:
				if err := r.checkSilence(); err != nil {
					return err
				}
			}
			spare = batch
			continue
		}
		r.batchAt = time.Now().UnixNano()
		for _, in := range batch {
			done, err := r.handle(in)
			if err == nil && r.mem.over() {
				err = r.mem.stop(r.me)
			}
			if err != nil || done {
				r.flush()
				return err
			}
		}
		clear(batch)
		spare = batch
	}
}

// initiator reports whether the node wakes spontaneously. Wake-up times
// are not waited for: every initiator wakes when its links are up.
func (r *nodeRun) initiator() bool {
	if r.cfg.Wake == nil {
		return true
	}
	for _, w := range r.cfg.Wake {
		if w.Node == r.me {
			return true
		}
	}
	return false
}

// The inputs of call.
const (
	inputWake = iota
	inputSpontaneousWake
	inputMessage
)

// call runs one handler of the node and carries out what it asked for.
func (r *nodeRun) call(input int, port elect.Port, m elect.Message) error {
	r.rec.ClearEffects()
	switch input {
	case inputWake, inputSpontaneousWake:
		r.code.Wake(r.rec, input == inputSpontaneousWake)
	case inputMessage:
		r.code.Receive(r.rec, port, m)
	}
	for _, f := range r.rec.Effects() {
		switch f.Kind {
		case elect.EffectSend:
			to, _, ok := r.cfg.Route(int32(r.me), f.Port)
			if !ok || int(f.Msg.Type) >= len(r.counts) {
				v := r.cfg.RouteViolation(int32(r.me), f.Port)
				if ok {
					v = election.NewViolation(election.PropBadMessageType, fmt.Sprintf("node %d sent undeclared message type %d", r.me, f.Msg.Type), int32(r.me))
				}
				return r.violated(v)
			}
			r.counts[f.Msg.Type]++
			if r.sent == 0 {
				r.firstSend = r.batchAt
			}
			r.sent++
			if r.trace != nil {
				r.trace.Send(int32(r.me), f.Port, to, f.Msg)
			}
			r.sentOn[f.Port]++
			fr := &Frame{Type: FrameMessage, Msg: f.Msg, Lamport: r.lamport, Depth: r.depth + 1, Sent: r.batchAt}
			if r.flt != nil {
				r.sendFaulty(f.Port, to, f.Msg, fr)
			} else {
				r.wire++
				r.queue(r.data[f.Port], fr)
			}
		case elect.EffectDecide:
			if r.dec != elect.Undecided && f.Decision != r.dec {
				return r.violated(election.NewViolation(election.PropDecisionChanged, fmt.Sprintf("node %d changed its decision from %s to %s", r.me, r.dec, f.Decision), int32(r.me)))
			}
			r.dec = f.Decision
			r.seq++
			r.decLamport, r.decSeq = r.lamport, r.seq
			if r.trace != nil {
				r.trace.Decide(int32(r.me), f.Decision)
			}
		case elect.EffectLearn:
			r.leader = f.Leader()
			if r.trace != nil {
				r.trace.Learn(int32(r.me), f.Leader())
			}
		case elect.EffectSetTimer, elect.EffectCancelTimers:
			return r.violated(election.NewViolation(election.PropBadTimer, fmt.Sprintf("node %d set a timer, and the TCP runtime serves only asynchronous algorithms", r.me), int32(r.me)))
		case elect.EffectTerminate:
			r.halted = true
			if r.trace != nil {
				r.trace.Halt(int32(r.me))
			}
		}
	}
	r.rec.ClearEffects()
	if r.trace != nil {
		r.trace.State(int32(r.me), r.code)
	}
	return nil
}

// handle handles one input; done says the node may leave.
func (r *nodeRun) handle(in input) (done bool, err error) {
	switch in.kind {
	case inWave:
		if !r.stopping {
			r.startWave()
		}
		return false, nil
	case inEnd:
		return r.linkEnded(in.link, in.err)
	}
	l, f := in.link, &in.frame
	if l.port == ControlPort {
		return r.handleControl(l, f)
	}
	switch f.Type {
	case FrameMessage:
		if int(f.Msg.Type) >= len(r.counts) {
			l.conn.Close()
			r.logf("closed the link to node %d: a message of undeclared type %d", l.peer, f.Msg.Type)
			return false, r.fault(l.peer, "lost the link to node %d: it sent a message of undeclared type %d", l.peer, f.Msg.Type)
		}
		if r.stopping {
			r.logf("a message from node %d after termination was detected", l.peer)
		}
		return false, r.deliver(l, f)
	case FrameBye:
		l.bye = true
		return r.allSaidBye(), nil
	}
	l.conn.Close()
	r.logf("closed the link to node %d: a %d frame on a data link", l.peer, f.Type)
	return false, r.fault(l.peer, "lost the link to node %d: it sent a frame of type %d on a data link", l.peer, f.Type)
}

// deliver hands a message to the node, waking it first if needed.
func (r *nodeRun) deliver(l *link, f *Frame) error {
	r.recv++
	r.lastReceive = r.batchAt
	r.latency.Add(r.batchAt - f.Sent)
	r.events++
	r.lamport = max(r.lamport, f.Lamport) + 1
	r.clock = r.lamport
	r.depth = max(r.depth, f.Depth)
	if r.flt != nil {
		r.flt.at = r.depth
	}
	if !r.halted && !r.woken {
		r.woken = true
		if r.trace != nil {
			r.trace.Wake(int32(r.me), false)
		}
		if err := r.call(inputWake, 0, elect.Message{}); err != nil {
			return err
		}
		if r.flt != nil {
			r.stepped()
		}
		if r.halted {
			if r.trace != nil {
				r.trace.Deliver(int32(r.me), l.port, f.Msg, true)
			}
			return nil
		}
	}
	if r.trace != nil {
		r.trace.Deliver(int32(r.me), l.port, f.Msg, r.halted)
	}
	if r.halted {
		return nil
	}
	if err := r.call(inputMessage, l.port, f.Msg); err != nil {
		return err
	}
	if r.flt != nil {
		r.stepped()
	}
	return nil
}

// control handles a frame of a control link.
func (r *nodeRun) handleControl(l *link, f *Frame) (bool, error) {
	switch {
	case r.me != 0 && f.Type == FrameProbe:
		r.lastHeard0 = time.Now()
		// Read between two handlers: the node is idle now.
		switch f.B {
		case probeHeld:
			first, count := r.heldReport()
			r.queue(l, &Frame{Type: FrameReport, A: f.A, B: first, C: count})
		case probeRelease:
			if r.flt != nil {
				r.releaseHeld(f.C)
			}
		default:
			r.queue(l, &Frame{Type: FrameReport, A: f.A, B: r.wire, C: r.recv})
		}
		return false, nil
	case r.me != 0 && f.Type == FrameStop:
		r.lastHeard0 = time.Now()
		r.beginStop()
		return r.allSaidBye(), nil
	case r.me != 0 && f.Type == FrameAbort:
		return false, r.fault(int(f.A), "node 0 aborted the run: node %d was lost", f.A)
	case r.me == 0 && f.Type == FrameReport:
		if f.A == r.wave && !r.reported[l.peer] {
			r.reported[l.peer] = true
			r.reports++
			if r.heldWave {
				r.addHeld(f.B, f.C)
			} else {
				r.waveSent += f.B
				r.waveRecv += f.C
			}
			if r.reports == int64(r.d.N) {
				if r.heldWave {
					r.heldWaveDone()
				} else {
					r.waveDone()
				}
			}
		}
		return r.allSaidBye(), nil
	}
	l.conn.Close()
	r.logf("closed the control link with node %d: an unexpected frame of type %d", l.peer, f.Type)
	return false, r.fault(l.peer, "lost the control link with node %d: it sent a frame of type %d", l.peer, f.Type)
}

// startWave (node 0) asks every node for its counters; its own are read
// now, between two handlers.
func (r *nodeRun) startWave() {
	r.wave++
	clear(r.reported)
	r.reported[0] = true
	r.reports = 1
	r.waveSent, r.waveRecv = r.wire, r.recv
	r.waveStarted = time.Now()
	for _, l := range r.control[1:] {
		r.queue(l, &Frame{Type: FrameProbe, A: r.wave})
	}
	if r.d.N == 1 {
		r.waveDone()
	}
}

// waveDone (node 0) applies the four-counter test to the wave just
// completed and the one before: the received total of the earlier equal to
// the sent total of the later means the run had terminated (package doc).
func (r *nodeRun) waveDone() {
	if r.haveLast && r.lastRecv == r.waveSent {
		if r.flt != nil {
			// Nothing is in transit and no node is active, but nodes
			// may hold late messages (faults.go): ask.
			r.startHeldWave()
			return
		}
		r.stop()
		return
	}
	r.lastRecv, r.haveLast = r.waveRecv, true
	time.AfterFunc(r.opt.waveInterval, func() { r.post(input{kind: inWave}) })
}

// startHeldWave (node 0), when the cluster is quiet, asks every node for
// its earliest held late message and how many it holds (faults.go).
func (r *nodeRun) startHeldWave() {
	r.wave++
	clear(r.reported)
	r.reported[0] = true
	r.reports = 1
	r.heldWave = true
	r.heldFirst, r.heldCount = -1, 0
	r.addHeld(r.heldReport())
	r.waveStarted = time.Now()
	for _, l := range r.control[1:] {
		r.queue(l, &Frame{Type: FrameProbe, A: r.wave, B: probeHeld})
	}
	if r.d.N == 1 {
		r.heldWaveDone()
	}
}

// addHeld adds a node's answer to the held wave.
func (r *nodeRun) addHeld(first, count int64) {
	if count > 0 && (r.heldFirst < 0 || first < r.heldFirst) {
		r.heldFirst = first
	}
	r.heldCount += count
}

// heldWaveDone (node 0): with nothing held the run has terminated; else
// the earliest held messages, everywhere, are written, and the waves
// start again.
func (r *nodeRun) heldWaveDone() {
	r.heldWave = false
	if r.heldCount == 0 {
		r.stop()
		return
	}
	for _, l := range r.control[1:] {
		r.queue(l, &Frame{Type: FrameProbe, A: r.wave, B: probeRelease, C: r.heldFirst})
	}
	r.releaseHeld(r.heldFirst)
	r.haveLast = false
	time.AfterFunc(r.opt.waveInterval, func() { r.post(input{kind: inWave}) })
}

// stop (node 0) tells every node that the run has terminated.
func (r *nodeRun) stop() {
	for _, l := range r.control[1:] {
		r.queue(l, &Frame{Type: FrameStop, A: r.wave})
	}
	r.beginStop()
}

// beginStop says bye on every data link: no message will follow.
func (r *nodeRun) beginStop() {
	if r.stopping {
		return
	}
	r.stopping = true
	r.waveStarted = time.Now() // the time left for the byes
	for _, l := range r.data {
		r.queue(l, &Frame{Type: FrameBye})
	}
}

// allSaidBye reports whether the node may leave: stopping, every data link
// said bye, and (node 0) every other node has closed its control link.
func (r *nodeRun) allSaidBye() bool {
	if !r.stopping {
		return false
	}
	for _, l := range r.data {
		if !l.bye {
			return false
		}
	}
	if r.me == 0 {
		for _, l := range r.control[1:] {
			if !l.closed {
				return false
			}
		}
	}
	return true
}

// linkEnded handles the end of a link's stream.
func (r *nodeRun) linkEnded(l *link, err error) (bool, error) {
	if l.closed {
		return r.allSaidBye(), nil
	}
	l.closed = true
	why := "it closed the connection"
	if err != nil {
		why = err.Error()
		r.logf("the link to node %d ended: %v", l.peer, err)
	}
	switch {
	case l.port != ControlPort && l.bye:
		return r.allSaidBye(), nil
	case l.port == ControlPort && r.me == 0 && r.stopping:
		return r.allSaidBye(), nil
	case l.port == ControlPort && r.me != 0 && r.stopping && r.allSaidBye():
		return true, nil
	}
	if r.me == 0 {
		for _, c := range r.control[1:] {
			if c != l && !c.closed {
				r.queue(c, &Frame{Type: FrameAbort, A: int64(l.peer)})
			}
		}
	}
	kind := fmt.Sprintf("the link to node %d (port %d)", l.peer, l.port)
	if l.port == ControlPort {
		kind = fmt.Sprintf("the control link with node %d", l.peer)
	}
	return false, r.fault(l.peer, "lost %s before the election ended: %s", kind, why)
}

// checkSilence ends the run when a peer has been silent for too long.
func (r *nodeRun) checkSilence() error {
	now := time.Now()
	switch {
	case r.stopping && now.Sub(r.waveStarted) > r.opt.Timeout:
		return r.fault(-1, "the peers did not all say bye within %v after termination", r.opt.Timeout)
	case r.me != 0 && !r.stopping && now.Sub(r.lastHeard0) > r.opt.Timeout:
		return r.fault(0, "node 0 has been silent for %v (no termination wave)", r.opt.Timeout)
	case r.me == 0 && !r.stopping && now.Sub(r.waveStarted) > r.opt.Timeout:
		for i, ok := range r.reported {
			if !ok {
				for _, c := range r.control[1:] {
					r.queue(c, &Frame{Type: FrameAbort, A: int64(i)})
				}
				return r.fault(i, "node %d has not answered a termination wave for %v", i, r.opt.Timeout)
			}
		}
	}
	return nil
}

// result is the node's line, with the fault if there was one.
func (r *nodeRun) result(err error) (*NodeResult, error) {
	res := &NodeResult{
		Index: r.me, ID: r.d.Nodes[r.me].ID, Decision: r.dec.String(), Leader: r.leader,
		MessagesByType: map[string]int64{}, Sent: r.sent, Received: r.recv, Events: r.events,
		Depth: r.depth, Lamport: r.lamport, WallSeconds: time.Since(r.start).Seconds(), Lost: -1,
		SentByPort: r.sentOn, Latency: &r.latency,
		Faults: r.faults, DecidedLamport: r.decLamport, DecidedSeq: r.decSeq,
		FirstSend: r.firstSend, LastReceive: r.lastReceive,
	}
	res.PeakRSS, res.AnonRSS = processMemory()
	for t, mt := range r.cfg.Algorithm.Messages {
		res.MessagesByType[mt.Name] = r.counts[t]
	}
	if err != nil {
		switch e := err.(type) {
		case *FaultError:
			res.Fault, res.Lost = e.Msg, e.Lost
			res.Property, res.Detail = e.Broken.Property, e.Broken.Detail
		case *MemoryLimitError:
			res.Fault, res.MemoryLimit = e.Error(), true
		default:
			res.Fault = err.Error()
		}
		r.logf("%s", res.Fault)
	}
	// The writers send what is queued (byes, aborts), then the links close.
	// Links that connect from now on are refused.
	r.setupMu.Lock()
	r.left = true
	links := [][]*link{slices.Clone(r.data), slices.Clone(r.control)}
	r.setupMu.Unlock()
	close(r.closing)
	deadline := time.After(2 * time.Second)
	for _, ls := range links {
		for _, l := range ls {
			if l == nil {
				continue
			}
			select {
			case <-l.written:
			case <-deadline:
			}
		}
	}
	for _, ls := range links {
		for _, l := range ls {
			if l != nil {
				l.conn.Close()
			}
		}
	}
	return res, err
}
