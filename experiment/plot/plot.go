// Package plot draws sweep results with gonum/plot: a measure against n on
// log-log axes, one curve per configuration (the mean at each n with its 95%
// confidence band), beside theoretical curves (n^2, n H_n, n lg n, ...) and
// the bounds the algorithms declare (as the runs checked them).
//
// Figures are made to be published: the legend sits below the data on a
// background of its own, in as many columns as fit; every bound and theory
// line has a colour and a dash pattern of its own, bounds labelled by the
// algorithm that declares them; both axes carry the same log ticks (a label
// at each power of ten, at 2 and 5 times it when a decade is all there is,
// unlabelled minor ticks between, every label written 10ᵉ or m×10ᵉ); long
// titles wrap instead of being
// clipped; PNG figures are 1600 pixels wide, with type sized to be read at
// 100% (12 to 16 points at 200 dots per inch).
package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

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
	// Width and Height in inches (default 8 x 5.5) of the plot itself; the
	// legend adds its own height below.
	Width, Height float64
}

// The sizes of a figure.
const (
	defaultWidth, defaultHeight = 8, 5.5 // inches
	// pngDPI makes an 8-inch figure 1600 pixels wide.
	pngDPI = 200
)

// Type sizes, in points.
var (
	titleSize  = vg.Points(16)
	labelSize  = vg.Points(14)
	tickSize   = vg.Points(12)
	legendSize = vg.Points(11)
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
func dashPattern(i int) []vg.Length {
	ds := []float64{float64(16 + 2*(i-len(dashPatterns))), 3, 1, 3}
	if i < len(dashPatterns) {
		ds = dashPatterns[i]
	}
	out := make([]vg.Length, len(ds))
	for k, d := range ds {
		out[k] = vg.Points(d)
	}
	return out
}

// theoryColors are the theory curves' greys, taken in turn; a declared
// bound is drawn in its algorithm's colour.
var theoryColors = []color.NRGBA{
	{R: 25, G: 25, B: 25, A: 255},
	{R: 100, G: 100, B: 100, A: 255},
	{R: 150, G: 150, B: 150, A: 255},
}

// referenceWidth is the width of bound and theory lines, thinner than the
// data's.
const referenceWidth = 1.5

// glyphs are the data points' shapes, changing when the colours come round
// again.
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}

// legendEntry is one line of the legend; one without thumbnails is a
// header, written across the legend's width above the columns.
type legendEntry struct {
	label  string
	thumbs []plot.Thumbnailer
}

// Figure is a plot and its legend, drawn below it.
type Figure struct {
	plot   *plot.Plot
	ylabel string
	legend []legendEntry
	width  vg.Length
	height vg.Length // of the plot, without the legend
	// layers names what was added to the plot, in drawing order: "band",
	// "bound", "theory", "data" (for the tests: data above the rest).
	layers []string
}

func textStyle(size vg.Length) text.Style {
	return text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, size), Handler: plot.DefaultTextHandler}
}

