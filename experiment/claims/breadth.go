package claims

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/electkit/elect/experiment"
)

// The reproductions of the complete-graph and general-network algorithms
// added for breadth (issue 22): each checks its source's bound against
// measured counts, and the exact counts its rules give on arranged IDs.
func init() {
	registry = append(registry, humbletRepro(), kmzRepro(), lmwRepro(), yoyoRepro(), hyperElectRepro(), petersonMeshRepro())
}

// lmwRepro checks Loui, Matsushita and West's O(n) election on the chordal
// complete graph: the n-1 + phi^2 n bound on every run, and the hand-derived
// counts on monotone cycles (complete/lmw_test.go derives them).
func lmwRepro() *Reproduction {
	const src = "Loui, Matsushita and West 1986"
	return &Reproduction{
		Name: "lmw", Title: "Loui-Matsushita-West: O(n) messages with a sense of direction", Source: src,
		Needs: []string{"lmw"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"lmw"}, Sizes: pick(e, []int{8, 32, 128, 512}, []int{8, 32, 128, 512, 2048, 8192}),
				IDs: []string{"random", "increasing", "decreasing"}, Deliveries: []string{"fifo", "random"},
				Initiators: []string{"all", "1"}, Trials: pick(e, 3, 10),
			})
			if err != nil {
				return nil, err
			}
			phi2 := (3 + math.Sqrt(5)) / 2
			fifoAll := func(ids string) []experiment.Row {
				return filter(rows, func(r *experiment.Row) bool {
					return r.IDs == ids && strings.Contains(r.Config, "fifo") && strings.Contains(r.Config, "all initiate")
				})
			}
			return &Report{
				Rows: []Row{
					bound("passive nodes send at most n-1 ELECTION messages, active ones fewer than phi^2 n", src+", message analysis", rows,
						"messages:ELECTION", "n-1 + phi^2 n", func(n int) float64 { return float64(n-1) + phi2*float64(n) }),
					exact("IDs decreasing along the cycle (FIFO, all start): n first messages, one answer, n-1 forwards", src+"; counted from the rules",
						fifoAll("decreasing"), "messages:ELECTION", "2n", func(n int) float64 { return float64(2 * n) }),
					exact("IDs increasing along the cycle (FIFO, all start): n first messages, n-1 answers, n forwards and answers", src+"; counted from the rules",
						fifoAll("increasing"), "messages:ELECTION", "3n-1", func(n int) float64 { return float64(3*n - 1) }),
					exact("the leader tells every other node", src, rows, "messages:LEADER", "n-1", func(n int) float64 { return float64(n - 1) }),
					stable("O(n) messages on random IDs", src, fifoAll("random"), "messages:ELECTION", "n"),
					allElected("the maximum ID is elected and every node knows it", src+", correctness", rows),
				},
				Figures: []Figure{{Title: "Loui-Matsushita-West: ELECTION messages", Measure: "messages:ELECTION", YLabel: "ELECTION messages",
					Rows: rows, Curves: []string{"n"}}},
			}, nil
		},
	}
}

// humbletRepro checks Humblet's clique election: the bound 4 sum_s min(K,
// floor(n/s)) on every run (all starting, or one or a few), both stopping
// rules, and the lone starter's 2 messages per capture.
func humbletRepro() *Reproduction {
	const src = "Humblet 1984"
	return &Reproduction{
		Name: "humblet", Title: "Humblet: O(n log K) messages on complete graphs", Source: src,
		Needs: []string{"humblet"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"humblet"}, Sizes: pick(e, []int{8, 32, 128, 512}, []int{8, 32, 128, 512, 2048, 8192}),
				IDs: []string{"random", "increasing"}, Deliveries: []string{"fifo", "random"},
				Initiators: []string{"all", "1", "4"}, Params: map[string][]string{"variant": {"all", "majority"}},
				Trials: pick(e, 3, 10),
			})
			if err != nil {
				return nil, err
			}
			setMeasure(rows, "election", electionMessages)
			variant := func(v string) func(*experiment.Row) bool {
				return func(r *experiment.Row) bool { return strings.Contains(r.Config, "--variant "+v) }
			}
			k := func(r *experiment.Row) int {
				switch {
				case strings.Contains(r.Config, "all initiate"):
					return r.N
				case strings.Contains(r.Config, "4 initiators"):
					return min(4, r.N)
				}
				return 1
			}
			limit := func(last func(n int) int) func(r *experiment.Row) float64 {
				return func(r *experiment.Row) float64 {
					total := 0
					for s := 1; s <= last(r.N); s++ {
						total += min(k(r), r.N/s)
					}
					return 4 * float64(total)
				}
			}
			lone := filter(rows, func(r *experiment.Row) bool { return k(r) == 1 })
			all := filter(rows, randomAllFIFO)
			return &Report{
				Rows: []Row{
					boundEach("equal-size territories are disjoint, 4 messages per TEST: at most 4 sum_{s<n} min(K, n/s)", src+", message analysis",
						filter(rows, variant("all")), "election", "4 sum_{s=1..n-1} min(K, floor(n/s))", limit(func(n int) int { return n - 1 })),
					boundEach("stopping at a majority: sizes up to n/2 test", src+"; the source framework's stopping rule",
						filter(rows, variant("majority")), "election", "4 sum_{s=1..n/2} min(K, floor(n/s))", limit(func(n int) int { return n / 2 })),
					exact("one starter captures every other node with TEST and WINNER", src+"; counted from the rules",
						filter(lone, variant("all")), "election", "2(n-1)", func(n int) float64 { return float64(2 * (n - 1)) }),
					exact("the majority rule announces to the n-1 others", "the source framework's Humblet", filter(rows, variant("majority")), "messages:LEADER", "n-1",
						func(n int) float64 { return float64(n - 1) }),
					allElected("one leader, which every node knows (its master, or LEADER)", src+", correctness", rows),
				},
				Figures: []Figure{{Title: "Humblet: messages, all nodes starting", Measure: "election", YLabel: "election messages",
					Rows: all, Curves: []string{"n H_n", "n"}}},
			}, nil
		},
	}
}

