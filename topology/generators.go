package topology

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/electkit/elect"
)

// The generators below build general graphs through FromEdges, so every
// generated graph is validated like a user's edge list (no self-loops, no
// duplicate edges, connected). Node i's ports are numbered in the order its
// edges are generated; each generator says which order that is.

// Line returns the path 0 - 1 - ... - (n-1). Inner nodes have port 0 towards
// i-1 and port 1 towards i+1.
func Line(n int) (*Graph, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: line on %d nodes; it needs at least 1", ErrInvalid, n)
	}
	edges := make([][2]int32, 0, n-1)
	for i := 1; i < n; i++ {
		edges = append(edges, [2]int32{int32(i - 1), int32(i)})
	}
	return FromEdges(n, edges, "line")
}

// Star returns the star with centre 0 and leaves 1..n-1; the centre's port
// p leads to leaf p+1.
func Star(n int) (*Graph, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: star on %d nodes; it needs at least 1", ErrInvalid, n)
	}
	edges := make([][2]int32, 0, n-1)
	for i := 1; i < n; i++ {
		edges = append(edges, [2]int32{0, int32(i)})
	}
	return FromEdges(n, edges, "star")
}

// Grid returns the w x h grid: node x + w*y (0 <= x < w, 0 <= y < h) is
// linked to its horizontal and vertical neighbours, w(h-1) + h(w-1) edges in
// all. Horizontal edges are generated first, row by row, then vertical ones.
func Grid(w, h int) (*Graph, error) {
	return lattice(w, h, false)
}

// Torus returns the w x h torus (w, h >= 3): the grid with wrap-around links
// in both directions, so every node has degree 4 and there are 2wh edges.
func Torus(w, h int) (*Graph, error) {
	if w < 3 || h < 3 {
		return nil, fmt.Errorf("%w: torus:%dx%d: both sides must be at least 3 (a side of 1 or 2 makes self-loops or duplicate edges)", ErrInvalid, w, h)
	}
	return lattice(w, h, true)
}

func lattice(w, h int, wrap bool) (*Graph, error) {
	name := fmt.Sprintf("grid:%dx%d", w, h)
	if wrap {
		name = fmt.Sprintf("torus:%dx%d", w, h)
	}
	if w < 1 || h < 1 {
		return nil, fmt.Errorf("%w: %s: both sides must be positive", ErrInvalid, name)
	}
	if hi, lo := bits.Mul64(uint64(w), uint64(h)); hi != 0 || lo > MaxNodes {
		return nil, fmt.Errorf("%w: %s has more than %d nodes", ErrInvalid, name, MaxNodes)
	}
	n := w * h
	at := func(x, y int) int32 { return int32(x + w*y) }
	edges := make([][2]int32, 0, 2*n)
	for y := range h {
		for x := range w {
			if x+1 < w {
				edges = append(edges, [2]int32{at(x, y), at(x+1, y)})
			} else if wrap {
				edges = append(edges, [2]int32{at(x, y), at(0, y)})
			}
		}
	}
	for y := range h {
		for x := range w {
			if y+1 < h {
				edges = append(edges, [2]int32{at(x, y), at(x, y+1)})
			} else if wrap {
				edges = append(edges, [2]int32{at(x, y), at(x, 0)})
			}
		}
	}
	return FromEdges(n, edges, name)
}

// Hypercube returns the hypercube on n = 2^d nodes: i and j are linked when
// their binary numbers differ in one bit, and port k of every node leads
// along dimension k (to i XOR 2^k). It has n*d/2 edges.
func Hypercube(n int) (*Graph, error) {
	if n < 1 || n&(n-1) != 0 {
		lo := 1
		if n > 1 {
			lo = 1 << (bits.Len(uint(n)) - 1)
		}
		return nil, fmt.Errorf("%w: hypercube needs n a power of two, got %d; the nearest are %d and %d", ErrInvalid, n, lo, 2*lo)
	}
	d := bits.Len(uint(n)) - 1
	edges := make([][2]int32, 0, n/2*d)
	for k := range d {
		for i := range n {
			if j := i ^ 1<<k; i < j {
				edges = append(edges, [2]int32{int32(i), int32(j)})
			}
		}
	}
	return FromEdges(n, edges, "hypercube")
}

// RandomTree returns a uniformly random labelled tree on n nodes (each of the
// n^(n-2) trees of Cayley's formula equally likely): it draws a Prüfer
// sequence of n-2 uniform node numbers from rng and decodes it in linear
// time.
func RandomTree(n int, rng *rand.Rand) (*Graph, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: tree on %d nodes; it needs at least 1", ErrInvalid, n)
	}
	if n == 1 {
		return FromEdges(1, nil, "tree")
	}
	seq := make([]int32, n-2)
	for i := range seq {
		seq[i] = int32(rng.IntN(n))
	}
	return FromEdges(n, decodePrufer(n, seq), "tree")
}

