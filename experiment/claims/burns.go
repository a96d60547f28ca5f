package claims

import (
	"context"
	"fmt"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/check"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
)

// Burns' lower bound (seed 001 §5.4.1, after [AW04, §3.3.3]), reproduced
// as the proof goes. The proof is about open executions: finite
// executions on a ring in which no message is delivered across one edge,
// so that the nodes cannot tell the ring from a line of them. For a
// deterministic uniform asynchronous algorithm in which every node learns
// the smallest ID, some open execution on a line of n nodes sends at least
// T(n) messages, T(2) = 1 and T(n) = 2T(n/2) + n/4 - 2 at powers of two:
// T(4) = 1, T(8) = 2, T(16) = 6 (about n lg n / 4). The election bound
// the notes derive from it, T(n) - 2n, is negative up to n = 2046, so it
// is not what is checked here: T(n) is, on the open executions it speaks
// of.
//
// Two claims per algorithm:
//
//   - the most messages in an open execution of a line of n nodes, which
//     the checker computes exactly over every schedule (check.OpenLine),
//     is at least T(n). The IDs are the adversary's: the proof shows that
//     for every set of IDs some arrangement has such an execution, built
//     by arranging each half as the induction did. So the search
//     maximises over arrangements: every one at n = 2 and 4 (where it
//     also shows the least over them), and at n = 8 on unidirectional
//     rings (one path each); at n = 8 on bidirectional rings (and with
//     --quick) the 70 of the proof's family, each half of a split of 1..8
//     into two sets of four arranged as the n = 4 maximiser; at n = 16 the family's two splits into
//     intervals (1..8 | 9..16 and back), each half as the n = 8
//     maximiser. Where the n = 16 search does not fit (bidirectional
//     rings: more than burnsStates16 states) the construction's open
//     execution below is the witness, a lower bound on the most;
//   - the construction itself at n = 16 (check.Paste): the halves' open
//     executions with the most messages (IDs 1..8 and 9..16, each
//     arranged as the n = 8 maximiser), the quiescent extension, the sets
//     S and S' grown by a finishing suffix until they are adjacent, and
//     the open execution σ1σ2σ3τ with at least 2T(8) + 16/4 - 2 = 6
//     messages, written as a trace (burns-ALG.jsonl, which `elect view`
//     shows).
//
// The problem of the proof is that every node learns the leader (the
// smallest ID, or here the largest): algorithms that may announce run with
// the announcement, which only changes the finishing suffix (no node is
// elected in an open execution, so none announces in one).
//
// The comparison-based bound of §5.4.2 (Frederickson and Lynch, on
// bit-reversal rings) is reproduced by seed001-bounds (fidelity.go).

const srcBurns = "seed 001 §5.4.1 (Burns 1980, after [AW04, §3.3.3]); seed 003: the bounds hold for uniform rings"

// burnsAlgorithms are the catalog's deterministic uniform asynchronous
// ring algorithms, to which Burns' argument applies (randomized ones and
// those told n are outside it, synchronous ones outside its model).
var burnsAlgorithms = func() []string {
	var out []string
	for _, a := range catalog.Default().All() {
		m := a.Model
		if (m.Topology == elect.UniRing || m.Topology == elect.BiRing) && m.Async && !m.Randomized && !m.KnowsN {
			out = append(out, a.Name)
		}
	}
	return out
}()

// burnsT is the recurrence's value at n a power of two: T(2) = 1,
// T(n) = 2T(n/2) + n/4 - 2.
func burnsT(n int) int64 {
	if n <= 2 {
		return 1
	}
	return 2*burnsT(n/2) + int64(n)/4 - 2
}

// burnsStates16 bounds each n = 16 search of open executions (the
// unidirectional rings' take a few dozen states; the bidirectional rings'
// take more than 3 million).
func burnsStates16(e Env) int64 { return pick[int64](e, 50_000, 200_000) }

func burnsRepro() *Reproduction {
	return &Reproduction{
		Name: "burns", Title: "Burns' lower bound: open executions on lines of n = 2..16 nodes and the pasting construction, for every ring algorithm", Source: srcBurns,
		Needs: burnsAlgorithms,
		run: func(ctx context.Context, e Env) (*Report, error) {
			rep := &Report{}
			for _, alg := range burnsAlgorithms {
				rows, file, err := burnsAlgorithm(ctx, e, alg)
				if err != nil {
					return nil, err
				}
				rep.Rows = append(rep.Rows, rows...)
				if file != nil {
					rep.Files = append(rep.Files, *file)
				}
			}
			return rep, nil
		},
	}
}

// burnsOpen is one size's search of open executions, over the
// assignments family names ("": every one).
type burnsOpen struct {
	n      int
	r      *check.OpenResult
	family string
}

