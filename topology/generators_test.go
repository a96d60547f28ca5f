package topology

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect"
)

func testRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// mustParse builds spec on n nodes with a fixed seed, failing the test on error.
func mustParse(t testing.TB, spec string, n int) *Graph {
	t.Helper()
	g, err := Parse(spec, n, testRand(1))
	if err != nil {
		t.Fatalf("Parse(%q, %d): %v", spec, n, err)
	}
	return g
}

// checkPorts verifies that every port leads to a neighbour that sees the
// node back on the port Neighbor reports, and returns the degree histogram.
func checkPorts(t *testing.T, g *Graph) map[int]int {
	t.Helper()
	hist := map[int]int{}
	var ports int64
	for i := range g.N {
		d := g.Degree(i)
		hist[d]++
		ports += int64(d)
		for p := range d {
			j, q := g.Neighbor(int32(i), elect.Port(p))
			back, bq := g.Neighbor(j, q)
			if int(back) != i || bq != elect.Port(p) {
				t.Fatalf("%s: node %d port %d leads to %d port %d, which leads back to %d port %d", g.Name, i, p, j, q, back, bq)
			}
		}
	}
	if ports != g.Ports() || ports != 2*g.Edges() {
		t.Fatalf("%s: %d ports counted, Ports() = %d, Edges() = %d", g.Name, ports, g.Ports(), g.Edges())
	}
	return hist
}

// TestGeneratorShapes checks edge counts and degrees against their formulas:
// a WxH grid has W(H-1)+H(W-1) edges, a WxH torus 2WH (W, H >= 3), the
// hypercube on n = 2^d nodes n*d/2, every tree n-1; and every graph is
// connected with consistent ports.
func TestGeneratorShapes(t *testing.T) {
	type shape struct {
		spec  string
		n     int
		edges int64
		hist  map[int]int // degree -> number of nodes
	}
	var cases []shape
	for _, wh := range [][2]int{{1, 1}, {1, 5}, {5, 1}, {2, 2}, {3, 4}, {10, 10}, {7, 13}} {
		w, h := wh[0], wh[1]
		hist := map[int]int{}
		for y := range h {
			for x := range w {
				d := 0
				if x > 0 {
					d++
				}
				if x < w-1 {
					d++
				}
				if y > 0 {
					d++
				}
				if y < h-1 {
					d++
				}
				hist[d]++
			}
		}
		cases = append(cases, shape{fmt.Sprintf("grid:%dx%d", w, h), w * h, int64(w*(h-1) + h*(w-1)), hist})
	}
	for _, wh := range [][2]int{{3, 3}, {3, 5}, {10, 10}, {4, 17}} {
		w, h := wh[0], wh[1]
		cases = append(cases, shape{fmt.Sprintf("torus:%dx%d", w, h), w * h, int64(2 * w * h), map[int]int{4: w * h}})
	}
	for _, n := range []int{1, 2, 4, 64, 1024} {
		d := bits.Len(uint(n)) - 1
		cases = append(cases, shape{"hypercube", n, int64(n * d / 2), map[int]int{d: n}})
	}
	for _, n := range []int{2, 3, 10, 100} {
		cases = append(cases,
			shape{"line", n, int64(n - 1), map[int]int{1: 2, 2: n - 2}},
			shape{"star", n, int64(n - 1), starHist(n)},
			shape{"complete", n, int64(n * (n - 1) / 2), map[int]int{n - 1: n}},
			shape{"tree", n, int64(n - 1), nil},
		)
	}
	for _, c := range cases {
		g := mustParse(t, c.spec, c.n)
		if g.N != c.n || g.Edges() != c.edges {
			t.Errorf("%s: n = %d, %d edges; want n = %d, %d edges", c.spec, g.N, g.Edges(), c.n, c.edges)
			continue
		}
		hist := checkPorts(t, g)
		for d, k := range hist {
			if k == 0 {
				delete(hist, d)
			}
		}
		want := c.hist
		if want != nil {
			for d, k := range want {
				if k == 0 {
					delete(want, d)
				}
			}
			if fmt.Sprint(hist) != fmt.Sprint(want) {
				t.Errorf("%s on %d nodes: degree histogram %v, want %v", c.spec, c.n, hist, want)
			}
		}
		if g.Kind == General && g.components() != 1 {
			t.Errorf("%s: %d components", c.spec, g.components())
		}
	}
}