// yoyoRepro checks Santoro's YO-YO on several families of graphs: the
// set-up's 2|E| messages, one vote per VALUE, the VALUE bound, and one
// iteration on a line with monotone IDs.
func yoyoRepro() *Reproduction {
	const src = "Santoro 2007, section 3.8 (YO-YO)"
	return &Reproduction{
		Name: "yoyo", Title: "YO-YO: 2|E| to set up, one vote per VALUE, O(|E| log n) in all", Source: src,
		Needs: []string{"yoyo"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			var rows []experiment.Row
			for _, topo := range []string{"ring", "line", "tree", "hypercube", "gnp:0.05"} {
				ids := []string{"random"}
				if topo == "line" || topo == "ring" {
					ids = append(ids, "increasing", "bit-reversal")
				}
				r, err := sweep(ctx, e, experiment.Grid{
					Algorithms: []string{"yoyo"}, Topology: topo, Sizes: pick(e, []int{64, 256}, []int{64, 256, 1024, 4096}),
					IDs: ids, Deliveries: []string{"fifo", "random"}, Trials: pick(e, 2, 5),
				})
				if err != nil {
					return nil, err
				}
				rows = append(rows, r...)
			}
			setMeasure(rows, "edges", func(r *experiment.Row) float64 { return r.Get("messages:ID") / 2 })
			setMeasure(rows, "votes", func(r *experiment.Row) float64 { return r.Get("messages:YES") + r.Get("messages:NO") })
			monotoneLine := filter(rows, func(r *experiment.Row) bool {
				return r.IDs == "increasing" && strings.Contains(r.Config, "line")
			})
			lg := func(n int) float64 { return math.Ceil(math.Log2(float64(n))) }
			return &Report{
				Rows: []Row{
					exactEach("every VALUE is answered by exactly one vote", src+", -YO", rows, "votes", "VALUE messages",
						func(r *experiment.Row) float64 { return r.Get("messages:VALUE") }),
					boundEach("at most one VALUE per link and iteration, ceil(lg diam)+2 iterations", src+", iterations", rows,
						"messages:VALUE", "|E|(ceil(lg n)+2)", func(r *experiment.Row) float64 { return r.Get("edges") * (lg(r.N) + 2) }),
					exact("a line with increasing IDs: one source, one iteration, the whole path pruned", src+", pruning; counted from the rules",
						monotoneLine, "messages:VALUE", "n-1", func(n int) float64 { return float64(n - 1) }),
					allElected("the minimum ID is elected", src+", correctness", rows),
				},
				Figures: []Figure{{Title: "YO-YO: VALUE messages", Measure: "messages:VALUE", YLabel: "VALUE messages",
					Rows: filter(rows, withIDs("random")), Curves: []string{"n lg n", "n"}}},
			}, nil
		},
	}
}