// burnsAlgorithm checks both claims for alg and returns their rows and
// the construction's trace.
func burnsAlgorithm(ctx context.Context, e Env, alg string) ([]Row, *File, error) {
	spec := scenario.Spec{Algorithm: alg, Announce: true}
	search := func(n int, ids [][]elect.ID, maxStates int64) (*check.OpenResult, error) {
		s := spec
		s.N = n
		r, err := check.OpenLine(check.OpenOptions{Spec: s, IDs: ids, MaxStates: maxStates, Workers: e.Workers, Stop: ctx.Done()})
		if err == nil && r.Interrupted {
			err = ctx.Err()
		}
		return r, err
	}
	var sizes []burnsOpen
	for _, n := range []int{2, 4} {
		r, err := search(n, nil, 0)
		if err != nil {
			return nil, nil, err
		}
		sizes = append(sizes, burnsOpen{n, r, ""})
	}
	best4 := sizes[1].r.MaxIDs
	// Every assignment of 8 where each takes one path (a unidirectional
	// ring: 40,320 in about 6 s), else the proof's 70.
	var ids8 [][]elect.ID
	family8 := ""
	if a, _ := catalog.Lookup(alg); e.Quick || a.Model.Topology != elect.UniRing {
		ids8, family8 = pastedFamily(best4), "the proof's family"
	}
	r8, err := search(8, ids8, 0)
	if err != nil {
		return nil, nil, err
	}
	sizes = append(sizes, burnsOpen{8, r8, family8})
	best8 := r8.MaxIDs
	if best8 == nil {
		return []Row{burnsFailed(alg, "n=8: "+openText(r8))}, nil, nil
	}
	low, high := best8, shifted(best8, 8)
	r16, err := search(16, [][]elect.ID{concat(low, high), concat(high, low)}, burnsStates16(e))
	if err != nil {
		return nil, nil, err
	}
	sizes = append(sizes, burnsOpen{16, r16, "its interval splits"})
	s16 := spec
	s16.N = 16
	p, err := check.Paste(check.PasteOptions{Spec: s16, Low: low, High: high})
	if err != nil {
		return nil, nil, err
	}
	var file *File
	if x := p.Execution(); x != nil {
		var b strings.Builder
		if err := x.WriteTrace(&b); err != nil {
			return nil, nil, err
		}
		file = &File{Name: "burns-" + alg + ".jsonl", Data: []byte(b.String())}
	}
	return []Row{openRow(alg, sizes, p), pasteRow(alg, p, low, high, file)}, file, nil
}

// openRow is the claim on the most messages of open executions.
func openRow(alg string, sizes []burnsOpen, p *check.Pasting) Row {
	row := Row{Claim: alg + ": some open execution on a line of n nodes (nothing delivered across one edge) sends at least T(n) messages",
		Source: srcBurns,
		Rule: "bound: the most over every schedule (check.OpenLine), over every ID assignment at n = 2, 4 (and 8 on unidirectional rings), " +
			"the proof's 70 pasted ones at n = 8 (bidirectional rings, or --quick), its 2 interval splits at n = 16 (or the construction's execution where that search does not fit)",
		Expected: ">= T(n): T(2) = 1, T(4) = 1, T(8) = 2, T(16) = 6"}
	ok := true
	var measured []string
	for _, s := range sizes {
		r, t := s.r, burnsT(s.n)
		switch {
		case r.Complete() && s.family == "":
			measured = append(measured, fmt.Sprintf("n=%d: %d (IDs %s; every one of the %d assignments >= %d)", s.n, r.Max, idList(r.MaxIDs), r.Assignments, r.LeastMax))
			ok = ok && r.Max >= t
		case r.Complete():
			measured = append(measured, fmt.Sprintf("n=%d: %d over the %d assignments of %s (IDs %s)", s.n, r.Max, r.Assignments, s.family, idList(r.MaxIDs)))
			ok = ok && r.Max >= t
		case r.Violation != nil && r.Violation.Property == election.PropNonTermination:
			// An open execution without end sends without bound.
			measured = append(measured, fmt.Sprintf("n=%d: unbounded (an open execution without end, IDs %s)", s.n, idList(r.ViolationIDs)))
		case s.n == 16 && r.Violation == nil && p.Execution() != nil:
			measured = append(measured, fmt.Sprintf("n=16: the search goes past %d states; the construction's open execution sends %d", r.States/int64(r.Assignments), p.Messages))
			ok = ok && p.Messages >= t
		default:
			measured = append(measured, fmt.Sprintf("n=%d: %s", s.n, openText(r)))
			ok = false
		}
	}
	row.Measured = strings.Join(measured, "; ")
	row.Verdict = verdict(ok)
	return row
}

