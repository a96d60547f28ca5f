package topology

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/electkit/elect/internal/bounded"
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
// as by FromWeightedEdges. It is ReadEdgeList and EdgeList.Graph in one
// call.
func ParseEdgeList(r io.Reader, name string) (*Graph, error) {
	l, err := ReadEdgeList(r, 0)
	if err != nil {
		return nil, err
	}
	return l.Graph(name)
}

// EdgeList is an edge-list file as read (ReadEdgeList), before its graph
// is built: a caller can weigh its size (N, len(Edges)) before Graph
// allocates anything by N.
type EdgeList struct {
	N       int        // the declared node count, else the largest node number + 1
	Edges   [][2]int32 // as listed
	Weights []float64  // one per edge, or nil when the edges have none
}

// Graph builds the graph of the list, named name, validated as by
// FromWeightedEdges.
func (l *EdgeList) Graph(name string) (*Graph, error) {
	return FromWeightedEdges(l.N, l.Edges, l.Weights, name)
}

// TooManyEdgesError is ReadEdgeList's refusal of a list longer than its
// limit: Edges edges were read when it stopped.
type TooManyEdgesError struct{ Edges int64 }

func (e *TooManyEdgesError) Error() string {
	return fmt.Sprintf("%v: the edge list has more than %d edges", ErrInvalid, e.Edges)
}

func (e *TooManyEdgesError) Unwrap() error { return ErrInvalid }

// ReadEdgeList reads the edge-list format of ParseEdgeList, checking every
// line, and keeps the edges without building the graph. maxEdges > 0
// stops it with a *TooManyEdgesError as soon as the list has more edges
// than that (a reader's memory budget; EdgeListBytes each).
func ReadEdgeList(r io.Reader, maxEdges int64) (*EdgeList, error) {
	l := &EdgeList{}
	n, err := readEdgeList(r, maxEdges, func(e [2]int32, w float64, weighted bool) {
		l.Edges = append(l.Edges, e)
		if weighted {
			l.Weights = append(l.Weights, w)
		}
	})
	if err != nil {
		return nil, err
	}
	l.N = n
	return l, nil
}

// CheckNodes reports a node count n > 0 that is not the list's, read from
// path (n <= 0 takes the list's).
func (l *EdgeList) CheckNodes(path string, n int) error {
	if n > 0 && l.N != n {
		return fmt.Errorf("%w: node count mismatch: %s has %d nodes but --n is %d; omit --n or give --n %d", ErrInvalid, path, l.N, n, l.N)
	}
	return nil
}

// ReadEdgeListFile is ReadEdgeList of the file at path.
func ReadEdgeListFile(path string, maxEdges int64) (*EdgeList, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	defer f.Close()
	return ReadEdgeList(f, maxEdges)
}

// CountEdgeList reads the edge-list format of ParseEdgeList, checking
// every line as ReadEdgeList does, and returns its node and edge counts
// without keeping the edges.
func CountEdgeList(r io.Reader) (nodes int, edges int64, err error) {
	nodes, err = readEdgeList(r, 0, func([2]int32, float64, bool) { edges++ })
	return nodes, edges, err
}

// EdgeListLimits are an edge list's limits: a line is one edge, and 1 GiB
// holds some 60 million of them, more than a simulated run can take.
var EdgeListLimits = bounded.Limits{What: "an edge list", MaxBytes: 1 << 30, MaxLine: 1 << 20}

// readEdgeList is the edge-list format's one parser: it hands every edge
// (with its weight, when the edges have them) to add and returns the node
// count. maxEdges > 0 stops it after that many edges.
func readEdgeList(r io.Reader, maxEdges int64, add func(e [2]int32, w float64, weighted bool)) (int, error) {
	sc := bounded.NewLines(r, "", EdgeListLimits)
	declared := -1
	largest := int64(-1)
	var edges int64
	weighted := false
	for sc.Scan() {
		line := sc.Line()
		text := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = strings.TrimSpace(text[:i])
		}
		if text == "" {
			continue
		}
		f := strings.Fields(text)
		if f[0] == "nodes" {
			if len(f) != 2 || declared >= 0 || edges > 0 {
				return 0, fmt.Errorf("%w: line %d: 'nodes N' must come once, before the edges", ErrInvalid, line)
			}
			v, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || v < 1 || v > MaxEdgeListNodes {
				return 0, fmt.Errorf("%w: line %d: node count %s is not a number in 1..%d", ErrInvalid, line, bounded.QuoteString(f[1]), MaxEdgeListNodes)
			}
			declared = int(v)
			continue
		}
		if len(f) != 2 && len(f) != 3 {
			return 0, fmt.Errorf("%w: line %d: want an edge 'u v' or 'u v weight', got %s", ErrInvalid, line, bounded.QuoteString(text))
		}
		if (len(f) == 3) != weighted && edges > 0 {
			return 0, fmt.Errorf("%w: line %d: either every edge has a weight or none has", ErrInvalid, line)
		}
		weighted = len(f) == 3
		var w float64
		if weighted {
			var err error
			w, err = strconv.ParseFloat(f[2], 64)
			if err != nil || math.IsNaN(w) || math.IsInf(w, 0) {
				return 0, fmt.Errorf("%w: line %d: weight %s is not a finite number", ErrInvalid, line, bounded.QuoteString(f[2]))
			}
		}
		var e [2]int32
		for k := range 2 {
			v, err := strconv.ParseInt(f[k], 10, 32)
			if err != nil || v < 0 || v >= MaxEdgeListNodes {
				return 0, fmt.Errorf("%w: line %d: node %s is not a number in 0..%d", ErrInvalid, line, bounded.QuoteString(f[k]), MaxEdgeListNodes-1)
			}
			e[k] = int32(v)
			largest = max(largest, v)
		}
		if maxEdges > 0 && edges >= maxEdges {
			return 0, &TooManyEdgesError{Edges: edges}
		}
		edges++
		add(e, w, weighted)
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	n := int(largest + 1)
	if declared >= 0 {
		if int64(declared) <= largest {
			return 0, fmt.Errorf("%w: node count mismatch: 'nodes %d' but an edge names node %d", ErrInvalid, declared, largest)
		}
		n = declared
	}
	if n < 1 {
		return 0, fmt.Errorf("%w: no nodes and no edges", ErrInvalid)
	}
	return n, nil
}
