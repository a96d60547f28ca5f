// Package claims is the registry of the seed documents' quantitative claims
// and the reproductions that check them ('elect reproduce').
//
// Every claim is checked against runs of the implementations, never against
// a stored number, with one of four rules, stated in its row:
//
//   - exact: the measure equals the source's formula in every run;
//   - bound: the measure is within the source's bound in every run;
//   - statistical: the mean over the trials is within 4 standard errors (of
//     the sample mean) of the source's expected value, or a frequency is on
//     the right side of the claimed probability, allowing 4 standard errors
//     of a proportion;
//   - asymptotic: the fitted constant mean / f(n) is stable across n: over the
//     three largest sizes the largest and
//     smallest fitted constants differ by at most 25%.
//
// A claim whose algorithm or protocol is not in the catalogs is reported as
// pending, never measured with something else.
package claims

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/experiment"
	"github.com/electkit/elect/internal/format"
	"github.com/electkit/elect/pp/protocols"
)

// Verdict is the outcome of a claim's check.
type Verdict string

// The verdicts.
const (
	Pass    Verdict = "pass"
	Fail    Verdict = "FAIL"
	Pending Verdict = "pending"
)

// Row is one line of a reproduction's table.
type Row struct {
	Claim    string
	Source   string
	Rule     string
	Expected string
	Measured string
	Verdict  Verdict
}

// Series is one curve of a reproduction's figure.
type Series struct {
	Label string
	Rows  []experiment.Row
}

// Figure is what a reproduction plots: a measure against n for some runs.
type Figure struct {
	Title   string
	Measure string
	YLabel  string
	Rows    []experiment.Row
	// Curves names the theoretical curves drawn beside the data (growth
	// names of experiment.Growths).
	Curves []string
	// Colors fixes some series' colours by the rows' Name (names of
	// plot.Palette), for a title that names them.
	Colors map[string]string
	// Bounds chooses the declared bounds drawn (plot.Spec.Bounds); ""
	// draws them all.
	Bounds string
}

// Report is what a reproduction produced.
type Report struct {
	Rows    []Row
	Figures []Figure
	// Files are other outputs (traces of the executions a claim built),
	// written beside the table.
	Files []File
}

// File is an output of a reproduction: its name (a base name, unique
// within the reproduction and starting with its name) and contents.
type File struct {
	Name string
	Data []byte
}

// Env configures a reproduction's run.
type Env struct {
	Quick   bool
	Workers int
	Seed    uint64
	// Progress, when set, hears of each sweep's runs as they end, as
	// experiment.Options.Progress does (a reproduction may run several
	// sweeps, each starting again from zero).
	Progress func(done, total int, wDone, wTotal float64)
}

// Reproduction is one named reproduction.
type Reproduction struct {
	Name   string
	Title  string
	Source string
	// Needs lists the algorithms (pp:NAME for population protocols) it runs.
	Needs []string
	run   func(ctx context.Context, e Env) (*Report, error)
}

// Missing returns the needed algorithms that do not exist.
func (r *Reproduction) Missing() []string {
	var miss []string
	for _, n := range r.Needs {
		if p, ok := strings.CutPrefix(n, "pp:"); ok {
			if _, ok := protocols.Lookup(p); !ok {
				miss = append(miss, n)
			}
		} else if _, ok := catalog.Lookup(n); !ok {
			miss = append(miss, n)
		}
	}
	return miss
}

// Run runs the reproduction; when an algorithm is missing, every claim is
// reported pending.
func (r *Reproduction) Run(ctx context.Context, e Env) (*Report, error) {
	if miss := r.Missing(); len(miss) > 0 {
		return &Report{Rows: []Row{{
			Claim: r.Title, Source: r.Source, Rule: "-", Expected: "-",
			Measured: "not implemented: " + strings.Join(miss, ", "), Verdict: Pending,
		}}}, nil
	}
	return r.run(ctx, e)
}

// All returns the reproductions in the order 'elect reproduce --list' shows.
func All() []*Reproduction { return registry }

// Lookup returns the reproduction with the given name.
func Lookup(name string) (*Reproduction, bool) {
	for _, r := range registry {
		if r.Name == name {
			return r, true
		}
	}
	return nil, false
}

// Names returns the reproductions' names.
func Names() []string {
	var s []string
	for _, r := range registry {
		s = append(s, r.Name)
	}
	return s
}

// sweep runs a grid and returns its rows in grid order.
func sweep(ctx context.Context, e Env, g experiment.Grid) ([]experiment.Row, error) {
	if g.Seed == 0 {
		g.Seed = e.Seed
	}
	if g.MaxEvents == 0 {
		g.MaxEvents = 1 << 40
	}
	points, err := g.Points()
	if err != nil {
		return nil, err
	}
	var rows []experiment.Row
	_, err = experiment.Run(ctx, g.Jobs(points, experiment.Shard{}), g.Seed, experiment.Options{Workers: e.Workers, Progress: e.Progress}, func(r *experiment.Result) error {
		rows = append(rows, experiment.RowOf(r))
		return nil
	})
	return rows, err
}

