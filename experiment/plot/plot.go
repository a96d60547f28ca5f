// Package plot draws sweep results: a measure against n on log-log axes,
// one curve per configuration (the mean at each n with its 95% confidence
// band), beside theoretical curves (n^2, n H_n, n lg n, ...) and the
// bounds the algorithms declare (as the runs checked them), as PNG, SVG or
// PDF.
//
// Figures are made to be published at the size they are printed: the
// size (Spec.Width x Spec.Height, default one column, 3.5 x 2.6 in) is
// the whole figure's, legend included, and the type is set in points at
// that size, none smaller than MinFontSize (8 pt) whatever the font size
// asked for. Each series differs from the others in colour (the
// Okabe-Ito palette, which readers with colour-blindness tell apart),
// marker shape and line dash, so that it survives greyscale print; at most
// MaxSeries are drawn; curves of an algorithm that coincide (less than a
// marker's radius apart at every n) are drawn once, with a band that holds
// all of theirs, and named together, with how far apart they are. Bounds are thin lines in their
// algorithm's colour, drawn only where the bound speaks of the very
// quantity plotted; theory curves thin and grey. The legend is compact
// (one line per entry; what every curve shares is said once, under the
// title) and sits where it hides no data: in a corner of the plot, or
// below it when every corner is taken (Spec.Legend chooses otherwise).
// Both axes carry the same log ticks (a label at each power of ten, at 2
// and 5 times it when a decade is all there is, unlabelled minor ticks
// between, every label written 10ᵉ or m×10ᵉ) over a light grid.
//
// The package draws by itself, on a small canvas interface (canvas.go)
// with three backends: SVG through internal/svg, PDF by hand with the font
// embedded (a subset, pdffont.go), PNG with golang.org/x/image's
// rasteriser and font packages. All three set the same text in the same
// font, Liberation Sans (font.go), parsed on the first figure: a character
// it has (Θ, α, ≤, ...) is drawn in every format, one it lacks is refused
// before anything is written.
package plot

import (
	"fmt"
	"image/color"
	"image/png"
	"io"
	"maps"
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
	// Title is drawn above the plot; empty for none.
	Title   string
	Measure string // e.g. messages, messages:ELECTION, time, parallel_time
	YLabel  string // default: the measure
	XLabel  string // default: n
	Rows    []experiment.Row
	// Curves are theoretical curves by growth name (experiment.Growths),
	// drawn with coefficient 1.
	Curves []string
	// Bounds chooses the declared bounds on the measure (as the runs
	// checked them) to draw: BoundsAll, BoundsUpper, BoundsLower, or none
	// ("" or BoundsNone).
	Bounds string
	// Colors gives some series a colour of their own, by the rows' Name
	// (algorithm or series name), as a name of Palette ("blue",
	// "vermillion", ...), so that a title or a caption can name it. Other
	// series take the palette's colours in order.
	Colors map[string]string
	// Width and Height are the whole figure's size in inches, legend
	// included (default, for either left 0: 3.5 x 2.6, one column).
	Width, Height float64
	// FontSize is the axes' type size in points at that size (default 9;
	// the title is a point larger, the legend a point smaller, exponents
	// smaller still, but no text is ever smaller than MinFontSize).
	FontSize float64
	// Legend places the legend: LegendAuto (the default, for ""), a corner
	// inside the plot, below or right of it, or none (Legends).
	Legend string
}

// The default size of a figure, in inches: one column of a two-column
// paper.
const (
	DefaultWidth, DefaultHeight = 3.5, 2.6
	// pngDPI makes a one-column figure 1050 pixels wide, print quality.
	pngDPI = 300
)

// Type sizes, in points at the printed size.
const (
	// DefaultFontSize is the axes' type size.
	DefaultFontSize = 9
	// MinFontSize is the smallest text a figure has: what referees ask
	// for at the printed size.
	MinFontSize = 8
	// MaxFontSize is the largest font size taken.
	MaxFontSize = 36
)

