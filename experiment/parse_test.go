package experiment

import (
	"slices"
	"strings"
	"testing"
)

func TestParseSizes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
	}{
		{"64,128,256", []int{64, 128, 256}},
		{"64..4096x2", []int{64, 128, 256, 512, 1024, 2048, 4096}},
		{"64..5000x2", []int{64, 128, 256, 512, 1024, 2048, 4096}},
		{"1000..10000+1000", []int{1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000}},
		{"8, 3..27x3", []int{8, 3, 9, 27}},
		{"5", []int{5}},
		{"7..7x2", []int{7}},
	} {
		got, err := ParseSizes(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseSizes(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "0", "-4", "x", "8..4x2", "4..8x1", "4..8+0", "4..8", "4,,8", "4,4", "1..100000+1", "1..3000000000x2"} {
		if got, err := ParseSizes(bad); err == nil {
			t.Errorf("ParseSizes(%q) = %v, want an error", bad, got)
		}
	}
}

// FuzzParseSizes: whatever the input, the parser either refuses it or
// returns 1..MaxSizes distinct sizes in 1..2^31; never panics or loops.
func FuzzParseSizes(f *testing.F) {
	for _, s := range []string{"64,128", "64..4096x2", "1000..10000+1000", "1..9223372036854775807x2", "3..2147483648x3", " 5 ,6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseSizes(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "experiment: ") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q is not one prefixed line", err)
			}
			return
		}
		if len(got) == 0 || len(got) > MaxSizes {
			t.Fatalf("%q: %d sizes", s, len(got))
		}
		seen := map[int]bool{}
		for _, n := range got {
			if n < 1 || n > maxSize || seen[n] {
				t.Fatalf("%q: bad or repeated size %d in %v", s, n, got)
			}
			seen[n] = true
		}
	})
}

// FuzzParseShard: accepted shards satisfy 1 <= i <= k, and the k shards of
// any grid are disjoint and cover it.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/1", "3/8", "0/4", "5/4", "a/b", "2", "1/1048577", "0+1/4", "3+1/4", "9223372036854775807+1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if sh.Index < 1 || sh.Index > sh.Count {
			t.Fatalf("%q accepted as %+v", s, sh)
		}
		for j := range 3 * sh.Count {
			in := 0
			for i := 1; i <= min(sh.Count, 64); i++ {
				if (Shard{i, sh.Count}).Contains(j) {
					in++
				}
			}
			if sh.Count <= 64 && in != 1 {
				t.Fatalf("job %d is in %d of %d shards", j, in, sh.Count)
			}
			if j > 200 {
				break
			}
		}
	})
}

// TestParseShardFromZero: j+1/k is shard j+1 of k, for schedulers that
// number their tasks from 0 (a Kubernetes Indexed Job).
func TestParseShardFromZero(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Shard
	}{{"0+1/4", Shard{1, 4}}, {"3+1/4", Shard{4, 4}}, {"2/4", Shard{2, 4}}, {" 0+1/1 ", Shard{1, 1}}} {
		if got, err := ParseShard(c.in); err != nil || got != c.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"4+1/4", "-1+1/4", "+1/4", "1+2/4", "0/4", "x+1/4", "9223372036854775807+1/4"} {
		if got, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) = %v, want an error", bad, got)
		}
	}
}
