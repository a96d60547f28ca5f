package plot

import "strings"

// The axes' tick labels are written base^exponent ("10^9", "2×10^−1") and
// typeset with the exponent in the figure's own font, smaller and raised.
// Unicode superscript digits would be simpler, but the figures' font
// (Liberation Sans) has no glyph for the superscript 0, 9 and minus, so
// labels such as 10⁹ would lose their exponent; a raised run of ordinary
// digits is what every format (SVG's tspan, PDF's text rise, the PNG's
// own placement) can draw alike. The exponent's size is the figure's
// sup size (sizesFor): never below MinFontSize.

// supRaise is how far an exponent's baseline is raised, in the label's
// size.
const supRaise = 0.4

// labelRuns is a tick label as runs: the base, then the exponent smaller
// and raised. A label without "^" is one run.
func (f *Figure) labelRuns(label string) []textRun {
	size := f.sizes.tick
	base, exp, ok := strings.Cut(label, "^")
	runs := []textRun{{s: base, size: size}}
	if ok && exp != "" {
		runs = append(runs, textRun{s: exp, size: f.sizes.sup, rise: size * supRaise})
	}
	return runs
}

// labelHeight is how far a tick label reaches above its baseline: the
// raised exponent's top, or the base's.
func (f *Figure) labelHeight(label string) float64 {
	h := 0.0
	for _, r := range f.labelRuns(label) {
		h = max(h, r.rise+ascent(r.size))
	}
	return h
}
