// Package plot draws sweep results: a measure against n on log-log axes,
// one curve per configuration (the mean at each n with its 95% confidence
// band), beside theoretical curves (n^2, n H_n, n lg n, ...) and the
// bounds the algorithms declare (as the runs checked them), as PNG, SVG or
// PDF.
//
// Figures are made to be published: the legend sits below the data on a
// background of its own, in as many columns as fit; every bound and theory
// line has a colour and a dash pattern of its own, bounds labelled by the
// algorithm that declares them; both axes carry the same log ticks (a label
// at each power of ten, at 2 and 5 times it when a decade is all there is,
// unlabelled minor ticks between, every label written 10ᵉ or m×10ᵉ) over a
// light grid; long titles wrap instead of being clipped; PNG figures are
// 1600 pixels wide, with type sized to be read at 100% (11 to 16 points at
// 200 dots per inch).
//
// The package draws by itself, on a small canvas interface (canvas.go)
// with three backends written for it: SVG and PDF by hand, PNG with
// golang.org/x/image's rasteriser and font packages, all with the
// metrics of Liberation Sans (font.go), which is parsed on the first
// figure. It did this with gonum/plot until issue 32: gonum's package
// init parsed its twelve fonts in every elect process, figure or not.
package plot

import (
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/electkit/elect/experiment"
	"github.com/electkit/elect/internal/atomicfile"
)

// Spec describes one figure.
type Spec struct {
	Title   string
	Measure string // e.g. messages, messages:ELECTION, time, parallel_time
	YLabel  string // default: the measure
	Rows    []experiment.Row
	// Curves are theoretical curves by growth name (experiment.Growths),
	// drawn with coefficient 1.
	Curves []string
	// Bounds draws the declared bounds on the measure that the runs checked.
	Bounds bool
	// Colors gives some series a colour of their own, by the rows' Name
	// (algorithm or series name), as a name of Palette ("blue", "red", ...),
	// so that a title or a caption can name it. Other series take the
	// palette's colours in order.
	Colors map[string]string
	// Width and Height in inches (default, for either left 0: 8 x 5.5) of
	// the plot itself; the legend adds its own height below.
	Width, Height float64
}

// The sizes of a figure.
const (
	defaultWidth, defaultHeight = 8, 5.5 // inches
	// pngDPI makes an 8-inch figure 1600 pixels wide.
	pngDPI = 200
)

// Type sizes, in points.
const (
	titleSize  = 16
	labelSize  = 14
	tickSize   = 12
	legendSize = 11
)

// namedColor is a colour a caption can name.
type namedColor struct {
	name string
	c    color.NRGBA
}

// Palette is the data series' colours, in the order series take them: the
// Okabe-Ito colours, which stay apart for readers with colour-blindness,
// with red for what seed 000's Figure 1 draws in red.
var Palette = []namedColor{
	{"blue", color.NRGBA{R: 0, G: 114, B: 178, A: 255}},
	{"vermillion", color.NRGBA{R: 213, G: 94, B: 0, A: 255}},
	{"green", color.NRGBA{R: 0, G: 158, B: 115, A: 255}},
	{"orange", color.NRGBA{R: 230, G: 159, B: 0, A: 255}},
	{"purple", color.NRGBA{R: 204, G: 121, B: 167, A: 255}},
	{"sky blue", color.NRGBA{R: 86, G: 180, B: 233, A: 255}},
	{"red", color.NRGBA{R: 200, G: 0, B: 0, A: 255}},
	{"black", color.NRGBA{A: 255}},
}

func paletteColor(name string) (color.NRGBA, bool) {
	for _, c := range Palette {
		if c.name == name {
			return c.c, true
		}
	}
	return color.NRGBA{}, false
}

// dashPatterns are the bound and theory lines' dash patterns, in points:
// each reference line of a figure takes the next one (dashPattern), so no
// two lines of a figure share one, and none is solid as the data are.
var dashPatterns = [][]float64{
	{7, 4}, {2, 3}, {10, 3, 2, 3}, {4, 2}, {12, 4}, {1, 2, 5, 2},
	{6, 2, 1, 2, 1, 2}, {3, 5}, {14, 3, 3, 3}, {8, 2, 2, 2, 2, 2},
}

