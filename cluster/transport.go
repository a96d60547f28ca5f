package cluster

import (
	"context"
	"errors"
	"net"
	"syscall"
	"time"
)

// Transport is how a node reaches the network: where it listens and how it
// dials a peer. TLS, framing and everything else run on the connections it
// gives, so a layer that delays, drops or breaks connections (a test's, or
// fault injection's) wraps a Transport and changes nothing else.
type Transport interface {
	// Listen listens on addr ("host:port", TCP).
	Listen(addr string) (net.Listener, error)
	// Dial connects to addr, giving up at ctx's deadline.
	Dial(ctx context.Context, addr string) (net.Conn, error)
}

// TCP is the network's own Transport: plain TCP sockets.
type TCP struct{}

// Listen listens on addr with net.Listen.
func (TCP) Listen(addr string) (net.Listener, error) { return net.Listen("tcp", addr) }

// Dial dials addr with a net.Dialer.
func (TCP) Dial(ctx context.Context, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "tcp", addr)
}

// temporary reports whether an Accept error may pass: too many open files
// (EMFILE, ENFILE), a connection aborted before it was accepted, or any
// error that says it is temporary, as net/http's Server retries them.
func temporary(err error) bool {
	if errors.Is(err, net.ErrClosed) {
		return false
	}
	for _, e := range []error{syscall.EMFILE, syscall.ENFILE, syscall.ECONNABORTED, syscall.ENOBUFS, syscall.ENOMEM} {
		if errors.Is(err, e) {
			return true
		}
	}
	var t interface{ Temporary() bool }
	return errors.As(err, &t) && t.Temporary()
}

// acceptBackoff is the pause after the k-th temporary Accept error in a
// row (k >= 1): 5 ms, doubling up to a second, as net/http's Server.
func acceptBackoff(k int) time.Duration {
	d := 5 * time.Millisecond << min(k-1, 8)
	return min(d, time.Second)
}
