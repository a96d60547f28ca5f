package cli

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/experiment"
	"github.com/electkit/elect/experiment/plot"
	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/internal/cmdio"
)

func init() {
	register(command{name: "plot", summary: "draw sweep output: a measure against n on log-log axes (PNG, SVG)", run: plotCommand})
}

const plotUsage = `usage: elect plot SWEEP.jsonl [MORE.jsonl...] --out FIGURE.png[,FIGURE.svg] [flags]

Draws the JSON lines of 'elect sweep' (or 'elect run --json', 'elect pp
--json'): for each configuration, the mean of --measure at each n with its
95% confidence band, on log-log axes, beside the theoretical curves --curves
(coefficient 1) and the bounds the algorithms declare, as the runs checked
them. The file extension chooses the format: .png, .svg or .pdf. A PDF's
text is set in Helvetica, which shows Latin-1 and the signs × − ≤ ≥ ≠: a
title with another character (a Greek letter) is refused for .pdf; .png and
.svg take it.

examples:
  elect sweep lcr,hs,peterson --n 64..4096x2 --trials 20 --out ring.jsonl
  elect plot ring.jsonl --measure messages --out ring.png,ring.svg

flags:
`

func plotCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("plot", plotUsage)
	measure := fs.String("measure", "", "the measure on the y axis: messages, messages:TYPE, time, bits, parallel_time, interactions, states_seen, ... (default messages, or parallel_time for populations)")
	out := fs.String("out", "", "figure files, comma-separated (.png, .svg, .pdf)")
	curves := fs.String("curves", "n^2,n H_n,n lg n", "theoretical curves, comma-separated: "+strings.Join(experiment.GrowthNames(), ", ")+" (none: \"\")")
	title := fs.String("title", "", "figure title (default: the measure against n)")
	noBounds := fs.Bool("no-bounds", false, "do not draw the declared bounds")
	pos, err := parseInterleaved(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("plot: no sweep output given; e.g. 'elect plot sweep.jsonl --out fig.png'")
	}
	if *out == "" {
		return usagef("plot: --out is required, e.g. --out fig.png,fig.svg")
	}
	outs, err := experiment.ParseList("out", *out)
	if err != nil {
		return usagef("plot: --out: %s", trimPkg(err))
	}
	for i, o := range outs {
		if slices.Contains(outs[:i], o) {
			return usagef("plot: --out names %s twice", o)
		}
		switch strings.ToLower(filepath.Ext(o)) {
		case ".png", ".svg", ".pdf":
		default:
			return usagef("plot: --out %s: use a .png, .svg or .pdf file name", o)
		}
	}
	var files, figures []cmdio.Path
	for _, p := range pos {
		files = append(files, input("the sweep", p))
	}
	for _, o := range outs {
		figures = append(figures, output("--out", o))
	}
	if err := declareFiles("plot", files, figures...); err != nil {
		return err
	}
	var curveList []string
	if *curves != "" {
		if curveList, err = experiment.ParseList("curves", *curves); err != nil {
			return usagef("plot: --curves: %s", trimPkg(err))
		}
		for _, c := range curveList {
			if _, ok := experiment.LookupGrowth(c); !ok {
				return usagef("plot: unknown curve %q; use %s", c, strings.Join(experiment.GrowthNames(), ", "))
			}
		}
	}
	var rows []experiment.Row
	for _, p := range pos {
		fh, err := bounded.Open(p, experiment.Limits)
		var limit *bounded.Error
		if errors.As(err, &limit) {
			return usagef("plot: %v", err)
		}
		if err != nil {
			return usagef("plot: cannot read %s: %v", p, errors.Unwrap(err))
		}
		rs, err := experiment.ReadRows(fh, p)
		fh.Close()
		if err != nil {
			return usagef("plot: %s", trimPkg(err))
		}
		rows = append(rows, rs...)
	}
	if len(rows) == 0 {
		return usagef("plot: no runs in %s", strings.Join(pos, ", "))
	}
	m := *measure
	if m == "" {
		m = experiment.DefaultMeasures(rows[0].Kind)[0]
	}
	t := *title
	if t == "" {
		t = m + " against n"
	}
	if err := everyAlgorithmHas(rows, m); err != nil {
		return err
	}
	spec := plot.Spec{Title: t, Measure: m, Rows: rows, Curves: curveList, Bounds: !*noBounds}
	fig, err := plot.Make(spec)
	if err != nil {
		return usagef("%s", err)
	}
	for _, o := range outs {
		if err := fig.Check(strings.ToLower(filepath.Ext(o))); err != nil {
			return usagef("plot: --out %s: %s", o, err)
		}
	}
	for _, o := range outs {
		if err := plot.Save(spec, o); err != nil {
			return outputError(err)
		}
	}
	fmt.Fprintf(stdout, "wrote %s\n", strings.Join(outs, ", "))
	return nil
}

// everyAlgorithmHas refuses a measure that no record of one of the
// algorithms (or protocols) has, naming it and its measures: the figure
// would leave it out without a word ('--measure messages:ELECTION' is
// hs's type; lcr's is 'election').
func everyAlgorithmHas(rows []experiment.Row, measure string) error {
	var names []string
	have := map[string]map[string]bool{}
	for _, r := range rows {
		if have[r.Name] == nil {
			have[r.Name] = map[string]bool{}
			names = append(names, r.Name)
		}
		for m := range r.Measures {
			have[r.Name][m] = true
		}
	}
	for _, name := range names {
		if !have[name][measure] {
			known := slices.Sorted(maps.Keys(have[name]))
			return usagef("plot: --measure %s: no record of %s has it%s; its records have %s", measure, name, suggest(measure, known), strings.Join(known, ", "))
		}
	}
	return nil
}