// Make builds the figure.
func Make(s Spec) (*Figure, error) {
	if len(s.Rows) == 0 {
		return nil, fmt.Errorf("plot: no runs to plot")
	}
	w, h := s.Width, s.Height
	if w == 0 {
		w, h = defaultWidth, defaultHeight
	}
	f := &Figure{plot: plot.New(), width: vg.Length(w) * vg.Inch, height: vg.Length(h) * vg.Inch}
	p := f.plot
	p.Title.TextStyle.Font.Size = titleSize
	p.Title.Text = wrap(p.Title.TextStyle, s.Title, f.width-vg.Points(12))
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "n"
	// The y label is drawn by Draw: gonum/plot places its glyph box at the
	// arithmetic middle of the range, near the top of a log axis, and pads
	// the plot below it for nothing.
	f.ylabel = s.YLabel
	if f.ylabel == "" {
		f.ylabel = s.Measure
	}
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Scale = plot.LogScale{}
		ax.Tick.Marker = logTicks{}
		ax.Label.TextStyle.Font.Size = labelSize
		ax.Tick.Label.Font.Size = tickSize
		ax.Tick.Label.Handler = superscripts{text.Plain{Fonts: font.DefaultCache}}
		ax.Tick.Length = vg.Points(7)
		ax.Tick.Width = vg.Points(1)
		ax.Width = vg.Points(1)
	}
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 225}
	grid.Horizontal.Color = color.Gray{Y: 225}
	p.Add(grid)

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
	var data []*series
	algColor := map[string]color.NRGBA{} // the colour of each algorithm's first series, for its bounds
	for i, k := range curveKeys {
		gs := byCurve[k]
		slices.SortFunc(gs, func(a, b *experiment.Group) int { return a.N - b.N })
		var mean, lo, hi plotter.XYs
		for _, g := range gs {
			st := g.Stats(s.Measure, experiment.Growth{})
			if st.Mean <= 0 {
				continue // not drawable on a log axis
			}
			x := float64(g.N)
			nMin, nMax = math.Min(nMin, x), math.Max(nMax, x)
			mean = append(mean, plotter.XY{X: x, Y: st.Mean})
			lo = append(lo, plotter.XY{X: x, Y: math.Max(st.Lo, st.Mean/100)})
			hi = append(hi, plotter.XY{X: x, Y: st.Hi})
		}
		if len(mean) == 0 {
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
		if _, ok := algColor[gs[0].Name]; !ok {
			algColor[gs[0].Name] = c
		}
		sr, err := newSeries(mean, lo, hi, c, glyphs[(i/len(Palette))%len(glyphs)])
		if err != nil {
			return nil, err
		}
		sr.label = labels[k]
		data = append(data, sr)
	}
	// The bands first, then the bounds and theory curves, then the data's
	// lines and points on top of them all.
	for _, sr := range data {
		if sr.band != nil {
			p.Add(sr.band)
			f.layers = append(f.layers, "band")
		}
	}
	var refs []legendEntry
	ref := 0 // the next reference line's dash pattern
	if s.Bounds {
		var err error
		if refs, ref, err = f.addBounds(s, groups, ref, algColor); err != nil {
			return nil, err
		}
	}
	for j, name := range s.Curves {
		g, ok := experiment.LookupGrowth(name)
		if !ok {
			return nil, fmt.Errorf("plot: unknown curve %q; use one of %s", name, strings.Join(experiment.GrowthNames(), ", "))
		}
		var xy plotter.XYs
		const samples = 48
		for j := 0; j <= samples; j++ {
			x := nMin * math.Pow(nMax/nMin, float64(j)/samples)
			if nMax == nMin {
				x = nMin
			}
			if y := g.F(x); y > 0 {
				xy = append(xy, plotter.XY{X: x, Y: y})
			}
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.LineStyle = draw.LineStyle{Color: theoryColors[j%len(theoryColors)], Width: vg.Points(referenceWidth), Dashes: dashPattern(ref)}
		ref++
		p.Add(l)
		f.layers = append(f.layers, "theory")
		refs = append(refs, legendEntry{label: "theory: " + name, thumbs: []plot.Thumbnailer{l}})
	}
	for _, sr := range data {
		p.Add(sr.line, sr.points)
		f.layers = append(f.layers, "data")
	}
	// The legend: what every curve shares and what the lines mean, said
	// once; then a short line per series, bound and theory curve.
	key := "solid: mean; band: 95% confidence interval"
	if ref > len(s.Curves) {
		key += "; dashed in an algorithm's colour: a bound it declares"
	}
	if len(s.Curves) > 0 {
		key += "; grey: theory, coefficient 1"
	}
	for _, h := range append(headers, key) {
		f.legend = append(f.legend, legendEntry{label: h})
	}
	for _, sr := range data {
		f.legend = append(f.legend, legendEntry{label: sr.label, thumbs: sr.thumbs()})
	}
	f.legend = append(f.legend, refs...)
	return f, nil
}

// series is one configuration's drawing: its confidence band, and its
// means joined by a line, with glyphs.
type series struct {
	band   *plotter.Polygon
	line   *plotter.Line
	points *plotter.Scatter
	label  string
}

func (sr *series) thumbs() []plot.Thumbnailer {
	if sr.band == nil {
		return []plot.Thumbnailer{sr.line, sr.points}
	}
	return []plot.Thumbnailer{sr.band, sr.line, sr.points}
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

// newSeries makes one configuration's drawing: its confidence band
// (filled, with a thin edge so that a narrow band still shows), and its
// means joined by a line, with glyphs.
func newSeries(mean, lo, hi plotter.XYs, c color.NRGBA, glyph draw.GlyphDrawer) (*series, error) {
	sr := &series{}
	if len(mean) > 1 {
		band := append(plotter.XYs(nil), lo...)
		for j := len(hi) - 1; j >= 0; j-- {
			band = append(band, hi[j])
		}
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return nil, err
		}
		poly.Color = color.NRGBA{R: c.R, G: c.G, B: c.B, A: 70}
		poly.LineStyle = draw.LineStyle{Color: color.NRGBA{R: c.R, G: c.G, B: c.B, A: 160}, Width: vg.Points(0.6)}
		sr.band = poly
	}
	line, points, err := plotter.NewLinePoints(mean)
	if err != nil {
		return nil, err
	}
	line.Color, points.Color = c, c
	line.Width = vg.Points(2)
	points.Shape = glyph
	points.Radius = vg.Points(3.5)
	sr.line, sr.points = line, points
	return sr, nil
}

// wrap breaks a title into lines no wider than width.
func wrap(st text.Style, title string, width vg.Length) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(title) {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if line != "" && st.Width(try) > width {
			lines = append(lines, line)
			line = word
			continue
		}
		line = try
	}
	return strings.Join(append(lines, line), "\n")
}

