package general

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// ghsNet runs GHS nodes under an adversary of its own, independent of the
// simulator: at each step it delivers the head of a random non-empty link
// (links are FIFO, as the paper assumes) or wakes a pending initiator, so
// that runs explore interleavings that unit or random delays rarely make.
type ghsNet struct {
	g     *topology.Graph
	nodes []*ghsNode
	links map[int64][]elect.Message // by the sender's port index
	ports []int64                   // port indexes of the non-empty links, in order of first use
}

func (w *ghsNet) send(i int32, env *elect.Recorder) {
	for _, f := range env.Effects() {
		if f.Kind != elect.EffectSend {
			continue
		}
		k := w.g.PortIndex(i, f.Port)
		if len(w.links[k]) == 0 {
			w.ports = append(w.ports, k)
		}
		w.links[k] = append(w.links[k], f.Msg)
	}
	env.ClearEffects()
}

// runGHS runs GHS on g with the IDs given, waking the initiators in a random
// order interleaved with deliveries, until no message is left, and returns
// the nodes.
func runGHS(t *testing.T, g *topology.Graph, ids []elect.ID, rng *rand.Rand) []*ghsNode {
	t.Helper()
	cfg := election.Config{Algorithm: GHS, Graph: g, IDs: ids}
	info := cfg.NodeInfos()
	w := &ghsNet{g: g, links: map[int64][]elect.Message{}}
	for i := range g.N {
		w.nodes = append(w.nodes, GHS.New(info(i)).(*ghsNode))
	}
	// Index of port k's owner and port, for delivery.
	owner := make(map[int64][2]int32)
	for i := range int32(g.N) {
		for p := range elect.Port(g.Degree(int(i))) {
			owner[g.PortIndex(i, p)] = [2]int32{i, int32(p)}
		}
	}
	pending := rng.Perm(g.N)[:1+rng.IntN(g.N)]
	env := elect.NewRecorder(nil)
	woken := make([]bool, g.N)
	wake := func(i int32) {
		if !woken[i] {
			woken[i] = true
			w.nodes[i].Wake(env, true)
			w.send(i, env)
		}
	}
	for steps := 0; len(w.ports) > 0 || len(pending) > 0; steps++ {
		if steps > 10_000_000 {
			t.Fatal("no quiescence after 10^7 steps")
		}
		if len(pending) > 0 && (len(w.ports) == 0 || rng.IntN(4) == 0) {
			wake(int32(pending[0]))
			pending = pending[1:]
			continue
		}
		x := rng.IntN(len(w.ports))
		k := w.ports[x]
		m := w.links[k][0]
		w.links[k] = w.links[k][1:]
		if len(w.links[k]) == 0 {
			w.ports = slices.Delete(w.ports, x, x+1)
		}
		o := owner[k]
		to, q := g.Neighbor(o[0], elect.Port(o[1]))
		wake(to) // a woken node's Wake comes before its first message
		w.nodes[to].Receive(env, q, m)
		w.send(to, env)
	}
	return w.nodes
}

// kruskal returns the minimum spanning tree of g under less (a strict total
// order on edges), as sorted node pairs.
func kruskal(g *topology.Graph, less func(a, b [2]int32) int) [][2]int32 {
	edges := edgePairs(g)
	slices.SortFunc(edges, less)
	parent := make([]int32, g.N)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	var tree [][2]int32
	for _, e := range edges {
		if a, b := find(e[0]), find(e[1]); a != b {
			parent[a] = b
			tree = append(tree, e)
		}
	}
	slices.SortFunc(tree, cmpPair)
	return tree
}

// edgePairs returns the edges of g as node pairs (i, j), i < j, by i and
// then by i's port.
func edgePairs(g *topology.Graph) [][2]int32 {
	var edges [][2]int32
	for i := range int32(g.N) {
		for p := range elect.Port(g.Degree(int(i))) {
			if j, _ := g.Neighbor(i, p); i < j {
				edges = append(edges, [2]int32{i, j})
			}
		}
	}
	return edges
}

func cmpPair(a, b [2]int32) int {
	return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
}

// branches returns the Branch edges of the nodes as sorted node pairs, and
// fails unless both endpoints of every Branch edge agree.
func branches(t *testing.T, g *topology.Graph, nodes []*ghsNode) [][2]int32 {
	t.Helper()
	var tree [][2]int32
	for i := range int32(g.N) {
		for p, e := range nodes[i].edges {
			j, q := g.Neighbor(i, elect.Port(p))
			if (e == ghsBranch) != (nodes[j].edges[q] == ghsBranch) {
				t.Fatalf("edge %d-%d is Branch at one end only", i, j)
			}
			if e == ghsBranch && i < j {
				tree = append(tree, [2]int32{i, j})
			}
		}
	}
	slices.SortFunc(tree, cmpPair)
	return tree
}

