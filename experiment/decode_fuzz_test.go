package experiment

import (
	"bytes"
	"testing"
)

// FuzzParseLine: no input line makes the sweep-record decoder panic (merge
// and plot read files a user hands them).
func FuzzParseLine(f *testing.F) {
	f.Add([]byte(`{"algorithm":"lcr","n":4,"seed":1,"outcome":"elected","messages":7,"time":4,"checks":[]}`))
	f.Add([]byte(`{"protocol":"angluin","n":10,"seed":1,"engine":"agent-array","interactions":50,"details":{}}`))
	f.Add([]byte(`{"algorithm":"lcr"}`))
	f.Add([]byte(`{"protocol":null}`))
	f.Add([]byte(`[1,2]`))
	f.Fuzz(func(t *testing.T, line []byte) {
		row, err := ParseLine(line)
		if err == nil {
			for _, m := range []string{"messages", "time", "bits", "interactions", "parallel_time", "leaders"} {
				row.Get(m)
			}
		}
	})
}

// FuzzMerge: no pair of shard files makes ReadShard or Merge panic, and
// an error quotes at most bounded.MaxExcerpt bytes of a file.
func FuzzMerge(f *testing.F) {
	f.Add([]byte("{\"algorithm\":\"lcr\",\"seed\":1}\n"), []byte("{\"algorithm\":\"lcr\",\"seed\":2}\n"))
	f.Add([]byte("{}\n{}\n"), []byte(""))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var shards []*ShardFile
		for i, data := range [][]byte{a, b} {
			s, err := ReadShard(bytes.NewReader(data), string(rune('a'+i)))
			if err != nil {
				if len(err.Error()) > 600 {
					t.Fatalf("an error of %d bytes: %.300s", len(err.Error()), err)
				}
				return
			}
			shards = append(shards, s)
		}
		var out bytes.Buffer
		Merge(&out, shards)
	})
}
