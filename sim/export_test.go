package sim

import "github.com/electkit/elect/election"

// TouchAhead reports how far ahead a run of cfg prefetches (0: it does not).
func TouchAhead(cfg election.Config) int {
	e, err := newEngine(&cfg)
	if err != nil {
		panic(err)
	}
	defer e.releaseBuffers()
	return e.nodes.touchAhead
}
