//go:build !linux

package sim

import "unsafe"

// adviseHugePages does nothing where transparent huge pages are not asked
// for with madvise (hugepages_linux.go says why the simulator asks).
func adviseHugePages(p unsafe.Pointer, bytes uintptr) {}
