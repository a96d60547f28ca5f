package live

import "github.com/electkit/elect/election"

// AsyncBuffers runs cfg (asynchronous) and reports what holds buffers at
// its end: the largest capacity of a node's inbox and of a worker's spare
// inbox, and how many nodes hold an output buffer.
func AsyncBuffers(cfg election.Config) (inbox, spare, outs int, err error) {
	if err := Check(&cfg); err != nil {
		return 0, 0, 0, err
	}
	cfg.CausalTime = true
	r := newRun(&cfg)
	r.runAsync()
	if _, err := r.finish(); err != nil {
		return 0, 0, 0, err
	}
	for _, nd := range r.nodes {
		inbox = max(inbox, cap(nd.inbox))
		if nd.out != nil {
			outs++
		}
	}
	for _, w := range r.async.workers {
		spare = max(spare, cap(w.spare))
	}
	return inbox, spare, outs, nil
}
