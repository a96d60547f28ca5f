package claims

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/electkit/elect"
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
						func(n int) float64 { return float64(n) * elect.Harmonic(n) }, 4),
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
	nlognRepro("hs", "Hirschberg-Sinclair: O(n log n) messages", "seed 003 (slides), HS message complexity; seed 001 §5.2.2", "",
		"8n(1+ceil(lg n))", func(n int) float64 { return float64(8 * n * (1 + elect.CeilLog2(n))) }, "messages", nil),
	// The notes state 2n*ceil(lg n), which the bit-reversal ring of 8 nodes
	// exceeds; the project's bound adds the last phase (ring/peterson.go).
	nlognRepro("peterson", "Peterson: O(n log n) messages on the unidirectional ring", "seed 001 §5.2.3",
		"the project's bound (ring/peterson.go: at most floor(lg n)+1 phases of 2 probes per node), not the notes' 2n*ceil(lg n)",
		"2n*floor(lg n) + 2n", func(n int) float64 { return float64(2*n*elect.FloorLog2(n) + 2*n) }, "messages:probe",
		func(ctx context.Context, e Env) ([]Row, error) {
			r, err := petersonErratum(ctx, e)
			return []Row{r}, err
		}),
	nlognRepro("franklin", "Franklin: O(n log n) messages on the bidirectional ring", "seed 001 §5.2.3 (the two-way algorithm); Franklin 1982", "",
		"2n*floor(lg n) + 2n", func(n int) float64 { return float64(2*n*elect.FloorLog2(n) + 2*n) }, "messages:probe", nil),
	dkrRepro(),
	dkrBRepro(),
	hpRepro(),
	krsRepro(),
	burnsRepro(),
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
			wake, err := slowFastWakeRows(e)
			if err != nil {
				return nil, err
			}
			src := "seed 003 (slides), slow-fast"
			return &Report{
				Rows: append([]Row{
					bound("types 1-4 total at most n + n + 2n + n", src+", total number of messages", rows, "messages", "5n", func(n int) float64 { return float64(5 * n) }),
					bound("no processor forwards more than one fast message", src+", type 1 messages", rows, "messages:fast", "n", func(n int) float64 { return float64(n) }),
					allElected("the smallest initiator ID is elected", src, rows),
				}, wake...),
				Figures: []Figure{{Title: "Slow-fast: messages", Measure: "messages", YLabel: "messages", Rows: rows, Curves: []string{"n"}}},
			}, nil
		},
	},
	lcrRandomRepro(),
	itaiRodehRepro(),
	pfRepro(),
	allToAllRepro(),
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
			setMeasure(rows, "termination", func(r *experiment.Row) float64 { return r.Get("messages:LEADER") + r.Get("messages:END") })
			f := func(n int) float64 { return 4*float64(n)*elect.Harmonic(n) + 3*float64(n-1) }
			orders, fig, err := agFrameworkRows(ctx, e)
			if err != nil {
				return nil, err
			}
			return &Report{
				Rows: append([]Row{
					bound("capture costs at most 4 messages; k-th largest killed candidate owns at most n/(k+1) nodes", src, rows, "messages", "4n*H_n + 3(n-1)", f),
					exact("ending sequence: LEADER to all, END to the leader, END to all", src+" and message END", rows, "termination", "3(n-1)",
						func(n int) float64 { return float64(3 * (n - 1)) }),
					allElected("exactly one leader, known to all", "seed 002, proof of correctness", rows),
				}, orders...),
				// Twelve configurations are too many for one figure (eight
				// series at most): all initiating first, one initiator in
				// the third figure, the framework's comparison between.
				Figures: []Figure{
					{Title: "Afek-Gafni B on complete graphs, all nodes initiating: messages", Measure: "messages", YLabel: "messages",
						Rows: filter(rows, func(r *experiment.Row) bool { return strings.Contains(r.Config, "all initiate") }), Curves: []string{"n H_n"}},
					fig,
					{Title: "Afek-Gafni B on complete graphs, one initiator: messages", Measure: "messages", YLabel: "messages",
						Rows: filter(rows, func(r *experiment.Row) bool { return !strings.Contains(r.Config, "all initiate") }), Curves: []string{"n H_n"}},
				},
			}, nil
		},
	},
	echoRepro(),
	floodMaxRepro(),
	ghsRepro(),
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
// its declared bound in every run (boundSource, when not empty, says whose
// bound it is) and a stable messages / (n lg n); extra adds rows.
func nlognRepro(alg, title, source, boundSource, formula string, limit func(int) float64, measure string,
	extra func(ctx context.Context, e Env) ([]Row, error)) *Reproduction {
	if boundSource == "" {
		boundSource = source
	} else {
		boundSource = source + "; " + boundSource
	}
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
			out := []Row{
				bound("message bound with its constant", boundSource, rows, measure, formula, limit),
				stable("O(n log n) on random rings", source, fifoOnly(rnd), measure, "n lg n"),
				stable("O(n log n) on the bit-reversal ring", source+"; seed 001 §5.4.2", fifoOnly(rev), measure, "n lg n"),
				allElected("elects one leader", source, rows),
			}
			if extra != nil {
				more, err := extra(ctx, e)
				if err != nil {
					return nil, err
				}
				out = append(out, more...)
			}
			return &Report{
				Rows:    out,
				Figures: []Figure{{Title: title, Measure: measure, YLabel: measure, Rows: rows, Curves: []string{"n lg n", "n^2"}}},
			}, nil
		},
	}
}

