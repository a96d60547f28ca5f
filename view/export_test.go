package view

// HoldChecks makes every check of a windowed trace wait, before its end,
// for the returned function to be called.
func HoldChecks() (release func()) {
	checkGate = make(chan struct{})
	g := checkGate
	return func() { close(g); checkGate = nil }
}

// SetScanChunk sets the first pass's read size and returns the old one.
func SetScanChunk(n int) int {
	old := scanChunk
	scanChunk = n
	return old
}
