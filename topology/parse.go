package topology

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

// Usage lists the accepted topology specifications.
const Usage = "ring, complete, complete:chordal (ports labelled by distance along a Hamiltonian cycle), line, star, grid:WxH, torus:WxH (W, H >= 3), " +
	"hypercube (n a power of two), tree (uniform random labelled tree, from a random Prüfer sequence), " +
	"gnp:P (G(n,p) resampled until connected), file:PATH (an edge list); " +
	"grid, torus and file fix the node count: --n may be omitted, or must agree"

// MaxNodes bounds the node count of any generated graph (node indexes are
// 32-bit).
const MaxNodes = 1<<31 - 1

// gnpAttempts is how many G(n,p) samples gnp:P draws before it gives up
// finding a connected one.
const gnpAttempts = 100

// Parse builds the graph a specification names, on n nodes; see Usage. rng
// is used by the random topologies (tree, gnp:P), so that one seed gives one
// graph. grid:WxH, torus:WxH and file:PATH have their own node count: n <= 0
// takes it, any other n must equal it. Every error wraps ErrInvalid or says
// what is allowed.
func Parse(spec string, n int, rng *rand.Rand) (*Graph, error) {
	if path, ok := strings.CutPrefix(spec, "file:"); ok {
		return parseFile(spec, path, n)
	}
	if fixed, ok, err := SpecNodes(spec); err != nil {
		return nil, err
	} else if ok {
		if n > 0 && n != fixed {
			return nil, fmt.Errorf("%w: node count mismatch: %s has %d nodes but --n is %d; omit --n or give --n %d", ErrInvalid, spec, fixed, n, fixed)
		}
		n = fixed
	}
	if n < 1 {
		return nil, fmt.Errorf("%w: %d nodes; a graph needs at least 1", ErrInvalid, n)
	}
	if n > MaxNodes {
		return nil, fmt.Errorf("%w: %d nodes; at most %d are allowed", ErrInvalid, n, MaxNodes)
	}
	name, arg, _ := strings.Cut(spec, ":")
	switch name {
	case "ring":
		if spec == name {
			return NewRing(n), nil
		}
	case "complete":
		if spec == name {
			return NewComplete(n), nil
		}
		if arg == "chordal" {
			return NewChordalComplete(n), nil
		}
	case "line":
		if spec == name {
			return Line(n)
		}
	case "star":
		if spec == name {
			return Star(n)
		}
	case "hypercube":
		if spec == name {
			return Hypercube(n)
		}
	case "tree":
		if spec == name {
			return RandomTree(n, rng)
		}
	case "grid", "torus":
		w, h, _ := parseDims(spec, arg) // checked by SpecNodes
		if name == "grid" {
			return Grid(w, h)
		}
		return Torus(w, h)
	case "gnp":
		p, err := parseProbability(arg)
		if err != nil {
			return nil, err
		}
		return GNP(n, p, rng)
	}
	return nil, &UnknownError{Spec: spec}
}

// Names lists the topologies' names, without their arguments.
var Names = []string{"ring", "complete", "complete:chordal", "line", "star", "grid", "torus", "hypercube", "tree", "gnp", "file"}

// UnknownError is a topology specification that names no topology.
type UnknownError struct{ Spec string }

func (e *UnknownError) Error() string {
	return fmt.Sprintf("topology: unknown topology %q; use %s", e.Spec, Usage)
}

// SpecNodes returns the node count a specification fixes by itself (grid:WxH
// and torus:WxH: W*H; file:PATH: the file's), with ok false for
// specifications whose size is --n. A malformed grid or torus is an error.
func SpecNodes(spec string) (n int, ok bool, err error) {
	name, arg, _ := strings.Cut(spec, ":")
	switch name {
	case "grid", "torus":
		w, h, err := parseDims(spec, arg)
		if err != nil {
			return 0, false, err
		}
		return w * h, true, nil
	case "file":
		f, err := os.Open(arg)
		if err != nil {
			return 0, false, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		defer f.Close()
		n, _, err := CountEdgeList(f)
		if err != nil {
			return 0, false, err
		}
		return n, true, nil
	}
	return 0, false, nil
}

// parseDims reads the "WxH" of grid:WxH or torus:WxH.
func parseDims(spec, arg string) (w, h int, err error) {
	name, _, _ := strings.Cut(spec, ":")
	ws, hs, ok := strings.Cut(arg, "x")
	wv, err1 := strconv.ParseInt(ws, 10, 64)
	hv, err2 := strconv.ParseInt(hs, 10, 64)
	if !ok || err1 != nil || err2 != nil || wv < 1 || hv < 1 {
		return 0, 0, fmt.Errorf("%w: %q: want %s:WxH with positive integers W and H, e.g. %s:10x10", ErrInvalid, spec, name, name)
	}
	if hi, lo := bits.Mul64(uint64(wv), uint64(hv)); hi != 0 || lo > MaxNodes {
		return 0, 0, fmt.Errorf("%w: %q has more than %d nodes", ErrInvalid, spec, MaxNodes)
	}
	if name == "torus" && (wv < 3 || hv < 3) {
		return 0, 0, fmt.Errorf("%w: %q: both sides of a torus must be at least 3 (a side of 1 or 2 makes self-loops or duplicate edges); use grid:%dx%d, or ring for a single cycle", ErrInvalid, spec, wv, hv)
	}
	return int(wv), int(hv), nil
}

// parseProbability reads the P of gnp:P.
func parseProbability(arg string) (float64, error) {
	p, err := strconv.ParseFloat(arg, 64)
	if err != nil || !(p > 0 && p <= 1) {
		return 0, fmt.Errorf("%w: gnp:%s: want gnp:P with an edge probability 0 < P <= 1, e.g. gnp:0.1", ErrInvalid, arg)
	}
	return p, nil
}

// parseFile reads file:PATH; n > 0 must equal the file's node count.
func parseFile(spec, path string, n int) (*Graph, error) {
	l, err := ReadEdgeListFile(path, 0)
	if err != nil {
		return nil, err
	}
	if err := l.CheckNodes(path, n); err != nil {
		return nil, err
	}
	return l.Graph(spec)
}

// MemoryBytes estimates the memory that building the graph spec on n nodes
// takes at its peak (edge list and compressed adjacency arrays), for refusing
// runs that cannot fit before anything is allocated. Rings and complete
// graphs need none; file:PATH is not estimated (0).
func MemoryBytes(spec string, n int) int64 {
	if fixed, ok, err := SpecNodes(spec); err == nil && ok && !strings.HasPrefix(spec, "file:") {
		n = fixed
	}
	nn := float64(n)
	var edges float64
	name, arg, _ := strings.Cut(spec, ":")
	switch name {
	case "line", "star", "tree":
		edges = nn
	case "grid", "torus":
		edges = 2 * nn
	case "hypercube":
		edges = nn * math.Max(1, math.Log2(nn)) / 2
	case "gnp":
		if p, err := parseProbability(arg); err == nil {
			edges = p * nn * (nn - 1) / 2
		}
	default:
		return 0
	}
	// At the peak of FromEdges: 8 bytes per edge in the edge list and 8 per
	// port (two per edge) in the adjacency arrays; per node 8 (offsets), 8
	// (fill), 4 (duplicate marks), 5 (connectivity search). Rounded up to 32
	// per edge and per node for the allocator's slack.
	b := 32*edges + 32*nn
	if b > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(b)
}