// srcItaiRodeh names Itai-Rodeh's sources (beyond the seeds).
const srcItaiRodeh = "Itai and Rodeh 1981/1990; Fokkink, Distributed Algorithms: An Intuitive Approach, §9.1"

// itaiRodehRepro checks the randomized election on anonymous rings: it
// elects exactly one node in every run (with probability 1), and with every
// node active a round elects exactly when the largest of the n ids drawn
// from 1..n is unique, which happens with probability
// sum_{v=1..n} P(one node draws v, the others less) = sum_{v=1..n} ((v-1)/n)^(n-1)
// (about 1/(e-1) = 0.58 for large n). In the synchronous model with every
// node waking at round 0 a round takes exactly n rounds of the clock (the
// messages of the winning id travel n hops), so a run elects in its first
// round exactly when its time is n. Its messages grow like n log n: the
// first round is Chang-Roberts on random ids, and few rounds follow.
func itaiRodehRepro() *Reproduction {
	return &Reproduction{
		Name: "itai-rodeh", Title: "Itai-Rodeh: one leader with probability 1 on anonymous rings, O(n log n) messages expected", Source: srcItaiRodeh,
		Needs: []string{"itai-rodeh"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			small, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"itai-rodeh"}, Sizes: pick(e, []int{2, 3, 4, 5, 8, 16}, []int{2, 3, 4, 5, 6, 7, 8, 16, 32}),
				IDs: []string{"anonymous"}, Deliveries: []string{"sync", "fifo", "random-fifo"}, Initiators: []string{"all", "1"},
				Trials: pick(e, 50, 500),
			})
			if err != nil {
				return nil, err
			}
			large, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"itai-rodeh"}, Sizes: pick(e, []int{64, 128, 256, 512}, []int{64, 128, 256, 512, 1024, 2048, 4096}),
				IDs: []string{"anonymous"}, Deliveries: []string{"sync"}, Trials: pick(e, 200, 1000),
			})
			if err != nil {
				return nil, err
			}
			syncAll := filter(small, func(r *experiment.Row) bool {
				return strings.Contains(r.Config, "sync") && allInitiate(r)
			})
			syncAll = append(syncAll, large...)
			setMeasure(syncAll, "first_round_elects", func(r *experiment.Row) float64 {
				if r.Get("time") == float64(r.N) {
					return 1
				}
				return 0
			})
			return &Report{
				Rows: []Row{
					allElected("exactly one node is elected in every run (probability 1), under every delivery and wake-up", srcItaiRodeh, append(small, large...)),
					meanWithin("with all n nodes active, the first round elects iff the largest id drawn from 1..n is unique", srcItaiRodeh+" (the round rule; derived)",
						syncAll, "first_round_elects", "sum_{v=1..n} ((v-1)/n)^(n-1)", uniqueMaxProbability, 4),
					stable("O(n log n) messages expected", srcItaiRodeh, large, "messages", "n lg n"),
				},
				Figures: []Figure{{Title: "Itai-Rodeh on anonymous rings: messages", Measure: "messages", YLabel: "messages", Rows: large, Curves: []string{"n lg n", "n H_n", "n"}}},
			}, nil
		},
	}
}

