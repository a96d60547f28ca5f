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
					Bounds:   []experiment.Bound{{Name: "messages <= n(n+1)/2", Relation: "<=", Value: nf * (nf + 1) / 2, Actual: nf * (nf + 1) / 2 * jitter}}},
				experiment.Row{Kind: experiment.MessagePassing, Name: "nlogn", Config: "ids random", N: n, Seed: uint64(t),
					Measures: map[string]float64{"messages": 3 * nf * math.Log2(nf) * jitter}})
		}
	}
	return rows
}

func goldenSpec() Spec {
	return Spec{Title: "golden: messages against n", Measure: "messages", Rows: goldenRows(),
		Curves: []string{"n^2", "n H_n", "n lg n"}, Bounds: BoundsAll, Width: 6, Height: 4}
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
	for name, change := range map[string]func(*Spec){
		"legend in the middle": func(s *Spec) { s.Legend = "middle" },
		"colour red":           func(s *Spec) { s.Colors = map[string]string{"nlogn": "red"} },
		"7 pt type":            func(s *Spec) { s.FontSize = 7 },
		"bounds some":          func(s *Spec) { s.Bounds = "some" },
		"a 1 x 1 in figure":    func(s *Spec) { s.Width, s.Height = 1, 1 },
	} {
		s := goldenSpec()
		change(&s)
		if _, err := Make(s); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

// seriesRows are runs of k configurations of one algorithm, each a
// factor of 1.5 above the one before (apart at any figure size).
func seriesRows(k int) []experiment.Row {
	var rows []experiment.Row
	for c := range k {
		for _, n := range []int{16, 64, 256} {
			rows = append(rows, experiment.Row{Kind: experiment.MessagePassing, Name: "alg", Config: fmt.Sprintf("variant %d", c), N: n, Seed: 1,
				Measures: map[string]float64{"messages": float64(n) * math.Pow(1.5, float64(c))}})
		}
	}
	return rows
}

// TestEverySeriesDiffersInColourMarkerAndDash (issue 44: series differed
// by colour alone and merged in greyscale print): eight series, as many
// as a figure draws, have eight colours, eight markers and eight dash
// patterns; a ninth is refused, naming the limit.
func TestEverySeriesDiffersInColourMarkerAndDash(t *testing.T) {
	f, err := Make(Spec{Measure: "messages", Rows: seriesRows(MaxSeries), Width: 7, Height: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.series) != MaxSeries {
		t.Fatalf("%d series drawn, want %d", len(f.series), MaxSeries)
	}
	colours, glyphs, dashes := map[color.NRGBA]bool{}, map[int]bool{}, map[string]bool{}
	for _, sr := range f.series {
		colours[sr.style.color], glyphs[sr.glyph], dashes[fmt.Sprint(sr.style.dashes)] = true, true, true
	}
	if len(colours) != MaxSeries || len(glyphs) != MaxSeries || len(dashes) != MaxSeries {
		t.Errorf("%d colours, %d markers, %d dash patterns for %d series", len(colours), len(glyphs), len(dashes), MaxSeries)
	}
	_, err = Make(Spec{Measure: "messages", Rows: seriesRows(MaxSeries + 1), Width: 7, Height: 5})
	if err == nil || !strings.Contains(err.Error(), "9 series") || !strings.Contains(err.Error(), "at most 8") {
		t.Errorf("nine series: %v; want a refusal naming 9 and 8", err)
	}
}

// TestCoincidingCurvesAreDrawnOnce (issue 44: in docs/reproduce/hs.png four
// curves coincided and one was visible): four configurations whose means
// are 1% apart are drawn as one series, named with every value of the
// parts that differ and how far apart they are, with a band that holds
// all four; a fifth, twice as high, stays a series of its own. The one
// algorithm is named once, above, not in each entry.
func TestCoincidingCurvesAreDrawnOnce(t *testing.T) {
	for _, c := range []struct {
		apart float64
		want  string
	}{{0, ": 2 identical"}, {0.0021, ": 2 within 0.3%"}, {0.0412, ": 2 within 5%"}} {
		if got := mergedLabel("hs", [][]string{{"fifo"}, {"random"}}, c.apart); got != "hs (fifo|random)"+c.want {
			t.Errorf("apart %v: %q, want %q", c.apart, got, "hs (fifo|random)"+c.want)
		}
	}
	var rows []experiment.Row
	for i, cfg := range []string{"ids random, fifo", "ids random, random", "ids bit-reversal, fifo", "ids bit-reversal, random", "ids increasing, fifo"} {
		scale := 1 + 0.01*float64(i)/3
		if i == 4 {
			scale = 2
		}
		for _, n := range []int{64, 256, 1024} {
			for t := range 3 {
				v := float64(n) * math.Log2(float64(n)) * scale * (1 + 0.001*float64(t))
				rows = append(rows, experiment.Row{Kind: experiment.MessagePassing, Name: "hs", Config: cfg + ", ring", N: n, Seed: uint64(t),
					Measures: map[string]float64{"messages": v}})
			}
		}
	}
	f, err := Make(Spec{Measure: "messages", Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, sr := range f.series {
		labels = append(labels, sr.label)
	}
	want := []string{"ids random|bit-reversal, fifo|random: 4 within 1%", "ids increasing, fifo"}
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Errorf("series %q, want %q", labels, want)
	}
	merged := f.series[0]
	for _, m := range merged.members {
		for i := range m.mean {
			if merged.lo[i].y > m.lo[i].y || merged.hi[i].y < m.hi[i].y {
				t.Errorf("the merged band at n = %v (%v..%v) does not hold a member's (%v..%v)", m.mean[i].x, merged.lo[i].y, merged.hi[i].y, m.lo[i].y, m.hi[i].y)
			}
		}
	}
	if !slices.Contains(f.subtitle, "hs, every curve: ring; bands: 95% CI of the mean") {
		t.Errorf("subtitle %q", f.subtitle)
	}
}

// TestBoundOnAPartIsNotDrawnOnTheWhole (issue 44: afek-gafni.png drew
// bounds on its election, termination and LEADER messages over all its
// messages): a bound is drawn on the measure only when the runs' checked
// quantity is the measure, and only the bounds asked for.
func TestBoundOnAPartIsNotDrawnOnTheWhole(t *testing.T) {
	var rows []experiment.Row
	for _, n := range []int{8, 16, 32} {
		nf := float64(n)
		rows = append(rows, experiment.Row{Kind: experiment.MessagePassing, Name: "ag", Config: "complete", N: n, Seed: 1,
			Measures: map[string]float64{"messages": 5 * nf, "messages:LEADER": nf - 1},
			Bounds: []experiment.Bound{
				{Name: "election messages <= 4n*H_n", Relation: "<=", Value: 4 * nf * 3, Actual: 4*nf - 1},
				{Name: "LEADER messages == n-1", Relation: "==", Value: nf - 1, Actual: nf - 1},
				{Name: "messages <= 4n*H_n + 3(n-1)", Relation: "<=", Value: 15 * nf, Actual: 5 * nf},
				{Name: "messages >= n", Relation: ">=", Value: nf, Actual: 5 * nf},
			}})
	}
	for _, c := range []struct {
		measure, bounds string
		want            []string
	}{
		{"messages", BoundsAll, []string{"ag ≤ 4n*H_n + 3(n-1)", "ag ≥ n"}},
		{"messages", BoundsUpper, []string{"ag ≤ 4n*H_n + 3(n-1)"}},
		{"messages", BoundsLower, []string{"ag ≥ n"}},
		{"messages", BoundsNone, nil},
		{"messages:LEADER", BoundsUpper, []string{"ag = n-1"}},
	} {
		f, err := Make(Spec{Measure: c.measure, Rows: rows, Bounds: c.bounds})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range f.refs {
			got = append(got, r.label)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s, bounds %s: drawn %q, want %q", c.measure, c.bounds, got, c.want)
		}
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
		{"MST messages <= 5n lg n + 2|E|", "mst", true},
		{"wave messages <= 2|E|*n", "waves", true},
		{"LEADER messages == n-1", "mst", false},
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
// being clipped; the legend has a line per configuration, per declared
// bound labelled by its algorithm, and per theory curve; the figure is the
// size asked for, legend included, and the PNG is 300 dots per inch (1050
// pixels wide at the default 3.5 in).
func TestFigureLayout(t *testing.T) {
	s := goldenSpec()
	s.Width, s.Height = 0, 0
	s.Title = strings.Repeat("a long title that names every colour it uses ", 2)
	f, err := Make(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.title) < 2 {
		t.Errorf("title %q not wrapped", f.title)
	}
	for _, line := range f.title {
		if w := width(line, f.sizes.title); w > f.width {
			t.Errorf("title line %q is %v wide, more than the figure's %v", line, w, f.width)
		}
	}
	if w, h := f.Size(); math.Abs(w-3.5*72) > 1e-9 || math.Abs(h-2.6*72) > 1e-9 {
		t.Errorf("size %v x %v pt, want 252 x 187.2", w, h)
	}
	var got []string
	for _, e := range f.legend {
		got = append(got, e.label)
	}
	want := []string{"quadratic (ids decreasing)", "nlogn (ids random)", "quadratic ≤ n(n+1)/2", "theory: n^2", "theory: n H_n", "theory: n lg n"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("legend %q, want %q", got, want)
	}
	path := filepath.Join(t.TempDir(), "fig.png")
	if err := Save(s, path); err != nil {
		t.Fatal(err)
	}
	if img := decode(t, path); img.Bounds().Dx() != 1050 || img.Bounds().Dy() != 780 {
		t.Errorf("PNG %v, want 1050 x 780", img.Bounds())
	}
}

// TestLegendGoesWhereItHidesNoData: auto puts the legend in a corner whose
// box covers no point of any line, or below the plot; each placement asked
// for is where it says, inside the figure.
func TestLegendGoesWhereItHidesNoData(t *testing.T) {
	s := goldenSpec()
	s.Curves = nil
	f, err := Make(s)
	if err != nil {
		t.Fatal(err)
	}
	if f.box.place != LegendBelow && f.hidden(f.box) != 0 {
		t.Errorf("auto: the legend %s hides %d points of the data", f.box.place, f.hidden(f.box))
	}
	for _, place := range Legends[1:] {
		s.Legend = place
		f, err := Make(s)
		if err != nil {
			t.Errorf("%s: %v", place, err)
			continue
		}
		b, fr := f.box, f.frame
		ok := true
		switch place {
		case LegendTopLeft:
			ok = b.x < fr.left+5 && b.y < fr.top+5
		case LegendTopRight:
			ok = b.x+b.w > fr.right-5 && b.y < fr.top+5
		case LegendBottomLeft:
			ok = b.x < fr.left+5 && b.y+b.h > fr.bottom-5
		case LegendBottomRight:
			ok = b.x+b.w > fr.right-5 && b.y+b.h > fr.bottom-5
		case LegendBelow:
			ok = b.y > fr.bottom
		case LegendRight:
			ok = b.x > fr.right
		case LegendNone:
			ok = b.place == LegendNone
		}
		if !ok || b.place != place || b.x < 0 || b.y < 0 || b.x+b.w > f.width || b.y+b.h > f.height {
			t.Errorf("%s: legend %+v, frame %+v", place, b, fr)
		}
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
			if strings.Contains(e.label, label) && e.glyph >= 0 {
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
				m := nf * math.Log2(nf) * float64(a+1) * (1 + 0.02*float64(t))
				rows = append(rows, experiment.Row{Kind: experiment.MessagePassing, Name: name, Config: "ids random, ring", N: n, Seed: uint64(t),
					Measures: map[string]float64{"messages": m},
					Bounds: []experiment.Bound{
						{Name: "messages <= n^2", Relation: "<=", Value: nf * nf * float64(a+1), Actual: m},
						{Name: "messages >= n", Relation: ">=", Value: nf * float64(a+1), Actual: m},
						{Name: "messages <= 9n lg n", Relation: "<=", Value: 9 * nf * math.Log2(nf) * float64(a+1), Actual: m},
					}})
			}
		}
	}
	return rows
}

// manyBoundsSpec is the figure of twelve reference lines, at a size that
// holds their legend.
func manyBoundsSpec() Spec {
	return Spec{Title: "many bounds", Measure: "messages", Rows: manyBoundsRows(), Curves: []string{"n^2", "n H_n", "n lg n"}, Bounds: BoundsAll, Width: 7, Height: 5}
}

// TestReferenceLinesNeverShareAStyle (issue 35: in the README's ring.png
// a bound and a theory curve shared black dashes, and two others dark-red
// dots): within a figure no two lines share a colour and a dash pattern,
// no two reference lines share a dash pattern, reference lines are
// thinner than the data, a bound takes its algorithm's colour and a theory
// curve is grey, and the data are drawn above every reference line.
func TestReferenceLinesNeverShareAStyle(t *testing.T) {
	f, err := Make(manyBoundsSpec())
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
		st := style{l.color, fmt.Sprint(l.dashes)}
		if other, dup := seen[st]; dup {
			t.Errorf("%q and %q share a style", e.label, other)
		}
		seen[st] = e.label
		if e.glyph >= 0 {
			colourOf[e.label] = l.color
			continue
		}
		refs++
		if l.width >= dataWidth {
			t.Errorf("%q is %v pt wide, the data %v", e.label, l.width, dataWidth)
		}
		if other, dup := dashes[st.dashes]; dup {
			t.Errorf("%q and %q share a dash pattern", e.label, other)
		}
		dashes[st.dashes] = e.label
		if alg, _, ok := strings.Cut(e.label, " "); ok && colourOf[alg] != nil && l.color != colourOf[alg] {
			t.Errorf("%q is drawn in %v, its algorithm's colour is %v", e.label, l.color, colourOf[alg])
		}
		if strings.HasPrefix(e.label, "theory: ") && (l.color.R != l.color.G || l.color.G != l.color.B) {
			t.Errorf("%q is drawn in %v, not grey", e.label, l.color)
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
	if !strings.Contains(string(data), `text-anchor="middle" xml:space="preserve">10<tspan font-size="8" dy="-3.6">2</tspan></text>`) {
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
	f, err := Make(Spec{Measure: "messages", Rows: rows, Bounds: BoundsAll})
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

// TestBoundThatDependsOnTheConfiguration (GHS's 5n lg n + 2|E| averaged
// over graphs of different |E| drew a line that bounded none of them): a
// bound whose value differs between an algorithm's configurations at the
// same n is drawn for each, in its series' colour and one dash, named
// once in the legend; one that does not is one line.
func TestBoundThatDependsOnTheConfiguration(t *testing.T) {
	var rows []experiment.Row
	for c, edges := range map[string]float64{"ring": 1, "complete": 20} {
		for _, n := range []int{16, 32, 64} {
			nf := float64(n)
			m := nf * edges
			rows = append(rows, experiment.Row{Kind: experiment.MessagePassing, Name: "ghs", Config: c, N: n, Seed: 1,
				Measures: map[string]float64{"messages": m},
				Bounds: []experiment.Bound{
					{Name: "messages <= 2|E| n", Relation: "<=", Value: 2 * m, Actual: m},
					{Name: "messages <= n^3", Relation: "<=", Value: nf * nf * nf, Actual: m},
				}})
		}
	}
	f, err := Make(Spec{Measure: "messages", Rows: rows, Bounds: BoundsAll, Width: 7, Height: 5})
	if err != nil {
		t.Fatal(err)
	}
	var perConfig []refLine
	for _, r := range f.refs {
		if r.config != "" {
			perConfig = append(perConfig, r)
		}
	}
	if len(f.refs) != 3 || len(perConfig) != 2 {
		t.Fatalf("%d bound lines, %d per configuration; want 3: 2|E| n for each graph, n^3 once", len(f.refs), len(perConfig))
	}
	for _, r := range perConfig {
		var sr *series
		for _, s := range f.series {
			if s.key == r.config {
				sr = s
			}
		}
		if sr == nil || r.style.color != sr.style.color || r.pts[len(r.pts)-1].y != 2*sr.mean[len(sr.mean)-1].y {
			t.Errorf("the bound for %s is not in its series' colour at twice its messages", r.config)
		}
	}
	var labels []string
	for _, e := range f.legend {
		if e.glyph < 0 {
			labels = append(labels, e.label)
		}
	}
	if want := []string{"bound ≤ 2|E| n (each curve's, in its colour)", "bound ≤ n^3"}; strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Errorf("legend %q, want %q", labels, want)
	}
}

// TestAlgorithmsWithTheSameCurveAreDrawnOnce (the bit-reversal figure of
// seed001-bounds: Peterson's curve lay under Franklin's, unseen): two
// algorithms' curves that are the same are drawn once, named "a = b";
// 1% apart, "a ≈ b: 2 within 1%"; 30% apart, two series.
func TestAlgorithmsWithTheSameCurveAreDrawnOnce(t *testing.T) {
	rows := func(scale float64) []experiment.Row {
		var out []experiment.Row
		for _, name := range []string{"franklin", "peterson", "lcr"} {
			for _, n := range []int{16, 64, 256} {
				v := float64(n) * math.Log2(float64(n))
				switch name {
				case "peterson":
					v *= scale
				case "lcr":
					v *= 3
				}
				out = append(out, experiment.Row{Kind: experiment.MessagePassing, Name: name, Config: "ids bit-reversal, ring", N: n, Seed: 1,
					Measures: map[string]float64{"messages": v}})
			}
		}
		return out
	}
	for scale, want := range map[float64]string{1: "franklin = peterson|lcr", 1.01: "franklin ≈ peterson: 2 within 1%|lcr", 1.3: "franklin|peterson|lcr"} {
		f, err := Make(Spec{Measure: "messages", Rows: rows(scale)})
		if err != nil {
			t.Fatal(err)
		}
		var labels []string
		for _, sr := range f.series {
			labels = append(labels, sr.label)
		}
		if strings.Join(labels, "|") != want {
			t.Errorf("peterson at %v times franklin: series %q, want %q", scale, labels, want)
		}
	}
}