// hyperElectRepro checks HyperElect on hypercubes: the MATCH count, the
// n-1 announcement, and 2(n-1) one-hop MATCHes when IDs increase with the
// node numbers.
func hyperElectRepro() *Reproduction {
	const src = "Flocchini and Mans 1996 (HyperElect)"
	return &Reproduction{
		Name: "hyperelect", Title: "HyperElect: O(n) messages on hypercubes with a sense of direction", Source: src,
		Needs: []string{"hyperelect"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"hyperelect"}, Topology: "hypercube", Sizes: pick(e, []int{64, 256, 1024}, []int{16, 256, 4096, 65536}),
				IDs: []string{"random", "increasing"}, Deliveries: []string{"fifo", "random"}, Initiators: []string{"all", "1"},
				Trials: pick(e, 2, 5),
			})
			if err != nil {
				return nil, err
			}
			k := func(n int) int { return int(math.Round(math.Log2(float64(n)))) }
			count := func(n int) float64 {
				total := 0.0
				for i := 1; i <= k(n); i++ {
					total += math.Pow(2, float64(k(n)-i+1)) * (1 + float64(i*(i-1))/2)
				}
				return total
			}
			inc := filter(rows, func(r *experiment.Row) bool {
				return r.IDs == "increasing" && allInitiate(r)
			})
			return &Report{
				Rows: []Row{
					bound("a MATCH of stage i costs at most 1 + i(i-1)/2 messages, 2^(k-i+1) are sent", src+"; the source framework's write-up", rows,
						"messages:MATCH", "sum_i 2^(k-i+1)(1+i(i-1)/2)", count),
					exact("IDs increasing with the node numbers: every MATCH crosses one link", src+"; counted from the rules", inc,
						"messages:MATCH", "2(n-1)", func(n int) float64 { return float64(2 * (n - 1)) }),
					exact("the announcement reaches every node once", src, rows, "messages:LEADER", "n-1", func(n int) float64 { return float64(n - 1) }),
					stable("O(n) messages on random IDs", src, filter(rows, randomAllFIFO), "messages", "n"),
					allElected("the minimum ID is elected and every node knows it", src+", correctness", rows),
				},
				Figures: []Figure{{Title: "HyperElect: messages", Measure: "messages", YLabel: "messages", Rows: rows, Curves: []string{"n"}}},
			}, nil
		},
	}
}

// petersonMeshRepro checks the election among a mesh's corners on square
// grids s x s (n = s^2, so that every count is a function of n): WAKEUP =
// 2m, LEADER = 2m - n + 1, ELECT within 4L + s - 1 (L = 4s - 4, the border)
// and exactly that when IDs increase or decrease row by row (the third
// corner's ID then passes the fourth), the time within 3(a+b) - 5 when all
// start at 0, and O(n) messages.
func petersonMeshRepro() *Reproduction {
	const src = "Peterson 1984 (credited, not read); Santoro 2007, section 3.4 (election among the corners)"
	return &Reproduction{
		Name: "peterson-mesh", Title: "Peterson's mesh election: O(n) messages on an a x b grid", Source: src,
		Needs: []string{"peterson-mesh"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			var rows []experiment.Row
			for _, side := range pick(e, []int{4, 8, 16}, []int{4, 16, 64, 128, 316}) {
				r, err := sweep(ctx, e, experiment.Grid{
					Algorithms: []string{"peterson-mesh"}, Topology: fmt.Sprintf("grid:%dx%d", side, side), Sizes: []int{side * side},
					IDs: []string{"random", "increasing", "decreasing"}, Deliveries: []string{"fifo", "random"}, Initiators: []string{"all", "1"},
					Trials: pick(e, 2, 3),
				})
				if err != nil {
					return nil, err
				}
				rows = append(rows, r...)
			}
			side := func(n int) float64 { return math.Round(math.Sqrt(float64(n))) }
			edges := func(n int) float64 { return 2*float64(n) - 2*side(n) }
			monotone := filter(rows, func(r *experiment.Row) bool { return r.IDs == "increasing" || r.IDs == "decreasing" })
			allStart := filter(rows, allInitiate)
			return &Report{
				Rows: []Row{
					exact("every node sends its degree on each of its links", src+"; counted from the rules", rows,
						"messages:WAKEUP", "2m = 4n - 4s", func(n int) float64 { return 2 * edges(n) }),
					bound("the corners' IDs round the border: 4L plus at most one side (L = 4s - 4)", src+"; counted from the rules (general/mesh.go)", rows,
						"messages:ELECT", "4L + s - 1 = 17(s-1)", func(n int) float64 { return 17 * (side(n) - 1) }),
					exact("IDs increasing or decreasing row by row: the third corner's ID passes the fourth, one side more", src+"; counted from the rules", monotone,
						"messages:ELECT", "17(s-1)", func(n int) float64 { return 17 * (side(n) - 1) }),
					exact("the leader's flood: all links of the leader, all but one of every other node", src, rows,
						"messages:LEADER", "2m - n + 1", func(n int) float64 { return 2*edges(n) - float64(n) + 1 }),
					bound("all messages: linear in n", src+"; the sum of the counts above", rows,
						"messages", "7n + 9s - 16", func(n int) float64 { return 7*float64(n) + 9*side(n) - 16 }),
					bound("time with every node starting at 0: the border once, then the flood to the far corner", src+"; counted from the rules", allStart,
						"time", "3(a+b) - 5 = 6s - 5", func(n int) float64 { return 6*side(n) - 5 }),
					stable("O(n) messages on random IDs", src, filter(rows, randomAllFIFO), "messages", "n"),
					allElected("a corner is elected (the smallest corner ID) and every node knows it", src+", correctness", rows),
				},
				// Each size is a grid of its own: the figure names the
				// family, so that the sizes make one curve.
				Figures: []Figure{{Title: "Peterson's mesh election: messages", Measure: "messages", YLabel: "messages", Rows: gridFamily(rows), Curves: []string{"n"}}},
			}, nil
		},
	}
}

