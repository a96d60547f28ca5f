package check

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/trace"
)

// burnsRingAlgorithms are the catalog's deterministic uniform asynchronous
// ring algorithms, to which Burns' argument applies.
var burnsRingAlgorithms = []string{"lcr", "chang-roberts", "hs", "peterson", "franklin", "dolev-klawe-rodeh", "higham-przytycka", "stages-with-feedback"}

// burnsT is the recurrence of seed 001 §5.4.1 at powers of two: T(2) = 1,
// T(n) = 2T(n/2) + n/4 - 2.
func burnsT(n int) int64 {
	if n <= 2 {
		return 1
	}
	return 2*burnsT(n/2) + int64(n)/4 - 2
}

func decreasing(n int) []elect.ID {
	ids := make([]elect.ID, n)
	for i := range ids {
		ids[i] = elect.ID(n - i)
	}
	return ids
}

// TestOpenLineLCRDecreasingSendsTriangular: on a line of n nodes whose IDs
// decrease in the direction messages travel (towards the open edge), every
// ID k passes every node after its own, k messages, n(n+1)/2 in all, the
// open edge's included; with increasing IDs each ID stops at the next
// node, n in all (seed 001 §5.2.1.1's counts, on the line). On a
// unidirectional FIFO ring every execution sends the same messages (each
// node sees one stream), which the reduction reduces to one path.
func TestOpenLineLCRDecreasingSendsTriangular(t *testing.T) {
	for _, n := range []int{2, 5, 8, 16} {
		inc := slices.Clone(decreasing(n))
		slices.Reverse(inc)
		r, err := OpenLine(OpenOptions{Spec: scenario.Spec{Algorithm: "lcr", N: n}, IDs: [][]elect.ID{decreasing(n), inc}})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Complete() || r.Max != int64(n*(n+1)/2) || !slices.Equal(r.MaxIDs, decreasing(n)) || r.LeastMax != int64(n) || !slices.Equal(r.LeastIDs, inc) {
			t.Errorf("n=%d: most %d with %v, least %d with %v (complete %v), want %d and %d", n, r.Max, r.MaxIDs, r.LeastMax, r.LeastIDs, r.Complete(), n*(n+1)/2, n)
		}
	}
}