// maxCoincide is the most two curves drawn as one may differ, however
// close they are drawn: 10%.
const maxCoincide = 0.10

// MaxSeries is the most series a figure draws: as many as it has colours,
// marker shapes and dash patterns, each series one of each.
const MaxSeries = 8

// typeSizes are a figure's type sizes, in points.
type typeSizes struct {
	title, label, tick, legend, sup float64
}

// sizesFor derives every type size from the font size: the title a point
// larger, the legend a point smaller and exponents three quarters of the
// tick labels', neither below MinFontSize (nor larger than the tick
// labels).
func sizesFor(fs float64) typeSizes {
	return typeSizes{
		title:  fs + 1,
		label:  fs,
		tick:   fs,
		legend: max(MinFontSize, fs-1),
		sup:    min(fs, max(MinFontSize, 0.75*fs)),
	}
}

// xy is a point of the data.
type xy struct{ x, y float64 }

// series is one configuration's drawing (or several that coincide): its
// confidence band (lo, hi), and its means joined by a line, with markers.
type series struct {
	mean, lo, hi []xy
	style        lineStyle
	glyph        int
	label        string
	name         string // the algorithm's
	key          string // the configuration's (experiment.Group.Key)
	// rests are what the configurations drawn say beyond what every
	// series shares (several for curves that coincide), members the
	// series drawn as this one.
	rests   [][]string
	members []*series
}

// band says whether the series has a band to draw: one needs two sizes.
func (sr *series) band() bool { return len(sr.mean) > 1 }

// refLine is a declared bound or a theory curve.
type refLine struct {
	pts   []xy
	style lineStyle
	label string
	kind  string // "bound" or "theory"
	alg   string // a bound's algorithm
	// config is the configuration (a series' key) of a bound drawn for
	// each configuration, "" for one drawn for the algorithm; the legend
	// names those once.
	config string
}

// legendEntry is one line of the legend: a sample of its line (with the
// band and marker of a series) and its label.
type legendEntry struct {
	label string
	line  lineStyle
	band  bool
	glyph int // -1: none
}

// Figure is a figure laid out, ready to draw in any format.
type Figure struct {
	title    []string // wrapped to the width
	subtitle []string // what every curve shares, wrapped
	xlabel   string
	ylabel   string
	sizes    typeSizes
	series   []*series
	refs     []refLine // the bounds, then the theory curves
	// refStyles counts the reference lines' styles taken: a bound drawn
	// for each configuration takes one for all its lines.
	refStyles int
	legend    []legendEntry
	// The axes' ranges.
	xlo, xhi, ylo, yhi float64
	width, height      float64 // points, the whole figure
	frame              frame   // where the plot's parts go
	box                legendBox
	// oneAlg is the algorithm of a figure of several configurations of
	// one algorithm, named once (in the subtitle) rather than in every
	// entry of the legend.
	oneAlg string
	// layers names what is drawn, in drawing order: "band", "bound",
	// "theory", "data" (for the tests: data above the rest).
	layers []string
}

