package plot

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/electkit/elect/experiment"
)

var update = flag.Bool("update", false, "rewrite the golden figures in testdata")

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

// TestPlotGoldenPNG: the decoded PNG equals testdata/golden.png up to
// anti-aliasing: at most 0.5% of the pixels may differ by more than 16 in
// any channel.
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
		for _, tk := range (logTicks{}).Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
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
	for _, line := range strings.Split(f.plot.Title.Text, "\n") {
		if w := f.plot.Title.TextStyle.Width(line); w > f.width {
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
	want := []string{"mean, 95% CI: quadratic (ids decreasing)", "mean, 95% CI: nlogn (ids random)", "bound (quadratic): messages <= n(n+1)/2",
		"theory: n^2 (coefficient 1)", "theory: n H_n (coefficient 1)", "theory: n lg n (coefficient 1)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("legend %q, want %q", got, want)
	}
	for i := range referenceStyles {
		for j := range i {
			a, b := referenceLine(i), referenceLine(j)
			if a.Color == b.Color || slices.Equal(a.Dashes, b.Dashes) {
				t.Errorf("reference styles %d and %d share a colour or a dash pattern", i, j)
			}
		}
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
			if strings.Contains(e.label, label) {
				for _, th := range e.thumbs {
					if l, ok := th.(*plotter.Line); ok {
						return l.Color
					}
				}
			}
		}
		return nil
	}
	if colour("nlogn") != blue || colour("quadratic") == blue {
		t.Errorf("nlogn %v, quadratic %v; want nlogn alone blue", colour("nlogn"), colour("quadratic"))
	}
}
