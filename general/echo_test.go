package general_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/topology"
)

var asyncDeliveries = []election.Delivery{election.FIFO, election.Random, election.RandomFIFO, election.NewestFirst}

// degRankSum is the per-run bound on WAVE+ECHO: node v joins only waves
// whose ID is at least its own (rank(v) of them at most, rank 1 being the
// maximum) and sends deg(v) messages in each.
func degRankSum(g *topology.Graph, ids []elect.ID) int64 {
	var sum int64
	for v := range g.N {
		rank := 0
		for _, id := range ids {
			if id >= ids[v] {
				rank++
			}
		}
		sum += int64(g.Degree(v)) * int64(rank)
	}
	return sum
}

// wakePatterns returns the initiator sets of the property test: everyone at
// time 0, the maximum alone, one random node, and a random subset at random
// times.
func wakePatterns(n, top int, rng *rand.Rand) map[string][]election.Wake {
	subset := []election.Wake{}
	for _, i := range rng.Perm(n)[:1+rng.IntN(n)] {
		subset = append(subset, election.Wake{Node: i, At: rng.Int64N(6)})
	}
	slices.SortFunc(subset, func(a, b election.Wake) int { return a.Node - b.Node })
	return map[string][]election.Wake{
		"all":    nil,
		"max":    {{Node: top}},
		"one":    {{Node: rng.IntN(n)}},
		"subset": subset,
	}
}

// TestEchoElectsTheMaximumEverywhere: on every topology, size, asynchronous
// delivery model and initiator set, echo elects exactly one leader, the
// maximum (seed 001 §5.3: "only the node with the maximum ID can finish its
// protocol"), informs every node, and keeps every declared bound and the
// per-run bound 2|E| <= WAVE+ECHO <= sum deg(v)*rank(v), LEADER = n-1.
func TestEchoElectsTheMaximumEverywhere(t *testing.T) {
	seeds := uint64(20)
	if testing.Short() {
		seeds = 3
	}
	for _, tp := range topologies(t) {
		for seed := range seeds {
			g, ids := build(t, tp, seed)
			top := argmax(ids)
			patterns := wakePatterns(g.N, top, rand.New(rand.NewPCG(seed, 99)))
			for _, name := range []string{"all", "max", "one", "subset"} {
				for _, d := range asyncDeliveries {
					res := run(t, election.Config{Algorithm: general.Echo, Graph: g, IDs: ids, Delivery: d,
						Wake: patterns[name], Announce: true, Seed: seed})
					what := fmt.Sprintf("%s n=%d %s %s seed %d", tp.spec, g.N, name, d, seed)
					if res.LeaderIndex != top || !res.AllKnowLeader {
						t.Fatalf("%s: leader %d (want %d), all informed %v", what, res.LeaderIndex, top, res.AllKnowLeader)
					}
					wave := count(res, "WAVE", "ECHO")
					if bound := degRankSum(g, ids); wave < 2*g.Edges() || wave > bound {
						t.Fatalf("%s: WAVE+ECHO = %d outside [2|E|, sum deg*rank] = [%d, %d]", what, wave, 2*g.Edges(), bound)
					}
					if l := count(res, "LEADER"); l != int64(g.N-1) {
						t.Fatalf("%s: %d LEADER messages, want n-1 = %d", what, l, g.N-1)
					}
				}
			}
		}
	}
}

// TestEchoOnlyMaxInitiatingSendsExactlyTwoE: when only the maximum
// initiates, no other wave ever starts (every node is woken by the larger
// wave), so the wave reaches every node and each sends exactly one message
// per port: WAVE+ECHO = 2|E|, of which ECHO = n-1 (one per tree edge) and
// WAVE = 2|E|-(n-1); then LEADER = n-1 down the same tree.
func TestEchoOnlyMaxInitiatingSendsExactlyTwoE(t *testing.T) {
	for _, tp := range topologies(t) {
		for seed := range uint64(3) {
			g, ids := build(t, tp, seed)
			for _, d := range asyncDeliveries {
				res := run(t, election.Config{Algorithm: general.Echo, Graph: g, IDs: ids, Delivery: d,
					Wake: []election.Wake{{Node: argmax(ids)}}, Announce: true, Seed: seed})
				e, n := g.Edges(), int64(g.N)
				got := [3]int64{res.MessagesByType["WAVE"], res.MessagesByType["ECHO"], res.MessagesByType["LEADER"]}
				if want := [3]int64{2*e - (n - 1), n - 1, n - 1}; got != want {
					t.Fatalf("%s n=%d %s: WAVE, ECHO, LEADER = %v, want %v (|E| = %d)", tp.spec, n, d, got, want, e)
				}
			}
		}
	}
}

