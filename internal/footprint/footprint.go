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

// UsesTimers reports whether the nodes of alg take timers
// (elect.TimerNode): the simulator then holds a pending timer for most of
// them.
func UsesTimers(alg *elect.Algorithm, params elect.Params) bool {
	_, ok := alg.New(elect.NodeInfo{ID: 1, N: 2, Degree: 2, Params: params}).(elect.TimerNode)
	return ok
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
	// recordBytes is the rest of what a node of a synchronous run costs:
	// its record, recorder, latency histogram, spare inbox and output, and
	// the garbage collector's room (measured: time-slice on a ring of
	// 2*10^5 nodes peaks at 7.9 KB a node less its state, its stack
	// included; the estimate is 10.2 KB).
	recordBytes = 2 << 10
	// asyncNodeBytes is what an asynchronous run holds for a node besides
	// its state, its ports' counters (PortBytes) and the messages in
	// flight: its record, its share of the workers' recorders and free
	// buffers, and the garbage collector's room (measured on rings of
	// 2*10^5 nodes: 254 to 324 bytes a node, lcr-random's the most).
	asyncNodeBytes = 384
	// FirstInbox is the capacity of the inbox buffer the goroutine
	// runtime makes for a node that receives at most that many messages
	// at once; beyond, it makes one of the window.
	FirstInbox = 4
	// EnvelopeBytes and OutgoingBytes are the sizes of a message in a
	// goroutine node's inbox and in its output (live's envelope and
	// outgoing, which its tests hold to these).
	EnvelopeBytes = 48
	OutgoingBytes = 48
	// PortBytes is what the goroutine runtime holds per port (per link and
	// direction): its message counter (8 bytes) and, at the end, the run
	// report's link count (24) and their sorting's room (measured:
	// afek-gafni and lmw on complete graphs of 1500 nodes, whose runs
	// hold few messages, peak at 36-39 bytes a port).
	PortBytes = 48
	// SyncMessageBytes is what a synchronous goroutine run holds for a
	// message of a round: an outgoing message in its sender's output and
	// an envelope in its receiver's inbox, both grown by doubling, the
	// arrays outgrown garbage until the collector takes them (measured:
	// bully on a complete graph of 1500 nodes, whose first round sends
	// n(n-1)/2 messages, peaks at 230 bytes a port, 48 of them the port's).
	SyncMessageBytes = 256
)

// Window is the capacity of the inbox of a goroutine node of the given
// degree in an asynchronous run: senders wait for room beyond it.
func Window(degree int) int { return baseWindow + 2*degree }

// GoroutineMessageBytes is what the goroutine runtime holds for a
// message in flight in an asynchronous run: an envelope in an inbox or an
// outgoing message in an output, counted as both.
const GoroutineMessageBytes = EnvelopeBytes + OutgoingBytes

// GoroutineNodeBytes is what the goroutine runtime holds for one node of
// the given degree, besides the node's own state, its ports (PortBytes)
// and the messages in flight: in a synchronous run its goroutine and
// record, in an asynchronous one its record (asyncNodeBytes) and, when it
// receives more messages at once than a first inbox holds (bursts: an
// algorithm that holds several messages per link at once, as echo's
// waves) and has as many links, an inbox and an output of a window each,
// which is how their buffers are made then (measured: echo on a 300x300
// grid peaks at 2.1 KB a node; a window of degree 4 is 16 messages, 1.5
// KB in both buffers). Other nodes take a first inbox of 4 envelopes. An
// asynchronous run's inboxes hold at most a window each
// (GoroutineInFlightPerNode), which a run fills only when its algorithm
// keeps that many in flight (LCR on decreasing IDs): such a run is not
// refused on the estimate of the worst case but stopped while it runs,
// when its buffers outgrow what the limit leaves them
// (election.Config.MaxQueueBytes; live counts them as they grow).
func GoroutineNodeBytes(degree int, sync, bursts bool) int64 {
	if sync {
		return stackBytes + recordBytes
	}
	if !bursts || degree < FirstInbox {
		return asyncNodeBytes
	}
	return asyncNodeBytes + int64(Window(degree))*GoroutineMessageBytes
}

// GoroutineInFlightPerNode is the most messages one goroutine node of the
// given degree holds at once in an asynchronous run: its inbox's window
// and one batch of output.
func GoroutineInFlightPerNode(degree int) int64 { return 2 * int64(Window(degree)) }
