package cluster

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/internal/bounded"
)

// DefaultTimeout bounds connecting to peers and any silence of a peer.
const DefaultTimeout = 10 * time.Second

// NodeOptions configure one node.
type NodeOptions struct {
	Index   int
	Catalog *catalog.Catalog // where the algorithm is looked up (nil: the default)
	Timeout time.Duration    // 0: DefaultTimeout
	// Trace, when set, receives the node's events as election.Tracer lines
	// stamped with Lamport times.
	Trace io.Writer
	// Log receives one line per refused connection (up to 10 a second,
	// and a line a second summing up the rest and those dropped silent),
	// malformed frame or fault (nil: discarded).
	Log io.Writer
	// Transport is where the node listens and how it dials (nil: TCP).
	Transport Transport
	// Listen is the address to listen on (empty: the node's own address
	// from the description, host name included: only the interface that
	// name resolves to is exposed). ":7400" listens on every interface.
	Listen string
	// HandshakeTimeout bounds an incoming connection's TLS handshake and
	// hello, and each attempt of a dial (0: DefaultHandshakeTimeout, or
	// Timeout if shorter); an incoming connection must send its first
	// bytes within DefaultHelloTimeout or this, if shorter (admission.go).
	HandshakeTimeout time.Duration
	// MaxHandshakes caps the incoming connections not yet authenticated
	// (0: DefaultMaxHandshakes): a new one takes the place of the oldest
	// silent one (admission.go).
	MaxHandshakes int
	// MemLimit is the memory the node may hold (0: the default of every
	// --mem-limit, scenario.DefaultMemLimit): a node that would need more
	// from its start is refused, and one whose messages outgrow it stops
	// with outcome memory-limit (guard.go).
	MemLimit int64
	// waveInterval is the pause between termination waves (tests).
	waveInterval time.Duration
}

// DefaultHandshakeTimeout bounds an incoming connection's handshake: a
// peer that says nothing for this long is dropped and its slot freed.
const DefaultHandshakeTimeout = 3 * time.Second

// DefaultMaxHandshakes is how many incoming connections a node holds
// unauthenticated at once.
const DefaultMaxHandshakes = 32

// NodeResult is what a node prints when it leaves: one JSON line.
type NodeResult struct {
	Index          int              `json:"index"`
	ID             elect.ID         `json:"id"`
	Decision       string           `json:"decision"`
	Leader         elect.ID         `json:"leader"` // the leader's ID it learned, -1: none
	MessagesByType map[string]int64 `json:"messages_by_type"`
	Sent           int64            `json:"sent"`
	Received       int64            `json:"received"`
	Events         int64            `json:"events"`
	Depth          int64            `json:"depth"`   // the deepest causal chain that reached it
	Lamport        int64            `json:"lamport"` // its Lamport clock at the end
	WallSeconds    float64          `json:"wall_seconds"`
	// SentByPort counts the messages it sent on each port (to
	// cluster.json's neighbors, in order).
	SentByPort []int64 `json:"sent_by_port"`
	// Latency is the histogram of its deliveries' latencies: from the
	// moment the sender took the batch of inputs whose handler sent the
	// message (its clock) to the moment this node took the batch holding
	// it (its clock); on one machine, or clocks kept in step, a delivery
	// time.
	Latency *election.Latency `json:"latency,omitempty"`
	// Fault says what went wrong when the node could not finish: a lost or
	// unreachable peer, or an abort sent by node 0.
	Fault string `json:"fault,omitempty"`
	// Property is the property the node's own code broke, when that ended
	// it, and Detail says how (Fault is then "property: detail"): the
	// judge reports it as the monitor of any runtime does.
	Property election.Property `json:"property,omitempty"`
	Detail   string            `json:"detail,omitempty"`
	// Lost is the index of the node whose loss ended the run (-1: none).
	Lost int `json:"lost"`
	// Faults lists the faults of the run's fault schedule the node
	// applied (cluster/faults.go), in its order; DecidedLamport and
	// DecidedSeq place its decision among them and the other nodes'.
	Faults         []FaultEvent `json:"faults,omitempty"`
	DecidedLamport int64        `json:"decided_lamport,omitempty"`
	DecidedSeq     int64        `json:"decided_seq,omitempty"`
	// MemoryLimit says the node stopped at its memory limit (guard.go;
	// Fault says what it held).
	MemoryLimit bool `json:"memory_limit,omitempty"`
	// PeakRSS is the node process's peak resident memory in bytes (VmHWM,
	// the program's shared pages included), AnonRSS its own (anonymous)
	// resident memory at its end (0 where the system does not say:
	// processMemory).
	PeakRSS int64 `json:"peak_rss,omitempty"`
	AnonRSS int64 `json:"anon_rss,omitempty"`
	// FirstSend and LastReceive are the wall clock (Unix ns) of the batch
	// of inputs in which the node sent its first message and received its
	// last (0: none): over all nodes, the election phase.
	FirstSend   int64 `json:"first_send,omitempty"`
	LastReceive int64 `json:"last_receive,omitempty"`
}