// dashPattern is the i-th reference line's dash pattern: one of
// dashPatterns, then patterns made longer and longer, all distinct.
func dashPattern(i int) []float64 {
	if i < len(dashPatterns) {
		return slices.Clone(dashPatterns[i])
	}
	return []float64{float64(16 + 2*(i-len(dashPatterns))), 3, 1, 3}
}

// theoryColors are the theory curves' greys, taken in turn; a declared
// bound is drawn in its algorithm's colour.
var theoryColors = []color.NRGBA{
	{R: 25, G: 25, B: 25, A: 255},
	{R: 100, G: 100, B: 100, A: 255},
	{R: 150, G: 150, B: 150, A: 255},
}

// Line widths, in points: the data's, the bound and theory lines'
// (thinner), the confidence bands' edges.
const (
	dataWidth      = 2
	referenceWidth = 1.5
	bandEdgeWidth  = 0.6
)

// xy is a point of the data.
type xy struct{ x, y float64 }

// series is one configuration's drawing: its confidence band (lo, hi),
// and its means joined by a line, with glyphs.
type series struct {
	mean, lo, hi []xy
	color        color.NRGBA
	glyph        int
	label        string
}

// band says whether the series has a band to draw: one needs two sizes.
func (sr *series) band() bool { return len(sr.mean) > 1 }

func (sr *series) style() lineStyle { return lineStyle{color: sr.color, width: dataWidth} }

// refLine is a declared bound or a theory curve.
type refLine struct {
	pts   []xy
	style lineStyle
}

// legendEntry is one line of the legend; one without a line is a header,
// written across the legend's width above the columns.
type legendEntry struct {
	label string
	line  *lineStyle
	band  bool
	glyph int // -1: none
}

// Figure is a plot and its legend, drawn below it.
type Figure struct {
	title  []string // wrapped to the width
	ylabel string
	series []*series
	refs   []refLine // the bounds, then the theory curves
	legend []legendEntry
	// The axes' ranges.
	xlo, xhi, ylo, yhi float64
	width              float64 // points
	height             float64 // points, of the plot without the legend
	// layers names what is drawn, in drawing order: "band", "bound",
	// "theory", "data" (for the tests: data above the rest).
	layers []string
}

