package cluster

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/electkit/elect"
)

// Admission: how a node lets its peers in ahead of strangers.
//
// A node's listener accepts every connection at once (the kernel's backlog
// never holds a peer behind strangers) and keeps at most MaxHandshakes
// connections unauthenticated. A connection is silent until its first
// bytes arrive; a peer's TLS ClientHello is on its way as soon as it has
// connected, so a connection that has said nothing for silentAfter is a
// stranger's, or one that has lost nothing by being dropped. When the
// unauthenticated connections fill their slots, the oldest connection
// silent that long is closed to make room for the new one; failing that,
// the oldest whose handshake has lasted stalledAfter (a stranger that sent
// a ClientHello and stopped); failing that the listener waits for the first
// of them to qualify or for a slot to free. A connection must send its
// first bytes within DefaultHelloTimeout (or the handshake timeout, if
// shorter), and finish its TLS handshake and hello within the handshake
// timeout of its arrival. So silent strangers, however many and however
// fast they reconnect, never hold the listener: each new connection takes
// a silent one's place. The dialler retries with backoff (dialBackoff)
// until the node's timeout, each attempt bounded by the handshake timeout,
// so a peer whose attempt was dropped comes back.
//
// A per-address limit is not used: on one machine, peers and strangers
// share 127.0.0.1, and behind a NAT or a proxy, one address is many
// clients; the order of silence serves both.

// DefaultHelloTimeout bounds the wait for an incoming connection's first
// bytes (a TLS ClientHello): a connection silent this long is dropped.
const DefaultHelloTimeout = time.Second

// silentAfter is how long a connection must have said nothing before it
// may be closed to make room for a new one: long enough for a peer's
// ClientHello, already sent when its connection is accepted, to be read
// (microseconds), short enough that a backlog of strangers drains fast
// (MaxHandshakes of them every silentAfter: 6,400 a second by default).
const silentAfter = 5 * time.Millisecond

// stalledAfter is how long a connection's TLS handshake may last before
// the connection may be closed to make room for a new one (a peer's takes
// milliseconds); at most the handshake timeout.
const stalledAfter = time.Second

// dialBackoff is the pause before the k-th retry of a dial (k >= 1): 10 ms,
// doubling up to half a second.
func dialBackoff(k int) time.Duration {
	return min(10*time.Millisecond<<min(k-1, 6), 500*time.Millisecond)
}

// pendingConn is a connection accepted and not yet authenticated.
type pendingConn struct {
	conn net.Conn
	at   time.Time
	// Under admission.mu: its first bytes arrived; it was closed to make
	// room (evicted); it has left the admission.
	spoke, evicted, gone bool
}

// admission holds a listener's unauthenticated connections, in the order
// they arrived.
type admission struct {
	r       *nodeRun
	max     int
	stalled time.Duration
	mu      sync.Mutex
	pending []*pendingConn
	room    chan struct{} // signalled when a connection leaves
	wg      sync.WaitGroup
	log     refusalLog
}

func newAdmission(r *nodeRun) *admission {
	a := &admission{r: r, max: r.opt.MaxHandshakes, stalled: min(stalledAfter, r.opt.HandshakeTimeout), room: make(chan struct{}, 1)}
	a.log.r = r
	return a
}

// makeRoom returns once a new connection may be accepted: a slot is free,
// or it has closed the oldest silent connection, or the oldest stalled
// one; false when the node has left.
func (a *admission) makeRoom() bool {
	for {
		a.mu.Lock()
		if len(a.pending) < a.max {
			a.mu.Unlock()
			return true
		}
		now := time.Now()
		wait := time.Duration(-1)
		victim := -1
		for i, pc := range a.pending {
			limit := silentAfter
			if pc.spoke {
				limit = a.stalled
			}
			left := pc.at.Add(limit).Sub(now)
			if left <= 0 && (victim < 0 || !pc.spoke && a.pending[victim].spoke) {
				victim = i
			}
			if left > 0 && (wait < 0 || left < wait) {
				wait = left
			}
		}
		if victim >= 0 {
			pc := a.pending[victim]
			pc.evicted = true
			a.remove(victim)
			a.mu.Unlock()
			pc.conn.Close()
			return true
		}
		a.mu.Unlock()
		timer := time.NewTimer(wait)
		select {
		case <-a.room:
		case <-timer.C:
		case <-a.r.closed:
			timer.Stop()
			return false
		}
		timer.Stop()
	}
}