// FaultError is a node's fault: the node could not finish the election.
type FaultError struct {
	Lost int // the peer whose loss caused it, or -1
	Msg  string
	// Broken is the property the node's own code broke, when that is the
	// fault (Msg is then its text).
	Broken election.Violation
}

func (e *FaultError) Error() string { return e.Msg }

// link is one connection: a data link on one of the node's ports, or a
// control link to (or, at node 0, from) another node.
type link struct {
	peer    int
	port    elect.Port // data links; -1 on control links
	conn    net.Conn
	mu      sync.Mutex
	pending []byte // frames to write, guarded by mu
	signal  chan struct{}
	written chan struct{} // closed when its writer has written all and ended
	bye     bool          // the peer said bye (main loop only)
	closed  bool          // its reader ended (main loop only)
}

// input is one thing a node's main loop handles.
type input struct {
	kind  int
	link  *link
	frame Frame
	err   error
}

const (
	inFrame = iota
	inEnd   // a link's reader ended (err: why; nil for a clean EOF)
	inWave  // node 0: time for the next termination wave
	inTick  // check for silent peers
)

// nodeRun is one node's run.
type nodeRun struct {
	opt   NodeOptions
	d     *Description
	cfg   *election.Config
	me    int
	tls   *tls.Config
	start time.Time
	log   io.Writer
	// digest is the description's (hellos carry it); refused receives
	// the fault of a peer that runs another description (admission.go).
	digest  Digest
	refused chan *FaultError

	code    elect.Node
	rec     *elect.Recorder
	rng     *rand.Rand
	woken   bool
	halted  bool
	dec     elect.Decision
	leader  elect.ID
	counts  []int64
	sent    int64
	recv    int64
	events  int64
	lamport int64
	depth   int64
	trace   *election.Tracer
	clock   int64
	// The run report: messages sent by port, the latencies of deliveries,
	// and when the batch of inputs being handled was taken (Unix ns): the
	// time its deliveries are received and its sends stamped with (one
	// clock reading per batch, not per message).
	sentOn  []int64
	latency election.Latency
	batchAt int64
	// wire counts the messages written to links (not those lost, nor the
	// late ones held, faults.go): the termination waves' "sent", which
	// faults make differ from sent.
	wire int64
	// Faults (faults.go): the node's part of the plan (nil: none), what it
	// applied, and the order of its faults and decision.
	flt                *nodeFaults
	faults             []FaultEvent
	seq                int64
	decLamport, decSeq int64
	// mem holds the node to its memory limit (guard.go); firstSend and
	// lastReceive time the election phase (NodeResult).
	mem                    *memGuard
	firstSend, lastReceive int64

	data    []*link // by port
	control []*link // node 0: by index; others: [0] is the link to node 0
	setupMu sync.Mutex
	linked  int  // links registered, guarded by setupMu
	left    bool // the node has left: no more links, guarded by setupMu
	ready   chan struct{}

	inMu    sync.Mutex
	inbox   []input
	inSig   chan struct{}
	closed  chan struct{} // the run is over
	closing chan struct{} // the writers write what is left and end

	// Termination (node 0): the current wave, its reports, and the last
	// complete wave's totals.
	wave, reports      int64
	waveSent, waveRecv int64
	lastRecv           int64
	haveLast           bool
	// heldWave: the current wave asks for the nodes' held late messages
	// (faults.go), of which heldFirst is the earliest arrival (-1: none)
	// and heldCount how many.
	heldWave                bool
	heldFirst, heldCount    int64
	waveStarted, lastHeard0 time.Time
	reported                []bool
	stopping                bool
}