// uniqueMaxProbability is the probability that the largest of n values drawn
// uniformly from 1..n is drawn once: sum over v of n * (1/n) * ((v-1)/n)^(n-1).
func uniqueMaxProbability(n int) float64 {
	p := 0.0
	for v := 1; v <= n; v++ {
		p += math.Pow(float64(v-1)/float64(n), float64(n-1))
	}
	return p
}

// allToAllRepro checks the naive complete-graph election of seed 002: every
// node sends its ID on its n-1 links, whatever the delivery order and the
// wake-up pattern (a node woken by a message sends too).
func allToAllRepro() *Reproduction {
	const src = "seed 002, Algorithm (the naive algorithm)"
	return &Reproduction{
		Name: "all-to-all", Title: "All-to-all: exactly n(n-1) messages on complete graphs", Source: src,
		Needs: []string{"all-to-all"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweep(ctx, e, experiment.Grid{
				Algorithms: []string{"all-to-all"}, Sizes: pick(e, []int{2, 8, 32, 128}, []int{2, 8, 32, 128, 512, 1024}),
				IDs: []string{"random", "increasing"}, Deliveries: []string{"sync", "fifo", "random"}, Initiators: []string{"all", "1"},
				Trials: pick(e, 3, 10),
			})
			if err != nil {
				return nil, err
			}
			allAtZero := filter(rows, allInitiate)
			return &Report{
				Rows: []Row{
					exact("every node sends n-1 messages: n(n-1) in all, under every delivery and wake-up", src, rows, "messages:ID", "n(n-1)",
						func(n int) float64 { return float64(n * (n - 1)) }),
					bound("all wake at 0: every message is sent at 0 and takes at most one unit", src+"; time derived", allAtZero, "time", "1",
						func(int) float64 { return 1 }),
					allElected("the largest ID is elected and every node knows it", src, rows),
				},
				Figures: []Figure{{Title: "All-to-all: messages", Measure: "messages", YLabel: "messages", Rows: filter(rows, func(r *experiment.Row) bool { return r.Config == rows[0].Config }),
					Curves: []string{"n^2"}}},
			}, nil
		},
	}
}

// graphFamily is a topology whose edge count is a known function of n.
type graphFamily struct {
	spec  string // as --topology takes it
	edges func(n int) int
}

// graphFamilies are the families the general-graph reproductions run on
// (sizes must be powers of two, for the hypercube).
var graphFamilies = []graphFamily{
	{"ring", func(n int) int { return n }},
	{"line", func(n int) int { return n - 1 }},
	{"star", func(n int) int { return n - 1 }},
	{"tree", func(n int) int { return n - 1 }},
	{"hypercube", func(n int) int { return n * elect.FloorLog2(n) / 2 }},
	{"complete", func(n int) int { return n * (n - 1) / 2 }},
}

// sweepFamilies runs g on each graph family and records each row's edge
// count and its graph's diameter as the measures "edges" and "diam".
func sweepFamilies(ctx context.Context, e Env, g experiment.Grid) ([]experiment.Row, error) {
	var rows []experiment.Row
	diam := diameters{}
	for _, f := range graphFamilies {
		g.Topology = f.spec
		part, err := sweep(ctx, e, g)
		if err != nil {
			return nil, err
		}
		for i := range part {
			part[i].Measures["edges"] = float64(f.edges(part[i].N))
			d, err := diam.of(f.spec, &part[i])
			if err != nil {
				return nil, err
			}
			part[i].Measures["diam"] = float64(d)
		}
		rows = append(rows, part...)
	}
	return rows, nil
}