// remove takes the connection at position i out of the pending ones
// (a.mu held).
func (a *admission) remove(i int) {
	a.pending[i].gone = true
	a.pending = append(a.pending[:i], a.pending[i+1:]...)
}

// add records a new connection.
func (a *admission) add(conn net.Conn) *pendingConn {
	pc := &pendingConn{conn: conn, at: time.Now()}
	a.mu.Lock()
	a.pending = append(a.pending, pc)
	a.mu.Unlock()
	return pc
}

// spoke records that pc's first bytes arrived; false when it had been
// evicted meanwhile.
func (a *admission) spoke(pc *pendingConn) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	pc.spoke = true
	return !pc.evicted
}

// leave takes pc out (authenticated, or refused) and says whether it had
// been evicted.
func (a *admission) leave(pc *pendingConn) (evicted bool) {
	a.mu.Lock()
	if !pc.gone {
		for i, q := range a.pending {
			if q == pc {
				a.remove(i)
				break
			}
		}
	}
	evicted = pc.evicted
	a.mu.Unlock()
	select {
	case a.room <- struct{}{}:
	default:
	}
	return evicted
}

// closeAll closes the connections still pending and waits for their
// goroutines: nothing of the node logs after it has left.
func (a *admission) closeAll() {
	a.mu.Lock()
	for _, pc := range a.pending {
		pc.conn.Close()
	}
	a.mu.Unlock()
	a.wg.Wait()
}

// accept serves the listener: every connection must complete a TLS
// handshake with a certificate from the cluster's CA and say hello as the
// node its certificate names, on a link that node is to dial, with the
// digest of the node's own description, within the handshake timeout;
// the node answers with its hello. Anything else is refused with one log
// line (connections dropped silent are counted, and summed up once a
// second: refusalLog), and the node goes on serving; a peer of the cluster
// whose digest differs ends the node's run (refused). Admission's comment
// says which connections are held. A temporary Accept error (too many open
// files, say) is retried after a pause that doubles from 5 ms to 1 s, as
// net/http's Server does, with one log line per burst; the node keeps
// serving once it passes.
func (r *nodeRun) accept(ln net.Listener) {
	a := newAdmission(r)
	stopSummary := a.log.summarize()
	defer stopSummary()
	defer a.closeAll()
	failures := 0
	for {
		if !a.makeRoom() {
			return
		}
		conn, err := ln.Accept()
		if err != nil {
			if !temporary(err) {
				select {
				case <-r.closed:
				default:
					r.logf("stopped accepting connections: %v", err)
				}
				return
			}
			failures++
			if failures == 1 {
				r.logf("accepting a connection: %v; retrying with backoff", err)
			}
			select {
			case <-time.After(acceptBackoff(failures)):
			case <-r.closed:
				return
			}
			continue
		}
		if failures > 0 {
			r.logf("accepting again after %d failed attempts", failures)
			failures = 0
		}
		pc := a.add(conn)
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			err := r.admit(a, pc)
			evicted := a.leave(pc)
			if err == nil {
				return
			}
			conn.Close()
			var silent *silentError
			var other *mismatchError
			select {
			case <-r.closed: // the node has left: the connection was closed for it
			default:
				switch {
				case evicted:
					a.log.dropped(true)
				case errors.As(err, &silent):
					a.log.dropped(false)
				case errors.As(err, &other):
					select {
					case r.refused <- &FaultError{Lost: -1, Msg: other.line}:
					default:
					}
				default:
					a.log.refused(conn.RemoteAddr(), err)
				}
			}
		}()
	}
}

// silentError is the refusal of a connection that sent nothing in time.
type silentError struct{ err error }

func (e *silentError) Error() string { return fmt.Sprintf("no TLS ClientHello: %v", e.err) }

// mismatchError is the refusal of a peer of the cluster that runs another
// description: it ends the node's run.
type mismatchError struct{ line string }

func (e *mismatchError) Error() string { return e.line }