// pick returns the value for quick or full runs.
func pick[T any](e Env, quick, full T) T {
	if e.Quick {
		return quick
	}
	return full
}

// filter returns the rows that satisfy keep.
func filter(rows []experiment.Row, keep func(*experiment.Row) bool) []experiment.Row {
	var out []experiment.Row
	for i := range rows {
		if keep(&rows[i]) {
			out = append(out, rows[i])
		}
	}
	return out
}

func withIDs(ids string) func(*experiment.Row) bool {
	return func(r *experiment.Row) bool { return r.IDs == ids }
}

// allInitiate keeps the runs in which every node initiates.
func allInitiate(r *experiment.Row) bool { return strings.Contains(r.Config, "all initiate") }

// randomAllFIFO keeps the runs on random IDs in which every node initiates
// and the delivery's name contains fifo (in a grid of fifo and random
// deliveries: the FIFO runs).
func randomAllFIFO(r *experiment.Row) bool {
	return r.IDs == "random" && allInitiate(r) && strings.Contains(r.Config, "fifo")
}

// setMeasure records f(r) as the measure name of every row r.
func setMeasure(rows []experiment.Row, name string, f func(r *experiment.Row) float64) {
	for i := range rows {
		rows[i].Measures[name] = f(&rows[i])
	}
}

// electionMessages is a run's messages but its LEADER announcements.
func electionMessages(r *experiment.Row) float64 { return r.Get("messages") - r.Get("messages:LEADER") }

// exact checks that measure == want(n) in every run.
func exact(claim, source string, rows []experiment.Row, measure, formula string, want func(n int) float64) Row {
	return exactEach(claim, source, rows, measure, formula, func(r *experiment.Row) float64 { return want(r.N) })
}

// exactEach checks that measure == want(r) in every run r, for formulas of
// more than n (the graph's edges, a parameter).
func exactEach(claim, source string, rows []experiment.Row, measure, formula string, want func(r *experiment.Row) float64) Row {
	row := Row{Claim: claim, Source: source, Rule: "exact, every run", Expected: formula}
	bad := 0
	var firstBad string
	sizes := map[int]bool{}
	for i := range rows {
		r := &rows[i]
		sizes[r.N] = true
		got, w := r.Get(measure), want(r)
		if got != w {
			if bad == 0 {
				firstBad = fmt.Sprintf("; first: n = %d seed %d: %s vs %s", r.N, r.Seed, format.Number(got, 4), format.Number(w, 4))
			}
			bad++
		}
	}
	row.Measured = fmt.Sprintf("%d of %d runs equal (%d sizes)%s", len(rows)-bad, len(rows), len(sizes), firstBad)
	row.Verdict = verdict(bad == 0 && len(rows) > 0)
	return row
}

// bound checks that measure <= limit(n) in every run, reporting the largest
// ratio measure / limit.
func bound(claim, source string, rows []experiment.Row, measure, formula string, limit func(n int) float64) Row {
	return boundEach(claim, source, rows, measure, formula, func(r *experiment.Row) float64 { return limit(r.N) })
}

// boundEach checks that measure <= limit(r) in every run r.
func boundEach(claim, source string, rows []experiment.Row, measure, formula string, limit func(r *experiment.Row) float64) Row {
	row := Row{Claim: claim, Source: source, Rule: "bound, every run", Expected: "<= " + formula}
	worst, bad := 0.0, 0
	for i := range rows {
		got, l := rows[i].Get(measure), limit(&rows[i])
		worst = math.Max(worst, got/l)
		if !(got <= l) {
			bad++
		}
	}
	return boundMeasured(row, "max", worst, len(rows), bad, "above")
}

// lowerBoundEach checks that measure >= limit(r) in every run r, reporting
// the smallest ratio measure / limit.
func lowerBoundEach(claim, source string, rows []experiment.Row, measure, formula string, limit func(r *experiment.Row) float64) Row {
	row := Row{Claim: claim, Source: source, Rule: "bound, every run", Expected: ">= " + formula}
	least, bad := math.Inf(1), 0
	for i := range rows {
		got, l := rows[i].Get(measure), limit(&rows[i])
		least = math.Min(least, got/l)
		if !(got >= l) {
			bad++
		}
	}
	return boundMeasured(row, "min", least, len(rows), bad, "below")
}

// boundMeasured completes a bound's row: the extreme (max or min) ratio of
// the measure to the bound over the runs, how many runs fell on the wrong
// side (above or below it), and the verdict.
func boundMeasured(row Row, extreme string, ratio float64, runs, bad int, side string) Row {
	row.Measured = fmt.Sprintf("%s ratio to the bound %.3f over %d runs", extreme, ratio, runs)
	if bad > 0 {
		row.Measured += fmt.Sprintf("; %d runs %s it", bad, side)
	}
	row.Verdict = verdict(bad == 0 && runs > 0)
	return row
}

