package plot

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect/experiment"
)

var update = flag.Bool("update", false, "rewrite the golden figures in testdata")

// TestMain checks, before any test draws, that the package did not parse
// its font when the program started: every elect command links this
// package, few draw a figure (issue 32).
func TestMain(m *testing.M) {
	if sans.font != nil || sans.err != nil {
		fmt.Fprintln(os.Stderr, "plot: the font was parsed at start-up")
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// goldenRows are fixed runs: three trials at each of five sizes of a
// quadratic and an n lg n configuration, with a declared bound n(n+1)/2.
func goldenRows() []experiment.Row {
	var rows []experiment.Row
	for _, n := range []int{16, 32, 64, 128, 256} {
		for t := range 3 {
			jitter := 1 + 0.05*float64(t-1)
			nf := float64(n)
			rows = append(rows,
				experiment.Row{Kind: experiment.MessagePassing, Name: "quadratic", Config: "ids decreasing", N: n, Seed: uint64(t),
					Measures: map[string]float64{"messages": nf * (nf + 1) / 2 * jitter},
					Bounds:   []experiment.Bound{{Name: "messages <= n(n+1)/2", Relation: "<=", Value: nf * (nf + 1) / 2}}},
				experiment.Row{Kind: experiment.MessagePassing, Name: "nlogn", Config: "ids random", N: n, Seed: uint64(t),
					Measures: map[string]float64{"messages": 3 * nf * math.Log2(nf) * jitter}})
		}
	}
	return rows
}

func goldenSpec() Spec {
	return Spec{Title: "golden: messages against n", Measure: "messages", Rows: goldenRows(),
		Curves: []string{"n^2", "n H_n", "n lg n"}, Bounds: true, Width: 6, Height: 4}
}

// TestPlotGoldenSVG: the SVG text equals testdata/golden.svg.
func TestPlotGoldenSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fig.svg")
	if err := Save(goldenSpec(), path); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	golden := filepath.Join("testdata", "golden.svg")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("SVG differs from %s (rerun with -update after checking the figure)", golden)
	}
}

// TestPlotGoldenPNG: the decoded PNG is opaque and equals
// testdata/golden.png up to anti-aliasing: at most 0.5% of the pixels may
// differ by more than 16 in any channel.
func TestPlotGoldenPNG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fig.png")
	if err := Save(goldenSpec(), path); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "golden.png")
	if *update {
		b, _ := os.ReadFile(path)
		if err := os.WriteFile(golden, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, want := decode(t, path), decode(t, golden)
	if got.Bounds() != want.Bounds() {
		t.Fatalf("size %v, golden %v", got.Bounds(), want.Bounds())
	}
	diff, total := 0, 0
	b := got.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			total++
			if _, _, _, a := got.At(x, y).RGBA(); a != 0xffff {
				t.Fatalf("pixel (%d, %d) is not opaque: %v", x, y, got.At(x, y))
			}
			r1, g1, b1, a1 := got.At(x, y).RGBA()
			r2, g2, b2, a2 := want.At(x, y).RGBA()
			for _, d := range []int{int(r1) - int(r2), int(g1) - int(g2), int(b1) - int(b2), int(a1) - int(a2)} {
				if d > 16<<8 || d < -16<<8 {
					diff++
					break
				}
			}
		}
	}
	if float64(diff) > 0.005*float64(total) {
		t.Errorf("%d of %d pixels differ from %s", diff, total, golden)
	}
}

