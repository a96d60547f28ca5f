package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect/scenario"
)

// greedy follows, from the start, the step whose extreme of quantity q
// (max or min) is the session's, until the execution ends, and returns
// the counts reached.
func greedy(t *testing.T, ss *Session, q int, worst bool) []int64 {
	t.Helper()
	for {
		cs, err := ss.Choices()
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 {
			return ss.Counts()
		}
		hi, lo, err := ss.Reach()
		if err != nil {
			t.Fatal(err)
		}
		j := -1
		for k, c := range cs {
			if worst && c.Max[q] == hi[q] || !worst && c.Min[q] == lo[q] {
				j = k
				break
			}
		}
		if j < 0 {
			t.Fatalf("no step keeps the extreme %d/%d of %s", hi[q], lo[q], ss.Names[q])
		}
		if err := ss.Step(j); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSessionReachesTheCheckersExtremes: LCR at n = 5 over every ID
// assignment, FIFO: 'elect check lcr --n 5' finds at most 15 = n(n+1)/2
// and at least 9 = 2n-1 election messages (seed 001 §5.2.1.1); a session
// that always takes the worst-case step ends with 15, the best-case step
// with 9, and undoing every step comes back to the start.
func TestSessionReachesTheCheckersExtremes(t *testing.T) {
	ss, err := NewSession(Options{Spec: scenario.Spec{Algorithm: "lcr", N: 5}, IDs: "all", Delivery: "fifo"})
	if err != nil {
		t.Fatal(err)
	}
	if err := ss.SearchFirst(); err != nil {
		t.Fatal(err)
	}
	ss.SearchRoots(2, nil)
	hi, lo, err := ss.Reach()
	if err != nil {
		t.Fatal(err)
	}
	if hi[0] != 15 || lo[0] != 9 {
		t.Fatalf("reach %d..%d election messages, want 9..15", lo[0], hi[0])
	}
	if got := greedy(t, ss, 0, true); got[0] != 15 {
		t.Errorf("worst-case steps: %d election messages, want 15", got[0])
	}
	for ss.Undo() {
	}
	if ss.IDs() != nil || ss.Taken() != 0 {
		t.Fatalf("undo all: IDs %v, %d steps", ss.IDs(), ss.Taken())
	}
	if got := greedy(t, ss, 0, false); got[0] != 9 {
		t.Errorf("best-case steps: %d election messages, want 9", got[0])
	}
}

// TestSessionUndoRestoresTheState: Chang-Roberts on a ring of 4 with IDs
// 4,3,2,1 under bag delivery: along the worst-case path, taking each
// choice in turn and undoing it gives back the same choices, extremes and
// counts; and the reachable extremes never widen as steps are taken.
func TestSessionUndoRestoresTheState(t *testing.T) {
	ss, err := NewSession(Options{Spec: scenario.Spec{Algorithm: "chang-roberts", N: 4}, IDs: "4,3,2,1", Delivery: "bag"})
	if err != nil {
		t.Fatal(err)
	}
	fingerprint := func() string {
		cs, err := ss.Choices()
		if err != nil {
			t.Fatal(err)
		}
		hi, lo, _ := ss.Reach()
		return fmt.Sprint(cs, hi, lo, ss.Counts())
	}
	prevHi, prevLo, _ := ss.Reach()
	for steps := 0; ; steps++ {
		cs, _ := ss.Choices()
		if len(cs) == 0 {
			break
		}
		before := fingerprint()
		for j := range cs {
			if err := ss.Step(j); err != nil {
				t.Fatal(err)
			}
			ss.Undo()
			if after := fingerprint(); after != before {
				t.Fatalf("step %d, choice %d: undo gave %s, want %s", steps, j, after, before)
			}
		}
		hi, _, _ := ss.Reach()
		j := 0
		for k, c := range cs {
			if c.Max[0] == hi[0] {
				j = k
				break
			}
		}
		ss.Step(j)
		nhi, nlo, _ := ss.Reach()
		for q := range nhi {
			if nhi[q] > prevHi[q] || nlo[q] < prevLo[q] {
				t.Fatalf("after step %d the reach of %s widened: %d..%d from %d..%d", steps, ss.Names[q], nlo[q], nhi[q], prevLo[q], prevHi[q])
			}
		}
		prevHi, prevLo = nhi, nlo
	}
	if ss.Taken() == 0 {
		t.Fatal("no step taken")
	}
}

// TestSessionSearchRootsAgreesWithOneSearchEach: Chang-Roberts on a ring of 5 over
// every ID assignment (24 up to rotation), bag delivery: the extremes
// from the start that SearchRoots records on two workers (each reusing
// its last search's memory) equal those of a fresh search of each
// configuration alone; before the search the assignments are pending and
// the reach is unknown; afterwards the progress counts every one.
func TestSessionSearchRootsAgreesWithOneSearchEach(t *testing.T) {
	opt := Options{Spec: scenario.Spec{Algorithm: "chang-roberts", N: 5}, IDs: "all", Delivery: "bag"}
	ss, err := NewSession(opt)
	if err != nil {
		t.Fatal(err)
	}
	if cs, _ := ss.Choices(); len(cs) != 24 || !cs[0].Pending || cs[0].Max != nil {
		t.Fatalf("before the search: %d choices, the first %+v; want 24 pending", len(cs), cs[0])
	}
	if hi, lo, err := ss.Reach(); hi != nil || lo != nil || err != nil {
		t.Fatalf("before the search the reach is %v..%v (%v), want unknown", lo, hi, err)
	}
	ss.SearchRoots(2, nil)
	cs, err := ss.Choices()
	if err != nil {
		t.Fatal(err)
	}
	alone, _ := NewSession(opt)
	var states int64
	for k, c := range cs {
		x, err := alone.searchConfig(k, nil)
		if err != nil {
			t.Fatal(err)
		}
		states += x.states
		_, key := x.keys(x.initial())
		id, _ := x.memo.get(key)
		hi, lo := x.extremes(id)
		if fmt.Sprint(hi, lo) != fmt.Sprint(c.Max, c.Min) {
			t.Errorf("%s: SearchRoots found %v..%v, a search alone %v..%v", c.Label, c.Min, c.Max, lo, hi)
		}
	}
	if p := ss.Progress(); p.Done != 24 || p.Failed != 0 || p.States != states || p.SecondsLeft != 0 {
		t.Errorf("progress %+v, want 24 done, none failed, %d states", p, states)
	}
}

// TestSessionSearchRootsSurvivesFailedSearches: with a state limit that
// about half of Chang-Roberts' 24 configurations of 5 nodes (bag
// delivery) pass, one worker searching them in turn (each search taking
// over the memory of the one before, failed or not) finds for every
// configuration under the limit the extremes of a search alone, and for
// every one over it the limit's error.
func TestSessionSearchRootsSurvivesFailedSearches(t *testing.T) {
	opt := Options{Spec: scenario.Spec{Algorithm: "chang-roberts", N: 5}, IDs: "all", Delivery: "bag"}
	alone, _ := NewSession(opt)
	var sizes []int64
	want := map[int]string{}
	for k := range alone.cfgs {
		x, err := alone.searchConfig(k, nil)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, x.states)
		h, l, _ := alone.roots.get(k)
		want[k] = fmt.Sprint(h, l)
	}
	sorted := slices.Clone(sizes)
	slices.Sort(sorted)
	opt.MaxStates = sorted[len(sorted)/2]
	ss, _ := NewSession(opt)
	ss.SearchRoots(1, nil)
	failed := 0
	for k, size := range sizes {
		h, l, err := ss.roots.get(k)
		switch {
		case size > opt.MaxStates:
			failed++
			if err == nil || !strings.Contains(err.Error(), "(--max-states)") {
				t.Errorf("configuration %d (%d states, limit %d): %v, want the limit's error", k, size, opt.MaxStates, err)
			}
		case err != nil || fmt.Sprint(h, l) != want[k]:
			t.Errorf("configuration %d: %v %v (%v), alone %s", k, h, l, err, want[k])
		}
	}
	if p := ss.Progress(); failed == 0 || p.Failed != failed || p.Done != len(sizes) {
		t.Errorf("%d configurations over the limit, progress %+v", failed, p)
	}
}
