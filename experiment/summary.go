package experiment

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/internal/format"
	"github.com/electkit/elect/pp/protocols"
)

// Growth is a function of n that a measure is divided by to get a fitted
// constant, such as messages / (n lg n).
type Growth struct {
	Name string
	F    func(n float64) float64
}

// Growths are the growth functions by name.
var Growths = []Growth{
	{"1", func(float64) float64 { return 1 }},
	{"lg n", math.Log2},
	{"ln n", math.Log},
	{"lg^2 n", func(n float64) float64 { return math.Log2(n) * math.Log2(n) }},
	{"sqrt n", math.Sqrt},
	{"H_n", func(n float64) float64 { return elect.Harmonic(int(n)) }},
	{"n", func(n float64) float64 { return n }},
	{"n lg n", func(n float64) float64 { return n * math.Log2(n) }},
	{"n H_n", func(n float64) float64 { return n * elect.Harmonic(int(n)) }},
	{"n^2", func(n float64) float64 { return n * n }},
}

// GrowthNames lists the growth functions' names.
func GrowthNames() []string {
	var s []string
	for _, g := range Growths {
		s = append(s, g.Name)
	}
	return s
}

// LookupGrowth returns the growth function of the given name; "nlgn",
// "n^2", "n2", "nHn" and similar spellings without blanks are accepted.
func LookupGrowth(name string) (Growth, bool) {
	key := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(strings.ToLower(s), " ", ""), "^", "")
	}
	for _, g := range Growths {
		if key(g.Name) == key(name) {
			return g, true
		}
	}
	return Growth{}, false
}

func mustGrowth(name string) Growth {
	g, ok := LookupGrowth(name)
	if !ok {
		panic("experiment: no growth " + name)
	}
	return g
}

// DefaultGrowth is the growth a measure of a run is expected to follow, used
// for the fitted constant when none is asked for. It is declared with the
// algorithm (elect.Algorithm.Growth: messages, message types and bits by ID
// arrangement, time) or the population protocol (protocols.Entry.Growth:
// parallel time, interactions as n times it, states met); a measure with no
// declaration, or a run of an algorithm outside the catalogs, gets "1" (the
// fit is the mean).
func DefaultGrowth(r *Row, measure string) Growth {
	name := declaredGrowth(r, measure)
	if name == "" {
		return mustGrowth("1")
	}
	g := mustGrowth(name)
	if r.Kind == Population && measure == "interactions" {
		return timesN(g)
	}
	return g
}

// declaredGrowth returns the name of the growth the declaration of r's
// algorithm or protocol gives measure ("" for none; interactions give the
// parallel time's, which DefaultGrowth multiplies by n).
func declaredGrowth(r *Row, measure string) string {
	if r.Kind == Population {
		e, ok := protocols.Lookup(r.Name)
		if !ok || r.File != "" { // a protocol file declares no growth
			return ""
		}
		switch measure {
		case "parallel_time", "interactions":
			return e.Growth.ParallelTime
		case "states_seen":
			return e.Growth.States
		}
		return ""
	}
	alg, ok := catalog.Lookup(r.Name)
	if !ok {
		return ""
	}
	switch {
	case measure == "time":
		return alg.Growth.Time
	case measure == "messages" || strings.HasPrefix(measure, "messages:") || measure == "bits":
		return alg.Growth.MessagesFor(r.IDs)
	}
	return ""
}

// timesN returns n*g(n), under its name in Growths when it has one ("n" for
// "1", "n^2" for "n", "n lg n" for "lg n", ...).
func timesN(g Growth) Growth {
	name := "n " + g.Name
	switch g.Name {
	case "1":
		name = "n"
	case "n":
		name = "n^2"
	}
	if p, ok := LookupGrowth(name); ok {
		return p
	}
	return Growth{Name: name, F: func(n float64) float64 { return n * g.F(n) }}
}

// Stats summarises one measure over the trials of one group.
type Stats struct {
	Count             int
	Mean, SD          float64
	Lo, Hi            float64 // 95% confidence interval of the mean (Student t)
	Min, Max          float64
	Growth            string
	Fit, FitLo, FitHi float64 // Mean / growth(n) and the interval's ends likewise
}

// SE returns the standard error of the mean.
func (s Stats) SE() float64 {
	if s.Count < 2 {
		return 0
	}
	return s.SD / math.Sqrt(float64(s.Count))
}

// Summarize computes Stats of xs; g (when F is set) gives the fitted constant
// at size n.
func Summarize(xs []float64, n int, g Growth) Stats {
	s := Stats{Count: len(xs), Min: math.Inf(1), Max: math.Inf(-1), Growth: g.Name}
	if len(xs) == 0 {
		return Stats{}
	}
	for _, x := range xs {
		s.Mean += x
		s.Min = math.Min(s.Min, x)
		s.Max = math.Max(s.Max, x)
	}
	s.Mean /= float64(len(xs))
	if len(xs) > 1 {
		var ss float64
		for _, x := range xs {
			ss += (x - s.Mean) * (x - s.Mean)
		}
		s.SD = math.Sqrt(ss / float64(len(xs)-1))
	}
	h := 0.0
	if len(xs) > 1 {
		h = TQuantile975(len(xs)-1) * s.SE()
	}
	s.Lo, s.Hi = s.Mean-h, s.Mean+h
	if g.F != nil {
		f := g.F(float64(n))
		s.Fit, s.FitLo, s.FitHi = s.Mean/f, s.Lo/f, s.Hi/f
	}
	return s
}

