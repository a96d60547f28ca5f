// Package footprint is what the memory guard (package scenario's
// --mem-limit) must know of the runtimes' memory before a run, so that it
// need not link them: the size of an algorithm's node, and the goroutine
// runtime's flow-control window and per-node buffers. The runtimes size
// themselves from the same declarations (package live takes its inbox
// window here; its tests check the message sizes against its own types).
package footprint

import (
	"reflect"
	"unsafe"

	"github.com/electkit/elect"
)

// NodeBytes is the fixed part of one node of alg built with params for a
// small ring: the interface value that holds it and what it points to.
// Variable parts (buffers a node grows as it runs) are not counted.
func NodeBytes(alg *elect.Algorithm, params elect.Params) int64 {
	node := alg.New(elect.NodeInfo{ID: 1, N: 2, Degree: 2, Params: params})
	size := int64(unsafe.Sizeof(node))
	if t := reflect.TypeOf(node); t != nil && t.Kind() == reflect.Pointer {
		size += int64(t.Elem().Size())
	}
	return size
}

// The goroutine runtime's flow control and memory (package live).
const (
	// baseWindow is the room of every inbox, to which each of its node's
	// links adds two.
	baseWindow = 8
	// stackBytes is a node's goroutine stack in a synchronous run at its
	// largest in the runs measured (the Go runtime grows it from 2 KiB by
	// doubling; the handlers, the monitor and a lock's slow path reach 4
	// or 8 KiB). Asynchronous runs have no goroutine per node.
	stackBytes = 8 << 10
	// recordBytes is the rest of what a node costs: its record, its first
	// buffers, and the garbage collector's room; in a synchronous run its
	// recorder, latency histogram, spare inbox and output too (measured:
	// lcr n = 6000 decreasing peaks at 30 MB of RSS, 14 MB of which the
	// program holds before any node exists, so 2.7 KB a node, 0.6 KB of
	// it in a full inbox; the estimate is 5.2 KB, on the safe side).
	recordBytes = 4 << 10
	// EnvelopeBytes and OutgoingBytes are the sizes of a message in a
	// goroutine node's inbox and in its output (live's envelope and
	// outgoing, which its tests hold to these).
	EnvelopeBytes = 48
	OutgoingBytes = 48
)

// Window is the capacity of the inbox of a goroutine node of the given
// degree in an asynchronous run: senders wait for room beyond it.
func Window(degree int) int { return baseWindow + 2*degree }

// GoroutineNodeBytes is the most the goroutine runtime holds for one node
// of the given degree, besides the node's own state: its record and, in an
// asynchronous run, its inbox (a window, held while inputs wait in it) and,
// while it waits for room, its output (one batch: a window of inputs that
// send on average one message each; the free buffers the workers keep are
// a few more), or in a synchronous run its goroutine (whose messages of a
// round the caller counts as the simulator's). Beyond the windows, an
// asynchronous run holds what its algorithm keeps in flight around a cycle
// of waiting nodes (live/async.go).
func GoroutineNodeBytes(degree int, sync bool) int64 {
	if sync {
		return stackBytes + recordBytes
	}
	w := int64(Window(degree))
	return recordBytes + w*EnvelopeBytes + w*OutgoingBytes
}

// GoroutineInFlightPerNode is the most messages one goroutine node of the
// given degree holds at once in an asynchronous run: its inbox's window
// and one batch of output (counted in GoroutineNodeBytes).
func GoroutineInFlightPerNode(degree int) int64 { return 2 * int64(Window(degree)) }
