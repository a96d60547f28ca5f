package plot

import (
	"math"
	"slices"
	"strings"

	"github.com/electkit/elect/experiment"
)

// The bounds a figure draws (Spec.Bounds).
const (
	BoundsAll   = "all"
	BoundsUpper = "upper" // <, <= and ==
	BoundsLower = "lower" // >, >= and ==
	BoundsNone  = "none"
)

// BoundSets lists the values of Spec.Bounds.
var BoundSets = []string{BoundsAll, BoundsUpper, BoundsLower, BoundsNone}

// wanted says whether a bound of a relation is in a set of bounds.
func wanted(set, relation string) bool {
	switch set {
	case BoundsAll:
		return true
	case BoundsUpper:
		return relation == "<=" || relation == "<" || relation == "=="
	case BoundsLower:
		return relation == ">=" || relation == ">" || relation == "=="
	}
	return false
}

// quantity returns the quantity a bound speaks of ("election messages" of
// "election messages <= n(n+1)/2").
func quantity(name string) string {
	for _, rel := range []string{" <= ", " == ", " >= ", " < ", " > "} {
		if i := strings.Index(name, rel); i >= 0 {
			return name[:i]
		}
	}
	return name
}

// matches says whether a bound's quantity can be the plotted measure by
// its name, letter case aside ("MST messages" on mst, "wave messages" on
// waves, "ELECTION messages" on messages:election); addBounds then checks
// that it is, run by run.
func matches(q, measure string) bool {
	if measure == "messages" {
		return strings.HasSuffix(q, "messages")
	}
	q = strings.TrimSuffix(strings.ToLower(q), " messages")
	m := strings.TrimPrefix(strings.ToLower(measure), "messages:")
	return q == m || q+"s" == m
}

// boundLabel is a bound's legend label: the algorithm (or "bound", in a
// figure of one algorithm, named above), the relation as a sign and the
// formula, the quantity left out since the y axis names it ("hs ≤
// 8n(1+ceil(lg n))").
func boundLabel(alg, bound string) string {
	for _, rel := range []struct{ text, sign string }{{" <= ", " ≤ "}, {" >= ", " ≥ "}, {" == ", " = "}, {" < ", " < "}, {" > ", " > "}} {
		if _, formula, ok := strings.Cut(bound, rel.text); ok {
			return alg + rel.sign + formula
		}
	}
	return alg + ": " + bound
}

// addBounds adds every declared bound on the plotted quantity, per
// algorithm: the mean of its checked value over the algorithm's runs at
// each n, thin, in a dash pattern of its own. A bound is drawn only when
// it speaks of the very quantity plotted: its name matches the measure and
// every run's checked quantity (the check's actual value) equals the run's
// measure, so that a bound on a part of the messages (the election's,
// say) is not drawn over all of them. A bound whose value at some n
// differs between the algorithm's configurations (5n lg n + 2|E| on
// graphs of different |E|) is drawn for each configuration instead, in
// the same dash, named once in the legend: an average over
// configurations would bound none of them. Make colours them once the
// series have theirs.
func (f *Figure) addBounds(s Spec, groups []*experiment.Group) {
	type acc struct{ sum, count float64 }
	type key struct{ alg, bound string }
	values := map[key]map[string]map[int]*acc{} // by bound, configuration, n
	var configs = map[key][]string{}
	other := map[key]bool{} // bounds some run shows to be on another quantity
	var keys []key
	for _, g := range groups {
		for _, r := range g.Rows {
			m := r.Get(s.Measure)
			for _, b := range r.Bounds {
				if !wanted(s.Bounds, b.Relation) || !matches(quantity(b.Name), s.Measure) {
					continue
				}
				k := key{r.Name, b.Name}
				if math.IsNaN(m) || math.Abs(b.Actual-m) > 1e-9*math.Max(1, math.Abs(m)) {
					other[k] = true
				}
				if !drawable(b.Value) {
					continue
				}
				if values[k] == nil {
					values[k] = map[string]map[int]*acc{}
					keys = append(keys, k)
				}
				if values[k][g.Key()] == nil {
					values[k][g.Key()] = map[int]*acc{}
					configs[k] = append(configs[k], g.Key())
				}
				a := values[k][g.Key()][r.N]
				if a == nil {
					a = &acc{}
					values[k][g.Key()][r.N] = a
				}
				a.sum += b.Value
				a.count++
			}
		}
	}
	line := func(byN map[int]*acc) []xy {
		var pts []xy
		for n, a := range byN {
			pts = append(pts, xy{float64(n), a.sum / a.count})
		}
		slices.SortFunc(pts, func(a, b xy) int { return int(a.x - b.x) })
		return pts
	}
	for _, k := range keys {
		if other[k] {
			continue
		}
		label := boundLabel(k.alg, k.bound)
		if f.oneAlg != "" {
			label = boundLabel("bound", k.bound)
		}
		st := lineStyle{color: theoryColors[0], width: referenceWidth, dashes: refDash(f.refStyles)}
		f.refStyles++
		// One value at each n for every configuration: one line.
		all := map[int]*acc{}
		uniform := true
		for _, c := range configs[k] {
			for n, a := range values[k][c] {
				v := a.sum / a.count
				if b, ok := all[n]; ok && math.Abs(b.sum/b.count-v) > 1e-9*math.Max(1, math.Abs(v)) {
					uniform = false
				}
				if all[n] == nil {
					all[n] = &acc{}
				}
				all[n].sum += a.sum
				all[n].count += a.count
			}
		}
		if uniform {
			f.refs = append(f.refs, refLine{pts: line(all), style: st, label: label, kind: "bound", alg: k.alg})
			continue
		}
		for _, c := range configs[k] {
			f.refs = append(f.refs, refLine{pts: line(values[k][c]), style: st, label: label + " (each curve's, in its colour)", kind: "bound", alg: k.alg, config: c})
		}
	}
}