func decode(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestPlotRefusesWhatItCannotDraw: no runs, an unknown measure or curve, and
// an unknown file type are errors.
func TestPlotRefusesWhatItCannotDraw(t *testing.T) {
	if _, err := Make(Spec{Measure: "messages"}); err == nil {
		t.Error("no rows accepted")
	}
	if _, err := Make(Spec{Measure: "nothing", Rows: goldenRows()}); err == nil {
		t.Error("unknown measure accepted")
	}
	if _, err := Make(Spec{Measure: "messages", Rows: goldenRows(), Curves: []string{"n^3"}}); err == nil {
		t.Error("unknown curve accepted")
	}
	if err := Save(goldenSpec(), filepath.Join(t.TempDir(), "x.gif")); err == nil {
		t.Error(".gif accepted")
	}
}

// TestBoundMatchesMeasure: bounds are drawn on the measure they speak of.
func TestBoundMatchesMeasure(t *testing.T) {
	for _, c := range []struct {
		bound, measure string
		want           bool
	}{
		{"election messages <= n(n+1)/2", "messages", true},
		{"election messages <= n(n+1)/2", "messages:election", true},
		{"ELECTION messages >= n", "messages:LEADER", false},
		{"time <= n (2n with announcement)", "time", true},
		{"time <= n", "messages", false},
	} {
		if got := matches(quantity(c.bound), c.measure); got != c.want {
			t.Errorf("%q on %q: %v", c.bound, c.measure, got)
		}
	}
}

// TestLogTicksLabelEveryAxisAlike: powers of ten are labelled 10ᵉ, and 2
// and 5 times them (m×10ᵉ) only when fewer than two powers are in range;
// minor ticks are unlabelled.
func TestLogTicksLabelEveryAxisAlike(t *testing.T) {
	labels := func(lo, hi float64) []string {
		var out []string
		for _, tk := range logTicks(lo, hi) {
			if tk.label != "" {
				out = append(out, tk.label)
			}
		}
		return out
	}
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{10, 4096, "10^1 10^2 10^3"},
		{16, 4096, "10^2 10^3"},
		{1000, 1e5, "10^3 10^4 10^5"},
		{64, 512, "10^2 2×10^2 5×10^2"},
		{0.5, 3, "5×10^−1 10^0 2×10^0"},
		{1e8, 1e10, "10^8 10^9 10^10"},
	} {
		if got := strings.Join(labels(c.lo, c.hi), " "); got != c.want {
			t.Errorf("%g..%g: labels %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

// TestFigureLayout: a long title wraps to the figure's width instead of
// being clipped; the legend is drawn below the data (it adds to the height)
// with a line per configuration, per declared bound labelled by its
// algorithm, and per theory curve, each bound and theory line in a style
// of its own; the PNG is 1600 pixels wide at the default size.
func TestFigureLayout(t *testing.T) {
	s := goldenSpec()
	s.Width, s.Height = 0, 0
	s.Title = strings.Repeat("a long title that names every colour it uses ", 4)
	f, err := Make(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.title) < 2 {
		t.Errorf("title %q not wrapped", f.title)
	}
	for _, line := range f.title {
		if w := width(line, titleSize); w > f.width {
			t.Errorf("title line %q is %v wide, more than the figure's %v", line, w, f.width)
		}
	}
	if _, h := f.Size(); h <= f.height {
		t.Errorf("height %v with the legend, %v without", h, f.height)
	}
	var got []string
	for _, e := range f.legend {
		got = append(got, e.label)
	}
	want := []string{"solid: mean; band: 95% confidence interval; dashed in an algorithm's colour: a bound it declares; grey: theory, coefficient 1",
		"quadratic (ids decreasing)", "nlogn (ids random)", "quadratic: messages <= n(n+1)/2",
		"theory: n^2", "theory: n H_n", "theory: n lg n"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("legend %q, want %q", got, want)
	}
	path := filepath.Join(t.TempDir(), "fig.png")
	if err := Save(s, path); err != nil {
		t.Fatal(err)
	}
	if img := decode(t, path); img.Bounds().Dx() != 1600 {
		t.Errorf("PNG %d pixels wide, want 1600", img.Bounds().Dx())
	}
}

// TestSeriesColoursByName: a series given a colour by name gets it, and
// the others skip it.
func TestSeriesColoursByName(t *testing.T) {
	s := goldenSpec()
	s.Colors = map[string]string{"nlogn": "blue"}
	f, err := Make(s)
	if err != nil {
		t.Fatal(err)
	}
	blue, _ := paletteColor("blue")
	colour := func(label string) color.Color {
		for _, e := range f.legend {
			if strings.Contains(e.label, label) && e.line != nil {
				return e.line.color
			}
		}
		return nil
	}
	if colour("nlogn") != blue || colour("quadratic") == blue {
		t.Errorf("nlogn %v, quadratic %v; want nlogn alone blue", colour("nlogn"), colour("quadratic"))
	}
}

// manyBoundsRows are three algorithms with three declared bounds each:
// with three theory curves, twelve reference lines, more than the dash
// patterns listed (the README's ring.png had ten, and two pairs shared a
// style).
func manyBoundsRows() []experiment.Row {
	var rows []experiment.Row
	for a, name := range []string{"lcr", "hs", "peterson"} {
		for _, n := range []int{64, 128, 256} {
			nf := float64(n)
			for t := range 3 {
				rows = append(rows, experiment.Row{Kind: experiment.MessagePassing, Name: name, Config: "ids random, ring", N: n, Seed: uint64(t),
					Measures: map[string]float64{"messages": nf * math.Log2(nf) * float64(a+1) * (1 + 0.02*float64(t))},
					Bounds: []experiment.Bound{
						{Name: "messages <= n^2", Relation: "<=", Value: nf * nf * float64(a+1)},
						{Name: "messages >= n", Relation: ">=", Value: nf * float64(a+1)},
						{Name: "messages <= 9n lg n", Relation: "<=", Value: 9 * nf * math.Log2(nf) * float64(a+1)},
					}})
			}
		}
	}
	return rows
}

// TestReferenceLinesNeverShareAStyle (issue 35: in the README's ring.png
// a bound and a theory curve shared black dashes, and two others dark-red
// dots): within a figure no two lines share a colour and a dash pattern,
// no two reference lines share a dash pattern, a bound takes its
// algorithm's colour, and the data are drawn above every reference line.
func TestReferenceLinesNeverShareAStyle(t *testing.T) {
	f, err := Make(Spec{Title: "many bounds", Measure: "messages", Rows: manyBoundsRows(), Curves: []string{"n^2", "n H_n", "n lg n"}, Bounds: true})
	if err != nil {
		t.Fatal(err)
	}
	type style struct {
		c      color.Color
		dashes string
	}
	seen := map[style]string{}
	dashes := map[string]string{}
	colourOf := map[string]color.Color{}
	refs := 0
	for _, e := range f.legend {
		l := e.line
		if l == nil {
			continue
		}
		st := style{l.color, fmt.Sprint(l.dashes)}
		if other, dup := seen[st]; dup {
			t.Errorf("%q and %q share a style", e.label, other)
		}
		seen[st] = e.label
		if len(l.dashes) == 0 {
			colourOf[e.label] = l.color
			continue
		}
		refs++
		if other, dup := dashes[st.dashes]; dup {
			t.Errorf("%q and %q share a dash pattern", e.label, other)
		}
		dashes[st.dashes] = e.label
		if alg, _, ok := strings.Cut(e.label, ": messages"); ok && l.color != colourOf[alg] {
			t.Errorf("%q is drawn in %v, its algorithm's colour is %v", e.label, l.color, colourOf[alg])
		}
	}
	if refs != 12 {
		t.Errorf("%d reference lines, want 9 bounds and 3 theory curves", refs)
	}
	last := slices.Index(f.layers, "data")
	for i, l := range f.layers {
		if (l == "data") != (i >= last) {
			t.Fatalf("drawing order %v: the data must come last, above the bands, bounds and theory", f.layers)
		}
	}
}

// TestSVGFontsHaveAGenericFallback (issue 35: the SVG asked for
// "Liberation Serif" alone, and without it the exponents overlapped the
// tick labels): every font family named is followed by its metric twins
// and the generic sans-serif, and the exponents are tspans of the label's
// text element, so they follow its text in whatever font draws it.
func TestSVGFontsHaveAGenericFallback(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fig.svg")
	if err := Save(goldenSpec(), path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	all := strings.Count(string(data), "font-family")
	good := strings.Count(string(data), `font-family="'Liberation Sans', Arial, Helvetica, sans-serif"`)
	if all == 0 || good != all {
		t.Errorf("%d of %d font families have the fallbacks", good, all)
	}
	if !strings.Contains(string(data), `text-anchor="middle" xml:space="preserve">10<tspan font-size="8.4" dy="-5.04">2</tspan></text>`) {
		t.Errorf("no tick label 10^2 with its exponent in a tspan")
	}
}

// TestPlotSkipsWhatALogAxisCannotShow: zero, negative, infinite and NaN
// values are left out (a figure of none is an error), and what remains
// is drawn with finite coordinates.
func TestPlotSkipsWhatALogAxisCannotShow(t *testing.T) {
	rows := goldenRows()
	for i, v := range []float64{0, -3, math.Inf(1), math.NaN()} {
		rows = append(rows, experiment.Row{Kind: experiment.MessagePassing, Name: "odd", Config: "ids random", N: 512 + i, Seed: 1,
			Measures: map[string]float64{"messages": v},
			Bounds:   []experiment.Bound{{Name: "messages <= n^2", Relation: "<=", Value: v}}})
	}
	f, err := Make(Spec{Measure: "messages", Rows: rows, Bounds: true})
	if err != nil {
		t.Fatal(err)
	}
	if f.xhi != 256 {
		t.Errorf("x axis up to %v, want 256: an undrawable n was placed", f.xhi)
	}
	var r recorder
	f.draw(&r)
	for _, p := range r.points {
		if math.IsNaN(p.x+p.y) || math.IsInf(p.x+p.y, 0) {
			t.Fatalf("point %v drawn", p)
		}
	}
	var odd []experiment.Row
	for _, r := range rows {
		if r.Name == "odd" {
			odd = append(odd, r)
		}
	}
	if _, err := Make(Spec{Measure: "messages", Rows: odd}); err == nil {
		t.Error("a figure of undrawable values accepted")
	}
}
