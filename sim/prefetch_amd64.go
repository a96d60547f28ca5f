package sim

import "unsafe"

// prefetch asks the processor to bring the cache line at p into cache, and
// goes on without waiting for it. It never faults, whatever p is.
//
//go:noescape
func prefetch(p unsafe.Pointer)
