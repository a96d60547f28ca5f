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
	legendSize = vg.Points(12)
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

// referenceStyles are the styles of bound and theory lines: each its own
// dark colour and dash pattern, none of them a data colour or solid.
var referenceStyles = []draw.LineStyle{
	{Color: color.NRGBA{R: 40, G: 40, B: 40, A: 255}, Dashes: []vg.Length{vg.Points(7), vg.Points(4)}},
	{Color: color.NRGBA{R: 150, G: 20, B: 60, A: 255}, Dashes: []vg.Length{vg.Points(2), vg.Points(3)}},
	{Color: color.NRGBA{R: 110, G: 110, B: 110, A: 255}, Dashes: []vg.Length{vg.Points(10), vg.Points(3), vg.Points(2), vg.Points(3)}},
	{Color: color.NRGBA{R: 120, G: 70, B: 0, A: 255}, Dashes: []vg.Length{vg.Points(4), vg.Points(2)}},
	{Color: color.NRGBA{R: 70, G: 40, B: 140, A: 255}, Dashes: []vg.Length{vg.Points(12), vg.Points(4)}},
	{Color: color.NRGBA{R: 0, G: 90, B: 90, A: 255}, Dashes: []vg.Length{vg.Points(1), vg.Points(2), vg.Points(5), vg.Points(2)}},
	{Color: color.NRGBA{R: 160, G: 120, B: 0, A: 255}, Dashes: []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1), vg.Points(2), vg.Points(1), vg.Points(2)}},
	{Color: color.NRGBA{R: 90, G: 0, B: 0, A: 255}, Dashes: []vg.Length{vg.Points(3), vg.Points(5)}},
}

// glyphs are the data points' shapes, changing when the colours come round
// again.
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}

// legendEntry is one line of the legend.
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
	for _, h := range headers {
		f.legend = append(f.legend, legendEntry{label: h})
	}
	nMin, nMax := math.Inf(1), math.Inf(-1)
	next := 0 // the next palette colour for a series without its own
	taken := map[string]bool{}
	for _, name := range s.Colors {
		taken[name] = true
	}
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
		thumbs, err := addSeries(p, mean, lo, hi, c, glyphs[(i/len(Palette))%len(glyphs)])
		if err != nil {
			return nil, err
		}
		f.legend = append(f.legend, legendEntry{label: "mean, 95% CI: " + labels[k], thumbs: thumbs})
	}
	ref := 0 // the next reference style
	if s.Bounds {
		var err error
		if ref, err = f.addBounds(s, groups, ref); err != nil {
			return nil, err
		}
	}
	for _, name := range s.Curves {
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
		l.LineStyle = referenceLine(ref)
		ref++
		p.Add(l)
		f.legend = append(f.legend, legendEntry{label: "theory: " + name + " (coefficient 1)", thumbs: []plot.Thumbnailer{l}})
	}
	return f, nil
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
	common := map[string][]string{}
	var headers []string
	for _, name := range names {
		ps := parts[name]
		if len(ps) < 2 {
			continue
		}
		for _, part := range ps[0] {
			shared := true
			for _, other := range ps[1:] {
				shared = shared && slices.Contains(other, part)
			}
			if shared {
				common[name] = append(common[name], part)
			}
		}
		if len(common[name]) > 0 {
			headers = append(headers, name+", every curve: "+strings.Join(common[name], ", "))
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

// addSeries draws one configuration: its confidence band (filled, with a
// thin edge so that a narrow band still shows), and its means joined by a
// line, with glyphs.
func addSeries(p *plot.Plot, mean, lo, hi plotter.XYs, c color.NRGBA, glyph draw.GlyphDrawer) ([]plot.Thumbnailer, error) {
	var thumbs []plot.Thumbnailer
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
		p.Add(poly)
		thumbs = append(thumbs, poly)
	}
	line, points, err := plotter.NewLinePoints(mean)
	if err != nil {
		return nil, err
	}
	line.Color, points.Color = c, c
	line.Width = vg.Points(1.75)
	points.Shape = glyph
	points.Radius = vg.Points(3.5)
	p.Add(line, points)
	return append(thumbs, line, points), nil
}

// referenceLine is the i-th bound or theory line's style.
func referenceLine(i int) draw.LineStyle {
	st := referenceStyles[i%len(referenceStyles)]
	st.Width = vg.Points(1.75)
	return st
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
// mean of its checked value over the algorithm's runs at each n. It returns
// the next reference style.
func (f *Figure) addBounds(s Spec, groups []*experiment.Group, ref int) (int, error) {
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
	for _, k := range keys {
		var xy plotter.XYs
		for n, a := range values[k] {
			xy = append(xy, plotter.XY{X: float64(n), Y: a.sum / a.count})
		}
		slices.SortFunc(xy, func(a, b plotter.XY) int { return int(a.X - b.X) })
		l, err := plotter.NewLine(xy)
		if err != nil {
			return ref, err
		}
		l.LineStyle = referenceLine(ref)
		ref++
		f.plot.Add(l)
		f.legend = append(f.legend, legendEntry{label: "bound (" + k.alg + "): " + k.bound, thumbs: []plot.Thumbnailer{l}})
	}
	return ref, nil
}

// The legend's layout.
var (
	legendPad   = vg.Points(8)  // inside the box
	legendGap   = vg.Points(18) // between columns
	legendThumb = vg.Points(34)
)

// legendLayout places the legend's entries in width: in as many columns
// of one line each as fit, or else in one column, each entry wrapped to
// the width. It returns the column width, the entries' texts, the column
// and the top of each entry (from the top of the box), and the height of
// the entries.
func (f *Figure) legendLayout(width vg.Length) (colWidth vg.Length, texts []string, col []int, top []vg.Length, height vg.Length) {
	st := textStyle(legendSize)
	line := legendRowHeight()
	avail := width - 2*legendPad
	for _, e := range f.legend {
		colWidth = max(colWidth, legendThumb+st.Width(" "+e.label))
	}
	if colWidth <= avail {
		cols := max(1, min(len(f.legend), int((avail+legendGap)/(colWidth+legendGap))))
		rows := (len(f.legend) + cols - 1) / cols
		for i, e := range f.legend {
			texts = append(texts, e.label)
			col = append(col, i/rows)
			top = append(top, vg.Length(i%rows)*line)
		}
		return colWidth, texts, col, top, vg.Length(rows) * line
	}
	y := vg.Length(0)
	for _, e := range f.legend {
		t := wrap(st, e.label, avail-legendThumb-st.Width(" "))
		texts = append(texts, t)
		col = append(col, 0)
		top = append(top, y)
		y += vg.Length(strings.Count(t, "\n")+1) * line
	}
	return avail, texts, col, top, y
}

func legendRowHeight() vg.Length {
	st := textStyle(legendSize)
	return st.Height("Xg") + vg.Points(5)
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
		_, err := canvas.WriteTo(w)
		return err
	})
}
