// Package topology builds the networks algorithms run on: rings, complete
// graphs and general connected graphs, with each node's ports numbered
// 0..degree-1. It knows nothing of algorithms or engines.
package topology

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/electkit/elect"
)

// Kind is the shape of a graph, which decides how ports are computed.
type Kind uint8

// The graph kinds.
const (
	Ring     Kind = iota // oriented ring: port Left to i+1, Right to i-1
	Complete             // complete graph: port p of node i leads to p if p < i, else p+1 (chordal: to i+p+1 mod n)
	General              // explicit adjacency lists
)

// Graph is a connected network of N nodes with numbered ports. Ring and
// complete graphs compute neighbours arithmetically and need no memory per
// edge; general graphs store adjacency in compressed arrays.
type Graph struct {
	Kind Kind
	N    int
	Name string // how it was specified, e.g. "ring", "grid:10x10"

	// Chordal marks a complete graph whose ports carry the chordal sense
	// of direction: port p of node i leads to node i+p+1 mod n, the node
	// p+1 steps further along the Hamiltonian cycle 0, 1, ..., n-1, so a
	// port names a distance along that cycle (Loui, Matsushita and West).
	Chordal bool

	// General graphs: node i's ports are offsets[i]..offsets[i+1]-1 in nbr;
	// nbr[k] is the neighbour and back[k] the port at which it sees node i.
	offsets []int64
	nbr     []int32
	back    []int32
	// weight[k] is the weight of port k's edge, when the graph was built
	// with weights (an edge list with a weight column); nil otherwise.
	weight []float64
}

// Weighted reports whether the graph carries edge weights of its own (an
// edge list with a weight column).
func (g *Graph) Weighted() bool { return g.weight != nil }

// Weight returns the weight of node i's port p's edge in a weighted graph
// (both ends see the same value); 0 in an unweighted one.
func (g *Graph) Weight(i int32, p elect.Port) float64 {
	if g.weight == nil {
		return 0
	}
	return g.weight[g.offsets[i]+int64(p)]
}

// NewRing returns the oriented ring on n nodes (n >= 1; a ring of one node
// links it to itself on both ports).
func NewRing(n int) *Graph { return &Graph{Kind: Ring, N: n, Name: "ring"} }

// NewComplete returns the complete graph on n nodes.
func NewComplete(n int) *Graph { return &Graph{Kind: Complete, N: n, Name: "complete"} }

// NewChordalComplete returns the complete graph on n nodes with the chordal
// sense of direction (see Graph.Chordal): a node's port p leads p+1 steps
// along the cycle 0, 1, ..., n-1, and the node there sees the link on port
// n-p-2 (the distance back).
func NewChordalComplete(n int) *Graph {
	return &Graph{Kind: Complete, N: n, Name: "complete:chordal", Chordal: true}
}

// SenseOfDirection reports whether the ports of g name directions that all
// nodes agree on: the chordal complete graph (port p: distance p+1 along a
// Hamiltonian cycle) and the hypercube (port k: dimension k, see
// Hypercube).
func (g *Graph) SenseOfDirection() bool { return g.Chordal || g.Name == "hypercube" }

// Degree returns the number of ports of node i.
func (g *Graph) Degree(i int) int {
	switch g.Kind {
	case Ring:
		return 2
	case Complete:
		return g.N - 1
	}
	return int(g.offsets[i+1] - g.offsets[i])
}

// Neighbor returns the node at the other end of node i's port p, and the port
// on which that node sees i. p must be a valid port of i.
func (g *Graph) Neighbor(i int32, p elect.Port) (int32, elect.Port) {
	switch g.Kind {
	case Ring:
		if p == elect.Left {
			j := i + 1
			if int(j) == g.N {
				j = 0
			}
			return j, elect.Right
		}
		j := i - 1
		if j < 0 {
			j = int32(g.N - 1)
		}
		return j, elect.Left
	case Complete:
		if g.Chordal {
			j := i + int32(p) + 1
			if int(j) >= g.N {
				j -= int32(g.N)
			}
			return j, elect.Port(int32(g.N) - int32(p) - 2)
		}
		j := int32(p)
		if j >= i {
			j++
		}
		q := i
		if i > j {
			q--
		}
		return j, elect.Port(q)
	}
	k := g.offsets[i] + int64(p)
	return g.nbr[k], elect.Port(g.back[k])
}

// PortIndex returns a number unique to node i's port p, in 0..Ports()-1.
func (g *Graph) PortIndex(i int32, p elect.Port) int64 {
	switch g.Kind {
	case Ring:
		return 2*int64(i) + int64(p)
	case Complete:
		return int64(i)*int64(g.N-1) + int64(p)
	}
	return g.offsets[i] + int64(p)
}

// Ports returns the total number of ports (twice the number of edges).
func (g *Graph) Ports() int64 {
	switch g.Kind {
	case Ring:
		return 2 * int64(g.N)
	case Complete:
		return int64(g.N) * int64(g.N-1)
	}
	return g.offsets[g.N]
}

// Edges returns the number of undirected edges.
func (g *Graph) Edges() int64 {
	if g.Kind == Ring {
		return int64(g.N) // n links, even for n <= 2 (a self-loop, a double link)
	}
	return g.Ports() / 2
}

