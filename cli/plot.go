package cli

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/experiment"
	"github.com/electkit/elect/experiment/plot"
	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/internal/cmdio"
)

func init() {
	register(command{name: "plot", summary: "draw sweep output: a measure against n on log-log axes (PNG, SVG, PDF)", run: plotCommand})
}

const plotUsage = `usage: elect plot SWEEP.jsonl [MORE.jsonl...] --out FIGURE.png[,FIGURE.svg] [flags]

Draws the JSON lines of 'elect sweep' (or 'elect run --json', 'elect pp
--json'): for each configuration, the mean of --measure at each n with its
95% confidence band, on log-log axes, beside the upper bounds the
algorithms declare on that measure, as the runs checked them (--bounds), and
the theoretical curves asked for (--curves, coefficient 1). The file extension chooses the format: .png, .svg or .pdf.

The figure is made for a paper: --size is its printed size (default
3.5x2.6in, one column; 7x3in spans two), and its type is set in points at
that size, none smaller than 8 pt. Every series has a colour (Okabe-Ito,
safe for colour-blind readers), a marker and a dash of its own, so that it
survives greyscale print; an algorithm's curves that lie within a marker's
radius of each other are drawn once and named together (with how far apart
they are), and at most 8 series are drawn. The text is
set in Liberation Sans in every format, the PDF embedding the part of it
the figure uses: Θ, α, ≤ and the rest of Latin, Greek and the common signs
are drawn alike in PNG, SVG and PDF.

examples:
  elect sweep lcr,hs,peterson --n 64..4096x2 --trials 20 --out ring.jsonl
  elect plot ring.jsonl --measure messages --out ring.pdf,ring.png
  elect plot ring.jsonl --size 7x3in --legend right --title 'Θ(n log n) against Θ(n²)' --out ring.pdf

flags:
`

func plotCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("plot", plotUsage)
	measure := fs.String("measure", "", "the measure on the y axis: messages, messages:TYPE, time, bits, parallel_time, interactions, states_seen, ... (default messages, or parallel_time for populations)")
	out := fs.String("out", "", "figure files, comma-separated (.png, .svg, .pdf)")
	curves := fs.String("curves", "", "theoretical curves to draw, comma-separated: "+strings.Join(experiment.GrowthNames(), ", ")+" (default none)")
	title := fs.String("title", "", "a title above the figure (default none: a paper's caption says it, and the axes name the measure)")
	noBounds := fs.Bool("no-bounds", false, "do not draw the declared bounds (--bounds none)")
	bounds := fs.String("bounds", plot.BoundsUpper, "the declared bounds on the measure to draw: "+strings.Join(plot.BoundSets, ", "))
	size := fs.String("size", "", "the figure's printed size, WxH in in, cm or pt (default 3.5x2.6in, one column; 7x3in for two)")
	fontSize := fs.String("font-size", "", fmt.Sprintf("the axes' type size in points at the printed size, %d to %d (default %d; the legend a point smaller, no text under %d)", plot.MinFontSize, plot.MaxFontSize, plot.DefaultFontSize, plot.MinFontSize))
	legend := fs.String("legend", plot.LegendAuto, "where the legend goes: "+strings.Join(plot.Legends, ", ")+" (auto: a corner where it hides no data, else below)")
	xlabel := fs.String("xlabel", "n", "the x axis's label")
	ylabel := fs.String("ylabel", "", "the y axis's label (default the measure)")
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
	spec := plot.Spec{Legend: *legend, XLabel: *xlabel, YLabel: *ylabel, Bounds: *bounds}
	if !slices.Contains(plot.BoundSets, *bounds) {
		return usagef("plot: --bounds %q: use %s", *bounds, strings.Join(plot.BoundSets, ", "))
	}
	if *noBounds {
		spec.Bounds = plot.BoundsNone
	}
	if err := parseFigureFlags(&spec, *size, *fontSize); err != nil {
		return err
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
	if err := everyAlgorithmHas(rows, m); err != nil {
		return err
	}
	spec.Title, spec.Measure, spec.Rows, spec.Curves = *title, m, rows, curveList
	fig, err := plot.Make(spec)
	if err != nil {
		return usagef("%s", err)
	}
	if err := fig.Check(); err != nil {
		return usagef("plot: %s", err)
	}
	for _, o := range outs {
		if err := plot.Save(spec, o); err != nil {
			return outputError(err)
		}
	}
	fmt.Fprintf(stdout, "wrote %s\n", strings.Join(outs, ", "))
	return nil
}

// parseFigureFlags checks --size, --font-size and --legend before any
// input is read, and sets them in spec.
func parseFigureFlags(spec *plot.Spec, size, fontSize string) error {
	if size != "" {
		w, h, err := plot.ParseSize(size)
		if err != nil {
			return usagef("plot: --%s", err)
		}
		spec.Width, spec.Height = w, h
	}
	if fontSize != "" {
		v, err := strconv.ParseFloat(fontSize, 64)
		if err != nil || !(v >= plot.MinFontSize && v <= plot.MaxFontSize) {
			return usagef("plot: --font-size %q: use a number of points from %d to %d (no text of a figure is under %d pt)", fontSize, plot.MinFontSize, plot.MaxFontSize, plot.MinFontSize)
		}
		spec.FontSize = v
	}
	if !slices.Contains(plot.Legends, spec.Legend) {
		return usagef("plot: --legend %q: use %s", spec.Legend, strings.Join(plot.Legends, ", "))
	}
	if strings.TrimSpace(spec.XLabel) == "" {
		return usagef("plot: --xlabel is empty; the x axis needs a label (default n)")
	}
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