// TestGHSBuildsKruskalsTree: on 400 random connected graphs (G(n,p), random
// trees, grids; n up to 60; fixed seeds) with random IDs, random initiator
// sets and random FIFO interleavings, the Branch edges GHS leaves are
// exactly the minimum spanning tree Kruskal's algorithm finds on the same
// weights (GHS 1983, section 2: distinct weights make the tree unique), both
// for weights derived from the IDs, where Kruskal orders edges by the pair
// (smaller ID, larger ID) itself, and for distinct weights of an edge list,
// where Kruskal orders them by the float64 values themselves. The two core
// endpoints halt, and at the end every node is Found with a consistent
// fragment (one level and one name).
func TestGHSBuildsKruskalsTree(t *testing.T) {
	for seed := range uint64(400) {
		rng := rand.New(rand.NewPCG(seed, 2026))
		n := 2 + rng.IntN(59)
		var g *topology.Graph
		var err error
		switch seed % 4 {
		case 0, 1:
			g, err = topology.GNP(n, min(1, 2.5/float64(n)+rng.Float64()*0.5), rng)
		case 2:
			g, err = topology.RandomTree(n, rng)
		case 3:
			g, err = topology.Grid(2+rng.IntN(6), 2+rng.IntN(6))
		}
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		ids := make([]elect.ID, g.N)
		for i, v := range rng.Perm(g.N) {
			ids[i] = elect.ID(3*v + 1)
		}
		byIDs := func(a, b [2]int32) int {
			ka := [2]elect.ID{min(ids[a[0]], ids[a[1]]), max(ids[a[0]], ids[a[1]])}
			kb := [2]elect.ID{min(ids[b[0]], ids[b[1]]), max(ids[b[0]], ids[b[1]])}
			return cmp.Or(cmp.Compare(ka[0], kb[0]), cmp.Compare(ka[1], kb[1]))
		}
		check := func(what string, g *topology.Graph, less func(a, b [2]int32) int) {
			nodes := runGHS(t, g, ids, rng)
			got, want := branches(t, g, nodes), kruskal(g, less)
			if !slices.Equal(got, want) {
				t.Fatalf("seed %d, %s, n=%d: GHS's tree\n%v\nKruskal's\n%v", seed, what, g.N, got, want)
			}
			halted := 0
			for i, p := range nodes {
				if p.state != ghsFound || p.level != nodes[0].level || p.name != nodes[0].name {
					t.Fatalf("seed %d, %s: node %d ends %d at level %d name %d; node 0 at level %d name %d",
						seed, what, i, p.state, p.level, p.name, nodes[0].level, nodes[0].name)
				}
				if len(p.deferred) > 0 {
					t.Fatalf("seed %d, %s: node %d ends with deferred messages %v", seed, what, i, p.deferred)
				}
				if p.halted {
					halted++
				}
			}
			if halted != 2 {
				t.Fatalf("seed %d, %s: %d nodes halted, want the 2 core endpoints", seed, what, halted)
			}
		}
		check("weights from IDs", g, byIDs)

		// The same graph with distinct random weights, as an edge list gives.
		edges := edgePairs(g)
		weights := make([]float64, len(edges))
		for k := range weights {
			weights[k] = float64(rng.IntN(1000)-500)/8 + float64(k)*1e-6 // distinct, of both signs
		}
		rng.Shuffle(len(weights), func(a, b int) { weights[a], weights[b] = weights[b], weights[a] })
		wg, err := topology.FromWeightedEdges(g.N, edges, weights, "weighted")
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		weightOf := map[[2]int32]float64{}
		for k, e := range edges {
			weightOf[e] = weights[k]
		}
		check("edge-list weights", wg, func(a, b [2]int32) int { return cmp.Compare(weightOf[a], weightOf[b]) })
	}
}

// TestGHSSingleNodeElectsItself: a network of one node is its own spanning
// tree; it is elected at once and sends nothing.
func TestGHSSingleNodeElectsItself(t *testing.T) {
	g := topology.NewComplete(1)
	res, err := sim.Run(election.Config{Algorithm: GHS, Graph: g, IDs: []elect.ID{5}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != election.OutcomeElected || res.Messages != 0 {
		t.Fatalf("outcome %s, %d messages; want elected, 0", res.Outcome, res.Messages)
	}
}
