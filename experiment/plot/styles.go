package plot

import (
	"image/color"
	"slices"
)

// namedColor is a colour a caption can name.
type namedColor struct {
	name string
	c    color.NRGBA
}

// Palette is the data series' colours, in the order series take them: the
// eight colours of Okabe and Ito ("Color Universal Design", 2008), which
// stay apart for readers with any common colour-blindness; yellow, the
// faintest on white, comes last.
var Palette = []namedColor{
	{"blue", color.NRGBA{R: 0, G: 114, B: 178, A: 255}},
	{"vermillion", color.NRGBA{R: 213, G: 94, B: 0, A: 255}},
	{"green", color.NRGBA{R: 0, G: 158, B: 115, A: 255}},
	{"orange", color.NRGBA{R: 230, G: 159, B: 0, A: 255}},
	{"purple", color.NRGBA{R: 204, G: 121, B: 167, A: 255}},
	{"sky blue", color.NRGBA{R: 86, G: 180, B: 233, A: 255}},
	{"black", color.NRGBA{A: 255}},
	{"yellow", color.NRGBA{R: 240, G: 228, B: 66, A: 255}},
}

func paletteColor(name string) (color.NRGBA, bool) {
	for _, c := range Palette {
		if c.name == name {
			return c.c, true
		}
	}
	return color.NRGBA{}, false
}

// seriesDashes are the data lines' dash patterns, in points, one per
// series in turn (the first solid): with the colour and the marker, the
// third thing that tells series apart in greyscale print.
var seriesDashes = [MaxSeries][]float64{
	nil, {4, 1.5}, {1.2, 1.2}, {5, 1.5, 1.2, 1.5}, {2.5, 1.5}, {7, 2}, {1.2, 2.5}, {5, 1.5, 1.2, 1.5, 1.2, 1.5},
}

// refDashes are the bound and theory lines' dash patterns, in points:
// each reference line of a figure takes the next one (refDash), so no two
// share one, and none is a series' pattern.
var refDashes = [][]float64{
	{3, 2}, {0.8, 1.6}, {6, 2, 0.8, 2}, {8, 3}, {2, 2}, {10, 2, 2, 2}, {0.8, 3}, {4, 1, 1, 1}, {9, 2, 3, 2}, {3, 3, 0.8, 3},
}

// refDash is the i-th reference line's dash pattern: one of refDashes,
// then patterns made longer and longer, all distinct.
func refDash(i int) []float64 {
	if i < len(refDashes) {
		return slices.Clone(refDashes[i])
	}
	return []float64{float64(12 + 2*(i-len(refDashes))), 2, 0.8, 2}
}

// theoryColors are the theory curves' greys, taken in turn; a declared
// bound is drawn in its algorithm's colour.
var theoryColors = []color.NRGBA{
	{R: 80, G: 80, B: 80, A: 255},
	{R: 120, G: 120, B: 120, A: 255},
	{R: 155, G: 155, B: 155, A: 255},
}

// Line widths, in points: the data's, the bound and theory lines'
// (thinner), the confidence bands' edges.
const (
	dataWidth      = 1.1
	referenceWidth = 0.7
	bandEdgeWidth  = 0.3
)

// The bands' fill and edge alpha.
const bandFillAlpha, bandEdgeAlpha = 56, 140

// The data points' markers, one per series: four filled shapes, then the
// same hollow, so that no two series of a figure share one.
const (
	glyphCircle = iota
	glyphSquare
	glyphTriangle
	glyphDiamond
	glyphRing
	glyphBox
	glyphTriangleDown
	glyphHollowDiamond
	glyphCount
)

// glyphRadius is the markers' size, in points.
const glyphRadius = 2.2
