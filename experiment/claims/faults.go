package claims

import (
	"context"
	"fmt"

	"github.com/electkit/elect/experiment"
)

// The reproductions of the elections built for faults (issue 36): each runs
// its algorithm without faults, where its exact counts hold, and under
// random crash schedules (--faults crash:k=K), where one leader must be
// elected among the nodes that are up.
func init() {
	registry = append(registry, bullyRepro(), ringSkipRepro())
}

// bullyRepro checks the Bully algorithm's counts as complete/bully.go
// derives them for its variant, and its election under crashes.
func bullyRepro() *Reproduction {
	const src = "Garcia-Molina 1982"
	return &Reproduction{
		Name: "bully", Title: "Bully: n^2 - 1 messages at worst, n - 1 at best, one leader under crashes", Source: src,
		Needs: []string{"bully"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			sizes := pick(e, []int{4, 16, 64}, []int{4, 16, 64, 256})
			grid := func(ids, initiators, faults string, trials int) ([]experiment.Row, error) {
				return sweep(ctx, e, experiment.Grid{
					Algorithms: []string{"bully"}, Sizes: sizes, IDs: []string{ids}, Initiators: []string{initiators},
					Faults: faults, Trials: trials,
				})
			}
			worst, err := grid("increasing", "nodes:0", "", 1)
			if err != nil {
				return nil, err
			}
			all, err := grid("random", "all", "", pick(e, 3, 10))
			if err != nil {
				return nil, err
			}
			best, err := grid("decreasing", "nodes:0", "", 1)
			if err != nil {
				return nil, err
			}
			second, err := grid("decreasing", "nodes:1", "crash:node=0@t=0", 1)
			if err != nil {
				return nil, err
			}
			var crashed []experiment.Row
			for _, k := range []int{1, 3} {
				rows, err := grid("random", "all", fmt.Sprintf("crash:k=%d,by=6", k), pick(e, 10, 50))
				if err != nil {
					return nil, err
				}
				crashed = append(crashed, rows...)
			}
			return &Report{
				Rows: []Row{
					exact("the smallest ID alone draws every node into an election: n(n-1)/2 ELECTION, as many ANSWER, n-1 COORDINATOR",
						src+" (worst case O(n^2)); count derived for this variant in complete/bully.go", worst, "messages", "n^2 - 1",
						func(n int) float64 { return float64(n*n - 1) }),
					exact("every node starting at once: each starts one election, so again", src+"; complete/bully.go", all, "messages", "n^2 - 1",
						func(n int) float64 { return float64(n*n - 1) }),
					exact("the largest ID alone only bullies", src+" (best case); complete/bully.go", best, "messages", "n - 1",
						func(n int) float64 { return float64(n - 1) }),
					exact("the second largest alone, the largest crashed: one ELECTION to the crashed node, then n-2 COORDINATOR (the textbook's n-2 skips the ELECTION)",
						"Coulouris et al. 15.3.2 (best case n-2); complete/bully.go", second, "messages", "n - 1",
						func(n int) float64 { return float64(n - 1) }),
					allElected("without faults: the largest ID is elected and every node knows it", src+", correctness", append(append(worst, all...), best...)),
					allElected("under 1 or 3 random crashes in the first 6 rounds: one leader, the largest ID up when it was elected, known to every node up",
						src+", correctness under crash-stop failures", append(second, crashed...)),
				},
				Figures: []Figure{{Title: "Bully: messages, every node starting", Measure: "messages", YLabel: "messages",
					Rows: all, Curves: []string{"n^2"}}},
			}, nil
		},
	}
}

// ringSkipRepro checks the ring election that skips crashed successors:
// LCR's counts without faults (complete/ringskip.go derives the rest), and
// one leader under random crash schedules.
func ringSkipRepro() *Reproduction {
	const src = "Tanenbaum and van Steen 6.5.1"
	return &Reproduction{
		Name: "ring-skip", Title: "Ring election skipping crashed successors: LCR's counts, one leader under crashes", Source: src,
		Needs: []string{"ring-skip"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			sizes := pick(e, []int{4, 16, 64}, []int{4, 16, 64, 256})
			grid := func(ids, faults string, trials int) ([]experiment.Row, error) {
				return sweep(ctx, e, experiment.Grid{
					Algorithms: []string{"ring-skip"}, Sizes: sizes, IDs: []string{ids}, Faults: faults, Trials: trials,
				})
			}
			dec, err := grid("decreasing", "", 1)
			if err != nil {
				return nil, err
			}
			inc, err := grid("increasing", "", 1)
			if err != nil {
				return nil, err
			}
			random, err := grid("random", "", pick(e, 3, 10))
			if err != nil {
				return nil, err
			}
			var crashed []experiment.Row
			for _, k := range []int{1, 3} {
				rows, err := grid("random", fmt.Sprintf("crash:k=%d", k), pick(e, 10, 50))
				if err != nil {
					return nil, err
				}
				crashed = append(crashed, rows...)
			}
			all := append(append(append([]experiment.Row(nil), dec...), inc...), random...)
			setMeasure(all, "ack-balance", func(r *experiment.Row) float64 {
				return r.Get("messages:ACK") - r.Get("messages:ELECTION") - r.Get("messages:LEADER")
			})
			return &Report{
				Rows: []Row{
					exact("IDs decreasing clockwise: LCR's worst case", "seed 001 §5.2.1.1; complete/ringskip.go", dec, "messages:ELECTION", "n(n+1)/2",
						func(n int) float64 { return float64(n * (n + 1) / 2) }),
					exact("IDs increasing clockwise: the maximum's n hops and one each of the others", "complete/ringskip.go", inc, "messages:ELECTION", "2n-1",
						func(n int) float64 { return float64(2*n - 1) }),
					exact("the leader's announcement goes round once", "complete/ringskip.go", all, "messages:LEADER", "n",
						func(n int) float64 { return float64(n) }),
					exact("every ELECTION and LEADER is acknowledged once", "complete/ringskip.go (the failure detector)", all, "ack-balance", "0",
						func(n int) float64 { return 0 }),
					exact("every node awake at round 0: ELECTION round in n, LEADER home at 2n, its ACK at 2n+1", "complete/ringskip.go", all, "time", "2n+1",
						func(n int) float64 { return float64(2*n + 1) }),
					allElected("without faults: the largest ID is elected and every node knows it", src+"; seed 001 §5.2.1", all),
					allElected("under 1 or 3 random crashes at times 0..n: one leader, the largest ID up when it was elected, known to every node up",
						src+" (skipping crashed successors); complete/ringskip.go", crashed),
				},
				Figures: []Figure{{Title: "Ring election skipping crashed successors: ELECTION messages", Measure: "messages:ELECTION", YLabel: "ELECTION messages",
					Rows: all, Curves: []string{"n H_n", "n^2"}}},
			}, nil
		},
	}
}
