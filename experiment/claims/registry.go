package claims

import (
	"context"
	"fmt"
	"strings"

	"github.com/electkit/elect/experiment"
)

const (
	src003    = "seed 003 (slides), Chang-Roberts analysis"
	src001LCR = "seed 001 §5.2.1.1"
)

var registry = []*Reproduction{
	{
		Name: "chang-roberts", Title: "Chang-Roberts worst, best and average case", Source: src003,
		Needs: []string{"chang-roberts"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			sizes := pick(e, []int{8, 16, 32, 64, 128}, []int{16, 32, 64, 128, 256, 512, 1024, 2048})
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"chang-roberts"}, Sizes: sizes,
				IDs: []string{"decreasing", "increasing", "random"}, Deliveries: []string{"fifo", "random"},
				Trials: pick(e, 40, 200),
			})
			if err != nil {
				return nil, err
			}
			dec, inc, rnd := filter(rows, withIDs("decreasing")), filter(rows, withIDs("increasing")), filter(rows, withIDs("random"))
			fifoRandom := filter(rnd, func(r *experiment.Row) bool { return r.Config == rnd[0].Config })
			return &Report{
				Rows: []Row{
					exact("worst case: IDs in decreasing order, n+(n-1)+...+1 ELECTION messages", src003+", worst case", dec, "messages:ELECTION", "n(n+1)/2",
						func(n int) float64 { return float64(n*(n+1)) / 2 }),
					exact("best case: n + 1 + ... + 1 ELECTION messages (IDs increasing clockwise)", src003+", best case", inc, "messages:ELECTION", "2n-1",
						func(n int) float64 { return float64(2*n - 1) }),
					meanWithin("average case: each ID travels H_n hops on average over random rings (all wake up together)", src003+", average case theorem", fifoRandom, "messages:ELECTION", "n*H_n",
						func(n int) float64 { return float64(n) * H(n) }, 4),
					stable("average case is Theta(n log n)", src003+", average case theorem", fifoRandom, "messages:ELECTION", "n H_n"),
					exact("the leader announces itself: n LEADER messages", src003+", pseudo-code", rows, "messages:LEADER", "n",
						func(n int) float64 { return float64(n) }),
					allElected("elects the largest ID", src003+", correctness", rows),
				},
				Figures: []Figure{{Title: "Chang-Roberts: ELECTION messages (worst, best, random rings)", Measure: "messages:ELECTION", YLabel: "ELECTION messages",
					Rows: rows, Curves: []string{"n^2", "n H_n", "n"}}},
			}, nil
		},
	},
	{
		Name: "lcr", Title: "LCR: O(n^2) messages, n(n+1)/2 on the decreasing ring", Source: src001LCR,
		Needs: []string{"lcr"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			sizes := pick(e, []int{8, 16, 32, 64, 128}, []int{16, 32, 64, 128, 256, 512, 1024, 2048, 4096})
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"lcr"}, Sizes: sizes, IDs: []string{"decreasing", "random"},
				Deliveries: []string{"fifo", "random"}, Announce: true, Trials: pick(e, 10, 50),
			})
			if err != nil {
				return nil, err
			}
			// With FIFO channels and every node starting at once no ID is
			// eaten before the maximum; under non-FIFO random delays a larger
			// ID may overtake a smaller one and eat it earlier.
			dec := filter(rows, func(r *experiment.Row) bool { return r.IDs == "decreasing" && strings.Contains(r.Config, "fifo") })
			return &Report{
				Rows: []Row{
					exact("decreasing ring (FIFO, all start together): no message is eaten before it reaches the maximum", src001LCR+", performance", dec, "messages:election", "n(n+1)/2",
						func(n int) float64 { return float64(n*(n+1)) / 2 }),
					stable("O(n^2) messages, tight on the decreasing ring", src001LCR, dec, "messages:election", "n^2"),
					bound("every process sends at most one copy of each ID", src001LCR, rows, "messages:election", "n(n+1)/2",
						func(n int) float64 { return float64(n*(n+1)) / 2 }),
					exact("the leader's confirmation broadcast adds n messages", src001LCR, rows, "messages:leader", "n",
						func(n int) float64 { return float64(n) }),
					bound("with the announcement, time rises from n to 2n", src001LCR, rows, "time", "2n",
						func(n int) float64 { return float64(2 * n) }),
					allElected("elects the maximum ID", "seed 001 §5.2.1", rows),
				},
				Figures: []Figure{{Title: "LCR: election messages", Measure: "messages:election", YLabel: "election messages",
					Rows: rows, Curves: []string{"n^2", "n H_n"}}},
			}, nil
		},
	},
	nlognRepro("hs", "Hirschberg-Sinclair: O(n log n) messages", "seed 003 (slides), HS message complexity; seed 001 §5.2.2",
		"8n(1+ceil(lg n))", func(n int) float64 { return float64(8 * n * (1 + ceilLg(n))) }, "messages"),
	nlognRepro("peterson", "Peterson: O(n log n) messages on the unidirectional ring", "seed 001 §5.2.3",
		"2n*floor(lg n) + 2n", func(n int) float64 { return float64(2*n*floorLg(n) + 2*n) }, "messages:probe"),
	nlognRepro("franklin", "Franklin: O(n log n) messages on the bidirectional ring", "seed 001 §5.2.3 (the two-way algorithm); Franklin 1982",
		"2n*floor(lg n) + 2n", func(n int) float64 { return float64(2*n*floorLg(n) + 2*n) }, "messages:probe"),
	{
		Name: "time-slice", Title: "Time slice: exactly n messages, n(m+1) rounds", Source: "seed 003 (slides), a Theta(n)-messages synchronous algorithm",
		Needs: []string{"time-slice"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"time-slice"}, Sizes: pick(e, []int{8, 32, 128}, []int{8, 32, 128, 512, 2048}),
				IDs: []string{"random", "range:5..100000"}, Trials: pick(e, 5, 20),
			})
			if err != nil {
				return nil, err
			}
			src := "seed 003 (slides), time slice"
			timeRow := timeSliceTime(rows, src)
			return &Report{
				Rows: []Row{
					exact("total number of messages: n", src, rows, "messages", "n", func(n int) float64 { return float64(n) }),
					timeRow,
					allElected("the smallest ID is elected", src, rows),
				},
				Figures: []Figure{{Title: "Time slice: messages", Measure: "messages", YLabel: "messages", Rows: rows, Curves: []string{"n"}}},
			}, nil
		},
	},
	{
		Name: "slow-fast", Title: "Slow-fast: at most 5n messages", Source: "seed 003 (slides), slow-fast message complexity",
		Needs: []string{"slow-fast"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			// The winner's slow message waits 2^m rounds per hop (m its ID), so
			// the simulator's clock bounds m by 62 - ceil(lg n): subsets of
			// initiators (whose smallest ID may be up to n-1) run up to n = 48,
			// larger rings with every node initiating (smallest ID 0).
			ids := []string{"random", "increasing", "decreasing"}
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"slow-fast"}, Sizes: pick(e, []int{8, 16, 32}, []int{8, 16, 32, 48}),
				IDs: ids, Initiators: []string{"all", "1", "3"}, Trials: pick(e, 5, 20),
			})
			if err != nil {
				return nil, err
			}
			more, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"slow-fast"}, Sizes: pick(e, []int{64, 128}, []int{64, 128, 256, 512, 1024, 2048}),
				IDs: ids, Trials: pick(e, 5, 20),
			})
			if err != nil {
				return nil, err
			}
			rows = append(rows, more...)
			src := "seed 003 (slides), slow-fast"
			return &Report{
				Rows: []Row{
					bound("types 1-4 total at most n + n + 2n + n", src+", total number of messages", rows, "messages", "5n", func(n int) float64 { return float64(5 * n) }),
					bound("no processor forwards more than one fast message", src+", type 1 messages", rows, "messages:fast", "n", func(n int) float64 { return float64(n) }),
					allElected("the smallest initiator ID is elected", src, rows),
				},
				Figures: []Figure{{Title: "Slow-fast: messages", Measure: "messages", YLabel: "messages", Rows: rows, Curves: []string{"n"}}},
			}, nil
		},
	},
	{
		Name: "lcr-random", Title: "Randomized LCR: n*H_n expected messages on any arrangement", Source: "seed 001 §5.2.4",
		Needs: []string{"lcr-random"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"lcr-random"}, Sizes: pick(e, []int{16, 32, 64, 128}, []int{16, 64, 256, 1024, 4096}),
				IDs: []string{"decreasing", "increasing"}, Trials: pick(e, 100, 400),
			})
			if err != nil {
				return nil, err
			}
			src := "seed 001 §5.2.4"
			return &Report{
				Rows: []Row{
					meanWithin("random keys: the i-th largest key travels n/i hops on average, n*H_n in all (decreasing IDs)", src, filter(rows, withIDs("decreasing")), "messages:election", "n*H_n",
						func(n int) float64 { return float64(n) * H(n) }, 4),
					meanWithin("the same on increasing IDs: the arrangement does not matter", src, filter(rows, withIDs("increasing")), "messages:election", "n*H_n",
						func(n int) float64 { return float64(n) * H(n) }, 4),
					stable("O(n H_n) = O(n log n) messages", src, filter(rows, withIDs("decreasing")), "messages:election", "n H_n"),
				},
				Figures: []Figure{{Title: "Randomized LCR: election messages", Measure: "messages:election", YLabel: "election messages", Rows: rows, Curves: []string{"n H_n", "n^2"}}},
			}, nil
		},
	},
	{
		Name: "afek-gafni", Title: "Afek-Gafni B: at most 4n*H_n + 3(n-1) messages on complete graphs", Source: "seed 002, Lemma 2",
		Needs: []string{"afek-gafni"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"afek-gafni"}, Sizes: pick(e, []int{8, 16, 32, 64}, []int{8, 16, 32, 64, 128, 256, 512}),
				IDs: []string{"random", "increasing", "decreasing"}, Deliveries: []string{"fifo", "random"},
				Initiators: []string{"all", "1"}, Trials: pick(e, 5, 20),
			})
			if err != nil {
				return nil, err
			}
			src := "seed 002, Lemma 2"
			for i := range rows {
				rows[i].Measures["termination"] = rows[i].Get("messages:LEADER") + rows[i].Get("messages:END")
			}
			f := func(n int) float64 { return 4*float64(n)*H(n) + 3*float64(n-1) }
			return &Report{
				Rows: []Row{
					bound("capture costs at most 4 messages; k-th largest killed candidate owns at most n/(k+1) nodes", src, rows, "messages", "4n*H_n + 3(n-1)", f),
					exact("ending sequence: LEADER to all, END to the leader, END to all", src+" and message END", rows, "termination", "3(n-1)",
						func(n int) float64 { return float64(3 * (n - 1)) }),
					allElected("exactly one leader, known to all", "seed 002, proof of correctness", rows),
				},
				Figures: []Figure{{Title: "Afek-Gafni B on complete graphs: messages", Measure: "messages", YLabel: "messages", Rows: rows, Curves: []string{"n H_n", "n^2"}}},
			}, nil
		},
	},
}

