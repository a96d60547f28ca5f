package experiment

import (
	"maps"
	"slices"
	"strings"
)

// checkRepeats refuses a grid that lists an algorithm, a size, an ID
// arrangement, a delivery model, an initiator set or a parameter's value
// twice: every configuration runs its trials with the same seeds, so a
// repeat would only repeat its samples, and a summary would count them as
// new ones (a confidence interval over copies). Allowed expands without
// repeats and may overlap the values named beside it.
func (g *Grid) checkRepeats() error {
	type named struct {
		kind Kind
		name string
	}
	seen := map[named]string{}
	for _, raw := range g.Algorithms {
		kind, name, err := resolve(g.catalog(), raw)
		if err != nil {
			continue // Points says what is wrong with it
		}
		first, ok := seen[named{kind, name}]
		switch {
		case ok && first == raw:
			return errorf("%s is listed twice among the algorithms: its runs would repeat with the same seeds; list it once (--trials sets the number of runs)", raw)
		case ok:
			return errorf("%s and %s name the same algorithm: its runs would repeat with the same seeds; list it once (--trials sets the number of runs)", first, raw)
		}
		seen[named{kind, name}] = raw
	}
	sizes := map[int]bool{}
	for _, n := range g.Sizes {
		if sizes[n] {
			return errorf("size %d is listed twice: its runs would repeat with the same seeds; list it once (--trials sets the number of runs)", n)
		}
		sizes[n] = true
	}
	lists := []struct {
		flag   string
		values []string
	}{{"ids", g.IDs}, {"delivery", g.Deliveries}, {"initiators", g.Initiators}}
	for _, k := range slices.Sorted(maps.Keys(g.Params)) {
		lists = append(lists, struct {
			flag   string
			values []string
		}{k, g.Params[k]})
	}
	for _, l := range lists {
		if v, ok := repeated(l.values); ok {
			return errorf("--%s %s: %s is listed twice: its runs would repeat with the same seeds; list it once (--trials sets the number of runs)", l.flag, strings.Join(l.values, ","), v)
		}
	}
	return nil
}

// repeated returns the first value of values listed twice (Allowed aside).
func repeated(values []string) (string, bool) {
	seen := map[string]bool{}
	for _, v := range values {
		if seen[v] && v != Allowed {
			return v, true
		}
		seen[v] = true
	}
	return "", false
}