// Make builds the figure and lays it out.
func Make(s Spec) (*Figure, error) {
	if len(s.Rows) == 0 {
		return nil, fmt.Errorf("plot: no runs to plot")
	}
	if _, err := typeface(); err != nil {
		return nil, fmt.Errorf("plot: the figures' font: %v", err)
	}
	place, err := parseLegend(s.Legend)
	if err != nil {
		return nil, err
	}
	w, h, fs := s.Width, s.Height, s.FontSize
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	if fs <= 0 {
		fs = DefaultFontSize
	}
	if fs < MinFontSize || fs > MaxFontSize {
		return nil, fmt.Errorf("plot: font size %s pt: use %d to %d", strconv.FormatFloat(fs, 'g', -1, 64), MinFontSize, MaxFontSize)
	}
	f := &Figure{width: w * 72, height: h * 72, sizes: sizesFor(fs), xlabel: s.XLabel, ylabel: s.YLabel}
	if f.xlabel == "" {
		f.xlabel = "n"
	}
	if f.ylabel == "" {
		f.ylabel = s.Measure
	}
	if s.Title != "" {
		f.title = wrap(s.Title, f.sizes.title, f.width-2*margin)
	}
	for _, name := range slices.Sorted(maps.Values(s.Colors)) {
		if _, ok := paletteColor(name); !ok {
			return nil, fmt.Errorf("plot: no colour %q in the palette", name)
		}
	}
	groups := experiment.GroupRows(s.Rows)
	headers, err := f.addSeries(s, groups)
	if err != nil {
		return nil, err
	}
	switch s.Bounds {
	case "", BoundsNone:
	case BoundsAll, BoundsUpper, BoundsLower:
		f.addBounds(s, groups)
	default:
		return nil, fmt.Errorf("plot: bounds %q: use %s", s.Bounds, strings.Join(BoundSets, ", "))
	}
	if err := f.addCurves(s.Curves); err != nil {
		return nil, err
	}
	f.ranges()
	if err := f.mergeSeries(s.Colors); err != nil {
		return nil, err
	}
	// A bound takes its algorithm's colour (its first series'); one drawn
	// for each configuration, its series' colour, and only for the series
	// drawn (of curves that coincide, the first's).
	refs := f.refs[:0]
	for _, r := range f.refs {
		if r.config != "" {
			drawn := false
			for _, sr := range f.series {
				if sr.key == r.config {
					r.style.color, drawn = sr.style.color, true
				}
			}
			if !drawn {
				continue
			}
			refs = append(refs, r)
			continue
		}
		for _, sr := range f.series {
			if r.alg != "" && sr.name == r.alg {
				r.style.color = sr.style.color
				break
			}
		}
		refs = append(refs, r)
	}
	f.refs = refs
	// The bands first, then the bounds and theory curves, then the data's
	// lines and points on top of them all.
	for _, sr := range f.series {
		if sr.band() {
			f.layers = append(f.layers, "band")
		}
	}
	for _, r := range f.refs {
		f.layers = append(f.layers, r.kind)
	}
	for _, sr := range f.series {
		f.layers = append(f.layers, "data")
		f.legend = append(f.legend, legendEntry{label: sr.label, line: sr.style, band: sr.band(), glyph: sr.glyph})
	}
	named := map[string]bool{}
	for _, r := range f.refs {
		st := r.style
		if r.config != "" {
			if named[r.label] {
				continue // a bound drawn for each configuration: named once
			}
			named[r.label] = true
			st.color = theoryColors[0] // the lines are each in a series' colour
		}
		f.legend = append(f.legend, legendEntry{label: r.label, line: st, glyph: -1})
	}
	for _, sr := range f.series {
		if sr.band() {
			headers = append(headers, "bands: 95% CI of the mean")
			break
		}
	}
	if len(headers) > 0 {
		f.subtitle = wrap(strings.Join(headers, "; "), f.sizes.legend, f.width-2*margin)
	}
	if err := f.layout(place); err != nil {
		return nil, err
	}
	return f, nil
}

