package topology

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseEdgeList: any input either is refused with an error wrapping
// ErrInvalid, or gives a valid graph (connected, consistent ports, no
// self-loops or duplicate edges) whose weights, when it has some, are
// finite, the same at both ends of an edge, and distinct between edges.
func FuzzParseEdgeList(f *testing.F) {
	for _, s := range []string{
		"0 1\n1 2\n", "nodes 3\n0 1\n1 2\n2 0\n", "# c\n\n0 1 # e\n", "nodes 1\n",
		"0 0\n", "0 1\n1 0\n", "0 1\n2 3\n", "nodes 2\n0 5\n", "x y\n", "0\n", "nodes 0\n",
		"nodes 3\nnodes 3\n", "0 1\nnodes 2\n", "-1 0\n", "99999999999 0\n",
		"0 1 2.5\n1 2 -1e3\n", "0 1 1\n1 2 1\n", "0 1 1\n1 2\n", "0 1\n1 2 3\n", "0 1 NaN\n", "0 1 inf\n",
		"0 1 0\n1 2 -0\n", "0 1 0x1p-3\n", "0 1 1 1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, w := range strings.Fields(string(data)) {
			if v, err := strconv.ParseInt(w, 10, 64); err == nil && v > 1<<20 {
				return // a valid but huge graph (up to 2^30 nodes): memory, not parsing
			}
		}
		g, err := ParseEdgeList(bytes.NewReader(data), "fuzz")
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %q does not wrap ErrInvalid", err)
			}
			return
		}
		if g.N < 1 || g.components() != 1 {
			t.Fatalf("accepted a graph of %d nodes in %d components", g.N, g.components())
		}
		if u, v, dup := g.duplicate(); dup {
			t.Fatalf("accepted a duplicate edge %d-%d", u, v)
		}
		seen := map[float64]bool{}
		for i := range g.N {
			for k := g.offsets[i]; k < g.offsets[i+1]; k++ {
				if int(g.nbr[k]) == i {
					t.Fatalf("accepted a self-loop at %d", i)
				}
				if !g.Weighted() {
					continue
				}
				w := g.weight[k]
				if math.IsNaN(w) || math.IsInf(w, 0) || w != g.weight[g.offsets[g.nbr[k]]+int64(g.back[k])] {
					t.Fatalf("weight %v of port %d of node %d: not finite, or not its edge's other end's", w, k-g.offsets[i], i)
				}
				if int(g.nbr[k]) > i {
					if seen[w] {
						t.Fatalf("accepted two edges of weight %v", w)
					}
					seen[w] = true
				}
			}
		}
	})
}

// FuzzEdgeListReaders: the ways to read an edge list agree on any input:
// CountEdgeList gives the node and edge counts ReadEdgeList keeps, or the
// same error; ReadEdgeList with a limit of k edges gives the same list when
// it has at most k edges, and a *TooManyEdgesError (wrapping ErrInvalid)
// when the whole list has more.
func FuzzEdgeListReaders(f *testing.F) {
	for _, s := range []string{"0 1\n1 2\n", "nodes 3\n0 1\n1 2\n2 0\n", "0 1 2.5\n1 2 -1e3\n", "0 1 1\n1 2\n", "nodes 0\n", "x\n", ""} {
		for k := range 4 {
			f.Add([]byte(s), uint8(k))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, k uint8) {
		all, err := ReadEdgeList(bytes.NewReader(data), 0)
		nodes, edges, cerr := CountEdgeList(bytes.NewReader(data))
		if (err == nil) != (cerr == nil) || err != nil && err.Error() != cerr.Error() {
			t.Fatalf("ReadEdgeList: %v; CountEdgeList: %v", err, cerr)
		}
		if err != nil {
			return
		}
		if nodes != all.N || edges != int64(len(all.Edges)) || all.Weights != nil && len(all.Weights) != len(all.Edges) {
			t.Fatalf("CountEdgeList: %d nodes, %d edges; ReadEdgeList: %d nodes, %d edges, %d weights", nodes, edges, all.N, len(all.Edges), len(all.Weights))
		}
		limited, err := ReadEdgeList(bytes.NewReader(data), int64(k)+1)
		var tooMany *TooManyEdgesError
		switch {
		case int64(len(all.Edges)) > int64(k)+1:
			if !errors.As(err, &tooMany) || tooMany.Edges != int64(k)+1 || !errors.Is(err, ErrInvalid) {
				t.Fatalf("%d edges, limit %d: %v", len(all.Edges), int(k)+1, err)
			}
		case err != nil || limited.N != all.N || !slices.Equal(limited.Edges, all.Edges) || !slices.Equal(limited.Weights, all.Weights):
			t.Fatalf("%d edges, limit %d: %v, %+v; without the limit %+v", len(all.Edges), int(k)+1, err, limited, all)
		}
	})
}

// FuzzParse: any specification on up to 64 nodes either builds a graph of
// the right size or is refused with an error that wraps ErrInvalid or says
// which topologies to use; none panics. (file: specs are left out: they
// would read arbitrary paths.)
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"ring", "complete", "line", "star", "tree", "hypercube", "grid:3x4", "torus:3x3",
		"gnp:0.5", "gnp:1", "gnp:0", "grid:", "grid:x", "torus:2x9", "gnp:-1", "gnp:1e-300", "bogus", "",
	} {
		f.Add(s, 12)
	}
	f.Fuzz(func(t *testing.T, spec string, n int) {
		if strings.HasPrefix(spec, "file:") || n > 64 {
			return
		}
		if fixed, ok, err := SpecNodes(spec); err == nil && ok && fixed > 4096 {
			return // a valid but large grid: not a parser question
		}
		g, err := Parse(spec, n, testRand(1))
		if err != nil {
			if !errors.Is(err, ErrInvalid) && !strings.Contains(err.Error(), "; use ") {
				t.Fatalf("Parse(%q, %d): error %q neither wraps ErrInvalid nor says what to use", spec, n, err)
			}
			return
		}
		if fixed, ok, _ := SpecNodes(spec); ok && g.N != fixed || !ok && g.N != n {
			t.Fatalf("Parse(%q, %d) built %d nodes", spec, n, g.N)
		}
	})
}