// prefixedConn is a connection whose first bytes were read already: Read
// gives them first.
type prefixedConn struct {
	net.Conn
	head []byte
}

func (c *prefixedConn) Read(b []byte) (int, error) {
	if len(c.head) > 0 {
		n := copy(b, c.head)
		c.head = c.head[n:]
		return n, nil
	}
	return c.Conn.Read(b)
}

// admit authenticates one incoming connection (accept's rules) and
// registers its link.
func (r *nodeRun) admit(a *admission, pc *pendingConn) error {
	raw := pc.conn
	raw.SetReadDeadline(pc.at.Add(min(DefaultHelloTimeout, r.opt.HandshakeTimeout)))
	head := make([]byte, 1024)
	n, err := raw.Read(head)
	if n == 0 {
		return &silentError{err}
	}
	if !a.spoke(pc) {
		return &silentError{errors.New("evicted")}
	}
	conn := tls.Server(&prefixedConn{Conn: raw, head: head[:n]}, r.tls)
	conn.SetDeadline(pc.at.Add(r.opt.HandshakeTimeout))
	if err := conn.Handshake(); err != nil {
		return fmt.Errorf("TLS handshake: %v", err)
	}
	var f Frame
	fr := NewFrameReader(conn)
	if err := fr.Read(&f); err != nil {
		return fmt.Errorf("no hello: %v", err)
	}
	if f.Type != FrameHello || f.A < 0 || f.A >= int64(r.d.N) {
		return fmt.Errorf("the first frame is not a hello from a node of the cluster")
	}
	from, p := int(f.A), f.B
	peerCert := conn.ConnectionState().PeerCertificates[0]
	if err := peerCert.VerifyHostname(NodeName(from)); err != nil {
		return fmt.Errorf("it says it is node %d, but its certificate names %v", from, peerCert.DNSNames)
	}
	port, err := r.incomingPort(from, p)
	if err != nil {
		return err
	}
	// The answer, refusal or not: the dialler names a mismatch too.
	conn.Write(AppendFrame(nil, &Frame{Type: FrameHello, A: int64(r.me), B: p, Digest: &r.digest}))
	if *f.Digest != r.digest {
		return &mismatchError{digestMismatch(r.me, from, &r.digest, f.Digest)}
	}
	conn.SetDeadline(time.Time{})
	if !r.registerWith(from, port, conn, fr) {
		return fmt.Errorf("node %d connected twice on one link", from)
	}
	return nil
}

// incomingPort is the port of node r.me that node from's hello, dialling
// from its port p, connects: the control link's (ControlPort) or a data
// link's; an error when node from is not to dial it.
func (r *nodeRun) incomingPort(from int, p int64) (elect.Port, error) {
	if p == ControlPort {
		if r.me != 0 || from == 0 {
			return 0, fmt.Errorf("node %d asked for a control link, which only node 0 serves", from)
		}
		return ControlPort, nil
	}
	if p < 0 || p >= int64(r.cfg.Graph.Degree(from)) || from >= r.me {
		return 0, fmt.Errorf("node %d dialled from port %d, which is not a link it dials to node %d", from, p, r.me)
	}
	to, q := r.cfg.Graph.Neighbor(int32(from), elect.Port(p))
	if int(to) != r.me {
		return 0, fmt.Errorf("node %d's port %d does not lead to node %d", from, p, r.me)
	}
	return q, nil
}

// dial connects to node to from port p (ControlPort: the control link),
// retrying with backoff (dialBackoff) until the deadline: peers may start
// in any order, and a node busy with strangers may drop an attempt. A
// peer that answers with another description's digest ends the run.
func (r *nodeRun) dial(to int, p elect.Port, deadline time.Time) error {
	cfg := r.tls.Clone()
	cfg.ServerName = NodeName(to) // the peer's certificate must name it
	addr := r.d.Nodes[to].Address
	var lastErr error
	for attempt := 0; time.Now().Before(deadline); attempt++ {
		if attempt > 0 {
			pause := time.NewTimer(min(dialBackoff(attempt), time.Until(deadline)))
			select {
			case <-pause.C:
			case <-r.closed:
				pause.Stop()
				return nil
			}
		}
		try := time.Now().Add(r.opt.HandshakeTimeout)
		if try.After(deadline) {
			try = deadline
		}
		conn, fr, theirs, err := r.dialOnce(addr, cfg, to, p, try)
		if err != nil {
			lastErr = err
			continue
		}
		if *theirs != r.digest {
			conn.Close()
			return &FaultError{Lost: -1, Msg: digestMismatch(r.me, to, &r.digest, theirs)}
		}
		if !r.registerWith(to, p, conn, fr) {
			conn.Close()
		}
		return nil
	}
	what := fmt.Sprintf("port %d", p)
	if p == ControlPort {
		what = "control"
	}
	return r.fault(to, "cannot reach node %d at %s (%s) within %v: %v", to, addr, what, r.opt.Timeout, lastErr)
}