// TestEchoLineOfThreeByHand: the line a - b - c with IDs 1, 3, 2, all
// initiating, unit delays (fifo):
//
//	t=0  a: WAVE(1)->b   b: WAVE(3)->a, WAVE(3)->c   c: WAVE(2)->b      4 WAVE
//	t=1  b drops WAVE(1) and WAVE(2); a and c join wave 3, have heard from
//	     their only port, and echo: ECHO(3)->b twice                     2 ECHO
//	t=2  b has heard wave 3 on both ports: elected; LEADER(3)->a, ->c    2 LEADER
//	t=3  a and c learn the leader.
//
// WAVE 4, ECHO 2, LEADER 2, time 3.
func TestEchoLineOfThreeByHand(t *testing.T) {
	g, err := topology.Line(3)
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, election.Config{Algorithm: general.Echo, Graph: g, IDs: []elect.ID{1, 3, 2}, Delivery: election.FIFO, Announce: true})
	got := [4]float64{float64(res.MessagesByType["WAVE"]), float64(res.MessagesByType["ECHO"]), float64(res.MessagesByType["LEADER"]), res.Time}
	if want := [4]float64{4, 2, 2, 3}; got != want || res.LeaderIndex != 1 {
		t.Errorf("WAVE, ECHO, LEADER, time = %v, leader %d; want %v, leader 1", got, res.LeaderIndex, want)
	}
}

// TestEchoIncreasingLineMeetsTheRankBound: the line n0 - n1 - n2 with IDs
// 0, 1, 2, all initiating, unit delays. Every node joins every wave it may,
// so WAVE+ECHO reaches sum deg(v)*rank(v) = 1*3 + 2*2 + 1*1 = 8:
//
//	t=0  n0: WAVE(0)->n1   n1: WAVE(1)->n0, ->n2   n2: WAVE(2)->n1     4 WAVE
//	t=1  n1 drops WAVE(0), joins wave 2: WAVE(2)->n0; n0 joins wave 1 and
//	     echoes ECHO(1)->n1; n2 drops WAVE(1)                  1 WAVE, 1 ECHO
//	t=2  n1 drops ECHO(1); n0 joins wave 2 and echoes ECHO(2)->n1    1 ECHO
//	t=3  n1 has heard wave 2 on both ports: ECHO(2)->n2              1 ECHO
//	t=4  n2 elected: LEADER(2)->n1; t=5 LEADER(2)->n0; t=6 n0 informed.
//
// WAVE 5, ECHO 3, LEADER 2, time 6: the extinct waves 0 and 1 cost 4 of the
// 8 wave messages.
func TestEchoIncreasingLineMeetsTheRankBound(t *testing.T) {
	g, err := topology.Line(3)
	if err != nil {
		t.Fatal(err)
	}
	ids := []elect.ID{0, 1, 2}
	res := run(t, election.Config{Algorithm: general.Echo, Graph: g, IDs: ids, Delivery: election.FIFO, Announce: true})
	got := [4]float64{float64(res.MessagesByType["WAVE"]), float64(res.MessagesByType["ECHO"]), float64(res.MessagesByType["LEADER"]), res.Time}
	if want := [4]float64{5, 3, 2, 6}; got != want {
		t.Errorf("WAVE, ECHO, LEADER, time = %v; want %v", got, want)
	}
	if s := degRankSum(g, ids); s != 8 || count(res, "WAVE", "ECHO") != s {
		t.Errorf("sum deg*rank = %d, WAVE+ECHO = %d; want both 8", s, count(res, "WAVE", "ECHO"))
	}
}

// TestEchoRunsAreDeterministic: the same configuration gives the same
// counts, time and leader.
func TestEchoRunsAreDeterministic(t *testing.T) {
	g, ids := build(t, topo{"gnp:0.1", 60}, 5)
	cfg := election.Config{Algorithm: general.Echo, Graph: g, IDs: ids, Delivery: election.Random, Announce: true, Seed: 5}
	a, b := run(t, cfg), run(t, cfg)
	if a.Messages != b.Messages || a.Time != b.Time || a.Events != b.Events || fmt.Sprint(a.MessagesByType) != fmt.Sprint(b.MessagesByType) {
		t.Errorf("two runs differ: %+v vs %+v", a, b)
	}
}