// logTicks marks a log axis alike on both axes: a labelled tick at every
// power of ten in range, unlabelled ticks at 2..9 times it; when fewer than
// two powers of ten are in range, 2 and 5 times them are labelled too, and
// when still fewer than two labels are, every minor tick is.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi >= lo) {
		return nil
	}
	first, last := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	in := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	count := func(keep func(m int) bool) int {
		c := 0
		for e := first; e <= last; e++ {
			for m := 1; m <= 9; m++ {
				if keep(m) && in(float64(m)*math.Pow(10, float64(e))) {
					c++
				}
			}
		}
		return c
	}
	labelled := func(m int) bool { return m == 1 }
	if count(labelled) < 2 {
		labelled = func(m int) bool { return m == 1 || m == 2 || m == 5 }
		if count(labelled) < 2 {
			labelled = func(int) bool { return true }
		}
	}
	var ticks []plot.Tick
	for e := first; e <= last; e++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow(10, float64(e))
			if !in(v) {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled(m) {
				t.Label = tickLabel(m, e)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// tickLabel writes m*10^e the same way on every axis: 10^e for a power of
// ten, m×10^e otherwise, which the superscripts handler typesets with a
// raised exponent (a minus sign as U+2212).
func tickLabel(m, e int) string {
	exp := strings.Replace(fmt.Sprint(e), "-", "−", 1)
	if m == 1 {
		return "10^" + exp
	}
	return fmt.Sprintf("%d×10^%s", m, exp)
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

// addBounds draws every declared bound on the measure, per algorithm: the
// mean of its checked value over the algorithm's runs at each n, in the
// algorithm's colour (algColor) and a dash pattern of its own. It returns
// the bounds' legend entries and the next reference line's index.
func (f *Figure) addBounds(s Spec, groups []*experiment.Group, ref int, algColor map[string]color.NRGBA) ([]legendEntry, int, error) {
	type acc struct{ sum, count float64 }
	type key struct{ alg, bound string }
	values := map[key]map[int]*acc{}
	var keys []key
	for _, g := range groups {
		for _, r := range g.Rows {
			for _, b := range r.Bounds {
				if b.Relation == "" || !matches(quantity(b.Name), s.Measure) || b.Value <= 0 {
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
		var xy plotter.XYs
		for n, a := range values[k] {
			xy = append(xy, plotter.XY{X: float64(n), Y: a.sum / a.count})
		}
		slices.SortFunc(xy, func(a, b plotter.XY) int { return int(a.X - b.X) })
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, ref, err
		}
		c, ok := algColor[k.alg]
		if !ok {
			c = theoryColors[0]
		}
		l.LineStyle = draw.LineStyle{Color: c, Width: vg.Points(referenceWidth), Dashes: dashPattern(ref)}
		ref++
		f.plot.Add(l)
		f.layers = append(f.layers, "bound")
		entries = append(entries, legendEntry{label: k.alg + ": " + k.bound, thumbs: []plot.Thumbnailer{l}})
	}
	return entries, ref, nil
}

// The legend's layout.
var (
	legendPad   = vg.Points(8)  // inside the box
	legendGap   = vg.Points(18) // between columns
	legendThumb = vg.Points(34)
)

// legendLayout places the legend's entries in width: the headers first,
// each across the width (wrapped), then the other entries in as many
// columns of one line each as fit (filled down each column), or else in
// one column, each entry wrapped to the width. It returns the column
// width, the entries' texts, the column and the top of each entry (from
// the top of the box), and the height of the entries.
func (f *Figure) legendLayout(width vg.Length) (colWidth vg.Length, texts []string, col []int, top []vg.Length, height vg.Length) {
	st := textStyle(legendSize)
	line := legendRowHeight()
	avail := width - 2*legendPad
	n := len(f.legend)
	texts, col, top = make([]string, n), make([]int, n), make([]vg.Length, n)
	y := vg.Length(0)
	var rest []int
	for i, e := range f.legend {
		if len(e.thumbs) > 0 {
			rest = append(rest, i)
			colWidth = max(colWidth, legendThumb+st.Width(" "+e.label))
			continue
		}
		texts[i] = wrap(st, e.label, avail)
		top[i] = y
		y += vg.Length(strings.Count(texts[i], "\n")+1) * line
	}
	if colWidth <= avail {
		cols := max(1, min(len(rest), int((avail+legendGap)/(colWidth+legendGap))))
		rows := (len(rest) + cols - 1) / cols
		for k, i := range rest {
			texts[i] = f.legend[i].label
			col[i] = k / rows
			top[i] = y + vg.Length(k%rows)*line
		}
		return colWidth, texts, col, top, y + vg.Length(rows)*line
	}
	for _, i := range rest {
		texts[i] = wrap(st, f.legend[i].label, avail-legendThumb-st.Width(" "))
		top[i] = y
		y += vg.Length(strings.Count(texts[i], "\n")+1) * line
	}
	return avail, texts, col, top, y
}

func legendRowHeight() vg.Length {
	st := textStyle(legendSize)
	return st.Height("Xg") + vg.Points(4)
}

// legendHeight is the height of the legend box and the space above it.
func (f *Figure) legendHeight() vg.Length {
	if len(f.legend) == 0 {
		return 0
	}
	_, _, _, _, h := f.legendLayout(f.width)
	return h + 2*legendPad + vg.Points(6)
}

// Size returns the figure's width and height, legend included.
func (f *Figure) Size() (w, h vg.Length) { return f.width, f.height + f.legendHeight() }

// Draw draws the plot at the top of c and the legend below it.
func (f *Figure) Draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	lh := f.legendHeight()
	// Room on the right and at the top for the last tick label and the
	// title's ascent.
	st := textStyle(labelSize)
	st.Rotation = math.Pi / 2
	st.XAlign, st.YAlign = draw.XCenter, draw.YTop
	lw := st.Height(f.ylabel) + vg.Points(8)
	pc := draw.Crop(c, vg.Points(4)+lw, -vg.Points(18), lh, -vg.Points(6))
	f.plot.Draw(pc)
	dc := f.plot.DataCanvas(pc)
	c.FillText(st, vg.Point{X: c.Min.X + vg.Points(6), Y: (dc.Min.Y + dc.Max.Y) / 2}, f.ylabel)
	if lh == 0 {
		return
	}
	box := vg.Rectangle{Min: vg.Point{X: c.Min.X + vg.Points(4), Y: c.Min.Y + vg.Points(2)},
		Max: vg.Point{X: c.Max.X - vg.Points(4), Y: c.Min.Y + lh - vg.Points(4)}}
	c.SetColor(color.Gray{Y: 245})
	c.Fill(box.Path())
	c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 170}, Width: vg.Points(0.75)})
	c.Stroke(box.Path())
	colWidth, texts, col, top, _ := f.legendLayout(f.width)
	line := legendRowHeight()
	for i, e := range f.legend {
		lines := vg.Length(strings.Count(texts[i], "\n") + 1)
		x := box.Min.X + legendPad + vg.Length(col[i])*(colWidth+legendGap)
		y := box.Max.Y - legendPad - top[i] - lines*line
		if len(e.thumbs) == 0 { // a header, across the box
			l := plot.NewLegend()
			l.TextStyle = textStyle(legendSize)
			l.Left, l.Top = true, true
			l.ThumbnailWidth = 0
			l.YPosition = draw.PosTop
			l.Add(texts[i])
			l.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: box.Max.X - legendPad, Y: y + lines*line}}})
			continue
		}
		l := plot.NewLegend()
		l.TextStyle = textStyle(legendSize)
		l.Left, l.Top = true, true
		l.ThumbnailWidth = legendThumb
		l.YPosition = draw.PosTop
		l.Add(texts[i], e.thumbs...)
		l.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + colWidth, Y: y + lines*line}}})
	}
}