// dialOnce makes one attempt at a link by the attempt's deadline: it dials
// addr through the node's transport, completes the TLS handshake, says
// hello and reads node to's answer, whose digest it returns with the
// connection and its frame reader.
func (r *nodeRun) dialOnce(addr string, cfg *tls.Config, to int, p elect.Port, deadline time.Time) (net.Conn, *FrameReader, *Digest, error) {
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	raw, err := r.opt.Transport.Dial(ctx, addr)
	if err != nil {
		return nil, nil, nil, err
	}
	conn := tls.Client(raw, cfg)
	if err := conn.HandshakeContext(ctx); err != nil {
		raw.Close()
		return nil, nil, nil, err
	}
	conn.SetDeadline(deadline)
	if _, err := conn.Write(AppendFrame(nil, &Frame{Type: FrameHello, A: int64(r.me), B: int64(p), Digest: &r.digest})); err != nil {
		conn.Close()
		return nil, nil, nil, err
	}
	fr := NewFrameReader(conn)
	var f Frame
	if err := fr.Read(&f); err != nil {
		conn.Close()
		return nil, nil, nil, fmt.Errorf("no answer to its hello: %v", err)
	}
	if f.Type != FrameHello || f.A != int64(to) {
		conn.Close()
		return nil, nil, nil, fmt.Errorf("node %d answered its hello with a frame of type %d from node %d", to, f.Type, f.A)
	}
	conn.SetDeadline(time.Time{})
	return conn, fr, f.Digest, nil
}

// refusalLines is how many refused connections a node logs one by one in
// a second; the others are counted and summed up.
const refusalLines = 10

// refusalLog writes a node's lines about refused connections: one each
// for the first refusalLines a second that said something (garbage, a
// certificate from another CA, ...), and once a second a summary of the
// rest and of the connections dropped silent, so that a flood of strangers
// costs the log a line a second.
type refusalLog struct {
	r                      *nodeRun
	mu                     sync.Mutex
	since                  time.Time
	lines                  int
	silent, evicted, other int
}

func (l *refusalLog) refused(from net.Addr, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lines < refusalLines {
		l.lines++
		l.r.logf("refused a connection from %s: %v", from, err)
		return
	}
	l.other++
}

// dropped counts a connection dropped silent: evicted to make room, or
// timed out.
func (l *refusalLog) dropped(evicted bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if evicted {
		l.evicted++
	} else {
		l.silent++
	}
}

// flush writes the summary of the counts since the last summary (or the
// start), if any, and starts a new second.
func (l *refusalLog) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.since.IsZero() || l.silent+l.evicted+l.other > 0 {
		if !l.since.IsZero() {
			l.r.logf("refused %d connections in %.1f s: %d said nothing within the hello timeout (%v), %d were closed to make room for newer ones (silent, or stalled in their handshake), %d more were refused past %d lines a second",
				l.silent+l.evicted+l.other, time.Since(l.since).Seconds(), l.silent, min(DefaultHelloTimeout, l.r.opt.HandshakeTimeout), l.evicted, l.other, refusalLines)
		}
		l.since = time.Now()
	}
	l.lines, l.silent, l.evicted, l.other = 0, 0, 0, 0
}

// summarize flushes the log once a second until the returned function is
// called, which flushes it a last time.
func (l *refusalLog) summarize() (stop func()) {
	l.flush()
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				l.flush()
			case <-done:
				return
			}
		}
	}()
	return func() {
		close(done)
		<-ended
		l.flush()
	}
}
