package experiment

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// FuzzShardTag: a tagged line untags to the line and the tag it was given;
// any other line untags without a panic, to itself or an error.
func FuzzShardTag(f *testing.F) {
	f.Add([]byte(`{"algorithm":"lcr","n":8,"seed":1}`+"\n"), 1, 2, 10, "ab12")
	f.Add([]byte(`{"algorithm":"lcr","shard":{"index":1}}`+"\n"), 3, 3, 3, "")
	f.Add([]byte(`,"shard":{`), 0, 0, 0, "x")
	f.Fuzz(func(t *testing.T, line []byte, index, count, runs int, grid string) {
		if out, tag, err := untag(line); err == nil && tag == nil && !bytes.Equal(out, line) {
			t.Fatalf("an untagged line changed: %q -> %q", line, out)
		}
		// A record elect writes: a JSON object on one line, not empty;
		// grids are hexadecimal (valid UTF-8, as JSON needs).
		if !bytes.HasPrefix(line, []byte("{")) || !bytes.HasSuffix(line, []byte("}\n")) || len(line) <= 3 || bytes.Contains(line, shardField) ||
			bytes.Count(line, []byte("\n")) != 1 || !utf8.ValidString(grid) {
			return
		}
		want := ShardTag{Index: index, Count: count, Runs: runs, Grid: grid}
		out, tag, err := untag(TagLine(line, want))
		if err != nil || tag == nil || *tag != want || !bytes.Equal(out, line) {
			t.Fatalf("%q tagged %+v: untag gives %q, %+v, %v", line, want, out, tag, err)
		}
	})
}
