package claims

import (
	"context"
	"math"

	"github.com/electkit/elect/catalog"

	"github.com/electkit/elect"
	"github.com/electkit/elect/experiment"
)

// The reproductions of the ring algorithms added for issue 22 (breadth):
// each checks its declared message bound in every run, a stable
// messages / (n lg n), and the exact counts its rules give on the increasing
// and decreasing rings where there are some.

const (
	srcDKR = "Dolev, Klawe and Rodeh 1982"
	srcHP  = "Higham and Przytycka 1996, algorithm ELECT"
	srcKRS = "Korach, Rotem and Santoro 1984, stages with feedback"
)

// ringBreadthRepro is nlognRepro for an algorithm with its own deliveries
// (FIFO-only algorithms run on fifo and random-fifo) and its own exact rows.
func ringBreadthRepro(alg, title, source, formula string, limit func(int) float64, measure string, deliveries []string,
	extra func(rows []experiment.Row) []Row) *Reproduction {
	return &Reproduction{
		Name: alg, Title: title, Source: source, Needs: []string{alg},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{alg}, Sizes: pick(e, []int{64, 128, 256, 512}, []int{64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384}),
				IDs: []string{"random", "bit-reversal", "increasing", "decreasing"}, Deliveries: deliveries, Trials: pick(e, 5, 20),
			})
			if err != nil {
				return nil, err
			}
			first := func(ids string) []experiment.Row {
				rs := filter(rows, withIDs(ids))
				return filter(rs, func(r *experiment.Row) bool { return r.Config == rs[0].Config })
			}
			out := []Row{
				bound("message bound with its constant", source, rows, measure, formula, limit),
				stable("O(n log n) on random rings", source, first("random"), measure, "n lg n"),
				stable("O(n log n) on the bit-reversal ring", source+"; seed 001 §5.4.2", first("bit-reversal"), measure, "n lg n"),
				allElected("elects one leader", source, rows),
			}
			if extra != nil {
				out = append(out, extra(rows)...)
			}
			return &Report{
				Rows:    out,
				Figures: []Figure{{Title: title, Measure: measure, YLabel: measure, Rows: first("random"), Curves: []string{"n lg n", "n"}}},
			}, nil
		},
	}
}

// monotone returns the rows on increasing and decreasing rings.
func monotone(rows []experiment.Row) []experiment.Row {
	return filter(rows, func(r *experiment.Row) bool { return r.IDs == "increasing" || r.IDs == "decreasing" })
}

func dkrRepro() *Reproduction {
	return ringBreadthRepro("dolev-klawe-rodeh", "Dolev-Klawe-Rodeh (simple algorithm): 2n log n + O(n) messages on the unidirectional ring", srcDKR,
		"2n*floor(lg n) + n", func(n int) float64 { return float64(2*n*elect.FloorLog2(n) + n) }, "messages",
		[]string{"fifo", "random-fifo"},
		func(rows []experiment.Row) []Row {
			for i := range rows {
				rows[i].Measures["m1-m2"] = rows[i].Get("messages:m1") - rows[i].Get("messages:m2")
			}
			return []Row{
				exact("increasing and decreasing rings: one process survives the first phase, 2n + n messages", srcDKR+" (the phase rule; derived)",
					monotone(rows), "messages", "3n", func(n int) float64 { return float64(3 * n) }),
				exactEach("every phase but the last sends one m1 and one m2 per link, the last n m1", srcDKR+" (the phase rule; derived)",
					rows, "m1-m2", "n", func(r *experiment.Row) float64 { return float64(r.N) }),
			}
		})
}

func hpRepro() *Reproduction {
	return ringBreadthRepro("higham-przytycka", "Higham-Przytycka ELECT: fewer than 1.271 n lg n + O(n) messages on the unidirectional ring", srcHP,
		"n + sum_{even i <= i*+1} n(2 - F(i)/F(i+3))", hpLimit, "messages:envelope",
		[]string{"fifo", "random-fifo"},
		func(rows []experiment.Row) []Row {
			return []Row{
				exact("decreasing ring: only label 0 survives round 1 and goes round in round 2", srcHP+" (the round rules; derived)",
					filter(rows, withIDs("decreasing")), "messages:envelope", "2n", func(n int) float64 { return float64(2 * n) }),
				exact("increasing ring: n, n-1, F(5) = 5 and n envelopes in rounds 1-4", srcHP+" (the round rules; derived)",
					filter(rows, withIDs("increasing")), "messages:envelope", "3n + 4", func(n int) float64 { return float64(3*n + 4) }),
			}
		})
}

// hpLimit is ring.HighamPrzytycka's declared bound (the paper's block sum).
func hpLimit(n int) float64 { return declaredAtMost("higham-przytycka", "envelope messages", n) }

// declaredAtMost evaluates an algorithm's declared upper bound of the given
// name at n (every node waking at 0, no announcement), so that a
// reproduction checks the formula the declaration states, not a copy.
func declaredAtMost(alg, name string, n int) float64 {
	a, ok := catalog.Lookup(alg)
	if !ok {
		return math.NaN()
	}
	for _, b := range a.Bounds {
		if b.Name == name && b.Relation == elect.AtMost {
			return b.Value(elect.BoundContext{N: n, AllAtZero: true, Params: elect.Params{}})
		}
	}
	return math.NaN()
}

func krsRepro() *Reproduction {
	return ringBreadthRepro("stages-with-feedback", "Korach-Rotem-Santoro stages with feedback: 3n log3 n + O(n) messages on the bidirectional ring", srcKRS,
		"3n*S(n) + 2n", func(n int) float64 { return declaredAtMost("stages-with-feedback", "election messages", n) }, "messages",
		[]string{"fifo", "random-fifo"},
		func(rows []experiment.Row) []Row {
			for i := range rows {
				rows[i].Measures["E-per-2n"] = rows[i].Get("messages:E") / float64(2*rows[i].N)
			}
			return []Row{
				exact("increasing and decreasing rings: only the maximum survives stage 0; n-1 feedbacks", srcKRS+" (the stage rules; derived)",
					monotone(rows), "messages", "5n - 1", func(n int) float64 { return float64(5*n - 1) }),
				exactEach("each stage sends one E message per link each way: E / 2n is the number of stages", srcKRS, rows, "E-per-2n", "an integer",
					func(r *experiment.Row) float64 { return math.Round(r.Get("E-per-2n")) }),
			}
		})
}