// starHist is the degree histogram of a star: the centre n-1, leaves 1.
func starHist(n int) map[int]int {
	h := map[int]int{1: n - 1}
	h[n-1]++
	return h
}

// TestHypercubePortIsDimension: port k of node i leads to i XOR 2^k.
func TestHypercubePortIsDimension(t *testing.T) {
	g := mustParse(t, "hypercube", 32)
	for i := range int32(32) {
		for k := range 5 {
			if j, q := g.Neighbor(i, elect.Port(k)); j != i^1<<k || q != elect.Port(k) {
				t.Fatalf("node %d port %d leads to %d port %d, want %d port %d", i, k, j, q, i^1<<k, k)
			}
		}
	}
}

// TestDiameters checks Diameter and the double-sweep lower bound against
// the known diameters: grid W+H-2, torus floor(W/2)+floor(H/2), hypercube
// lg n, line n-1, star 2, ring floor(n/2), complete 1.
func TestDiameters(t *testing.T) {
	cases := []struct {
		spec string
		n    int
		diam int
	}{
		{"grid:7x4", 28, 9}, {"torus:5x6", 30, 5}, {"hypercube", 64, 6}, {"line", 9, 8},
		{"star", 9, 2}, {"ring", 9, 4}, {"ring", 10, 5}, {"complete", 9, 1}, {"line", 1, 0},
	}
	for _, c := range cases {
		g := mustParse(t, c.spec, c.n)
		if d, lb := g.Diameter(), g.DiameterLowerBound(); d != c.diam || lb != c.diam {
			t.Errorf("%s on %d nodes: Diameter %d, double sweep %d; want %d", c.spec, c.n, d, lb, c.diam)
		}
	}
	for seed := range uint64(20) {
		g, err := RandomTree(50, testRand(seed))
		if err != nil {
			t.Fatal(err)
		}
		if d, lb := g.Diameter(), g.DiameterLowerBound(); d != lb {
			t.Errorf("tree seed %d: double sweep %d, diameter %d (exact on trees)", seed, lb, d)
		}
	}
}

