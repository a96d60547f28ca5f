//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRunReadsAnEdgeListOnce (issue 30): 'elect run' reads a file:PATH
// topology once, however many places need it (the node count, the memory
// guard, the graph). The file is a named pipe that gives the edge list to
// its first reader only; a second reader would get an empty list, which
// the parser refuses ("no nodes and no edges").
func TestRunReadsAnEdgeListOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ring.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	const graph = "nodes 6\n0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n0 3\n"
	done := make(chan struct{})
	go func() {
		// The first writer gives the graph, every later one nothing.
		for text := graph; ; text = "" {
			if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
				return
			}
			select {
			case <-done:
				return
			default:
			}
		}
	}()
	defer func() {
		// Release the writer that waits for a reader that never comes.
		close(done)
		if f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}()
	code, out, errOut := runCLI("run", "echo", "--topology", "file:"+path)
	if code != 0 || !strings.Contains(out, "echo on file:"+path+", n = 6,") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want one read of the file and n = 6", code, out, errOut)
	}
}
