package view_test

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/trace"
)

// TestGHSTreeEdgesAreTheMST: GHS on a weighted graph of 9 nodes and 16
// edges (a 3 x 3 grid and four diagonals, distinct weights): the header
// lists each node's neighbours in port order and names the tree field
// (edges, value branch); at the start the page draws no tree edge, at the
// end exactly n - 1 = 8, the minimum spanning tree Kruskal's algorithm
// finds in Go.
func TestGHSTreeEdgesAreTheMST(t *testing.T) {
	edges := [][2]int32{{0, 1}, {1, 2}, {3, 4}, {4, 5}, {6, 7}, {7, 8}, {0, 3}, {3, 6}, {1, 4}, {4, 7}, {2, 5}, {5, 8}, {0, 4}, {4, 8}, {2, 4}, {4, 6}}
	weights := []float64{12, 3, 15, 7, 1, 9, 4, 14, 2, 11, 16, 5, 8, 6, 13, 10}
	g, err := topology.FromWeightedEdges(9, edges, weights, "grid+diagonals")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := sim.Run(election.Config{Algorithm: general.GHS, Graph: g, IDs: []elect.ID{3, 9, 1, 4, 6, 2, 8, 5, 7}, Delivery: election.FIFO, Trace: &buf}); err != nil {
		t.Fatal(err)
	}
	tr, err := trace.ReadAll(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Header.Tree == nil || tr.Header.Tree.Field != "edges" || tr.Header.Tree.Value != "branch" || len(tr.Header.Ports) != 9 {
		t.Fatalf("header: tree %+v, ports of %d nodes", tr.Header.Tree, len(tr.Header.Ports))
	}
	// Kruskal: the edges by weight, each kept when it joins two components.
	order := make([]int, len(edges))
	for k := range order {
		order[k] = k
	}
	sort.Slice(order, func(a, b int) bool { return weights[order[a]] < weights[order[b]] })
	parent := make([]int32, 9)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(i int32) int32 {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	var mst []string
	for _, k := range order {
		a, b := find(edges[k][0]), find(edges[k][1])
		if a != b {
			parent[a] = b
			mst = append(mst, fmt.Sprintf("%d-%d", min(edges[k][0], edges[k][1]), max(edges[k][0], edges[k][1])))
		}
	}
	slices.Sort(mst)
	if len(mst) != 8 {
		t.Fatalf("Kruskal found %d edges", len(mst))
	}
	ctx, ev, _ := open(t, buf.Bytes())
	at := func(when string) []string {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`elect.treeEdges()`))
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		return got
	}
	if got := at("start"); len(got) != 0 {
		t.Errorf("at the start the page draws tree edges %q", got)
	}
	click(t, ctx, "#to-end")
	if got := at("end"); !slices.Equal(got, mst) {
		t.Errorf("at the end the page draws the tree edges %q, want the MST %q", got, mst)
	}
	if console, _ := ev.snapshot(); len(console) > 0 {
		t.Errorf("console errors: %q", console)
	}
}

// TestEchoTreeEdgesSpan: echo with extinction on the same weighted graph
// names its father port as the tree field; at the end the page draws the
// winning wave's tree: n - 1 = 8 edges of the graph that connect all 9
// nodes.
func TestEchoTreeEdgesSpan(t *testing.T) {
	edges := [][2]int32{{0, 1}, {1, 2}, {3, 4}, {4, 5}, {6, 7}, {7, 8}, {0, 3}, {3, 6}, {1, 4}, {4, 7}, {2, 5}, {5, 8}, {0, 4}, {4, 8}, {2, 4}, {4, 6}}
	g, err := topology.FromEdges(9, edges, "grid+diagonals")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := sim.Run(election.Config{Algorithm: general.Echo, Graph: g, IDs: []elect.ID{3, 9, 1, 4, 6, 2, 8, 5, 7}, Delivery: election.FIFO, Trace: &buf}); err != nil {
		t.Fatal(err)
	}
	ctx, _, _ := open(t, buf.Bytes())
	click(t, ctx, "#to-end")
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`elect.treeEdges()`))
	if err != nil {
		t.Fatal(err)
	}
	isEdge := map[string]bool{}
	for _, e := range edges {
		isEdge[fmt.Sprintf("%d-%d", min(e[0], e[1]), max(e[0], e[1]))] = true
	}
	parent := make([]int, 9)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	for _, e := range got {
		var a, b int
		if _, err := fmt.Sscanf(e, "%d-%d", &a, &b); err != nil || !isEdge[e] {
			t.Fatalf("tree edge %q is not an edge of the graph", e)
		}
		parent[find(a)] = find(b)
	}
	roots := map[int]bool{}
	for i := range 9 {
		roots[find(i)] = true
	}
	if len(got) != 8 || len(roots) != 1 {
		t.Errorf("at the end the page draws %d tree edges %q joining %d components, want 8 spanning the 9 nodes", len(got), got, len(roots))
	}
}

// TestGHSTreeOnARing: a ring's header lists no ports (port 0 leads to
// i+1, port 1 to i-1); GHS on the ring of 6 ends with the page drawing 5
// tree edges, all ring links: the ring less one link.
func TestGHSTreeOnARing(t *testing.T) {
	var buf bytes.Buffer
	if _, err := sim.Run(election.Config{Algorithm: general.GHS, Graph: topology.NewRing(6), IDs: []elect.ID{1, 4, 2, 3, 0, 5}, Delivery: election.FIFO, Trace: &buf}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(bytes.SplitN(buf.Bytes(), []byte("\n"), 2)[0], []byte(`"ports"`)) {
		t.Errorf("a ring's header lists its ports")
	}
	ctx, _, _ := open(t, buf.Bytes())
	click(t, ctx, "#to-end")
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`elect.treeEdges()`))
	if err != nil {
		t.Fatal(err)
	}
	ring := map[string]bool{"0-5": true}
	for i := range 5 {
		ring[fmt.Sprintf("%d-%d", i, i+1)] = true
	}
	for _, e := range got {
		if !ring[e] {
			t.Errorf("tree edge %q is not a ring link", e)
		}
	}
	if len(got) != 5 {
		t.Errorf("at the end the page draws %d tree edges %q, want 5", len(got), got)
	}
}