// PortName names a port for people: "left"/"right" on rings, its number
// elsewhere.
func (g *Graph) PortName(p elect.Port) string {
	if g.Kind == Ring {
		if p == elect.Left {
			return "left"
		}
		return "right"
	}
	return fmt.Sprint(int(p))
}

// ErrInvalid is wrapped by every error about a malformed graph.
var ErrInvalid = errors.New("topology: invalid graph")

// FromEdges builds a general graph on n nodes from undirected edges. Ports of
// a node are numbered in the order its edges appear. It refuses self-loops,
// duplicate edges, endpoints outside 0..n-1 and disconnected graphs, naming
// the problem.
func FromEdges(n int, edges [][2]int32, name string) (*Graph, error) {
	return FromWeightedEdges(n, edges, nil, name)
}

// FromWeightedEdges is FromEdges with a weight per edge (weights[k] is edge
// k's; nil builds an unweighted graph). Weights must be finite and
// distinct: the minimum spanning tree is then unique, which is what the
// algorithms that use weights (GHS) assume.
func FromWeightedEdges(n int, edges [][2]int32, weights []float64, name string) (*Graph, error) {
	if weights != nil && len(weights) != len(edges) {
		return nil, fmt.Errorf("%w: %d weights for %d edges", ErrInvalid, len(weights), len(edges))
	}
	if n < 1 {
		return nil, fmt.Errorf("%w: %d nodes; a graph needs at least 1", ErrInvalid, n)
	}
	deg := make([]int64, n+1)
	for k, e := range edges {
		u, v := e[0], e[1]
		if u < 0 || v < 0 || int(u) >= n || int(v) >= n {
			return nil, fmt.Errorf("%w: edge %d (%d-%d) names a node outside 0..%d", ErrInvalid, k+1, u, v, n-1)
		}
		if u == v {
			return nil, fmt.Errorf("%w: edge %d is a self-loop at node %d", ErrInvalid, k+1, u)
		}
		deg[u+1]++
		deg[v+1]++
	}
	for i := 1; i <= n; i++ {
		deg[i] += deg[i-1]
	}
	g := &Graph{Kind: General, N: n, Name: name, offsets: deg,
		nbr: make([]int32, deg[n]), back: make([]int32, deg[n])}
	if weights != nil {
		if err := checkWeights(edges, weights); err != nil {
			return nil, err
		}
		g.weight = make([]float64, deg[n])
	}
	fill := make([]int64, n)
	for k, e := range edges {
		u, v := e[0], e[1]
		pu, pv := fill[u], fill[v]
		if weights != nil {
			g.weight[g.offsets[u]+pu] = weights[k] + 0 // + 0 makes -0 into +0
			g.weight[g.offsets[v]+pv] = weights[k] + 0
		}
		g.nbr[g.offsets[u]+pu] = v
		g.back[g.offsets[u]+pu] = int32(pv)
		g.nbr[g.offsets[v]+pv] = u
		g.back[g.offsets[v]+pv] = int32(pu)
		fill[u]++
		fill[v]++
	}
	if u, v, dup := g.duplicate(); dup {
		return nil, fmt.Errorf("%w: edge %d-%d appears twice", ErrInvalid, u, v)
	}
	if c := g.components(); c > 1 {
		return nil, fmt.Errorf("%w: the graph is disconnected (%d components); leader election needs a connected network", ErrInvalid, c)
	}
	return g, nil
}

// checkWeights refuses a weight that is not finite and two equal weights,
// naming the edges.
func checkWeights(edges [][2]int32, weights []float64) error {
	order := make([]int, len(weights))
	for k, w := range weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("%w: edge %d (%d-%d) has weight %v; weights must be finite numbers", ErrInvalid, k+1, edges[k][0], edges[k][1], w)
		}
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(weights[a], weights[b]) })
	for k := 1; k < len(order); k++ {
		a, b := order[k-1], order[k]
		if weights[a] == weights[b] {
			a, b = min(a, b), max(a, b)
			return fmt.Errorf("%w: edges %d (%d-%d) and %d (%d-%d) both weigh %v; edge weights must be distinct (GHS needs a unique minimum spanning tree)",
				ErrInvalid, a+1, edges[a][0], edges[a][1], b+1, edges[b][0], edges[b][1], weights[a])
		}
	}
	return nil
}

// duplicate finds two ports of one node that lead to the same neighbour, in
// time proportional to the ports (a mark per node instead of a set of edges).
func (g *Graph) duplicate() (u, v int32, dup bool) {
	mark := make([]int32, g.N) // mark[v] = u+1: u has a port to v
	for u := int32(0); int(u) < g.N; u++ {
		for k := g.offsets[u]; k < g.offsets[u+1]; k++ {
			v := g.nbr[k]
			if mark[v] == u+1 {
				return min(u, v), max(u, v), true
			}
			mark[v] = u + 1
		}
	}
	return 0, 0, false
}

// components counts connected components by breadth-first search.
func (g *Graph) components() int {
	seen := make([]bool, g.N)
	queue := make([]int32, 0, g.N)
	count := 0
	for s := 0; s < g.N; s++ {
		if seen[s] {
			continue
		}
		count++
		seen[s] = true
		queue = append(queue[:0], int32(s))
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for k := g.offsets[u]; k < g.offsets[u+1]; k++ {
				if v := g.nbr[k]; !seen[v] {
					seen[v] = true
					queue = append(queue, v)
				}
			}
		}
	}
	return count
}