// Make builds the figure.
func Make(s Spec) (*Figure, error) {
	if len(s.Rows) == 0 {
		return nil, fmt.Errorf("plot: no runs to plot")
	}
	if _, err := typeface(); err != nil {
		return nil, fmt.Errorf("plot: the figures' font: %v", err)
	}
	w, h := s.Width, s.Height
	if w <= 0 {
		w = defaultWidth
	}
	if h <= 0 {
		h = defaultHeight
	}
	f := &Figure{width: w * 72, height: h * 72}
	f.title = wrap(s.Title, titleSize, f.width-12)
	f.ylabel = s.YLabel
	if f.ylabel == "" {
		f.ylabel = s.Measure
	}

	groups := experiment.GroupRows(s.Rows)
	var curveKeys []string
	byCurve := map[string][]*experiment.Group{}
	for _, g := range groups {
		if len(g.Values(s.Measure)) == 0 {
			continue
		}
		k := g.Key()
		if _, ok := byCurve[k]; !ok {
			curveKeys = append(curveKeys, k)
		}
		byCurve[k] = append(byCurve[k], g)
	}
	if len(curveKeys) == 0 {
		return nil, fmt.Errorf("plot: no run has the measure %q", s.Measure)
	}
	labels, headers := seriesLabels(curveKeys, byCurve)
	nMin, nMax := math.Inf(1), math.Inf(-1)
	next := 0 // the next palette colour for a series without its own
	taken := map[string]bool{}
	for _, name := range s.Colors {
		taken[name] = true
	}
	algColor := map[string]color.NRGBA{} // the colour of each algorithm's first series, for its bounds
	for i, k := range curveKeys {
		gs := byCurve[k]
		slices.SortFunc(gs, func(a, b *experiment.Group) int { return a.N - b.N })
		sr := &series{label: labels[k], glyph: (i / len(Palette)) % glyphCount}
		for _, g := range gs {
			st := g.Stats(s.Measure, experiment.Growth{})
			if !drawable(st.Mean) || !drawable(st.Hi) {
				continue // not drawable on a log axis
			}
			x := float64(g.N)
			nMin, nMax = math.Min(nMin, x), math.Max(nMax, x)
			sr.mean = append(sr.mean, xy{x, st.Mean})
			sr.lo = append(sr.lo, xy{x, math.Max(st.Lo, st.Mean/100)})
			sr.hi = append(sr.hi, xy{x, st.Hi})
		}
		if len(sr.mean) == 0 {
			continue
		}
		c, ok := paletteColor(s.Colors[gs[0].Name])
		if !ok {
			for taken[Palette[next%len(Palette)].name] && next < 2*len(Palette) {
				next++
			}
			c = Palette[next%len(Palette)].c
			next++
		}
		sr.color = c
		if _, ok := algColor[gs[0].Name]; !ok {
			algColor[gs[0].Name] = c
		}
		f.series = append(f.series, sr)
	}
	if len(f.series) == 0 {
		return nil, fmt.Errorf("plot: no run has a positive %q to draw on a log axis", s.Measure)
	}
	// The bands first, then the bounds and theory curves, then the data's
	// lines and points on top of them all.
	for _, sr := range f.series {
		if sr.band() {
			f.layers = append(f.layers, "band")
		}
	}
	var refs []legendEntry
	if s.Bounds {
		refs = f.addBounds(s, groups, algColor)
	}
	bounds := len(f.refs)
	for j, name := range s.Curves {
		g, ok := experiment.LookupGrowth(name)
		if !ok {
			return nil, fmt.Errorf("plot: unknown curve %q; use one of %s", name, strings.Join(experiment.GrowthNames(), ", "))
		}
		var pts []xy
		const samples = 48
		for j := 0; j <= samples; j++ {
			x := nMin * math.Pow(nMax/nMin, float64(j)/samples)
			if nMax == nMin {
				x = nMin
			}
			if y := g.F(x); drawable(y) {
				pts = append(pts, xy{x, y})
			}
		}
		st := lineStyle{color: theoryColors[j%len(theoryColors)], width: referenceWidth, dashes: dashPattern(len(f.refs))}
		f.refs = append(f.refs, refLine{pts: pts, style: st})
		f.layers = append(f.layers, "theory")
		refs = append(refs, legendEntry{label: "theory: " + name, line: &st, glyph: -1})
	}
	for range f.series {
		f.layers = append(f.layers, "data")
	}
	f.ranges()
	// The legend: what every curve shares and what the lines mean, said
	// once; then a short line per series, bound and theory curve.
	key := "solid: mean; band: 95% confidence interval"
	if bounds > 0 {
		key += "; dashed in an algorithm's colour: a bound it declares"
	}
	if len(s.Curves) > 0 {
		key += "; grey: theory, coefficient 1"
	}
	for _, h := range append(headers, key) {
		f.legend = append(f.legend, legendEntry{label: h, glyph: -1})
	}
	for _, sr := range f.series {
		st := sr.style()
		f.legend = append(f.legend, legendEntry{label: sr.label, line: &st, band: sr.band(), glyph: sr.glyph})
	}
	f.legend = append(f.legend, refs...)
	return f, nil
}

// drawable says whether a value has a place on a log axis: positive and
// finite (not NaN).
func drawable(v float64) bool { return v > 0 && !math.IsInf(v, 1) }

