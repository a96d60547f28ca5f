// Package atomicfile writes every output elect makes: the bytes go to a
// temporary file in the target's directory, which is synced and renamed
// onto the target only when it is complete. A write that fails removes
// the temporary file and nothing else, so a target that existed keeps
// its contents, and elect never removes or truncates a path it did not
// create.
//
// A target that is not a regular file (a directory, a device such as
// /dev/full, a pipe or a socket), or a regular file that cannot be
// written, is refused when the file is created, before any work is done:
// Check says so without creating anything that stays.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// Error is a target that cannot be written: it names the path and why.
type Error struct {
	Path string
	Why  string
}

func (e *Error) Error() string { return e.Path + ": " + e.Why }

// File is an output being written. Its bytes go to a temporary file
// beside the target; Commit renames it onto the target, Abort removes it.
// Exactly one of the two ends a File (Abort after Commit does nothing, so
// "defer f.Abort()" is the idiom).
type File struct {
	target string // the path renamed onto (symbolic links resolved)
	name   string // what the user asked for, for messages
	tmp    *os.File
	mode   fs.FileMode // the mode the target ends with, when it existed
	keep   bool        // the target existed: keep its mode
	done   bool
	err    error // the first write error
}

// Create starts an output at path with permissions perm (before the
// umask) for a new file; a target that exists keeps its mode. It refuses,
// with an *Error, a target that is not a regular file, a regular file
// this process cannot write, and a directory in which no file can be
// created.
func Create(path string, perm fs.FileMode) (*File, error) {
	target, info, err := resolve(path)
	if err != nil {
		return nil, err
	}
	f := &File{target: target, name: path}
	if info != nil {
		f.mode, f.keep = info.Mode().Perm(), true
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	for range 100 {
		// The name only has to be free; math/rand/v2's source is fine for
		// that, and nothing simulated depends on it.
		name := filepath.Join(dir, "."+base+".elect-"+strconv.FormatUint(rand.Uint64()&0xffffffff, 36)+".tmp")
		t, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, &Error{Path: path, Why: "cannot create a file in " + dir + ": " + reason(err)}
		}
		f.tmp = t
		register(f)
		return f, nil
	}
	return nil, &Error{Path: path, Why: "cannot find a free temporary name in " + dir}
}

// Check refuses, as Create does, a path that cannot be written, and leaves
// nothing behind: it creates the temporary file and removes it.
func Check(path string) error {
	f, err := Create(path, 0o666)
	if err != nil {
		return err
	}
	f.Abort()
	return nil
}

// resolve follows symbolic links to the file that would be replaced and
// checks it: a regular file this process may write, or nothing yet (info
// nil).
func resolve(path string) (string, fs.FileInfo, error) {
	if path == "" {
		return "", nil, &Error{Path: path, Why: "no file name given"}
	}
	target := path
	if t, err := filepath.EvalSymlinks(path); err == nil {
		target = t
	}
	info, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(target)
		if d, err := os.Stat(dir); err != nil || !d.IsDir() {
			return "", nil, &Error{Path: path, Why: "the directory " + dir + " does not exist; create it or choose another"}
		}
		return target, nil, nil
	case err != nil:
		return "", nil, &Error{Path: path, Why: reason(err)}
	case info.IsDir():
		return "", nil, &Error{Path: path, Why: "is a directory; name a file to write"}
	case !info.Mode().IsRegular():
		return "", nil, &Error{Path: path, Why: "is not a regular file (a device, pipe or socket); elect writes only regular files, which it replaces whole"}
	}
	if err := syscall.Access(target, 2); err != nil { // W_OK
		return "", nil, &Error{Path: path, Why: "exists and cannot be written (" + reason(err) + "); elect leaves it as it is"}
	}
	return target, info, nil
}

// reason is an operating system error without the operation and path
// that the messages already give.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// Name is the path the file will have once committed, as it was given.
func (f *File) Name() string { return f.name }

