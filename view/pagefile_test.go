package view_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/electkit/elect/view"
)

// liveHeap is the heap in use after a collection: what the program holds.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// heapProbe is a writer that measures the live heap every 64 writes (the
// page's writes go through a 64 KB buffer: every 4 MB of page).
type heapProbe struct {
	writes int
	n      int64
	peak   uint64
}

func (p *heapProbe) Write(b []byte) (int, error) {
	if p.writes%64 == 0 {
		p.peak = max(p.peak, liveHeap())
	}
	p.writes++
	p.n += int64(len(b))
	return len(b), nil
}

// TestOpenPageHoldsNoWindow: the page of a trace file in windows
// (view.OpenPage, what 'elect view --out' writes) is the page PageWith
// writes from the trace in memory, byte for byte; and it is written
// without holding the trace: LCR on the decreasing ring of 220 (about 73,000
// events, 7 MB) in windows of 5,000 events (about 0.5 MB each): after
// OpenPage (both passes over the file) the program holds less than 1 MB
// more than before, and while the page is written less than 2 MB more
// (the old path held the whole trace, then a copy of each window and of
// its escaped text). The live heap is measured after a collection, so the
// test bounds what the code holds, not what the collector has yet to free.
func TestOpenPageHoldsNoWindow(t *testing.T) {
	data := lcrTrace(t, 220)
	path := filepath.Join(t.TempDir(), "lcr220.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	opt := view.Options{Threshold: 10_000, Window: 5_000}
	var want bytes.Buffer
	if err := view.PageWith(&want, data, opt); err != nil {
		t.Fatal(err)
	}
	wantLen := int64(want.Len())
	if !bytes.Contains(want.Bytes(), []byte(`id="w14"`)) || bytes.Contains(want.Bytes(), []byte(`id="w15"`)) {
		t.Fatal("the page is not in 15 windows")
	}
	var got bytes.Buffer
	pf, err := view.OpenPage(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := pf.Write(&got); err != nil {
		t.Fatal(err)
	}
	pf.Close()
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("OpenPage's page (%d bytes) differs from PageWith's (%d bytes)", got.Len(), want.Len())
	}
	want, got = bytes.Buffer{}, bytes.Buffer{}
	data = nil

	before := liveHeap()
	pf, err = view.OpenPage(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	opened := liveHeap()
	probe := &heapProbe{}
	if err := pf.Write(probe); err != nil {
		t.Fatal(err)
	}
	if probe.n != wantLen {
		t.Fatalf("wrote %d bytes, want %d", probe.n, wantLen)
	}
	t.Logf("live heap: %d KB before, %d KB once opened, at most %d KB while writing %d KB of page", before>>10, opened>>10, probe.peak>>10, probe.n>>10)
	if opened > before+1<<20 {
		t.Errorf("OpenPage holds %d KB", (opened-before)>>10)
	}
	if probe.peak > before+2<<20 {
		t.Errorf("writing the page held %d KB more than before", (probe.peak-before)>>10)
	}
}

// TestOpenPageRefusals: a trace of more events than the page limit is
// refused with its count; a file that is not a trace at its first line.
func TestOpenPageRefusals(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lcr40.jsonl")
	if err := os.WriteFile(path, lcrTrace(t, 40), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := view.OpenPage(path, view.Options{Threshold: 100, Window: 50, PageLimit: 1000}); err == nil || !strings.Contains(err.Error(), "events; a self-contained page holds at most 1000") {
		t.Errorf("a trace over the page limit: %v", err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := view.OpenPage(bad, view.Options{}); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("not a trace: %v", err)
	}
}