// tTable holds the 0.975 quantiles of Student's t for 1..30 degrees of
// freedom.
var tTable = [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}

// TQuantile975 returns the 0.975 quantile of Student's t with df degrees of
// freedom: the multiplier of the standard error in a 95% confidence
// interval. Exact to 3 decimals up to 30, then the Cornish-Fisher expansion
// around the normal quantile (error below 1e-4).
func TQuantile975(df int) float64 {
	if df < 1 {
		return math.NaN()
	}
	if df <= len(tTable) {
		return tTable[df-1]
	}
	z := 1.959963984540054
	v := float64(df)
	return z + (z*z*z+z)/(4*v) + (5*math.Pow(z, 5)+16*z*z*z+3*z)/(96*v*v) +
		(3*math.Pow(z, 7)+19*math.Pow(z, 5)+17*z*z*z-15*z)/(384*v*v*v)
}

// Group is the runs of one configuration at one size.
type Group struct {
	Name, Config string
	N            int
	Rows         []Row
}

// Key names the curve the group belongs to.
func (g *Group) Key() string { return g.Name + " (" + g.Config + ")" }

// Values returns the measure of every row that has it.
func (g *Group) Values(measure string) []float64 {
	var xs []float64
	for i := range g.Rows {
		if v, ok := g.Rows[i].Measures[measure]; ok {
			xs = append(xs, v)
		}
	}
	return xs
}

// Stats summarises a measure of the group with growth g (nil F: the
// measure's default growth for this algorithm).
func (g *Group) Stats(measure string, growth Growth) Stats {
	if growth.F == nil && len(g.Rows) > 0 {
		growth = DefaultGrowth(&g.Rows[0], measure)
	}
	return Summarize(g.Values(measure), g.N, growth)
}

// GroupRows groups rows by (name, config, n) in order of first appearance.
func GroupRows(rows []Row) []*Group {
	index := map[string]*Group{}
	var out []*Group
	for _, r := range rows {
		k := fmt.Sprintf("%s\x00%s\x00%d", r.Name, r.Config, r.N)
		g, ok := index[k]
		if !ok {
			g = &Group{Name: r.Name, Config: r.Config, N: r.N}
			index[k] = g
			out = append(out, g)
		}
		g.Rows = append(g.Rows, r)
	}
	return out
}

// DefaultMeasures are the measures a summary shows for a kind of run.
func DefaultMeasures(k Kind) []string {
	if k == Population {
		return []string{"parallel_time", "states_seen"}
	}
	return []string{"messages", "time"}
}

// WriteSummary prints one table per measure: per group, the number of runs,
// how many ended as promised, mean, standard deviation, 95% confidence
// interval, min, max, and the fitted constant mean / growth(n). An empty
// measures list uses DefaultMeasures; growth "" uses each algorithm's
// default growth.
func WriteSummary(w io.Writer, rows []Row, measures []string, growth string) error {
	var g Growth
	if growth != "" {
		var ok bool
		if g, ok = LookupGrowth(growth); !ok {
			return errorf("unknown growth %q; use one of %s", growth, strings.Join(GrowthNames(), ", "))
		}
	}
	groups := GroupRows(rows)
	for _, measure := range measureList(rows, measures) {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(w, "%s\n", measure)
		fmt.Fprintln(tw, "algorithm\tconfiguration\tn\truns\tok\tmean\tsd\t95% CI\tmin\tmax\tfit\t")
		for _, gr := range groups {
			st := gr.Stats(measure, g)
			if st.Count == 0 {
				continue
			}
			ok := 0
			for _, r := range gr.Rows {
				if r.OK {
					ok++
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t[%s, %s]\t%s\t%s\t%s / (%s)\t\n",
				gr.Name, gr.Config, gr.N, len(gr.Rows), ok, formatStat(st.Mean), formatStat(st.SD),
				formatStat(st.Lo), formatStat(st.Hi), formatStat(st.Min), formatStat(st.Max),
				formatStat(st.Fit), st.Growth)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

func measureList(rows []Row, measures []string) []string {
	if len(measures) > 0 {
		return measures
	}
	seen := map[Kind]bool{}
	var out []string
	for _, r := range rows {
		if !seen[r.Kind] {
			seen[r.Kind] = true
			out = append(out, DefaultMeasures(r.Kind)...)
		}
	}
	return out
}

// formatStat prints a statistic with 4 significant digits (integers whole).
func formatStat(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	if x == math.Trunc(x) && math.Abs(x) < 1e12 {
		return format.Number(x, 6)
	}
	return fmt.Sprintf("%.4g", x)
}
