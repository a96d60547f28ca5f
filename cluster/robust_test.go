package cluster

import (
	"bytes"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
)

// emfileTransport is TCP whose listeners fail their first Accept calls
// with "too many open files", as a node under `ulimit -n 64` does when
// strangers hold its descriptors.
type emfileTransport struct {
	TCP
	failures int
}

func (e emfileTransport) Listen(addr string) (net.Listener, error) {
	ln, err := e.TCP.Listen(addr)
	if err != nil {
		return nil, err
	}
	l := &emfileListener{Listener: ln}
	l.left.Store(int64(e.failures))
	return l, nil
}

type emfileListener struct {
	net.Listener
	left atomic.Int64
}

func (l *emfileListener) Accept() (net.Conn, error) {
	if l.left.Add(-1) >= 0 {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Addr: l.Addr(), Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return l.Listener.Accept()
}

// TestAcceptSurvivesAnEMFILEBurst is the reproduction: under `ulimit -n
// 64`, 80 idle sockets held for 2 s made Accept fail once with EMFILE,
// which ended node 0's listener for good, silently, and the cluster
// faulted 20 s later. Here every node's first 6 Accept calls fail with
// EMFILE, and 12 idle sockets that never say a word are held open on node
// 0, more than the 4 connections it authenticates at once: each node logs
// one line for its burst and goes on, node 0 drops the idle sockets at its
// handshake timeout, and the election completes.
func TestAcceptSurvivesAnEMFILEBurst(t *testing.T) {
	const n = 4
	dir, d := initCluster(t, scenario.Spec{Algorithm: "hs", N: n, Seed: 1})
	var logs [n]bytes.Buffer
	var logMu sync.Mutex
	// The idle strangers, on node 0, as soon as it listens.
	var idle []net.Conn
	var idleMu sync.Mutex
	stop := make(chan struct{})
	defer func() {
		close(stop)
		idleMu.Lock()
		for _, c := range idle {
			c.Close()
		}
		idleMu.Unlock()
	}()
	go func() {
		for len(idle) < 12 {
			select {
			case <-stop:
				return
			default:
			}
			c, err := net.Dial("tcp", d.Nodes[0].Address)
			if err != nil {
				time.Sleep(5 * time.Millisecond)
				continue
			}
			idleMu.Lock()
			idle = append(idle, c)
			idleMu.Unlock()
		}
	}()
	res := make([]*NodeResult, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = RunNode(dir, NodeOptions{Index: i, Timeout: 10 * time.Second, Transport: emfileTransport{failures: 6},
				HandshakeTimeout: 300 * time.Millisecond, MaxHandshakes: 4, Log: &lockedWriter{&logMu, &logs[i]}})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v\n%s", i, err, logs[i].String())
		}
	}
	rec, err := Judge(d, nil, res, nil)
	if err != nil || rec.Outcome != election.OutcomeElected {
		t.Fatalf("after the burst: %v %v", rec, err)
	}
	for i := range n {
		got := logs[i].String()
		if strings.Count(got, "too many open files; retrying with backoff") != 1 {
			t.Errorf("node %d: want one line for its burst of EMFILE:\n%s", i, got)
		}
	}
	t.Logf("node 0's log:\n%s", logs[0].String())
}

func TestTemporaryAcceptErrors(t *testing.T) {
	for err, want := range map[error]bool{
		os.NewSyscallError("accept4", syscall.EMFILE): true,
		syscall.ENFILE:       true,
		syscall.ECONNABORTED: true,
		net.ErrClosed:        false,
		syscall.EINVAL:       false,
	} {
		if got := temporary(&net.OpError{Op: "accept", Err: err}); got != want {
			t.Errorf("%v: temporary %v, want %v", err, got, want)
		}
	}
	if acceptBackoff(1) != 5*time.Millisecond || acceptBackoff(2) != 10*time.Millisecond || acceptBackoff(100) != time.Second {
		t.Errorf("backoff %v %v %v", acceptBackoff(1), acceptBackoff(2), acceptBackoff(100))
	}
}
