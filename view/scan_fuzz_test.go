package view

import (
	"bytes"
	"os"
	"testing"
)

// FuzzScanIndex: whatever the bytes, the first pass either refuses them
// or counts the events CountEvents counts, with one window start every w
// events, each at the start of a non-blank line, in increasing order; for
// any read size.
func FuzzScanIndex(f *testing.F) {
	if seed, err := os.ReadFile("testdata/echo4-drops.jsonl"); err == nil {
		f.Add(seed, uint8(3), uint16(64))
		f.Add(bytes.ReplaceAll(seed, []byte("\n"), []byte("\r\n \n")), uint8(2), uint16(7))
	}
	f.Fuzz(func(t *testing.T, data []byte, w uint8, chunk uint16) {
		win := int(w%16) + 1
		old := scanChunk
		scanChunk = int(chunk%4096) + 1
		defer func() { scanChunk = old }()
		ix, err := scanIndex(bytes.NewReader(data), int64(len(data)), win)
		if err != nil {
			return
		}
		if ix.events != CountEvents(data) {
			t.Fatalf("%d events, CountEvents %d", ix.events, CountEvents(data))
		}
		if want := (ix.events+win-1)/win + 1; len(ix.offsets) != want {
			t.Fatalf("%d offsets for %d events in windows of %d", len(ix.offsets), ix.events, win)
		}
		for k := 0; k+1 < len(ix.offsets); k++ {
			o := ix.offsets[k]
			if o <= 0 || o >= int64(len(data)) || data[o-1] != '\n' || o >= ix.offsets[k+1] {
				t.Fatalf("window %d starts at %d", k, o)
			}
			line := data[o:]
			if i := bytes.IndexByte(line, '\n'); i >= 0 {
				line = line[:i]
			}
			if len(bytes.TrimSpace(line)) == 0 {
				t.Fatalf("window %d starts on a blank line", k)
			}
		}
	})
}
