package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// entries lists a directory's names, for checking that no temporary file
// is left.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteReplacesWholeAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("an older and longer content\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "new\n" {
		t.Fatalf("content %q, want %q", got, "new\n")
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the target's 0640", info.Mode().Perm())
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v, want only out.txt", names)
	}
}

// The reproduction: a failed write removed the target. A read-only
// target file and a directory target keep their contents; the temporary
// file is gone. (A process that may not write the file is refused up
// front; root may, and then the write is made to fail.)
func TestFailedWriteKeepsReadOnlyFileAndDirectory(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "readonly.txt")
	if err := os.WriteFile(ro, []byte("keep me\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	inner := filepath.Join(sub, "inside.txt")
	if err := os.WriteFile(inner, []byte("inside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{ro, sub} {
		restore := FailWrites(3)
		err := Write(target, func(w io.Writer) error { _, err := io.WriteString(w, "more than three bytes"); return err })
		restore()
		if err == nil {
			t.Fatalf("Write(%s) succeeded, want a refusal or the injected failure", target)
		}
		t.Logf("%s", err)
	}
	var ae *Error
	if err := Check(sub); !errors.As(err, &ae) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("Check(directory) = %v, want a refusal before any work", err)
	}
	if os.Geteuid() != 0 {
		if err := Check(ro); !errors.As(err, &ae) || !strings.Contains(err.Error(), "cannot be written") {
			t.Errorf("Check(read-only file) = %v, want a refusal before any work", err)
		}
	}
	if got, _ := os.ReadFile(ro); string(got) != "keep me\n" {
		t.Errorf("read-only file now holds %q", got)
	}
	if info, _ := os.Stat(ro); info.Mode().Perm() != 0o444 {
		t.Errorf("read-only file's mode now %v", info.Mode().Perm())
	}
	if got, _ := os.ReadFile(inner); string(got) != "inside\n" {
		t.Errorf("the directory's file now holds %q", got)
	}
	if names := entries(t, dir); strings.Join(names, ",") != "readonly.txt,sub" {
		t.Errorf("directory holds %v, want readonly.txt and sub only", names)
	}
	if names := entries(t, sub); strings.Join(names, ",") != "inside.txt" {
		t.Errorf("sub holds %v, want inside.txt only", names)
	}
}

// A device (elect pp angluin --trace /dev/full deleted /dev/full) is
// refused before anything is written.
func TestDeviceTargetRefused(t *testing.T) {
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	err := Check("/dev/null")
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("Check(/dev/null) = %v, want a refusal naming a non-regular file", err)
	}
}

// A write that fails midway, or at the commit, leaves the existing target
// as it was and no temporary file.
func TestFailingWriterLeavesTargetAndNoTemporaryFile(t *testing.T) {
	for _, after := range []int64{0, 1, 100, 1 << 16, -1} {
		dir := t.TempDir()
		path := filepath.Join(dir, "out.txt")
		os.WriteFile(path, []byte("before\n"), 0o644)
		restore := FailWrites(after)
		err := Write(path, func(w io.Writer) error {
			_, err := w.Write(bytes.Repeat([]byte("y"), 200000))
			return err
		})
		restore()
		if err == nil || !strings.Contains(err.Error(), "injected") {
			t.Fatalf("fail after %d: err = %v, want the injected failure", after, err)
		}
		if got, _ := os.ReadFile(path); string(got) != "before\n" {
			t.Errorf("fail after %d: target now holds %d bytes", after, len(got))
		}
		if names := entries(t, dir); len(names) != 1 {
			t.Errorf("fail after %d: directory holds %v", after, names)
		}
	}
}

func TestAbortLeavesNothingNew(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(filepath.Join(dir, "new.txt"), 0o666)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("partial"))
	f.Abort()
	f.Abort()
	if names := entries(t, dir); len(names) != 0 {
		t.Errorf("directory holds %v after Abort", names)
	}
	if err := Check(filepath.Join(dir, "missing", "x.txt")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Check of a path in a missing directory = %v", err)
	}
}

func TestSymlinkTargetReplacesTheFileItNames(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.txt")
	link := filepath.Join(dir, "link.txt")
	os.WriteFile(real, []byte("old"), 0o644)
	if err := os.Symlink("real.txt", link); err != nil {
		t.Skip(err)
	}
	if err := WriteFile(link, []byte("new"), 0o666); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(real); string(got) != "new" {
		t.Errorf("real file holds %q", got)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
}

func TestRemovePending(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(filepath.Join(dir, "x"), 0o666)
	if err != nil {
		t.Fatal(err)
	}
	RemovePending()
	if names := entries(t, dir); len(names) != 0 {
		t.Errorf("directory holds %v", names)
	}
	f.Abort()
}
