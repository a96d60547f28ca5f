package topology

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// MaxEdgeListNodes bounds the node count an edge-list file may declare.
const MaxEdgeListNodes = 1 << 30

// ParseEdgeList reads a graph in the edge-list format:
//
//	# comments and blank lines are ignored
//	nodes 5        (optional; else n is the largest node number + 1)
//	0 1
//	1 2
//
// Each other line is one undirected edge "u v" between node numbers
// 0..n-1, optionally with a weight "u v w" (a finite number as Go's
// strconv.ParseFloat reads it, e.g. 3, -0.5, 1e-3). Either every edge has a
// weight or none has; weights must be distinct (the algorithms that use
// them, GHS, need a unique minimum spanning tree). The result is validated
// as by FromWeightedEdges.
func ParseEdgeList(r io.Reader, name string) (*Graph, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	declared := -1
	largest := int64(-1)
	var edges [][2]int32
	var weights []float64
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = strings.TrimSpace(text[:i])
		}
		if text == "" {
			continue
		}
		f := strings.Fields(text)
		if f[0] == "nodes" {
			if len(f) != 2 || declared >= 0 || len(edges) > 0 {
				return nil, fmt.Errorf("%w: line %d: 'nodes N' must come once, before the edges", ErrInvalid, line)
			}
			v, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || v < 1 || v > MaxEdgeListNodes {
				return nil, fmt.Errorf("%w: line %d: node count %q is not a number in 1..%d", ErrInvalid, line, f[1], MaxEdgeListNodes)
			}
			declared = int(v)
			continue
		}
		if len(f) != 2 && len(f) != 3 {
			return nil, fmt.Errorf("%w: line %d: want an edge 'u v' or 'u v weight', got %q", ErrInvalid, line, text)
		}
		if (len(f) == 3) != (weights != nil) && len(edges) > 0 {
			return nil, fmt.Errorf("%w: line %d: either every edge has a weight or none has", ErrInvalid, line)
		}
		if len(f) == 3 {
			w, err := strconv.ParseFloat(f[2], 64)
			if err != nil || math.IsNaN(w) || math.IsInf(w, 0) {
				return nil, fmt.Errorf("%w: line %d: weight %q is not a finite number", ErrInvalid, line, f[2])
			}
			weights = append(weights, w)
		}
		var e [2]int32
		for k := range 2 {
			v, err := strconv.ParseInt(f[k], 10, 32)
			if err != nil || v < 0 || v >= MaxEdgeListNodes {
				return nil, fmt.Errorf("%w: line %d: node %q is not a number in 0..%d", ErrInvalid, line, f[k], MaxEdgeListNodes-1)
			}
			e[k] = int32(v)
			largest = max(largest, v)
		}
		edges = append(edges, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	n := int(largest + 1)
	if declared >= 0 {
		if int64(declared) <= largest {
			return nil, fmt.Errorf("%w: node count mismatch: 'nodes %d' but an edge names node %d", ErrInvalid, declared, largest)
		}
		n = declared
	}
	if n < 1 {
		return nil, fmt.Errorf("%w: no nodes and no edges", ErrInvalid)
	}
	return FromWeightedEdges(n, edges, weights, name)
}