// echoRepro checks echo with extinction (seed 001 §5.3) on graphs of known
// edge count: a wave a node joins costs one message per port, so the waves
// cost between 2|E| (the maximum's alone, which is exactly what happens when
// only the maximum initiates) and 2|E|n (every node joins at most n waves);
// the announcement follows the winning wave's spanning tree.
func echoRepro() *Reproduction {
	const src = "seed 001 §5.3 (broadcast and convergecast with extinction)"
	return &Reproduction{
		Name: "echo", Title: "Echo with extinction: 2|E| <= WAVE+ECHO <= 2|E|n, n-1 LEADER messages", Source: src,
		Needs: []string{"echo"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweepFamilies(ctx, e, experiment.Grid{
				Algorithms: []string{"echo"}, Sizes: pick(e, []int{8, 16, 32, 64}, []int{8, 16, 32, 64, 128, 256}),
				IDs: []string{"random", "decreasing"}, Deliveries: []string{"fifo", "random"}, Initiators: []string{"all", "nodes:0"},
				Trials: pick(e, 3, 10),
			})
			if err != nil {
				return nil, err
			}
			setMeasure(rows, "waves", func(r *experiment.Row) float64 { return r.Get("messages:WAVE") + r.Get("messages:ECHO") })
			timeRow := echoTime(rows)
			// With decreasing IDs node 0 holds the maximum.
			maxAlone := filter(rows, func(r *experiment.Row) bool {
				return r.IDs == "decreasing" && strings.Contains(r.Config, "1 initiators")
			})
			twoE := func(r *experiment.Row) float64 { return 2 * r.Get("edges") }
			return &Report{
				Rows: []Row{
					lowerBoundEach("the maximum's wave reaches every node: one message per port", src, rows, "waves", "2|E|", twoE),
					boundEach("every node joins at most n waves, sending deg(v) messages in each", src, rows, "waves", "2|E|n",
						func(r *experiment.Row) float64 { return 2 * r.Get("edges") * float64(r.N) }),
					exactEach("only the maximum initiates: its wave alone, 2|E| messages, O(E)", src, maxAlone, "waves", "2|E|", twoE),
					exactEach("only the maximum initiates: 2|E| + n - 1 messages in all, announcement included", src, maxAlone, "messages", "2|E| + n - 1",
						func(r *experiment.Row) float64 { return 2*r.Get("edges") + float64(r.N-1) }),
					timeRow,
					exact("the announcement follows the winning wave's spanning tree", src, rows, "messages:LEADER", "n-1",
						func(n int) float64 { return float64(n - 1) }),
					allElected("only the maximum's wave completes: it is elected, and every node knows it", src, rows),
				},
				Figures: []Figure{{Title: "Echo with extinction: WAVE+ECHO messages (all initiate, random IDs, FIFO)", Measure: "waves", YLabel: "WAVE+ECHO messages",
					// The claim is each graph's own bounds, 2|E| and 2|E|n:
					// no theory curves beside them.
					Rows: filter(rows, randomAllFIFO)}},
			}, nil
		},
	}
}

// floodMaxRepro checks FloodMax (Lynch §4.1.2, the strategy of seed 001
// §5.3) with its default diameter bound diam = n-1: every node sends on
// every port in each of the diam rounds, diam*2|E| messages, and decides
// after round diam; the on-change variant (OptFloodMax) sends in round 1 on
// every port and later only after max-uid grew.
func floodMaxRepro() *Reproduction {
	const src = "Lynch, Distributed Algorithms, §4.1.2-4.1.3; seed 001 §5.3"
	return &Reproduction{
		Name: "flood-max", Title: "FloodMax: exactly diam*2|E| messages in diam rounds", Source: src,
		Needs: []string{"flood-max"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweepFamilies(ctx, e, experiment.Grid{
				Algorithms: []string{"flood-max"}, Sizes: pick(e, []int{8, 16, 32, 64}, []int{8, 16, 32, 64, 128}),
				IDs: []string{"random", "increasing"}, Params: map[string][]string{"variant": {"every-round", "on-change"}},
				Trials: pick(e, 2, 5),
			})
			if err != nil {
				return nil, err
			}
			every := filter(rows, func(r *experiment.Row) bool { return strings.Contains(r.Config, "every-round") })
			onChange := filter(rows, func(r *experiment.Row) bool { return strings.Contains(r.Config, "on-change") })
			diam2E := func(r *experiment.Row) float64 { return float64(r.N-1) * 2 * r.Get("edges") }
			return &Report{
				Rows: []Row{
					exactEach("every node sends max-uid on every port in each of diam = n-1 rounds", src, every, "messages", "diam*2|E|", diam2E),
					exact("every node decides after round diam", src, rows, "time", "diam = n-1", func(n int) float64 { return float64(n - 1) }),
					boundEach("OptFloodMax sends only in rounds 1..diam", src, onChange, "messages", "diam*2|E|", diam2E),
					lowerBoundEach("OptFloodMax: every node sends its own ID on every port in round 1", src, onChange, "messages", "2|E|",
						func(r *experiment.Row) float64 { return 2 * r.Get("edges") }),
					allElected("the maximum ID is elected, and every node knows it", src, rows),
				},
				Figures: []Figure{{Title: "FloodMax (every round, diam = n-1): messages", Measure: "messages", YLabel: "messages",
					Rows: filter(every, func(r *experiment.Row) bool { return r.IDs == "random" }), Curves: []string{"n^2"}}},
			}, nil
		},
	}
}

