package claims_test

import (
	"slices"
	"testing"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/experiment/claims"
	"github.com/electkit/elect/pp/protocols"
)

// TestEveryAlgorithmIsReproduced: every message-passing algorithm of the
// catalog and every population protocol is run by at least one reproduction
// of 'elect reproduce' (its Needs name it; protocols as "pp:NAME"), so that
// an algorithm added to the catalog without its claims fails here.
func TestEveryAlgorithmIsReproduced(t *testing.T) {
	needed := map[string]bool{}
	for _, r := range claims.All() {
		for _, n := range r.Needs {
			needed[n] = true
		}
	}
	for _, name := range catalog.Names() {
		if !needed[name] {
			t.Errorf("no reproduction runs %s: add one to experiment/claims with its claims", name)
		}
	}
	for _, name := range protocols.Names() {
		if !needed["pp:"+name] {
			t.Errorf("no reproduction runs population protocol %s: add one to experiment/claims", name)
		}
	}
	// And nothing names an algorithm that does not exist.
	for n := range needed {
		if _, ok := catalog.Lookup(n); !ok && !slices.Contains(protocols.Names(), n[min(3, len(n)):]) {
			t.Errorf("a reproduction needs %q, which is neither an algorithm nor a protocol", n)
		}
	}
}