// meanWithin checks, at every size, that the mean of measure is within k
// standard errors of want(n).
func meanWithin(claim, source string, rows []experiment.Row, measure, formula string, want func(n int) float64, k float64) Row {
	row := Row{Claim: claim, Source: source, Rule: fmt.Sprintf("statistical, mean within %g SE at each n", k), Expected: formula}
	ok := len(rows) > 0
	var parts []string
	for _, g := range experiment.GroupRows(rows) {
		st := experiment.Summarize(g.Values(measure), g.N, experiment.Growth{})
		w := want(g.N)
		z := 0.0
		if se := st.SE(); se > 0 {
			z = (st.Mean - w) / se
		} else if st.Mean != w {
			z = math.Inf(1)
		}
		if math.Abs(z) > k || st.Count < 2 {
			ok = false
		}
		parts = append(parts, fmt.Sprintf("n=%d: %s vs %s (z=%+.1f)", g.N, format.Number(st.Mean, 4), format.Number(w, 4), z))
	}
	row.Measured = strings.Join(parts, "; ")
	row.Verdict = verdict(ok)
	return row
}

// stable checks that mean(measure)/f(n) is stable over the three largest
// sizes (max/min <= 1.25).
func stable(claim, source string, rows []experiment.Row, measure, growth string) Row {
	g, _ := experiment.LookupGrowth(growth)
	row := Row{Claim: claim, Source: source, Rule: "asymptotic, max/min of mean/f(n) over the 3 largest n <= 1.25", Expected: "O(" + growth + ")"}
	groups := experiment.GroupRows(rows)
	var fits []float64
	var parts []string
	for _, gr := range groups {
		st := experiment.Summarize(gr.Values(measure), gr.N, g)
		fits = append(fits, st.Fit)
		parts = append(parts, fmt.Sprintf("n=%d: %.3g", gr.N, st.Fit))
	}
	ok := len(fits) >= 3
	ratio := math.NaN()
	if ok {
		last := fits[len(fits)-3:]
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, f := range last {
			lo, hi = math.Min(lo, f), math.Max(hi, f)
		}
		ratio = hi / lo
		ok = ratio <= 1.25
	}
	row.Measured = fmt.Sprintf("mean/(%s): %s; spread %.3f", growth, strings.Join(parts, ", "), ratio)
	row.Verdict = verdict(ok)
	return row
}

// rateAtLeast checks that the frequency of hit among rows is at least p
// minus k standard errors of a proportion p over that many trials.
func rateAtLeast(claim, source string, hits, total int, p float64, k float64, formula string) Row {
	return rateCheck(claim, source, hits, total, p, k, formula, false)
}

// rateAtMost checks that a frequency is at most p plus k standard errors.
func rateAtMost(claim, source string, hits, total int, p float64, k float64, formula string) Row {
	return rateCheck(claim, source, hits, total, p, k, formula, true)
}

// rateCheck checks hits / total against p, allowing k standard errors of a
// proportion p over total trials: at most p + k SE when atMost, at least
// p - k SE otherwise.
func rateCheck(claim, source string, hits, total int, p, k float64, formula string, atMost bool) Row {
	cmp, sign := ">=", "-"
	if atMost {
		cmp, sign = "<=", "+"
	}
	row := Row{Claim: claim, Source: source, Rule: fmt.Sprintf("statistical, rate %s p %s %g SE", cmp, sign, k), Expected: formula}
	if total == 0 {
		row.Measured, row.Verdict = "no trials", Fail
		return row
	}
	rate := float64(hits) / float64(total)
	se := math.Sqrt(p * (1 - p) / float64(total))
	limit, ok := p-k*se, rate >= p-k*se
	if atMost {
		limit, ok = p+k*se, rate <= p+k*se
	}
	row.Measured = fmt.Sprintf("%d/%d = %.4f (p %s %g SE = %.4f)", hits, total, rate, sign, k, limit)
	row.Verdict = verdict(ok)
	return row
}

// allElected checks that every run ended as promised.
func allElected(claim, source string, rows []experiment.Row) Row {
	ok := 0
	for _, r := range rows {
		if r.OK {
			ok++
		}
	}
	return Row{Claim: claim, Source: source, Rule: "exact, every run", Expected: "one leader, every check holds",
		Measured: fmt.Sprintf("%d of %d runs", ok, len(rows)), Verdict: verdict(ok == len(rows) && ok > 0)}
}

func verdict(ok bool) Verdict {
	if ok {
		return Pass
	}
	return Fail
}

func lg(n int) float64 { return math.Log2(float64(n)) }