// RunNode runs node opt.Index of the cluster in dir (its node directory,
// or the cluster's: NodeDir) until the election is over for it, and
// returns its line. An error that is a *FaultError is a fault of the run
// (exit status 3); any other error is bad input.
func RunNode(dir string, opt NodeOptions) (*NodeResult, error) {
	dir = NodeDir(dir, opt.Index)
	d, cfg, err := Load(dir, opt.Catalog)
	if err != nil {
		return nil, err
	}
	if opt.Index < 0 || opt.Index >= d.N {
		return nil, fmt.Errorf("--index %d is not a node of this cluster (0..%d)", opt.Index, d.N-1)
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.waveInterval <= 0 {
		opt.waveInterval = time.Millisecond
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if opt.Transport == nil {
		opt.Transport = TCP{}
	}
	if opt.HandshakeTimeout <= 0 {
		opt.HandshakeTimeout = min(DefaultHandshakeTimeout, opt.Timeout)
	}
	if opt.MaxHandshakes <= 0 {
		opt.MaxHandshakes = DefaultMaxHandshakes
	}
	tc, err := tlsConfig(dir, d, opt.Index)
	if err != nil {
		return nil, err
	}
	if w := KeyWarning(filepath.Join(dir, d.Nodes[opt.Index].Key)); w != "" {
		fmt.Fprintf(opt.Log, "node %d: %s\n", opt.Index, w)
	}
	r := &nodeRun{
		opt: opt, d: d, cfg: cfg, me: opt.Index, tls: tc, start: time.Now(), log: opt.Log,
		digest: DescriptionDigest(d, cfg), refused: make(chan *FaultError, 1),
		leader: -1, counts: make([]int64, len(cfg.Algorithm.Messages)),
		data: make([]*link, cfg.Graph.Degree(opt.Index)), ready: make(chan struct{}),
		sentOn: make([]int64, cfg.Graph.Degree(opt.Index)),
		inSig:  make(chan struct{}, 1), closed: make(chan struct{}), closing: make(chan struct{}),
	}
	if r.me == 0 {
		r.control = make([]*link, d.N)
		r.reported = make([]bool, d.N)
	} else {
		r.control = make([]*link, 1)
	}
	info := cfg.NodeInfos()(r.me)
	r.code = cfg.Algorithm.New(info)
	r.rec = elect.NewRecorder(func() *rand.Rand {
		if r.rng == nil {
			r.rng = election.Stream(cfg.Seed, "node", uint64(r.me))
		}
		return r.rng
	})
	if opt.Trace != nil {
		r.trace = election.NewTracer(opt.Trace, cfg, func() int64 { return r.clock })
		r.trace.SetRuntime("cluster")
	}
	if cfg.Faults != nil {
		if err := r.newFaults(); err != nil {
			return nil, err
		}
	}
	if r.mem, err = newMemGuard(r, opt.MemLimit); err != nil {
		return nil, err
	}
	res, err := r.run()
	if r.trace != nil {
		if ferr := r.trace.Flush(); ferr != nil && err == nil {
			err = ferr
		}
	}
	return res, err
}

// caLimits bound the CA certificate file a node reads.
var caLimits = bounded.Limits{What: "a CA certificate (PEM)", MaxBytes: 1 << 20, MaxLine: 64 << 10}

// tlsConfig is node me's TLS 1.3 configuration: its certificate, and only
// the cluster's CA trusted, both ways.
func tlsConfig(dir string, d *Description, me int) (*tls.Config, error) {
	dir = NodeDir(dir, me)
	nd := d.Nodes[me]
	cert, err := tls.LoadX509KeyPair(filepath.Join(dir, nd.Cert), filepath.Join(dir, nd.Key))
	if err != nil {
		return nil, fmt.Errorf("node %d's certificate: %v", me, err)
	}
	caPEM, err := bounded.ReadFile(filepath.Join(dir, d.CA), caLimits)
	if err != nil {
		return nil, fmt.Errorf("the cluster's CA: %v", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, fmt.Errorf("the cluster's CA file %s holds no certificate", d.CA)
	}
	return &tls.Config{
		MinVersion: tls.VersionTLS13, Certificates: []tls.Certificate{cert},
		RootCAs: pool, ClientCAs: pool, ClientAuth: tls.RequireAndVerifyClientCert,
	}, nil
}

func (r *nodeRun) logf(format string, args ...any) {
	fmt.Fprintf(r.log, "node %d: %s\n", r.me, fmt.Sprintf(format, args...))
}

func (r *nodeRun) fault(lost int, format string, args ...any) *FaultError {
	return &FaultError{Lost: lost, Msg: fmt.Sprintf(format, args...)}
}

// violated is the fault of a node whose code broke a property (a panic, a
// send its model forbids, a changed decision).
func (r *nodeRun) violated(v election.Violation) *FaultError {
	return &FaultError{Lost: -1, Msg: v.String(), Broken: v}
}

// expected is the number of links node me has once connected: one per port,
// and its control links.
func (r *nodeRun) expected() int {
	if r.me == 0 {
		return len(r.data) + r.d.N - 1
	}
	return len(r.data) + 1
}

func (r *nodeRun) run() (*NodeResult, error) {
	addr := r.opt.Listen
	if addr == "" {
		addr = r.d.Nodes[r.me].Address
	}
	ln, err := r.opt.Transport.Listen(addr)
	if err != nil {
		return r.result(r.fault(-1, "cannot listen on %s: %v", addr, err))
	}
	// On the way out: the run is over, the listener closes, and the
	// connections still in their handshake are closed and waited for, so
	// that nothing of the node logs after it has left.
	var accepting sync.WaitGroup
	defer accepting.Wait()
	defer ln.Close()
	defer close(r.closed)
	accepting.Add(1)
	go func() {
		defer accepting.Done()
		r.accept(ln)
	}()
	deadline := time.Now().Add(r.opt.Timeout)
	dialErrs := make(chan error, len(r.data)+1)
	dials := 0
	for p := range r.data {
		to, _ := r.cfg.Graph.Neighbor(int32(r.me), elect.Port(p))
		if r.me < int(to) {
			dials++
			go func() { dialErrs <- r.dial(int(to), elect.Port(p), deadline) }()
		}
	}
	if r.me != 0 {
		dials++
		go func() { dialErrs <- r.dial(0, ControlPort, deadline) }()
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for waiting := true; waiting; {
		select {
		case err := <-dialErrs:
			dials--
			if err != nil {
				return r.result(err)
			}
		case <-r.ready:
			waiting = false
		case f := <-r.refused:
			return r.result(f)
		case <-timer.C:
			return r.result(r.fault(r.firstMissing(), "no link to %s after %v: the peers did not connect", r.missing(), r.opt.Timeout))
		}
	}
	return r.result(r.loop())
}

// missing names the links not established.
func (r *nodeRun) missing() string {
	r.setupMu.Lock()
	defer r.setupMu.Unlock()
	var names []string
	for p, l := range r.data {
		if l == nil {
			to, _ := r.cfg.Graph.Neighbor(int32(r.me), elect.Port(p))
			names = append(names, fmt.Sprintf("node %d (port %d)", to, p))
		}
	}
	for i, l := range r.control {
		if l == nil && (r.me != 0 || i != 0) {
			peer := i
			if r.me != 0 {
				peer = 0
			}
			names = append(names, fmt.Sprintf("node %d (control)", peer))
		}
	}
	return strings.Join(names, ", ")
}

func (r *nodeRun) firstMissing() int {
	r.setupMu.Lock()
	defer r.setupMu.Unlock()
	for p, l := range r.data {
		if l == nil {
			to, _ := r.cfg.Graph.Neighbor(int32(r.me), elect.Port(p))
			return int(to)
		}
	}
	if r.me != 0 && r.control[0] == nil {
		return 0
	}
	for i := 1; i < len(r.control) && r.me == 0; i++ {
		if r.control[i] == nil {
			return i
		}
	}
	return -1
}

// registerWith records a new link and starts its reader and writer.
func (r *nodeRun) registerWith(peer int, p elect.Port, conn net.Conn, fr *FrameReader) bool {
	l := &link{peer: peer, port: p, conn: conn, signal: make(chan struct{}, 1), written: make(chan struct{})}
	r.setupMu.Lock()
	slot := &r.control[0]
	switch {
	case p != ControlPort:
		slot = &r.data[p]
	case r.me == 0:
		slot = &r.control[peer]
	}
	if *slot != nil || r.left {
		r.setupMu.Unlock()
		return false
	}
	*slot = l
	r.linked++
	if r.linked == r.expected() {
		close(r.ready)
	}
	r.setupMu.Unlock()
	go r.read(l, fr)
	go r.write(l)
	return true
}

// read turns a link's frames into inputs until the link ends.
func (r *nodeRun) read(l *link, fr *FrameReader) {
	for {
		var f Frame
		err := fr.Read(&f)
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			r.post(input{kind: inEnd, link: l, err: err})
			return
		}
		r.post(input{kind: inFrame, link: l, frame: f})
	}
}

// write sends a link's pending frames, in batches, until the node leaves;
// then it writes what is left and ends.
func (r *nodeRun) write(l *link) {
	defer close(l.written)
	var buf []byte
	for {
		closing := false
		select {
		case <-l.signal:
		case <-r.closing:
			closing = true
		}
		l.mu.Lock()
		buf, l.pending = l.pending, buf[:0]
		l.mu.Unlock()
		if len(buf) > 0 {
			if _, err := l.conn.Write(buf); err != nil {
				if !closing {
					r.post(input{kind: inEnd, link: l, err: fmt.Errorf("writing: %v", err)})
				}
				return
			}
		}
		if closing {
			return
		}
	}
}

// post adds an input to the main loop's inbox; it never blocks.
func (r *nodeRun) post(in input) {
	r.inMu.Lock()
	before := cap(r.inbox)
	r.inbox = append(r.inbox, in)
	r.mem.grew(before, cap(r.inbox), inputBytes)
	r.inMu.Unlock()
	select {
	case r.inSig <- struct{}{}:
	default:
	}
}

// queue appends a frame to a link's pending writes.
func (r *nodeRun) queue(l *link, f *Frame) {
	l.mu.Lock()
	before := cap(l.pending)
	l.pending = AppendFrame(l.pending, f)
	r.mem.grew(before, cap(l.pending), 1)
	l.mu.Unlock()
}

// flush wakes the writers of links with pending frames.
func (r *nodeRun) flush() {
	r.setupMu.Lock()
	defer r.setupMu.Unlock()
	for _, ls := range [][]*link{r.data, r.control} {
		for _, l := range ls {
			if l == nil {
				continue
			}
			l.mu.Lock()
			has := len(l.pending) > 0
			l.mu.Unlock()
			if has {
				select {
				case l.signal <- struct{}{}:
				default:
				}
			}
		}
	}
}
