package topology

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
)

// Usage lists the accepted topology specifications.
const Usage = "ring, complete, file:PATH (an edge list)"

// Parse builds the graph a specification names, on n nodes. rng is used by
// random topologies. For file:PATH, n must match the file's node count
// (n <= 0 takes the file's).
func Parse(spec string, n int, rng *rand.Rand) (*Graph, error) {
	switch spec {
	case "ring":
		return NewRing(n), nil
	case "complete":
		return NewComplete(n), nil
	}
	if path, ok := strings.CutPrefix(spec, "file:"); ok {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		defer f.Close()
		g, err := ParseEdgeList(f, spec)
		if err != nil {
			return nil, err
		}
		if n > 0 && g.N != n {
			return nil, fmt.Errorf("%w: node count mismatch: %s has %d nodes but --n is %d", ErrInvalid, path, g.N, n)
		}
		return g, nil
	}
	return nil, fmt.Errorf("topology: unknown topology %q; use %s", spec, Usage)
}