// ghsRepro checks Gallager-Humblet-Spira (ACM TOPLAS 5(1), 1983, section 5)
// on graphs of known edge count: at most 5n lg n + 2|E| messages of the
// paper's seven types, at least 2(n-1) (a Connect and an Initiate per tree
// edge), time at most 5n lg n when all nodes wake at once (plus n-1 for
// the election), and exactly n election messages (core-id and leader).
func ghsRepro() *Reproduction {
	const src = "Gallager, Humblet, Spira 1983, section 5"
	return &Reproduction{
		Name: "ghs", Title: "GHS: at most 5n lg n + 2|E| messages, time at most 5n lg n", Source: src,
		Needs: []string{"ghs"},
		run: func(ctx context.Context, e Env) (*Report, error) {
			rows, err := sweepFamilies(ctx, e, experiment.Grid{
				Algorithms: []string{"ghs"}, Sizes: pick(e, []int{8, 16, 32, 64}, []int{8, 16, 32, 64, 128, 256}),
				IDs: []string{"random", "increasing"}, Deliveries: []string{"fifo", "random-fifo"}, Initiators: []string{"all", "nodes:0"},
				Trials: pick(e, 3, 10),
			})
			if err != nil {
				return nil, err
			}
			setMeasure(rows, "mst", func(r *experiment.Row) float64 {
				mst := 0.0
				for _, ty := range []string{"Connect", "Initiate", "Test", "Accept", "Reject", "Report", "ChangeRoot"} {
					mst += r.Get("messages:" + ty)
				}
				return mst
			})
			setMeasure(rows, "election", func(r *experiment.Row) float64 { return r.Get("messages:core-id") + r.Get("messages:leader") })
			nlgn := func(n int) float64 { return 5 * float64(n) * math.Log2(float64(n)) }
			allWake := filter(rows, allInitiate)
			return &Report{
				Rows: []Row{
					boundEach("at most 5n lg n + 2|E| messages build the minimum spanning tree", src, rows, "mst", "5n lg n + 2|E|",
						func(r *experiment.Row) float64 { return nlgn(r.N) + 2*r.Get("edges") }),
					lowerBoundEach("every tree edge carries a Connect and an Initiate", src, rows, "mst", "2(n-1)",
						func(r *experiment.Row) float64 { return 2 * float64(r.N-1) }),
					bound("all nodes awake at time 0: the tree is done by time 5n lg n (n-1 more to elect and announce)", src, allWake, "time",
						"5n lg n + n - 1", func(n int) float64 { return nlgn(n) + float64(n-1) }),
					exact("election: two core-id over the core edge, a leader over each other tree edge", src, rows, "election", "n",
						func(n int) float64 { return float64(n) }),
					allElected("the larger-ID endpoint of the final core edge is elected, and every node knows it", src, rows),
				},
				Figures: []Figure{{Title: "GHS: messages of the seven MST types (all initiate, random IDs, FIFO)", Measure: "mst", YLabel: "MST messages",
					Rows: filter(rows, func(r *experiment.Row) bool {
						return randomAllFIFO(r) && !strings.Contains(r.Config, "random-fifo")
					}), Curves: []string{"n lg n", "n^2"}}},
			}, nil
		},
	}
}