// TestOpenLineTwoNodes: on a line of two nodes, LCR's larger ID first
// sends 3 messages (each node its ID; the second forwards the first's
// onto the open edge), and 2 the other way; every algorithm's open
// executions send at least T(2) = 1 with every assignment, and at least
// T(4) = 1 on four nodes (the base of Burns' induction: somebody has to
// send).
func TestOpenLineTwoNodes(t *testing.T) {
	r, err := OpenLine(OpenOptions{Spec: scenario.Spec{Algorithm: "lcr", N: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Assignments != 2 || r.Max != 3 || !slices.Equal(r.MaxIDs, []elect.ID{2, 1}) || r.LeastMax != 2 {
		t.Errorf("lcr n=2: %d assignments, most %d with %v, least %d; want 2, 3 with [2 1], 2", r.Assignments, r.Max, r.MaxIDs, r.LeastMax)
	}
	for _, alg := range burnsRingAlgorithms {
		for _, n := range []int{2, 4} {
			r, err := OpenLine(OpenOptions{Spec: scenario.Spec{Algorithm: alg, N: n}})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Complete() || r.Assignments != []int{2: 2, 4: 24}[n] || r.LeastMax < burnsT(n) {
				t.Errorf("%s n=%d: complete %v over %d assignments, least most %d, want >= T(n) = %d", alg, n, r.Complete(), r.Assignments, r.LeastMax, burnsT(n))
			}
		}
	}
}

// TestOpenReductionKeepsMax: the partial-order reduction with the open
// edge's links left out finds the same most messages as every
// interleaving, on the bidirectional rings (where it reduces).
func TestOpenReductionKeepsMax(t *testing.T) {
	for _, alg := range []string{"hs", "franklin", "stages-with-feedback", "lcr"} {
		var got [2]*OpenResult
		for k, off := range []bool{false, true} {
			r, err := OpenLine(OpenOptions{Spec: scenario.Spec{Algorithm: alg, N: 4}, NoReduction: off})
			if err != nil {
				t.Fatal(err)
			}
			got[k] = r
		}
		if !got[0].Complete() || !got[1].Complete() || got[0].Max != got[1].Max || got[0].LeastMax != got[1].LeastMax || !slices.Equal(got[0].MaxIDs, got[1].MaxIDs) {
			t.Errorf("%s n=4: with the reduction most %d (%v), least %d; without %d (%v), least %d", alg, got[0].Max, got[0].MaxIDs, got[0].LeastMax, got[1].Max, got[1].MaxIDs, got[1].LeastMax)
		}
		if alg != "lcr" && got[0].States >= got[1].States {
			t.Errorf("%s n=4: %d states with the reduction, %d without", alg, got[0].States, got[1].States)
		}
	}
}

// TestOpenLineRefuses: Burns' argument is about deterministic uniform
// asynchronous ring algorithms.
func TestOpenLineRefuses(t *testing.T) {
	for alg, want := range map[string]string{
		"itai-rodeh": "deterministic", "time-slice": "synchronous", "all-to-all": "on rings",
	} {
		_, err := OpenLine(OpenOptions{Spec: scenario.Spec{Algorithm: alg, N: 4}})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", alg, err, want)
		}
	}
	if _, err := OpenLine(OpenOptions{Spec: scenario.Spec{Algorithm: "lcr", N: 10}}); err == nil || !strings.Contains(err.Error(), "too many") {
		t.Errorf("lcr n=10, every assignment: %v", err)
	}
	if _, err := OpenLine(OpenOptions{Spec: scenario.Spec{Algorithm: "lcr", N: 3}, IDs: [][]elect.ID{{1, 2}}}); err == nil {
		t.Error("two IDs for three nodes: accepted")
	}
}

// TestOpenLineLCRAllEightLong: every one of the 8! assignments of LCR's
// line of 8: the most is the decreasing line's 36, the least the 8 sends
// of the wake-ups (no ID can go less far than the next node).
func TestOpenLineLCRAllEightLong(t *testing.T) {
	if os.Getenv("ELECT_LONG_TESTS") == "" {
		t.Skip("long (40,320 searches, 15 s): set ELECT_LONG_TESTS=1 to run it; TestOpenLineLCRDecreasingSendsTriangular covers the two extremes")
	}
	r, err := OpenLine(OpenOptions{Spec: scenario.Spec{Algorithm: "lcr", N: 8}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete() || r.Assignments != 40320 || r.Max != 36 || !slices.Equal(r.MaxIDs, decreasing(8)) || r.LeastMax != 8 {
		t.Errorf("lcr n=8: complete %v, %d assignments, most %d with %v, least %d", r.Complete(), r.Assignments, r.Max, r.MaxIDs, r.LeastMax)
	}
}

// pasteHalves returns the halves of the construction on n nodes: IDs
// 1..n/2 and n/2+1..n, each decreasing.
func pasteHalves(n int) (low, high []elect.ID) {
	h := n / 2
	for i := range h {
		low, high = append(low, elect.ID(h-i)), append(high, elect.ID(n-i))
	}
	return low, high
}

// TestPasteMeetsBurnsBound builds the construction of seed 001 §5.4.1 on 8
// and 16 nodes for every algorithm: S and S' become adjacent, τ sends at
// least n/4 - 2 messages, and σ1σ2σ3τ is an open execution with at least
// the halves' messages plus n/4 - 2, hence at least 2T(n/2) + n/4 - 2.
func TestPasteMeetsBurnsBound(t *testing.T) {
	for _, alg := range burnsRingAlgorithms {
		for _, n := range []int{8, 16} {
			low, high := pasteHalves(n)
			p, err := Paste(PasteOptions{Spec: scenario.Spec{Algorithm: alg, N: n, Announce: true}, Low: low, High: high})
			if err != nil {
				t.Fatal(err)
			}
			quarter := int64(n)/4 - 2
			switch {
			case !p.Adjacent:
				t.Errorf("%s n=%d: S %v and S' %v never became adjacent", alg, n, p.S, p.S2)
			case p.Halves[0] < burnsT(n/2) || p.Halves[1] < burnsT(n/2):
				t.Errorf("%s n=%d: halves %v, below T(n/2) = %d", alg, n, p.Halves, burnsT(n/2))
			case p.QuiescentSteps != 0:
				t.Errorf("%s n=%d: σ3 has %d steps after halves that go as far as they can", alg, n, p.QuiescentSteps)
			case len(p.S)+len(p.S2) < n/2 || max(len(p.S), len(p.S2)) < n/4:
				t.Errorf("%s n=%d: |S| = %d, |S'| = %d: together below n/2, or both below n/4", alg, n, len(p.S), len(p.S2))
			case p.TauMessages < quarter || p.Messages != p.Halves[0]+p.Halves[1]+p.QuiescentMessages+p.TauMessages:
				t.Errorf("%s n=%d: τ sends %d (want >= %d), in all %d", alg, n, p.TauMessages, quarter, p.Messages)
			case p.Messages < 2*burnsT(n/2)+quarter:
				t.Errorf("%s n=%d: %d messages, below 2T(n/2) + n/4 - 2 = %d", alg, n, p.Messages, 2*burnsT(n/2)+quarter)
			}
			checkOpenTrace(t, alg, p)
		}
	}
}

// checkOpenTrace writes the construction's open execution as a trace and
// reads it back: the trace reader takes every line, the sends are the
// execution's messages, nothing is delivered across the open edge, the
// last line is the cut that says so, and the replay refuses it as not a
// whole run.
func checkOpenTrace(t *testing.T, alg string, p *Pasting) {
	t.Helper()
	x := p.Execution()
	var b bytes.Buffer
	if err := x.WriteTrace(&b); err != nil {
		t.Fatalf("%s n=%d: %v", alg, p.N, err)
	}
	tr, err := trace.ReadAll(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatalf("%s n=%d: the trace reader refuses the open execution: %v", alg, p.N, err)
	}
	if tr.Header == nil || tr.Header.Algorithm != alg || tr.Header.N != p.N || tr.Header.Runtime != "check" {
		t.Fatalf("%s n=%d: header %+v", alg, p.N, tr.Header)
	}
	a, c := x.OpenEdge()
	if [2]int32{a, c} != p.OpenEdge {
		t.Errorf("%s n=%d: open edge %d-%d, the construction's %v", alg, p.N, a, c, p.OpenEdge)
	}
	across := func(u, v int32) bool { return u == a && v == c || u == c && v == a }
	var sends, wakes int64
	for _, ev := range tr.Events {
		switch ev.Ev {
		case "send":
			sends++
		case "wake":
			wakes++
		case "deliver":
			if across(ev.From, ev.To) {
				t.Errorf("%s n=%d: a message is delivered across the open edge: %+v", alg, p.N, ev)
			}
		}
	}
	last := tr.Events[len(tr.Events)-1]
	if sends != p.Messages || wakes != int64(p.N) || last.Ev != "cut" || last.Reason != OpenCutReason(a, c) {
		t.Errorf("%s n=%d: %d sends (want %d), %d wake-ups, last line %+v", alg, p.N, sends, p.Messages, wakes, last)
	}
	if _, err := reference.Replay(*x.cfg, bytes.NewReader(b.Bytes())); err == nil || !strings.Contains(err.Error(), "not a whole run") {
		t.Errorf("%s n=%d: the replay of an open execution: %v, want a refusal", alg, p.N, err)
	}
}

// TestPasteRefuses: the construction joins two halves of at least two
// nodes, with their own IDs.
func TestPasteRefuses(t *testing.T) {
	low, high := pasteHalves(8)
	for _, c := range []PasteOptions{
		{Spec: scenario.Spec{Algorithm: "lcr", N: 2}, Low: []elect.ID{1}, High: []elect.ID{2}},
		{Spec: scenario.Spec{Algorithm: "lcr", N: 7}, Low: low[:3], High: high},
		{Spec: scenario.Spec{Algorithm: "lcr", N: 8}, Low: low, High: high[:3]},
		{Spec: scenario.Spec{Algorithm: "lcr", N: 8}, Low: low, High: low},
	} {
		if _, err := Paste(c); err == nil {
			t.Errorf("n=%d, halves %v and %v: accepted", c.Spec.N, c.Low, c.High)
		}
	}
}

// naiveOpenMax is the most messages over the open executions from s, by
// brute force: every enabled step, no state cache, no reduction.
func naiveOpenMax(m *model, s *state, paths *int) int64 {
	steps := m.enabled(s, nil)
	if len(steps) == 0 {
		*paths++
		return 0
	}
	best := int64(-1)
	sent := make([]int64, m.nq()-2)
	for _, st := range steps {
		var u undo
		m.save(&u, s, st.node)
		clear(sent)
		if v := m.apply(s, st, sent); v != nil {
			panic(v.String())
		}
		var here int64
		for _, c := range sent {
			here += c
		}
		best = max(best, here+naiveOpenMax(m, s, paths))
		m.restore(s, &u)
	}
	return best
}

// TestOpenLineAgainstBruteForce: the search's most (state cache without
// depths, partial-order reduction, open links) equals a brute force over
// every interleaving, for every assignment of lines of 3 and 4 nodes
// (franklin's 4 nodes: 82,560 executions; hs's, 2,133,120, behind
// ELECT_LONG_TESTS).
func TestOpenLineAgainstBruteForce(t *testing.T) {
	for _, alg := range []string{"hs", "franklin", "stages-with-feedback", "chang-roberts", "higham-przytycka"} {
		for _, n := range []int{3, 4} {
			if alg == "hs" && n == 4 && os.Getenv("ELECT_LONG_TESTS") == "" {
				continue
			}
			r, err := OpenLine(OpenOptions{Spec: scenario.Spec{Algorithm: alg, N: n}})
			if err != nil {
				t.Fatal(err)
			}
			base, err := openBase(scenario.Spec{Algorithm: alg, N: n})
			if err != nil {
				t.Fatal(err)
			}
			most, least, paths := int64(-1), int64(-1), 0
			for _, ids := range everyAssignment(n) {
				cfg, err := openConfig(base, ids)
				if err != nil {
					t.Fatal(err)
				}
				var m model
				m.init(cfg, false)
				m.openEdges(ringEdge(cfg.Graph, int32(n-1)))
				got := naiveOpenMax(&m, m.initial(), &paths)
				most = max(most, got)
				if least < 0 || got < least {
					least = got
				}
			}
			if r.Max != most || r.LeastMax != least {
				t.Errorf("%s n=%d: the search's most %d and least %d, brute force (%d executions) %d and %d", alg, n, r.Max, r.LeastMax, paths, most, least)
			}
		}
	}
}

// TestPasteIsAnOpenExecutionTheSearchFinds: the construction's σ1σ2σ3τ on
// 8 nodes is an open execution of the line that starts after its open
// edge, so the search of that line (the IDs rotated to put the open edge
// between node 7 and node 0) finds at least as many messages.
func TestPasteIsAnOpenExecutionTheSearchFinds(t *testing.T) {
	for _, alg := range burnsRingAlgorithms {
		low, high := pasteHalves(8)
		p, err := Paste(PasteOptions{Spec: scenario.Spec{Algorithm: alg, N: 8, Announce: true}, Low: low, High: high})
		if err != nil {
			t.Fatal(err)
		}
		first := int(p.OpenEdge[1]) // the node after the open edge becomes node 0
		ids := append(slices.Clone(p.IDs[first:]), p.IDs[:first]...)
		r, err := OpenLine(OpenOptions{Spec: scenario.Spec{Algorithm: alg, N: 8, Announce: true}, IDs: [][]elect.ID{ids}})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Complete() || r.Max < p.Messages {
			t.Errorf("%s: the construction sends %d (open at %v), the search of the line %v finds at most %d", alg, p.Messages, p.OpenEdge, ids, r.Max)
		}
	}
}