// timeSliceTime checks time == n(m+1), m the leader's (smallest) ID.
func timeSliceTime(rows []experiment.Row, src string) Row {
	bad := 0
	for _, r := range rows {
		m := -1.0
		for _, b := range r.Bounds {
			if b.Name == "leader holds the min ID" {
				m = b.Actual
			}
		}
		if r.Get("time") != float64(r.N)*(m+1) {
			bad++
		}
	}
	return Row{Claim: "the node with the smallest ID m elects itself in phase m: n(m+1) rounds", Source: src + ", time complexity",
		Rule: "exact, every run", Expected: "n(m+1)", Measured: fmt.Sprintf("%d of %d runs equal", len(rows)-bad, len(rows)), Verdict: verdict(bad == 0 && len(rows) > 0)}
}

// nlognRepro checks an O(n log n) algorithm on random and bit-reversal rings:
// its declared bound in every run and a stable messages / (n lg n).
func nlognRepro(alg, title, source, formula string, limit func(int) float64, measure string) *Reproduction {
	return &Reproduction{
		Name: alg, Title: title, Source: source, Needs: []string{alg},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{alg}, Sizes: pick(e, []int{64, 128, 256, 512}, []int{64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384}),
				IDs: []string{"random", "bit-reversal"}, Deliveries: []string{"fifo", "random"}, Trials: pick(e, 5, 20),
			})
			if err != nil {
				return nil, err
			}
			rnd := filter(rows, func(r *experiment.Row) bool { return r.IDs == "random" })
			rev := filter(rows, func(r *experiment.Row) bool { return r.IDs == "bit-reversal" })
			fifoOnly := func(rs []experiment.Row) []experiment.Row {
				return filter(rs, func(r *experiment.Row) bool { return r.Config == rs[0].Config })
			}
			return &Report{
				Rows: []Row{
					bound("message bound with its constant", source, rows, measure, formula, limit),
					stable("O(n log n) on random rings", source, fifoOnly(rnd), measure, "n lg n"),
					stable("O(n log n) on the bit-reversal ring", source+"; seed 001 §5.4.2", fifoOnly(rev), measure, "n lg n"),
					allElected("elects one leader", source, rows),
				},
				Figures: []Figure{{Title: title, Measure: measure, YLabel: measure, Rows: rows, Curves: []string{"n lg n", "n^2"}}},
			}, nil
		},
	}
}
