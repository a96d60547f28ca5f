package view

import "time"

// HoldChecks makes every check of a windowed trace wait, before its end,
// for the returned function to be called.
func HoldChecks() (release func()) {
	g := make(chan struct{})
	checkGate.Store(&g)
	return func() { close(g); checkGate.Store(nil) }
}

// SetScanChunk sets the first pass's read size and returns the old one.
func SetScanChunk(n int) int {
	old := scanChunk
	scanChunk = n
	return old
}

// SetHeaderTimeout sets the server's header timeout for the servers
// started after it, and returns the old one.
func SetHeaderTimeout(d time.Duration) time.Duration {
	old := headerTimeout
	headerTimeout = d
	return old
}
