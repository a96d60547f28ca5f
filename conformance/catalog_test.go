package conformance_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/conformance"
)

// variants are the parameter values the catalog's algorithms are checked
// with besides their defaults, by algorithm and parameter: each value is a
// parameter set of its own, which every check runs
// (conformance.Options.Params).
var variants = map[string]map[string][]string{
	"peterson":   {"variant": {"untagged"}},
	"afek-gafni": {"order": {"rotate", "index"}, "variant": {"wait"}},
	"flood-max":  {"variant": {"on-change"}},
}

// engineVariants are parameter values that only the engines check runs:
// readings that fail on purpose (a literal reading of a source that stalls
// or elects two, a diameter bound below the network's, one random bit on
// anonymous rings, where two nodes draw the same key with probability
// about n^2/2^(b+1)), which both engines must fail alike
// (conformance.Options.EngineParams).
var engineVariants = map[string]map[string][]string{
	"lcr-random": {"bits": {"1", "3"}},
	"slow-fast":  {"variant": {"literal"}, "wake": {"literal"}},
	"afek-gafni": {"variant": {"literal"}},
	"flood-max":  {"diam": {"2"}},
}

// paramSets are the parameter sets of variants[name]: one per value.
func paramSets(variants map[string][]string) []map[string]string {
	var out []map[string]string
	for _, name := range slices.Sorted(maps.Keys(variants)) {
		for _, v := range variants[name] {
			out = append(out, map[string]string{name: v})
		}
	}
	return out
}

// TestCatalogConforms runs every algorithm of the catalog through the kit
// it offers users (package conformance): the declaration, the state
// encoding, elections on random networks under every delivery its model
// allows, the two engines' agreement, snapshots, and the exhaustive
// checker on small networks; each with its parameter variants. This is
// where the catalog's property, differential, snapshot and exhaustive
// checks live: a check added to the kit applies to the catalog and to
// users' algorithms alike.
func TestCatalogConforms(t *testing.T) {
	for _, alg := range catalog.All() {
		t.Run(alg.Name, func(t *testing.T) {
			t.Parallel()
			conformance.Run(t, alg, conformance.Options{
				Params:       paramSets(variants[alg.Name]),
				EngineParams: paramSets(engineVariants[alg.Name]),
			})
		})
	}
}
