package experiment

import (
	"bytes"
	"strings"
	"testing"
)

// TestApplyTagsEveryLineWithItsGrid: a sweep's line ends with its grid's
// fingerprint, and a shard's also with its shard tag, which untag removes
// to give the unsharded sweep's line.
func TestApplyTagsEveryLineWithItsGrid(t *testing.T) {
	rec := []byte(`{"algorithm":"lcr","n":8,"seed":1}` + "\n")
	whole := ShardTag{Grid: "0123456789abcdef"}
	if got, want := string(whole.Apply(rec)), `{"algorithm":"lcr","n":8,"seed":1,"grid":"0123456789abcdef"}`+"\n"; got != want {
		t.Fatalf("Apply = %q, want %q", got, want)
	}
	shard := ShardTag{Index: 2, Count: 3, Runs: 10, Grid: whole.Grid}
	line := shard.Apply(rec)
	if want := `{"algorithm":"lcr","n":8,"seed":1,"grid":"0123456789abcdef","shard":{"index":2,"count":3,"runs":10,"grid":"0123456789abcdef"}}` + "\n"; string(line) != want {
		t.Fatalf("Apply = %q, want %q", line, want)
	}
	out, tag, err := untag(line)
	if err != nil || tag == nil || *tag != shard || !bytes.Equal(out, whole.Apply(rec)) {
		t.Errorf("untag = %q, %+v, %v", out, tag, err)
	}
}

// TestCheckResume: a file resumes only under the sweep and the shard that
// wrote it.
func TestCheckResume(t *testing.T) {
	rec := []byte(`{"algorithm":"lcr","n":8,"seed":1}` + "\n")
	whole := ShardTag{Grid: "aaaaaaaaaaaaaaaa"}
	shard1 := ShardTag{Index: 1, Count: 2, Runs: 4, Grid: whole.Grid}
	shard2 := ShardTag{Index: 2, Count: 2, Runs: 4, Grid: whole.Grid}
	other := ShardTag{Grid: "bbbbbbbbbbbbbbbb"}
	lines := func(tag ShardTag, k int) []byte { return bytes.Repeat(tag.Apply(rec), k) }
	for _, c := range []struct {
		data []byte
		tag  ShardTag
		want string // "" for no error
	}{
		{nil, whole, ""},
		{lines(whole, 3), whole, ""},
		{lines(shard1, 2), shard1, ""},
		{append(lines(whole, 2), '\n'), whole, ""},
		{lines(other, 1), whole, "f:1 is from another sweep (grid bbbbbbbbbbbbbbbb, this one's is aaaaaaaaaaaaaaaa)"},
		{append(lines(whole, 2), lines(other, 1)...), whole, "f:3 is from another sweep"},
		{lines(shard1, 1), shard2, "f:1 is from shard 1/2, not shard 2/2"},
		{lines(whole, 1), shard1, "f:1 is from the sweep without --shard, not shard 1/2"},
		{lines(shard1, 1), whole, "f:1 is from shard 1/2, not the sweep without --shard"},
		{rec, whole, `f:1 has no field "grid"`},
		{[]byte("not json\n"), whole, "f:1: not a JSON line of a sweep"},
	} {
		err := CheckResume(c.data, "f", c.tag)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckResume(%q, %+v) = %v, want %q", c.data, c.tag, err, c.want)
		}
	}
}

// FuzzCheckResume: any input is refused or accepted without a panic; the
// lines a sweep writes are accepted under its own tag.
func FuzzCheckResume(f *testing.F) {
	f.Add([]byte(`{"algorithm":"lcr","grid":"ab"}`+"\n"), "ab", 0, 0)
	f.Add([]byte(`{"grid":"ab","shard":{"index":1,"count":2,"runs":3,"grid":"ab"}}`), "ab", 1, 2)
	f.Add([]byte(`{"grid":null}`), "", 0, 0)
	f.Fuzz(func(t *testing.T, data []byte, grid string, index, count int) {
		tag := ShardTag{Index: index, Count: count, Grid: grid}
		_ = CheckResume(data, "f", tag)
		if strings.ContainsAny(grid, "\"\\\n") || !isHex(grid) {
			return
		}
		if err := CheckResume(tag.Apply([]byte(`{"algorithm":"lcr"}`)), "f", tag); err != nil {
			t.Fatalf("a line of %+v is refused under its own tag: %v", tag, err)
		}
	})
}

// isHex says whether s is made of lower-case hexadecimal digits, as a
// fingerprint is.
func isHex(s string) bool {
	return strings.Trim(s, "0123456789abcdef") == ""
}

// TestGridRefusesRepeats: a grid built in code is checked as the command
// line's is.
func TestGridRefusesRepeats(t *testing.T) {
	for _, c := range []struct {
		g    Grid
		want string
	}{
		{Grid{Algorithms: []string{"lcr", "hs", "lcr"}, Sizes: []int{8}, Trials: 1}, "lcr is listed twice among the algorithms"},
		{Grid{Algorithms: []string{"lcr"}, Sizes: []int{8, 16, 8}, Trials: 1}, "size 8 is listed twice"},
		{Grid{Algorithms: []string{"lcr"}, Sizes: []int{8}, Trials: 1, Params: map[string][]string{"x": {"1", "1"}}}, "--x 1,1: 1 is listed twice"},
	} {
		if _, err := c.g.Points(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.g, err, c.want)
		}
	}
	g := Grid{Algorithms: []string{"lcr"}, Sizes: []int{8}, Deliveries: []string{"fifo", Allowed}, Trials: 1}
	if points, err := g.Points(); err != nil || len(points) != 5 {
		t.Errorf("fifo,allowed: %d points, %v; want the 5 delivery models lcr allows", len(points), err)
	}
}

// TestFingerprintCountsFaults: two grids that differ only in their faults
// run different runs and have different fingerprints; a grid without
// faults keeps the fingerprint it had before faults were counted.
func TestFingerprintCountsFaults(t *testing.T) {
	g := Grid{Algorithms: []string{"lcr"}, Sizes: []int{8}, Trials: 3, Seed: 1}
	before := g.Fingerprint()
	g.Faults = "loss:p=0.1"
	if g.Fingerprint() == before {
		t.Errorf("the faults do not change the fingerprint")
	}
	// The fingerprint of this grid when faults were not counted (elect at
	// 5770649).
	if want := "523b22e1737e45a2"; before != want {
		t.Errorf("fingerprint %s, want %s as before", before, want)
	}
}
