package check

import (
	"fmt"
	"math"
	"slices"

	"github.com/electkit/elect"
)

// bounds evaluates every declared bound in every configuration against
// that configuration's extremes. Under a free wake order (config.freeWake)
// the initiators do not start together: a bound declared for a
// simultaneous start (one that applies when every node wakes at time 0,
// elect.BoundContext.AllAtZero, and not otherwise) is not evaluated, and
// its name is in simultaneous.
func bounds(alg *elect.Algorithm, cfgs []*config, names []string) (out []BoundVerdict, simultaneous []string) {
	for _, b := range alg.Bounds {
		if b.Quantity == elect.Bits {
			continue // bits follow from the counts by type
		}
		if b.Quantity == elect.Time && cfgs[0].cfg.CausalTime {
			// Time bounds speak of executions whose messages take at most
			// one unit; an asynchronous schedule has no durations, and the
			// checker's time is the causal depth, which such a bound does
			// not limit (a chain may pass a node twice).
			continue
		}
		v := BoundVerdict{Name: fmt.Sprintf("%s %s %s", b.Name, b.Relation, b.Formula), Relation: b.Relation.String(), Holds: true}
		for _, c := range cfgs {
			ctx := c.cfg.BoundContext()
			if c.freeWake && ctx.AllAtZero && ctx.N > 1 {
				together := b.Applies == nil || b.Applies(ctx)
				ctx.AllAtZero = false // the initiators wake in every order, not together
				if together && b.Applies != nil && !b.Applies(ctx) && !slices.Contains(simultaneous, v.Name) {
					simultaneous = append(simultaneous, v.Name)
				}
			}
			if b.Applies != nil && !b.Applies(ctx) {
				continue
			}
			if len(c.max) == 0 || len(c.min) == 0 {
				// An interrupted check stops configurations before
				// any of their executions ended: they have no extremes.
				continue
			}
			hi, lo := quantity(b, alg, c.max), quantity(b, alg, c.min)
			want := b.Value(ctx)
			v.Checked++
			var ratio float64
			var worst float64
			switch b.Relation {
			case elect.AtMost:
				worst, ratio = hi, ratioOf(hi, want)
				v.Holds = v.Holds && hi <= want
			case elect.AtLeast:
				worst, ratio = lo, ratioOf(want, lo)
				v.Holds = v.Holds && lo >= want
			default:
				worst, ratio = hi, ratioOf(hi, want)
				if lo != hi || hi != want {
					ratio = math.Max(ratio, ratioOf(want, lo))
					if ratioOf(want, lo) > ratioOf(hi, want) {
						worst = lo
					}
				}
				v.Holds = v.Holds && lo == want && hi == want
			}
			if v.Checked == 1 || ratio > v.Tightest {
				v.Tightest, v.Worst, v.Bound, v.WorstIDs = ratio, worst, want, c.cfg.IDs
			}
		}
		if v.Checked > 0 {
			out = append(out, v)
		}
	}
	return out, simultaneous
}

// ratioOf is a/b as a tightness: 1 when both are 0, and the largest
// finite float when only b is (a bound of 0 exceeded), so that the report
// stays finite (JSON has no infinities).
func ratioOf(a, b float64) float64 {
	switch {
	case a == b:
		return 1
	case b == 0:
		return math.MaxFloat64
	}
	return a / b
}

// quantity is what bound b measures, from a configuration's extremes
// (messages of its types, or all, or time).
func quantity(b elect.Bound, alg *elect.Algorithm, ext []int64) float64 {
	types := len(alg.Messages)
	switch b.Quantity {
	case elect.Time:
		return float64(ext[types+1])
	case elect.Messages:
		if len(b.Types) == 0 {
			return float64(ext[types])
		}
		var s int64
		for t, m := range alg.Messages {
			if slices.Contains(b.Types, m.Name) {
				s += ext[t]
			}
		}
		return float64(s)
	}
	return math.NaN() // bits: not checked here
}
