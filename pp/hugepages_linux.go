package pp

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks Linux to back a large agent array with transparent
// huge pages (where the system allows it on request), which removes most TLB
// misses of the random accesses. It is only advice: failure is ignored and
// results do not depend on it.
func adviseHugePages[S any](states []S) {
	size := uintptr(len(states)) * unsafe.Sizeof(states[0])
	if size < 4<<20 {
		return
	}
	base := unsafe.Pointer(unsafe.SliceData(states))
	start := uintptr(base)
	const huge = 2 << 20
	lo := (start + huge - 1) &^ (huge - 1)
	hi := (start + size) &^ (huge - 1)
	if hi <= lo {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(base, lo-start)), hi-lo)
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
}
