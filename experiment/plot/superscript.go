package plot

import "strings"

// The axes' tick labels are written base^exponent ("10^9", "2×10^−1") and
// typeset with the exponent in the figure's own font, smaller and raised.
// Unicode superscript digits would be simpler, but the figures' font
// (Liberation Sans) has no glyph for the superscript 0, 9 and minus, so
// labels such as 10⁹ would lose their exponent; a raised run of ordinary
// digits is what every format (SVG's tspan, PDF's text rise, the PNG's
// own placement) can draw alike.
const (
	supScale = 0.7  // the exponent's size, relative to the label's
	supRaise = 0.42 // how far its baseline is raised, in the label's size
)

// labelRuns is a tick label at size points as runs: the base, then the
// exponent smaller and raised. A label without "^" is one run.
func labelRuns(label string, size float64) []textRun {
	base, exp, ok := strings.Cut(label, "^")
	runs := []textRun{{s: base, size: size}}
	if ok && exp != "" {
		runs = append(runs, textRun{s: exp, size: size * supScale, rise: size * supRaise})
	}
	return runs
}

// labelHeight is how far a tick label at size points reaches above its
// baseline: the raised exponent's top, or the base's.
func labelHeight(label string, size float64) float64 {
	h := 0.0
	for _, r := range labelRuns(label, size) {
		h = max(h, r.rise+ascent(r.size))
	}
	return h
}
