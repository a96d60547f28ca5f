package plot

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

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