// addSeries adds a series per configuration that has the measure, and
// returns what every series shares, to be said once.
func (f *Figure) addSeries(s Spec, groups []*experiment.Group) ([]string, error) {
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
	parts, headers := seriesParts(curveKeys, byCurve)
	names := map[string]bool{}
	for _, k := range curveKeys {
		names[byCurve[k][0].Name] = true
	}
	if len(names) == 1 && len(curveKeys) > 1 {
		f.oneAlg = byCurve[curveKeys[0]][0].Name
		if len(headers) > 0 {
			headers[0] = f.oneAlg + ", " + headers[0]
		} else {
			headers = []string{f.oneAlg}
		}
	}
	for _, k := range curveKeys {
		gs := byCurve[k]
		slices.SortFunc(gs, func(a, b *experiment.Group) int { return a.N - b.N })
		sr := &series{name: gs[0].Name, key: k, rests: [][]string{parts[k]}}
		for _, g := range gs {
			st := g.Stats(s.Measure, experiment.Growth{})
			if !drawable(st.Mean) || !drawable(st.Hi) {
				continue // not drawable on a log axis
			}
			x := float64(g.N)
			sr.mean = append(sr.mean, xy{x, st.Mean})
			sr.lo = append(sr.lo, xy{x, math.Max(st.Lo, st.Mean/100)})
			sr.hi = append(sr.hi, xy{x, st.Hi})
		}
		if len(sr.mean) > 0 {
			f.series = append(f.series, sr)
		}
	}
	if len(f.series) == 0 {
		return nil, fmt.Errorf("plot: no run has a positive %q to draw on a log axis", s.Measure)
	}
	return headers, nil
}

// mergeSeries draws as one the series of an algorithm that coincide (less
// than a marker's radius apart at every n, so that their markers overlap
// by more than half, as far as the plot's height can be told before the
// layout: half the figure's, less than it will be), the first of
// them with a band that holds all of theirs, named together; it refuses
// more than MaxSeries series, and gives each its colour (by name, from
// colors, or the palette's next), marker and dash.
func (f *Figure) mergeSeries(colors map[string]string) error {
	tol := min(math.Log(f.yhi/f.ylo)*glyphRadius/(f.height/2), math.Log(1+maxCoincide))
	var kept []*series
	for _, sr := range f.series {
		joined := false
		for _, k := range kept {
			if sameCurve(k, sr, tol) {
				k.members = append(k.members, sr)
				k.rests = append(k.rests, sr.rests...)
				joined = true
				break
			}
		}
		if !joined {
			sr.members = []*series{sr}
			kept = append(kept, sr)
		}
	}
	if len(kept) > MaxSeries {
		return fmt.Errorf("plot: %d series (curves that can be told apart): a figure tells at most %d apart; plot fewer configurations", len(kept), MaxSeries)
	}
	taken := map[string]bool{}
	for _, name := range colors {
		taken[name] = true
	}
	next := 0 // the next palette colour for a series without its own
	for k, sr := range kept {
		apart := 0.0
		for _, a := range sr.members {
			for _, b := range sr.members {
				for i := range a.mean {
					apart = math.Max(apart, math.Abs(a.mean[i].y-b.mean[i].y)/math.Max(a.mean[i].y, b.mean[i].y))
				}
			}
			for i := range sr.lo {
				sr.lo[i].y, sr.hi[i].y = math.Min(sr.lo[i].y, a.lo[i].y), math.Max(sr.hi[i].y, a.hi[i].y)
			}
		}
		name := sr.name
		if f.oneAlg != "" {
			name = ""
		}
		sr.label = mergedLabel(name, sr.rests, apart)
		if slices.ContainsFunc(sr.members, func(m *series) bool { return m.name != sr.name }) {
			// several algorithms: each named, "=" when they are the
			// same, "≈" and how far apart when not
			var each []string
			for _, m := range sr.members {
				each = append(each, mergedLabel(m.name, m.rests[:1], 0))
			}
			if apart == 0 {
				sr.label = strings.Join(each, " = ")
			} else {
				sr.label = strings.Join(each, " ≈ ") + apartSuffix(len(each), apart)
			}
		}
		c, ok := paletteColor(colors[sr.name])
		if !ok {
			for taken[Palette[next%len(Palette)].name] && next < 2*len(Palette) {
				next++
			}
			c = Palette[next%len(Palette)].c
			next++
		}
		sr.style = lineStyle{color: c, width: dataWidth, dashes: slices.Clone(seriesDashes[k])}
		sr.glyph = k
	}
	f.series = kept
	return nil
}