// ranges sets the axes' ranges to hold every point drawn; a range of one
// value is widened to a factor of 2 either side.
func (f *Figure) ranges() {
	f.xlo, f.ylo = math.Inf(1), math.Inf(1)
	f.xhi, f.yhi = math.Inf(-1), math.Inf(-1)
	add := func(pts []xy) {
		for _, p := range pts {
			if drawable(p.x) && drawable(p.y) {
				f.xlo, f.xhi = math.Min(f.xlo, p.x), math.Max(f.xhi, p.x)
				f.ylo, f.yhi = math.Min(f.ylo, p.y), math.Max(f.yhi, p.y)
			}
		}
	}
	for _, sr := range f.series {
		add(sr.mean)
		if sr.band() {
			add(sr.lo)
			add(sr.hi)
		}
	}
	for _, r := range f.refs {
		add(r.pts)
	}
	if f.xhi <= f.xlo*(1+1e-9) {
		f.xlo, f.xhi = f.xlo/2, f.xhi*2
	}
	if f.yhi <= f.ylo*(1+1e-9) {
		f.ylo, f.yhi = f.ylo/2, f.yhi*2
	}
}

// seriesLabels shortens the series' legend labels: the parts of the
// configuration that every series of the same algorithm shares are said
// once, in a header line, and left out of each series' label.
func seriesLabels(keys []string, byCurve map[string][]*experiment.Group) (map[string]string, []string) {
	labels := map[string]string{}
	var names []string
	parts := map[string][][]string{}
	for _, k := range keys {
		g := byCurve[k][0]
		if _, ok := parts[g.Name]; !ok {
			names = append(names, g.Name)
		}
		parts[g.Name] = append(parts[g.Name], strings.Split(g.Config, ", "))
	}
	// What every series of the figure shares is said once; then what
	// every series of one algorithm shares, for an algorithm with several.
	var all [][]string
	for _, name := range names {
		all = append(all, parts[name]...)
	}
	everywhere := shared(all, nil)
	common := map[string][]string{}
	var headers []string
	if len(everywhere) > 0 && strings.Join(everywhere, "") != "" {
		headers = append(headers, "every curve: "+strings.Join(everywhere, ", "))
	}
	for _, name := range names {
		common[name] = everywhere
		ps := parts[name]
		if len(ps) < 2 {
			continue
		}
		mine := shared(ps, everywhere)
		common[name] = append(slices.Clone(everywhere), mine...)
		if len(mine) > 0 {
			headers = append(headers, name+", every curve: "+strings.Join(mine, ", "))
		}
	}
	for _, k := range keys {
		g := byCurve[k][0]
		var rest []string
		for _, part := range strings.Split(g.Config, ", ") {
			if !slices.Contains(common[g.Name], part) {
				rest = append(rest, part)
			}
		}
		labels[k] = g.Name
		if len(rest) > 0 && strings.Join(rest, "") != "" {
			labels[k] += " (" + strings.Join(rest, ", ") + ")"
		}
	}
	return labels, headers
}

// shared returns the parts of the first list that every list has, but
// for those in skip.
func shared(lists [][]string, skip []string) []string {
	var out []string
	for _, part := range lists[0] {
		if slices.Contains(skip, part) {
			continue
		}
		in := true
		for _, other := range lists[1:] {
			in = in && slices.Contains(other, part)
		}
		if in {
			out = append(out, part)
		}
	}
	return out
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

// matches says whether a bound's quantity is the plotted measure.
func matches(q, measure string) bool {
	switch {
	case measure == "messages":
		return strings.HasSuffix(q, "messages")
	case strings.HasPrefix(measure, "messages:"):
		return q == strings.TrimPrefix(measure, "messages:")+" messages"
	}
	return q == measure
}

// wrap breaks text into lines no wider than w points at size points.
func wrap(text string, size, w float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if line != "" && width(try, size) > w {
			lines = append(lines, line)
			line = word
			continue
		}
		line = try
	}
	return append(lines, line)
}