// kmzRepro checks Korach, Moran and Zaks's election by kings and phases:
// (n-1)(5 floor(lg n) + 3) >= election messages >= 4(n-1) on every run,
// exactly 4(n-1) with the maximum at node 0 and links in port order, and
// the n-1 LEADER messages.
func kmzRepro() *Reproduction {
	const src = "Korach, Moran and Zaks 1984"
	return &Reproduction{
		Name: "korach-moran-zaks", Title: "Korach-Moran-Zaks: O(n log n) messages on complete graphs", Source: src,
		Needs: []string{"korach-moran-zaks"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"korach-moran-zaks"}, Sizes: pick(e, []int{8, 32, 128, 512}, []int{8, 32, 128, 512, 2048, 8192}),
				IDs: []string{"random", "increasing", "decreasing"}, Deliveries: []string{"fifo", "random-fifo"},
				Initiators: []string{"all", "1"}, Params: map[string][]string{"order": {"shuffle", "index"}},
				Trials: pick(e, 3, 10),
			})
			if err != nil {
				return nil, err
			}
			setMeasure(rows, "election", electionMessages)
			maxPhase := func(n int) float64 { return math.Floor(lg(n)) }
			best := filter(rows, func(r *experiment.Row) bool {
				return r.IDs == "decreasing" && strings.Contains(r.Config, "--order index")
			})
			all := filter(rows, func(r *experiment.Row) bool {
				return r.IDs == "random" && allInitiate(r) && strings.Contains(r.Config, "--order shuffle") &&
					!strings.Contains(r.Config, "random-fifo")
			})
			return &Report{
				Rows: []Row{
					bound("phases stay below lg n; per loser at most lg n UPDATEs, YOUR_CITIZENs and forwards: at most (n-1)(5 floor(lg n) + 3)",
						src+" (5n log n + O(n)); the count per type derived in complete/kmz.go", rows, "election",
						"(n-1)(5 floor(lg n) + 3)", func(n int) float64 { return float64(n-1) * (5*maxPhase(n) + 3) }),
					lowerBoundEach("every node asks once, the winner n-1 times; every loser ACCEPTs and is sent UPDATE", src+"; counted from the rules",
						rows, "election", "4(n-1)", func(r *experiment.Row) float64 { return float64(4 * (r.N - 1)) }),
					exact("the maximum at node 0, links in port order: exactly 4(n-1), whatever the schedule and the starters", src+"; counted from the rules",
						best, "election", "4(n-1)", func(n int) float64 { return float64(4 * (n - 1)) }),
					exact("the king of all tells every other node", src, rows, "messages:LEADER", "n-1", func(n int) float64 { return float64(n - 1) }),
					allElected("one leader, which every node knows", src+", correctness", rows),
				},
				Figures: []Figure{{Title: "Korach-Moran-Zaks: election messages, all nodes starting", Measure: "election", YLabel: "election messages",
					Rows: all, Curves: []string{"n lg n", "n"}}},
			}, nil
		},
	}
}

// gridFamily returns rows whose configurations name the grid family
// ("grid") instead of each grid ("grid:16x16"), so that a figure draws one
// curve across the sizes.
func gridFamily(rows []experiment.Row) []experiment.Row {
	out := make([]experiment.Row, len(rows))
	for i, r := range rows {
		parts := strings.Split(r.Config, ", ")
		for j, p := range parts {
			if strings.HasPrefix(p, "grid:") {
				parts[j] = "grid"
			}
		}
		r.Config = strings.Join(parts, ", ")
		out[i] = r
	}
	return out
}
