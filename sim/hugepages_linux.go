package sim

import (
	"syscall"
	"unsafe"
)

// hugePageBytes is the size of a transparent huge page on the machines the
// simulator runs on (x86-64, and arm64 with 4 KiB base pages; with larger base pages the advice
// only asks for what the kernel gives).
const hugePageBytes = 2 << 20

// adviseHugePages asks the kernel to back the memory of a large array with
// transparent huge pages (madvise MADV_HUGEPAGE), where the system leaves
// that to the program (THP "madvise" mode, the common default). A run on a
// network larger than the cache reads its nodes and messages at random, and
// with 4 KiB pages most of those reads also miss the TLB; with 2 MiB pages
// far fewer do. Arrays under a few huge pages are left alone, and so is the
// answer: without huge pages the run is as before.
func adviseHugePages(p unsafe.Pointer, bytes uintptr) {
	if bytes < 4*hugePageBytes {
		return
	}
	// madvise takes whole pages: the pages that lie wholly within the array.
	page := uintptr(syscall.Getpagesize())
	skip := -uintptr(p) & (page - 1)
	whole := (bytes - skip) &^ (page - 1)
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, skip)), whole), syscall.MADV_HUGEPAGE)
}