// addBounds adds every declared bound on the measure, per algorithm: the
// mean of its checked value over the algorithm's runs at each n, in the
// algorithm's colour (algColor) and a dash pattern of its own. It returns
// the bounds' legend entries.
func (f *Figure) addBounds(s Spec, groups []*experiment.Group, algColor map[string]color.NRGBA) []legendEntry {
	type acc struct{ sum, count float64 }
	type key struct{ alg, bound string }
	values := map[key]map[int]*acc{}
	var keys []key
	for _, g := range groups {
		for _, r := range g.Rows {
			for _, b := range r.Bounds {
				if b.Relation == "" || !matches(quantity(b.Name), s.Measure) || !drawable(b.Value) {
					continue
				}
				k := key{r.Name, b.Name}
				if values[k] == nil {
					values[k] = map[int]*acc{}
					keys = append(keys, k)
				}
				a := values[k][r.N]
				if a == nil {
					a = &acc{}
					values[k][r.N] = a
				}
				a.sum += b.Value
				a.count++
			}
		}
	}
	var entries []legendEntry
	for _, k := range keys {
		var pts []xy
		for n, a := range values[k] {
			pts = append(pts, xy{float64(n), a.sum / a.count})
		}
		slices.SortFunc(pts, func(a, b xy) int { return int(a.x - b.x) })
		c, ok := algColor[k.alg]
		if !ok {
			c = theoryColors[0]
		}
		st := lineStyle{color: c, width: referenceWidth, dashes: dashPattern(len(f.refs))}
		f.refs = append(f.refs, refLine{pts: pts, style: st})
		f.layers = append(f.layers, "bound")
		entries = append(entries, legendEntry{label: k.alg + ": " + k.bound, line: &st, glyph: -1})
	}
	return entries
}

// Size returns the figure's width and height in points, legend included.
func (f *Figure) Size() (w, h float64) { return f.width, f.height + f.legendHeight() }

// Save writes the figure to path; the extension (.png, .svg, .pdf) chooses
// the format. PNG figures are 1600 pixels wide at the default size.
func Save(s Spec, path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".png" && ext != ".svg" && ext != ".pdf" {
		return fmt.Errorf("plot: %s: use a .png, .svg or .pdf file name", path)
	}
	f, err := Make(s)
	if err != nil {
		return err
	}
	if err := f.Check(ext); err != nil {
		return fmt.Errorf("plot: %s: %w", path, err)
	}
	return atomicfile.Write(path, func(w io.Writer) error { return f.render(ext, w) })
}

// Check says whether the figure can be written in a format (".png",
// ".svg" or ".pdf") as it is: a PDF's text is set in Helvetica, which
// shows Latin-1 and a few symbols (pdf.go), so a title or a legend with
// another character (a Greek letter, say) is refused, naming it, rather
// than written with "?" in its place. PNG and SVG show every character the
// font or the reader's has.
func (f *Figure) Check(ext string) error {
	if ext != ".pdf" {
		return nil
	}
	var c textCollector
	f.draw(&c)
	var missing []string
	for _, r := range c.got.String() {
		if r != '?' && pdfCode(r) == '?' && !slices.Contains(missing, string(r)) {
			missing = append(missing, string(r))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("a PDF figure's font (Helvetica) cannot show %s; write .svg or .png, or change the title", strings.Join(quoteAll(missing), ", "))
	}
	return nil
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// textCollector is a canvas that keeps only the text drawn on it.
type textCollector struct{ got strings.Builder }

func (c *textCollector) stroke([]pt, bool, lineStyle) {}
func (c *textCollector) fill([]pt, color.NRGBA)       {}
func (c *textCollector) text(_ pt, runs []textRun, _ color.NRGBA, _ anchor, _ bool) {
	for _, r := range runs {
		c.got.WriteString(r.s)
	}
}

// render draws the figure in a format (".png", ".svg" or ".pdf") and
// writes it to w.
func (f *Figure) render(ext string, w io.Writer) error {
	width, height := f.Size()
	var data []byte
	switch ext {
	case ".png":
		c := newPNG(width, height, pngDPI)
		f.draw(c)
		return png.Encode(w, c.img)
	case ".svg":
		c := newSVG(width, height)
		f.draw(c)
		data = c.bytes()
	case ".pdf":
		c := newPDF(width, height)
		f.draw(c)
		data = c.bytes()
	default:
		return fmt.Errorf("plot: no format %q", ext)
	}
	_, err := w.Write(data)
	return err
}
