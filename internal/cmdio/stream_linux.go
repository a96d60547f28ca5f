package cmdio

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"syscall"
)

// canMap: Linux maps a stream's window (Stream).
const canMap = true

// errNoMapping is a file system that cannot map a stream's window or
// reserve its blocks; the stream then writes with write(2).
var errNoMapping = errors.New("the file cannot be mapped")

// extend reserves the blocks of bytes [at, at+size) of f, extending it to
// at+size: a full disk is said here, not by a fault when a page of the
// window is first written.
func extend(f *os.File, at, size int64) error {
	err := syscall.Fallocate(int(f.Fd()), 0, at, size)
	if errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("%w: %v", errNoMapping, err)
	}
	return err
}

// mapWindow maps bytes [at, at+size) of f, shared: what is copied into it
// is in the file's pages.
func mapWindow(f *os.File, at, size int64) ([]byte, error) {
	b, err := syscall.Mmap(int(f.Fd()), at, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if errors.Is(err, syscall.ENODEV) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EINVAL) {
		return nil, fmt.Errorf("%w: %v", errNoMapping, err)
	}
	return b, err
}

func unmap(b []byte) error { return syscall.Munmap(b) }

// copyMapped copies b to the start of dst, a window: a fault on its pages
// (an I/O error of the file system under them) is an error, not a crash.
func copyMapped(dst, b []byte) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the file's pages failed: %v", r)
		}
	}()
	copy(dst, b)
	return nil
}
