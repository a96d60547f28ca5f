package sim

import "unsafe"

// adviseSliceHugePages is adviseHugePages for the array of s, up to its
// length.
func adviseSliceHugePages[T any](s []T) {
	var zero T
	if len(s) > 0 {
		adviseHugePages(unsafe.Pointer(unsafe.SliceData(s)), uintptr(len(s))*unsafe.Sizeof(zero))
	}
}