// edgeSet returns a graph's edges as sorted "u-v" strings, to compare graphs.
func edgeSet(g *Graph) []string {
	var out []string
	for i := range g.N {
		for p := range g.Degree(i) {
			j, _ := g.Neighbor(int32(i), elect.Port(p))
			if int(j) > i {
				out = append(out, fmt.Sprintf("%d-%d", i, j))
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestRandomGraphsAreDeterministicPerSeed: the same seed gives the same
// graph, port for port; another seed gives another graph.
func TestRandomGraphsAreDeterministicPerSeed(t *testing.T) {
	for _, spec := range []string{"tree", "gnp:0.1"} {
		a, err1 := Parse(spec, 200, testRand(7))
		b, err2 := Parse(spec, 200, testRand(7))
		c, err3 := Parse(spec, 200, testRand(8))
		if err := errors.Join(err1, err2, err3); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.nbr, b.nbr) || !slices.Equal(a.back, b.back) || !slices.Equal(a.offsets, b.offsets) {
			t.Errorf("%s: seed 7 gave two different graphs", spec)
		}
		if slices.Equal(edgeSet(a), edgeSet(c)) {
			t.Errorf("%s: seeds 7 and 8 gave the same graph", spec)
		}
	}
}

// TestRandomTreeIsUniform: Cayley's formula gives 4^2 = 16 labelled trees
// on 4 nodes; a uniform sampler hits each with probability 1/16. With 16000
// samples each count is Binomial(16000, 1/16): mean 1000, standard error
// sqrt(16000 * 1/16 * 15/16) = 30.6; every count must be within 4 SE.
func TestRandomTreeIsUniform(t *testing.T) {
	const samples = 16000
	counts := map[string]int{}
	rng := testRand(3)
	for range samples {
		g, err := RandomTree(4, rng)
		if err != nil {
			t.Fatal(err)
		}
		counts[strings.Join(edgeSet(g), ",")]++
	}
	if len(counts) != 16 {
		t.Fatalf("%d distinct trees on 4 nodes, want 16 (Cayley)", len(counts))
	}
	se := math.Sqrt(samples * (1.0 / 16) * (15.0 / 16))
	for tree, k := range counts {
		if math.Abs(float64(k)-samples/16) > 4*se {
			t.Errorf("tree %s drawn %d times, want %d within 4 SE (%.1f)", tree, k, samples/16, 4*se)
		}
	}
}

// TestGNPEdgeCountMatchesExpectation: G(200, 0.1) has Binomial(19900, 0.1)
// edges, mean 1990 and standard deviation sqrt(19900*0.1*0.9) = 42.3; it is
// disconnected with probability below 200*0.9^199 < 1e-6, so conditioning on
// connectivity moves the mean by far less than that. The mean of 50 samples
// must be within 4 SE = 4*42.3/sqrt(50) = 23.9 of 1990.
func TestGNPEdgeCountMatchesExpectation(t *testing.T) {
	const n, p, samples = 200, 0.1, 50
	rng := testRand(11)
	total := 0.0
	for range samples {
		g, err := GNP(n, p, rng)
		if err != nil {
			t.Fatal(err)
		}
		if g.components() != 1 {
			t.Fatal("GNP returned a disconnected graph")
		}
		checkPorts(t, g)
		total += float64(g.Edges())
	}
	pairs := float64(n * (n - 1) / 2)
	mean, se := total/samples, math.Sqrt(pairs*p*(1-p)/samples)
	if math.Abs(mean-pairs*p) > 4*se {
		t.Errorf("mean edge count %.1f, want %.0f within 4 SE (%.1f)", mean, pairs*p, 4*se)
	}
}

// TestGNPOneIsComplete: p = 1 links every pair.
func TestGNPOneIsComplete(t *testing.T) {
	g := mustParse(t, "gnp:1", 30)
	if g.Edges() != 30*29/2 {
		t.Errorf("gnp:1 on 30 nodes has %d edges, want 435", g.Edges())
	}
}

// TestInvalidGraphsAreRefused: every malformed graph is refused with an
// error that wraps ErrInvalid and names the problem.
func TestInvalidGraphsAreRefused(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return "file:" + path
	}
	cases := []struct {
		spec string
		n    int
		want string
	}{
		{file("loop.txt", "0 1\n1 1\n"), 0, "self-loop at node 1"},
		{file("dup.txt", "0 1\n1 2\n2 1\n"), 0, "edge 1-2 appears twice"},
		{file("disc.txt", "0 1\n2 3\n"), 0, "disconnected (2 components)"},
		{file("isolated.txt", "nodes 4\n0 1\n1 2\n"), 0, "disconnected (2 components)"},
		{file("declared.txt", "nodes 2\n0 1\n1 2\n"), 0, "node count mismatch: 'nodes 2' but an edge names node 2"},
		{file("ok.txt", "0 1\n1 2\n"), 5, "node count mismatch"},
		{file("junk.txt", "0 1 2 3\n"), 0, "want an edge 'u v'"},
		{file("neg.txt", "0 -1\n"), 0, "is not a number"},
		{file("empty.txt", "# nothing\n"), 0, "no nodes and no edges"},
		{"file:" + filepath.Join(dir, "missing.txt"), 0, "no such file"},
		{"grid:10x10", 50, "node count mismatch: grid:10x10 has 100 nodes but --n is 50; omit --n or give --n 100"},
		{"torus:4x4", 15, "node count mismatch"},
		{"grid:10", 0, "want grid:WxH"},
		{"grid:0x5", 0, "want grid:WxH"},
		{"grid:axb", 0, "want grid:WxH"},
		{"grid:100000x100000", 0, "more than"},
		{"torus:2x5", 0, "both sides of a torus must be at least 3"},
		{"torus:1x9", 0, "both sides of a torus must be at least 3"},
		{"hypercube", 12, "hypercube needs n a power of two, got 12; the nearest are 8 and 16"},
		{"gnp:0", 10, "0 < P <= 1"},
		{"gnp:1.5", 10, "0 < P <= 1"},
		{"gnp:NaN", 10, "0 < P <= 1"},
		{"gnp:x", 10, "0 < P <= 1"},
		{"gnp:0.001", 100, "disconnected in all 100 samples"},
		{"gnp:0.9", 1 << 20, "at most"},
		{"line", 0, "a graph needs at least 1"},
		{"ring:5", 5, "unknown topology"},
		{"lines", 5, "unknown topology"},
	}
	for _, c := range cases {
		_, err := Parse(c.spec, c.n, testRand(1))
		if err == nil {
			t.Errorf("Parse(%q, %d) succeeded; want an error containing %q", c.spec, c.n, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q, %d) = %q; want it to contain %q", c.spec, c.n, err, c.want)
		}
		if !errors.Is(err, ErrInvalid) && !strings.Contains(err.Error(), "; use ") {
			t.Errorf("Parse(%q, %d) = %q: neither wraps ErrInvalid nor says what to use", c.spec, c.n, err)
		}
	}
	if _, err := FromEdges(3, [][2]int32{{0, 1}, {1, 3}}, "x"); err == nil || !strings.Contains(err.Error(), "outside 0..2") {
		t.Errorf("FromEdges with node 3 of 3: %v", err)
	}
}

// TestSizedSpecsTakeTheirNodeCount: grid, torus and file fix n; n <= 0 takes
// theirs, and SpecNodes reports it without building the graph.
func TestSizedSpecsTakeTheirNodeCount(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, []byte("nodes 3\n0 1\n1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]int{"grid:4x5": 20, "torus:3x7": 21, "file:" + path: 3} {
		n, ok, err := SpecNodes(spec)
		if err != nil || !ok || n != want {
			t.Errorf("SpecNodes(%q) = %d, %v, %v; want %d", spec, n, ok, err, want)
		}
		if g := mustParse(t, spec, 0); g.N != want {
			t.Errorf("Parse(%q, 0) has %d nodes, want %d", spec, g.N, want)
		}
		if g := mustParse(t, spec, want); g.N != want {
			t.Errorf("Parse(%q, %d) has %d nodes", spec, want, g.N)
		}
	}
	for _, spec := range []string{"ring", "tree", "gnp:0.5", "hypercube"} {
		if _, ok, err := SpecNodes(spec); ok || err != nil {
			t.Errorf("SpecNodes(%q) = ok %v, err %v; its size is --n", spec, ok, err)
		}
	}
}

// TestMemoryBytesGrowsWithTheGraph: the estimate covers the adjacency
// arrays (16 bytes per port at least) and is zero for arithmetic graphs.
func TestMemoryBytesGrowsWithTheGraph(t *testing.T) {
	if b := MemoryBytes("ring", 1000); b != 0 {
		t.Errorf("ring: %d bytes, want 0", b)
	}
	for _, c := range []struct {
		spec string
		n    int
	}{{"grid:100x100", 0}, {"torus:100x100", 0}, {"hypercube", 1024}, {"tree", 1000}, {"gnp:0.1", 1000}} {
		g := mustParse(t, c.spec, c.n)
		if b := MemoryBytes(c.spec, c.n); b < 16*g.Ports() {
			t.Errorf("%s: estimate %d bytes, below the %d of its adjacency arrays", c.spec, b, 16*g.Ports())
		}
	}
}

// TestLargeGridIsCompact: a 1000x1000 grid (10^6 nodes) is stored in
// compressed arrays, exactly 8 bytes per port (neighbour and back port, 32
// bits each) plus 8 per node (offsets); skipped with -short.
func TestLargeGridIsCompact(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10^6-node grid")
	}
	g := mustParse(t, "grid:1000x1000", 0)
	if g.N != 1_000_000 || g.Edges() != 1_998_000 {
		t.Fatalf("n = %d, %d edges", g.N, g.Edges())
	}
	bytes := 8*cap(g.offsets) + 4*cap(g.nbr) + 4*cap(g.back)
	if want := 8*(g.N+1) + 8*int(g.Ports()); bytes != want {
		t.Errorf("adjacency arrays take %d bytes, want %d", bytes, want)
	}
}

// TestChordalCompleteLabelsDistances: on complete:chordal, port p of node i
// leads p+1 steps along the cycle, and the far end sees the link on the
// port of the distance back, n-(p+1).
func TestChordalCompleteLabelsDistances(t *testing.T) {
	for _, n := range []int{2, 3, 8, 17} {
		g, err := Parse("complete:chordal", n, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !g.SenseOfDirection() || g.Kind != Complete {
			t.Fatalf("n=%d: %s is not a complete graph with a sense of direction", n, g.Name)
		}
		for i := range int32(n) {
			for p := range elect.Port(n - 1) {
				j, q := g.Neighbor(i, p)
				if want := (int(i) + int(p) + 1) % n; int(j) != want {
					t.Fatalf("n=%d: port %d of node %d leads to %d, want %d", n, p, i, j, want)
				}
				if back, bq := g.Neighbor(j, q); back != i || bq != p || int(q) != n-int(p)-2 {
					t.Fatalf("n=%d: link %d:%d -> %d:%d does not lead back", n, i, p, j, q)
				}
			}
		}
	}
	if g, _ := Parse("complete", 5, nil); g.SenseOfDirection() {
		t.Fatal("the plain complete graph claims a sense of direction")
	}
}