// Save writes the figure to path; the extension (.png, .svg, .pdf) chooses
// the format. PNG figures are 1600 pixels wide at the default size.
func Save(s Spec, path string) error {
	f, err := Make(s)
	if err != nil {
		return err
	}
	w, h := f.Size()
	var canvas vg.CanvasWriterTo
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))}
	case ".svg":
		canvas = vgsvg.New(w, h)
	case ".pdf":
		canvas = vgpdf.New(w, h)
	default:
		return fmt.Errorf("plot: %s: use a .png, .svg or .pdf file name", path)
	}
	f.Draw(draw.New(canvas))
	return atomicfile.Write(path, func(w io.Writer) error {
		if _, ok := canvas.(*vgsvg.Canvas); ok {
			var buf bytes.Buffer
			if _, err := canvas.WriteTo(&buf); err != nil {
				return err
			}
			_, err := w.Write(svgFontFallback(buf.Bytes()))
			return err
		}
		_, err := canvas.WriteTo(w)
		return err
	})
}

// svgFontFallback gives the SVG's font families fallbacks: gonum's
// "Liberation Serif", which a reader may not have, is followed by Times
// New Roman and Times (the fonts it matches metric for metric, so that the
// text keeps the widths the figure was laid out with) and the generic
// serif.
func svgFontFallback(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("font-family:Liberation Serif;"), []byte("font-family:'Liberation Serif','Times New Roman',Times,serif;"))
}
