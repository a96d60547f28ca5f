package cluster

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/electkit/elect/scenario"
)

// TestLoadRefusesAnOversizedDescription: cluster.json was read whole with
// no limit, so a description replaced by something huge (a sparse file of
// 257 MiB here, or /dev/zero behind a link) was read into memory before
// any check. Load now refuses it from its size, naming the file and the
// limit, and a description with a line longer than 1 MiB at that line.
func TestLoadRefusesAnOversizedDescription(t *testing.T) {
	dir, _ := initCluster(t, scenario.Spec{Algorithm: "hs", N: 4, Seed: 1})
	desc := filepath.Join(dir, DescriptionFile)
	if err := os.Truncate(desc, DescriptionLimits.MaxBytes+1); err != nil {
		t.Fatal(err)
	}
	_, _, err := Load(dir, nil)
	if err == nil || !strings.Contains(err.Error(), "larger than 256 MiB") || !strings.Contains(err.Error(), desc) {
		t.Errorf("Load of a 257 MiB cluster.json: %v, want a refusal naming the file and the 256 MiB limit", err)
	}
	// A line that could still be JSON (a string that never ends): garbage
	// ("{{{...") is refused at its second byte.
	if err := os.WriteFile(desc, []byte(`{"algorithm":"`+strings.Repeat("a", DescriptionLimits.MaxLine)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = Load(dir, nil)
	if err == nil || !strings.Contains(err.Error(), "line 1 is longer than 1 MiB") {
		t.Errorf("Load of a cluster.json with a 1 MiB line: %v, want the line refused", err)
	}
}

// TestNodeRefusesAnOversizedCA: a node read its CA file whole with no
// limit; it now refuses one larger than 1 MiB, naming it.
func TestNodeRefusesAnOversizedCA(t *testing.T) {
	dir, d := initCluster(t, scenario.Spec{Algorithm: "hs", N: 4, Seed: 1})
	ca := filepath.Join(NodeDir(dir, 0), d.CA)
	if err := os.Truncate(ca, caLimits.MaxBytes+1); err != nil {
		t.Fatal(err)
	}
	_, err := tlsConfig(dir, d, 0)
	if err == nil || !strings.Contains(err.Error(), "larger than 1 MiB") || !strings.Contains(err.Error(), ca) {
		t.Errorf("tlsConfig with a 1 MiB + 1 CA file: %v, want a refusal naming it", err)
	}
}

// FuzzReadDescription: no input makes the description reader panic; what
// it accepts ParseDescription accepts alike, and an error quotes at most
// bounded.MaxExcerpt bytes of the input at a time.
func FuzzReadDescription(f *testing.F) {
	f.Add([]byte(`{"format":"elect-cluster","version":1,"n":2,"ca":"ca.pem","nodes":[{"index":0,"address":"127.0.0.1:1","cert":"a","key":"b"},{"index":1,"address":"127.0.0.1:2","cert":"a","key":"b"}]}`))
	f.Add([]byte(`{"format":"` + strings.Repeat("x", 500) + `"}`))
	f.Add([]byte(`{"n":` + strings.Repeat("1", 500) + `}`))
	f.Add([]byte("{}{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ReadDescription(bytes.NewReader(data), "cluster.json")
		if err != nil {
			if len(err.Error()) > 800 {
				t.Fatalf("an error of %d bytes: %.400s", len(err.Error()), err)
			}
			return
		}
		if d.N != len(d.Nodes) {
			t.Fatalf("accepted n = %d with %d nodes", d.N, len(d.Nodes))
		}
	})
}

// TestLoadRefusesAnEndlessDescriptionAtOnce (issue 42): a cluster.json
// that is a pipe of garbage, or of an endless JSON number, is refused at
// its first bad byte, or at the line limit, not read to the size limit.
func TestLoadRefusesAnEndlessDescriptionAtOnce(t *testing.T) {
	for _, c := range []struct {
		name  string
		chunk []byte
		want  string
	}{
		{"random bytes", []byte("\x9f\x03garbage\n"), "not a cluster description: invalid character '\\u009f' looking for beginning of value"},
		{"an endless number", []byte("1111111111"), "line 1 is longer than 1 MiB"},
	} {
		dir := t.TempDir()
		desc := filepath.Join(dir, DescriptionFile)
		if err := syscall.Mkfifo(desc, 0o600); err != nil {
			t.Skipf("no FIFO: %v", err)
		}
		stop := make(chan struct{})
		go endlessWriter(desc, c.chunk, stop)
		_, _, err := Load(dir, nil)
		close(stop)
		if err == nil || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 300 {
			t.Errorf("%s: %v, want %q in one short line", c.name, err, c.want)
		}
	}
}

// endlessWriter writes chunk to the FIFO at path until stop is closed (and
// its reader goes).
func endlessWriter(path string, chunk []byte, stop <-chan struct{}) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	defer f.Close()
	for {
		select {
		case <-stop:
			return
		default:
		}
		if _, err := f.Write(chunk); err != nil {
			return
		}
	}
}
