package claims

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/check"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/trace"
)

// TestBurnsAlgorithmsAreTheUniformRings: the reproduction covers every
// deterministic asynchronous ring algorithm of the catalog whose nodes are
// not told n, and no other.
func TestBurnsAlgorithmsAreTheUniformRings(t *testing.T) {
	want := []string{"lcr", "chang-roberts", "hs", "peterson", "franklin", "dolev-klawe-rodeh", "higham-przytycka", "stages-with-feedback"}
	if !slices.Equal(burnsAlgorithms, want) {
		t.Errorf("burnsAlgorithms = %v, want %v", burnsAlgorithms, want)
	}
}

// TestPastedFamily: the proof's arrangements of 1..8 from one of 1..4 are
// the C(8,4) = 70 splits, each half in the order of the pattern.
func TestPastedFamily(t *testing.T) {
	pattern := []elect.ID{2, 4, 1, 3}
	fam := pastedFamily(pattern)
	if len(fam) != 70 {
		t.Fatalf("%d arrangements, want 70", len(fam))
	}
	seen := map[string]bool{}
	for _, ids := range fam {
		sorted := slices.Sorted(slices.Values(ids))
		if !slices.Equal(sorted, []elect.ID{1, 2, 3, 4, 5, 6, 7, 8}) {
			t.Fatalf("%v is not an arrangement of 1..8", ids)
		}
		for _, half := range [][]elect.ID{ids[:4], ids[4:]} {
			// Ranks within the half follow the pattern: 2nd smallest, 4th, 1st, 3rd.
			s := slices.Sorted(slices.Values(half))
			if half[0] != s[1] || half[1] != s[3] || half[2] != s[0] || half[3] != s[2] {
				t.Fatalf("%v: half %v is not arranged as %v", ids, half, pattern)
			}
		}
		seen[idList(ids)] = true
	}
	if len(seen) != 70 || !slices.Equal(fam[0], []elect.ID{2, 4, 1, 3, 6, 8, 5, 7}) {
		t.Errorf("%d distinct, the first %v", len(seen), fam[0])
	}
}

func TestNodeList(t *testing.T) {
	for _, c := range []struct {
		in   []int32
		want string
	}{{nil, ""}, {[]int32{8}, "8"}, {[]int32{0, 1, 2, 3}, "0-3"}, {[]int32{0, 1, 11, 12, 13, 15}, "0-1,11-13,15"}} {
		if got := nodeList(c.in); got != c.want {
			t.Errorf("nodeList(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestBurnsRowsCanFail: a most below T(n), an unfinished search, S and S'
// that never meet, or a τ with too few messages fail their rows.
func TestBurnsRowsCanFail(t *testing.T) {
	ok := &check.OpenResult{N: 2, Assignments: 2, Finished: 2, Max: 1, LeastMax: 1}
	if r := openRow("x", []burnsOpen{{2, ok, ""}}, &check.Pasting{}); r.Verdict != Pass {
		t.Errorf("most 1 at n = 2: %s (%s)", r.Verdict, r.Measured)
	}
	low := &check.OpenResult{N: 8, Assignments: 70, Finished: 70, Max: 1, LeastMax: 1}
	if r := openRow("x", []burnsOpen{{2, ok, ""}, {8, low, "the proof's family"}}, &check.Pasting{}); r.Verdict != Fail {
		t.Errorf("most 1 at n = 8 (T = 2): %s", r.Verdict)
	}
	unfinished := &check.OpenResult{N: 4, Assignments: 24, Finished: 23, Max: 9, LeastMax: 4}
	if r := openRow("x", []burnsOpen{{4, unfinished, ""}}, &check.Pasting{}); r.Verdict != Fail || !strings.Contains(r.Measured, "23 of 24") {
		t.Errorf("an unfinished search: %s (%s)", r.Verdict, r.Measured)
	}
	loop := election.NewViolation(election.PropNonTermination, "round and round")
	unbounded := &check.OpenResult{N: 4, Assignments: 24, Finished: 23, Max: 9, LeastMax: 4, Violation: &loop, ViolationIDs: []elect.ID{1, 2, 3, 4}}
	if r := openRow("x", []burnsOpen{{4, unbounded, ""}}, &check.Pasting{}); r.Verdict != Pass || !strings.Contains(r.Measured, "unbounded") {
		t.Errorf("an open execution without end: %s (%s)", r.Verdict, r.Measured)
	}
	broken := election.NewViolation(election.PropMultipleLeaders, "two")
	unbounded.Violation = &broken
	if r := openRow("x", []burnsOpen{{4, unbounded, ""}}, &check.Pasting{}); r.Verdict != Fail || !strings.Contains(r.Measured, "multiple-leaders") {
		t.Errorf("a broken property: %s (%s)", r.Verdict, r.Measured)
	}
	apart := &check.Pasting{N: 16, Halves: [2]int64{10, 10}, S: []int32{8}, S2: []int32{0}}
	if r := pasteRow("x", apart, nil, nil, nil); r.Verdict != Fail || !strings.Contains(r.Measured, "not adjacent") {
		t.Errorf("S and S' apart: %s (%s)", r.Verdict, r.Measured)
	}
	short := &check.Pasting{N: 16, Halves: [2]int64{10, 10}, Adjacent: true, S: []int32{8, 9, 10, 11}, TauMessages: 1, Messages: 21}
	if r := pasteRow("x", short, nil, nil, nil); r.Verdict != Fail {
		t.Errorf("τ with 1 message at n = 16: %s", r.Verdict)
	}
	short.TauMessages, short.Messages = 2, 22
	if r := pasteRow("x", short, nil, nil, nil); r.Verdict != Pass {
		t.Errorf("τ with 2 messages at n = 16: %s (%s)", r.Verdict, r.Measured)
	}
}

// TestBurnsLCR runs the reproduction's part for LCR: both rows pass with
// the exact counts of the decreasing lines (n(n+1)/2 at every size: 3, 10,
// 36, 136), and the construction's trace reads back as an open execution
// of 16 nodes.
func TestBurnsLCR(t *testing.T) {
	rows, file, err := burnsAlgorithm(context.Background(), Env{Quick: true, Workers: 2}, "lcr")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Verdict != Pass || rows[1].Verdict != Pass {
		t.Fatalf("rows %+v", rows)
	}
	for _, want := range []string{"n=2: 3 ", "n=4: 10 ", "n=8: 36 over the 70 assignments of the proof's family", "n=16: 136 over the 2"} {
		if !strings.Contains(rows[0].Measured, want) {
			t.Errorf("measured %q lacks %q", rows[0].Measured, want)
		}
	}
	if file == nil || file.Name != "burns-lcr.jsonl" {
		t.Fatalf("file %+v", file)
	}
	tr, err := trace.ReadAll(bytes.NewReader(file.Data))
	if err != nil {
		t.Fatal(err)
	}
	last := tr.Events[len(tr.Events)-1]
	if tr.Header.N != 16 || last.Ev != "cut" || !strings.HasPrefix(last.Reason, "open: ") {
		t.Errorf("n = %d, last line %+v", tr.Header.N, last)
	}
}