// sameCurve says whether two series coincide: their means at the same
// sizes, within tol of each other (as logarithms) at each.
func sameCurve(a, b *series, tol float64) bool {
	if len(a.mean) != len(b.mean) {
		return false
	}
	for i := range a.mean {
		p, q := a.mean[i], b.mean[i]
		if p.x != q.x || math.Abs(math.Log(p.y/q.y)) > tol {
			return false
		}
	}
	return true
}

// apartSuffix says how far apart k curves drawn as one are: ": 2
// identical", ": 4 within 0.3%", ": 6 within 5%" (rounded up).
func apartSuffix(k int, apart float64) string {
	switch pc := 100 * apart; {
	case apart == 0:
		return fmt.Sprintf(": %d identical", k)
	case pc < 1:
		return fmt.Sprintf(": %d within %s%%", k, strconv.FormatFloat(math.Ceil(10*pc)/10, 'f', -1, 64))
	default:
		return fmt.Sprintf(": %d within %s%%", k, strconv.FormatFloat(math.Ceil(pc), 'f', 0, 64))
	}
}

// mergedLabel names a series of an algorithm drawn for one or more
// configurations (rests: what each says beyond what all series share):
// "hs (ids random, fifo)", or "ids random, fifo" when name is "" (a
// figure of one algorithm names it once, above); for several that
// coincide (apart: their largest relative difference), each part that
// differs as its values joined by "|" when they are every combination
// ("hs (ids random|bit-reversal, fifo|random): 4 within 2%"; "2
// identical" for curves that are the same), or else the configurations in
// turn.
func mergedLabel(name string, rests [][]string, apart float64) string {
	label := func(parts []string) string {
		switch {
		case len(parts) == 0 || strings.Join(parts, "") == "":
			return name
		case name == "":
			return strings.Join(parts, ", ")
		}
		return name + " (" + strings.Join(parts, ", ") + ")"
	}
	if len(rests) == 1 {
		return label(rests[0])
	}
	suffix := apartSuffix(len(rests), apart)
	same := true
	for _, r := range rests {
		same = same && len(r) == len(rests[0])
	}
	if same {
		combos := 1
		joined := make([]string, len(rests[0]))
		for p := range rests[0] {
			var vals []string
			prefix := ""
			for _, r := range rests {
				v := r[p]
				if i := strings.LastIndex(v, " "); i >= 0 && prefix == "" {
					prefix = v[:i+1]
				}
				if !slices.Contains(vals, v) {
					vals = append(vals, v)
				}
			}
			combos *= len(vals)
			short := make([]string, len(vals))
			for i, v := range vals {
				short[i] = v
				if i > 0 && prefix != "" {
					short[i] = strings.TrimPrefix(v, prefix)
				}
			}
			joined[p] = strings.Join(short, "|")
		}
		if combos == len(rests) {
			return label(joined) + suffix
		}
	}
	var each []string
	for _, r := range rests {
		each = append(each, strings.Join(r, ", "))
	}
	if name == "" {
		return strings.Join(each, "; ") + suffix
	}
	return name + " (" + strings.Join(each, "; ") + ")" + suffix
}