// pasteRow is the claim on the construction at n = 16.
func pasteRow(alg string, p *check.Pasting, low, high []elect.ID, file *File) Row {
	n := p.N
	quarter := int64(n)/4 - 2
	want := 2*burnsT(n/2) + quarter
	row := Row{Claim: fmt.Sprintf("%s: pasting two open executions of %d nodes gives one of %d with at least 2T(%d) + %d/4 - 2 = %d messages", alg, n/2, n, n/2, n, want),
		Source:   srcBurns,
		Rule:     "bound (the construction, built: σ1 σ2 the halves' most, σ3 the quiescent extension, σ'4 the shortest finishing prefix making S and S' adjacent, τ its part free of the other joint)",
		Expected: fmt.Sprintf("S, S' adjacent; τ >= n/4 - 2 = %d messages; σ1σ2σ3τ >= σ1 + σ2 + %d >= %d", quarter, quarter, want)}
	text := fmt.Sprintf("σ1 = %d, σ2 = %d messages (IDs %s | %s); σ3: %d steps; σ'4: %d steps", p.Halves[0], p.Halves[1], idList(low), idList(high), p.QuiescentSteps, p.FinishSteps)
	if !p.Adjacent {
		row.Measured = text + fmt.Sprintf(": the run ended with S = {%s}, S' = {%s} not adjacent", nodeList(p.S), nodeList(p.S2))
		row.Verdict = Fail
		return row
	}
	text += fmt.Sprintf(", S = {%s}, S' = {%s}; τ (%s the larger, open at %d-%d): %d steps, %d messages; in all %d",
		nodeList(p.S), nodeList(p.S2), p.Larger(), p.OpenEdge[0], p.OpenEdge[1], p.TauSteps, p.TauMessages, p.Messages)
	if file != nil {
		text += " (trace " + file.Name + ")"
	}
	row.Measured = text
	row.Verdict = verdict(p.TauMessages >= quarter && p.Messages >= p.Halves[0]+p.Halves[1]+quarter && p.Messages >= want)
	return row
}

// burnsFailed is the row of an algorithm whose n = 8 search found nothing.
func burnsFailed(alg, why string) Row {
	return Row{Claim: alg + ": some open execution on a line of n nodes sends at least T(n) messages", Source: srcBurns,
		Rule: "bound", Expected: ">= T(n)", Measured: why, Verdict: Fail}
}

// openText says why a search gave no most: a property broken (an open
// execution without end sends without bound), or the state limit.
func openText(r *check.OpenResult) string {
	if r.Violation != nil {
		return fmt.Sprintf("%s with IDs %s", r.Violation, idList(r.ViolationIDs))
	}
	return fmt.Sprintf("%d of %d assignments searched to the end within the state limit", r.Finished, r.Assignments)
}

// pastedFamily lists the proof's arrangements of 1..2h from the
// arrangement half of 1..h: for every split of 1..2h into two sets of h
// (in lexicographic order of the first set), each set arranged as half
// is (its k-th smallest ID where half has k).
func pastedFamily(half []elect.ID) [][]elect.ID {
	h := len(half)
	var out [][]elect.ID
	var pick func(from int, first []elect.ID)
	pick = func(from int, first []elect.ID) {
		if len(first) == h {
			var second []elect.ID
			for id := elect.ID(1); id <= elect.ID(2*h); id++ {
				if !containsID(first, id) {
					second = append(second, id)
				}
			}
			out = append(out, concat(arranged(half, first), arranged(half, second)))
			return
		}
		for id := from; id <= 2*h; id++ {
			pick(id+1, append(first, elect.ID(id)))
		}
	}
	pick(1, nil)
	return out
}

// arranged returns the IDs of set (increasing) in the order of pattern,
// an arrangement of 1..len(set): node i gets set[pattern[i]-1].
func arranged(pattern, set []elect.ID) []elect.ID {
	out := make([]elect.ID, len(pattern))
	for i, k := range pattern {
		out[i] = set[k-1]
	}
	return out
}

func containsID(s []elect.ID, id elect.ID) bool {
	for _, x := range s {
		if x == id {
			return true
		}
	}
	return false
}

func concat(a, b []elect.ID) []elect.ID { return append(append([]elect.ID(nil), a...), b...) }

func shifted(ids []elect.ID, by elect.ID) []elect.ID {
	out := make([]elect.ID, len(ids))
	for i, id := range ids {
		out[i] = id + by
	}
	return out
}

func idList(ids []elect.ID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ",")
}

// nodeList writes node indexes (increasing) with runs as ranges: 0-7,9.
func nodeList(nodes []int32) string {
	var parts []string
	for i := 0; i < len(nodes); {
		j := i
		for j+1 < len(nodes) && nodes[j+1] == nodes[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", nodes[i], nodes[j]))
		} else {
			parts = append(parts, fmt.Sprint(nodes[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