// Write writes to the temporary file; the first error is kept and
// returned by every later Write and by Commit.
func (f *File) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	if f.done {
		return 0, fmt.Errorf("atomicfile: write to %s after it was committed or aborted", f.name)
	}
	n, err := f.tmp.Write(p)
	if err == nil && failHook != nil {
		err = failHook(f, int64(n))
	}
	if err != nil {
		f.err = fmt.Errorf("writing %s: %s", f.name, reason(err))
	}
	return n, f.err
}

// Commit syncs the temporary file and renames it onto the target. On any
// failure it removes the temporary file and leaves the target as it was.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("atomicfile: %s committed or aborted twice", f.name)
	}
	err := f.err
	if err == nil && f.keep {
		err = f.tmp.Chmod(f.mode)
	}
	if err == nil {
		err = f.tmp.Sync()
	}
	if err == nil && failHook != nil {
		err = failHook(f, -1)
	}
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.tmp.Name(), f.target)
	}
	if err != nil {
		os.Remove(f.tmp.Name())
		f.finish()
		if err == f.err {
			return err
		}
		return fmt.Errorf("writing %s: %s", f.name, reason(err))
	}
	f.finish()
	if d, err := os.Open(filepath.Dir(f.target)); err == nil { // the rename, durable
		d.Sync()
		d.Close()
	}
	return nil
}

// Abort removes the temporary file; the target is left as it was. It does
// nothing after Commit.
func (f *File) Abort() {
	if f == nil || f.done {
		return
	}
	f.tmp.Close()
	os.Remove(f.tmp.Name())
	f.finish()
}

func (f *File) finish() {
	f.done = true
	unregister(f)
}

// WriteFileMode writes data to the file at path, which ends with exactly
// the permissions perm (a key's 0600), whatever a file at path had; the
// temporary file has them before any byte is written.
func WriteFileMode(path string, data []byte, perm fs.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	defer f.Abort()
	f.mode, f.keep = perm, true
	if err := f.tmp.Chmod(perm); err != nil {
		return fmt.Errorf("writing %s: %s", path, reason(err))
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}

// Write writes the file at path through write (buffered), with
// permissions 0666 before the umask for a new file.
func Write(path string, write func(io.Writer) error) error {
	f, err := Create(path, 0o666)
	if err != nil {
		return err
	}
	defer f.Abort()
	w := bufio.NewWriterSize(f, 1<<16)
	if err := write(w); err != nil {
		if f.err != nil {
			return f.err
		}
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Commit()
}

// WriteFile writes data to the file at path, with permissions perm
// (before the umask) for a new file.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}

// The files being written, so that an interrupted program can remove
// their temporary files (RemovePending).
var (
	pendingMu sync.Mutex
	pending   = map[*File]bool{}
)

func register(f *File) {
	pendingMu.Lock()
	pending[f] = true
	pendingMu.Unlock()
}

func unregister(f *File) {
	pendingMu.Lock()
	delete(pending, f)
	pendingMu.Unlock()
}

// RemovePending removes the temporary files of every output not yet
// committed or aborted, for a program that is about to exit on a signal.
func RemovePending() {
	pendingMu.Lock()
	defer pendingMu.Unlock()
	for f := range pending {
		os.Remove(f.tmp.Name())
	}
}

// failHook, when set (FailWrites), decides whether a write of n bytes
// (n = -1: the commit) fails.
var failHook func(f *File, n int64) error

// FailWrites makes every File fail once after bytes bytes have been
// written to it (bytes < 0: at its commit, after the sync), for tests
// that show a failed write leaves every existing path as it was; the
// returned function restores normal writing. Not safe for concurrent
// use with writes.
func FailWrites(bytes int64) (restore func()) {
	var mu sync.Mutex
	written := map[*File]int64{}
	failHook = func(f *File, n int64) error {
		mu.Lock()
		defer mu.Unlock()
		if n < 0 {
			if bytes < 0 {
				return errInjected
			}
			return nil
		}
		written[f] += n
		if bytes >= 0 && written[f] > bytes {
			return errInjected
		}
		return nil
	}
	return func() { failHook = nil }
}

var errInjected = errors.New("no space left on device (injected by a test)")
