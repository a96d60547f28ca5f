package sim

// TouchAhead reports how far ahead a run of cfg prefetches (0: it does not).
func TouchAhead(cfg Config) int {
	e, err := newEngine(&cfg)
	if err != nil {
		panic(err)
	}
	defer e.releaseBuffers()
	return e.nodes.touchAhead
}