// addCurves adds the theory curves, grey and thin, over the data's range
// of n.
func (f *Figure) addCurves(curves []string) error {
	nMin, nMax := math.Inf(1), math.Inf(-1)
	for _, sr := range f.series {
		for _, p := range sr.mean {
			nMin, nMax = math.Min(nMin, p.x), math.Max(nMax, p.x)
		}
	}
	for j, name := range curves {
		g, ok := experiment.LookupGrowth(name)
		if !ok {
			return fmt.Errorf("plot: unknown curve %q; use one of %s", name, strings.Join(experiment.GrowthNames(), ", "))
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
		st := lineStyle{color: theoryColors[j%len(theoryColors)], width: referenceWidth, dashes: refDash(f.refStyles)}
		f.refStyles++
		f.refs = append(f.refs, refLine{pts: pts, style: st, label: "theory: " + name, kind: "theory"})
	}
	return nil
}

// drawable says whether a value has a place on a log axis: positive and
// finite (not NaN).
func drawable(v float64) bool { return v > 0 && !math.IsInf(v, 1) }

// eachCurve calls fn with every line of data the figure draws: each
// series' means and, when it has a band, its edges, then the bounds and
// theory curves.
func (f *Figure) eachCurve(fn func([]xy)) {
	for _, sr := range f.series {
		fn(sr.mean)
		if sr.band() {
			fn(sr.lo)
			fn(sr.hi)
		}
	}
	for _, r := range f.refs {
		fn(r.pts)
	}
}

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
	f.eachCurve(add)
	if f.xhi <= f.xlo*(1+1e-9) {
		f.xlo, f.xhi = f.xlo/2, f.xhi*2
	}
	if f.yhi <= f.ylo*(1+1e-9) {
		f.ylo, f.yhi = f.ylo/2, f.yhi*2
	}
}

// seriesParts splits each series' configuration into what it says beyond
// what others share: the parts every series of the figure shares are
// said once ("every curve: ..."), then those every series of one
// algorithm shares ("hs, every curve: ..."), in the returned headers.
func seriesParts(keys []string, byCurve map[string][]*experiment.Group) (map[string][]string, []string) {
	var names []string
	parts := map[string][][]string{}
	for _, k := range keys {
		g := byCurve[k][0]
		if _, ok := parts[g.Name]; !ok {
			names = append(names, g.Name)
		}
		parts[g.Name] = append(parts[g.Name], strings.Split(g.Config, ", "))
	}
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
		if len(mine) > 0 && len(names) > 1 {
			headers = append(headers, name+", every curve: "+strings.Join(mine, ", "))
		}
	}
	rests := map[string][]string{}
	for _, k := range keys {
		g := byCurve[k][0]
		var rest []string
		for _, part := range strings.Split(g.Config, ", ") {
			if !slices.Contains(common[g.Name], part) && part != "" {
				rest = append(rest, part)
			}
		}
		rests[k] = rest
	}
	return rests, headers
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

// Size returns the figure's width and height in points.
func (f *Figure) Size() (w, h float64) { return f.width, f.height }

// Save writes the figure to path; the extension (.png, .svg, .pdf) chooses
// the format. PNG figures are drawn at 300 dots per inch.
func Save(s Spec, path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".png" && ext != ".svg" && ext != ".pdf" {
		return fmt.Errorf("plot: %s: use a .png, .svg or .pdf file name", path)
	}
	f, err := Make(s)
	if err != nil {
		return err
	}
	if err := f.Check(); err != nil {
		return fmt.Errorf("plot: %s: %w", path, err)
	}
	return atomicfile.Write(path, func(w io.Writer) error { return f.render(ext, w) })
}

// Check says whether every character of the figure's text is in its font:
// every format sets the text in that font (the PDF embeds it), so a
// character it lacks is refused, naming it, rather than drawn as a box in
// one format and as something else in another.
func (f *Figure) Check() error {
	var c textCollector
	f.draw(&c)
	var missing []string
	for _, r := range c.got.String() {
		if !hasGlyph(r) && !slices.Contains(missing, string(r)) {
			missing = append(missing, string(r))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the figures' font (Liberation Sans) has no %s; change the title or labels", strings.Join(quoteAll(missing), ", "))
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
	switch ext {
	case ".png":
		c := newPNG(width, height, pngDPI)
		f.draw(c)
		return png.Encode(w, c.img)
	case ".svg":
		c := newSVG(w, width, height)
		f.draw(c)
		return c.end()
	case ".pdf":
		c := newPDF(width, height)
		f.draw(c)
		data, err := c.bytes()
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	return fmt.Errorf("plot: no format %q", ext)
}