// decodePrufer returns the n-1 edges of the tree whose Prüfer sequence is
// seq (length n-2, n >= 2): each step links the smallest remaining leaf to
// the next number of the sequence.
func decodePrufer(n int, seq []int32) [][2]int32 {
	degree := make([]int32, n)
	for i := range degree {
		degree[i] = 1
	}
	for _, v := range seq {
		degree[v]++
	}
	ptr := int32(0)
	for degree[ptr] != 1 {
		ptr++
	}
	leaf := ptr
	edges := make([][2]int32, 0, n-1)
	for _, v := range seq {
		edges = append(edges, [2]int32{leaf, v})
		degree[leaf]--
		degree[v]--
		if degree[v] == 1 && v < ptr {
			leaf = v
			continue
		}
		ptr++
		for degree[ptr] != 1 {
			ptr++
		}
		leaf = ptr
	}
	return append(edges, [2]int32{leaf, int32(n - 1)})
}

// MaxGNPEdges bounds the expected edge count p*n(n-1)/2 of gnp:P.
const MaxGNPEdges = 1 << 28

// GNP returns a connected Erdős-Rényi graph G(n,p): every pair of nodes is
// linked independently with probability p (sampled by geometric skipping, in
// time proportional to the edges), and a disconnected sample is thrown away
// and drawn again, so the result is distributed as G(n,p) conditioned on
// being connected. After 100 disconnected samples it gives up, with an error
// suggesting p above the connectivity threshold ln(n)/n.
func GNP(n int, p float64, rng *rand.Rand) (*Graph, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: gnp on %d nodes; it needs at least 1", ErrInvalid, n)
	}
	if !(p > 0 && p <= 1) {
		return nil, fmt.Errorf("%w: gnp:%v: the edge probability must be in (0, 1]", ErrInvalid, p)
	}
	if want := p * float64(n) * float64(n-1) / 2; want > MaxGNPEdges {
		return nil, fmt.Errorf("%w: gnp:%v on %d nodes would have about %.3g edges; at most %d are allowed (choose a smaller p or n)", ErrInvalid, p, n, want, MaxGNPEdges)
	}
	name := fmt.Sprintf("gnp:%v", p)
	parent := make([]int32, n)
	var edges [][2]int32
	for range gnpAttempts {
		edges = sampleGNP(n, p, rng, edges[:0])
		if connected(n, edges, parent) {
			return FromEdges(n, edges, name)
		}
	}
	threshold := math.Log(float64(n)) / float64(n)
	return nil, fmt.Errorf("%w: %s on %d nodes was disconnected in all %d samples; choose p well above the connectivity threshold ln(n)/n = %.3g",
		ErrInvalid, name, n, gnpAttempts, threshold)
}

// sampleGNP appends the edges of one G(n,p) sample to edges, visiting the
// pairs (v, w), w < v, in order and jumping over the non-edges with
// geometrically distributed skips (Batagelj and Brandes, 2005).
func sampleGNP(n int, p float64, rng *rand.Rand, edges [][2]int32) [][2]int32 {
	if p == 1 {
		for v := 1; v < n; v++ {
			for w := range v {
				edges = append(edges, [2]int32{int32(w), int32(v)})
			}
		}
		return edges
	}
	logq := math.Log1p(-p)
	v, w := int64(1), int64(-1)
	for v < int64(n) {
		skip := math.Floor(math.Log1p(-rng.Float64()) / logq)
		if skip > float64(int64(n)*int64(n)) {
			break
		}
		w += 1 + int64(skip)
		for w >= v && v < int64(n) {
			w -= v
			v++
		}
		if v < int64(n) {
			edges = append(edges, [2]int32{int32(w), int32(v)})
		}
	}
	return edges
}

// connected reports whether the edges link all n nodes, by union-find in
// parent (length n).
func connected(n int, edges [][2]int32, parent []int32) bool {
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
	parts := n
	for _, e := range edges {
		if a, b := find(e[0]), find(e[1]); a != b {
			parent[a] = b
			parts--
		}
	}
	return parts == 1
}

// Eccentricity returns the largest distance, in hops, from node src to any
// node, by breadth-first search (it works on every kind of graph).
func (g *Graph) Eccentricity(src int) int {
	ecc, _ := g.bfs(src)
	return ecc
}

// Diameter returns the largest distance between two nodes, by a
// breadth-first search from every node: time n(n+|E|), for small graphs and
// tests.
func (g *Graph) Diameter() int {
	d := 0
	for s := range g.N {
		d = max(d, g.Eccentricity(s))
	}
	return d
}

// DiameterLowerBound returns a lower bound on the diameter by a double sweep
// (the eccentricity of a node farthest from node 0), in time O(n+|E|). It is
// exact on trees, and on rings, grids, tori and hypercubes.
func (g *Graph) DiameterLowerBound() int {
	_, far := g.bfs(0)
	ecc, _ := g.bfs(int(far))
	return ecc
}

// bfs returns the eccentricity of src and a node at that distance.
func (g *Graph) bfs(src int) (int, int32) {
	dist := make([]int32, g.N)
	for i := range dist {
		dist[i] = -1
	}
	queue := make([]int32, 0, g.N)
	queue = append(queue, int32(src))
	dist[src] = 0
	last := int32(src)
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		last = u
		for p := range g.Degree(int(u)) {
			v, _ := g.Neighbor(u, elect.Port(p))
			if dist[v] < 0 {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return int(dist[last]), last
}
