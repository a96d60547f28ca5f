package live

import (
	"unsafe"

	"github.com/electkit/elect/election"
)

// AsyncBuffers runs cfg (asynchronous) and reports what holds buffers at
// its end: how many nodes hold an inbox buffer and how many an output
// buffer, and the number and the largest capacity of the inbox buffers
// the workers keep free.
func AsyncBuffers(cfg election.Config) (inboxes, outs, free, largest int, err error) {
	if err := Check(&cfg); err != nil {
		return 0, 0, 0, 0, err
	}
	cfg.CausalTime = true
	r := newRun(&cfg)
	r.runAsync()
	if _, err := r.finish(); err != nil {
		return 0, 0, 0, 0, err
	}
	for _, nd := range r.nodes {
		if nd.inbox != nil {
			inboxes++
		}
		if nd.out != nil {
			outs++
		}
	}
	bufs := r.async.inboxPool.bufs
	for _, w := range r.async.workers {
		bufs = append(bufs, w.inboxes.bufs...)
	}
	for _, b := range bufs {
		free++
		largest = max(largest, cap(b))
	}
	return inboxes, outs, free, largest, nil
}

// MessageSizes are the sizes of a message in an inbox and in an output, as
// this package's types make them (the memory guard reads them from package
// footprint, which must agree).
var MessageSizes = [2]uintptr{unsafe.Sizeof(envelope{}), unsafe.Sizeof(outgoing{})}
