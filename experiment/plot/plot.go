// Package plot draws sweep results with gonum/plot: a measure against n on
// log-log axes, one curve per configuration (the mean at each n with its 95%
// confidence band), beside theoretical curves (n^2, n H_n, n lg n, ...) and
// the bounds the algorithms declare (as the runs checked them).
package plot

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/electkit/elect/experiment"
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
	// Width and Height in inches (default 7 x 5).
	Width, Height float64
}

// Make builds the figure.
func Make(s Spec) (*plot.Plot, error) {
	if len(s.Rows) == 0 {
		return nil, fmt.Errorf("plot: no runs to plot")
	}
	p := plot.New()
	p.Title.Text = s.Title
	p.X.Label.Text = "n"
	p.Y.Label.Text = s.YLabel
	if p.Y.Label.Text == "" {
		p.Y.Label.Text = s.Measure
	}
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(8)

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
	nMin, nMax := math.Inf(1), math.Inf(-1)
	for i, k := range curveKeys {
		gs := byCurve[k]
		slices.SortFunc(gs, func(a, b *experiment.Group) int { return a.N - b.N })
		var mean plotter.XYs
		var band plotter.XYs
		var hi plotter.XYs
		for _, g := range gs {
			st := g.Stats(s.Measure, experiment.Growth{})
			if st.Mean <= 0 {
				continue // not drawable on a log axis
			}
			x := float64(g.N)
			nMin, nMax = math.Min(nMin, x), math.Max(nMax, x)
			mean = append(mean, plotter.XY{X: x, Y: st.Mean})
			band = append(band, plotter.XY{X: x, Y: math.Max(st.Lo, st.Mean/100)})
			hi = append(hi, plotter.XY{X: x, Y: st.Hi})
		}
		if len(mean) == 0 {
			continue
		}
		c := plotutil.Color(i)
		if len(mean) > 1 {
			for j := len(hi) - 1; j >= 0; j-- {
				band = append(band, hi[j])
			}
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return nil, err
			}
			r, g, b, _ := c.RGBA()
			poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 60}
			poly.LineStyle.Width = 0
			p.Add(poly)
		}
		line, points, err := plotter.NewLinePoints(mean)
		if err != nil {
			return nil, err
		}
		line.Color, points.Color = c, c
		points.Shape = draw.CircleGlyph{}
		p.Add(line, points)
		p.Legend.Add("mean: "+k, line, points)
	}
	if s.Bounds {
		if err := addBounds(p, s, groups); err != nil {
			return nil, err
		}
	}
	for i, name := range s.Curves {
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
		l.Color = color.Gray{Y: uint8(40 + 50*i)}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		p.Legend.Add("theory: "+name, l)
	}
	return p, nil
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

// addBounds draws every declared bound on the measure: the mean of its
// checked value over the runs at each n.
func addBounds(p *plot.Plot, s Spec, groups []*experiment.Group) error {
	type acc struct{ sum, count float64 }
	values := map[string]map[int]*acc{}
	var names []string
	for _, g := range groups {
		for _, r := range g.Rows {
			for _, b := range r.Bounds {
				if b.Relation == "" || !matches(quantity(b.Name), s.Measure) || b.Value <= 0 {
					continue
				}
				if values[b.Name] == nil {
					values[b.Name] = map[int]*acc{}
					names = append(names, b.Name)
				}
				a := values[b.Name][r.N]
				if a == nil {
					a = &acc{}
					values[b.Name][r.N] = a
				}
				a.sum += b.Value
				a.count++
			}
		}
	}
	for i, name := range names {
		var xy plotter.XYs
		for n, a := range values[name] {
			xy = append(xy, plotter.XY{X: float64(n), Y: a.sum / a.count})
		}
		slices.SortFunc(xy, func(a, b plotter.XY) int { return int(a.X - b.X) })
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.Color = color.NRGBA{R: 200, G: uint8(60 * (i % 4)), B: 40, A: 255}
		l.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add("bound: "+name, l)
	}
	return nil
}

// Save writes the figure to path; the extension (.png, .svg, .pdf) chooses
// the format.
func Save(s Spec, path string) error {
	p, err := Make(s)
	if err != nil {
		return err
	}
	w, h := s.Width, s.Height
	if w == 0 {
		w, h = 7, 5
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", ".svg", ".pdf":
	default:
		return fmt.Errorf("plot: %s: use a .png, .svg or .pdf file name", path)
	}
	return p.Save(vg.Length(w)*vg.Inch, vg.Length(h)*vg.Inch, path)
}
