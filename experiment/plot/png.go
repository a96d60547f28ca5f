package plot

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// pngCanvas draws on an image: fills with x/image/vector's antialiased
// rasteriser, strokes turned into polygons first (a quadrilateral per
// segment of each dash and a disc at each join, all wound alike so that
// the rasteriser's clamped coverage makes their union), text with the
// Liberation Sans outlines through x/image/font/opentype.
type pngCanvas struct {
	img   *image.RGBA
	px    float64 // pixels per point
	r     vector.Rasterizer
	faces map[float64]font.Face
	buf   sfnt.Buffer
}

func newPNG(w, h, dpi float64) *pngCanvas {
	px := dpi / 72
	img := image.NewRGBA(image.Rect(0, 0, int(math.Ceil(w*px-1e-6)), int(math.Ceil(h*px-1e-6))))
	// White to the last pixel, which the figure may cover only in part,
	// so that the PNG is opaque.
	draw.Draw(img, img.Bounds(), image.NewUniform(white), image.Point{}, draw.Src)
	return &pngCanvas{img: img, px: px, faces: map[float64]font.Face{}}
}

// area is twice the signed area of a polygon.
func area(poly []pt) float64 {
	a := 0.0
	for i, p := range poly {
		q := poly[(i+1)%len(poly)]
		a += p.x*q.y - q.x*p.y
	}
	return a
}

// rasterize fills the union of the polygons (given in points) in one
// pass, so that where they overlap a translucent colour is laid once.
func (c *pngCanvas) rasterize(polys [][]pt, col color.NRGBA) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, poly := range polys {
		for _, p := range poly {
			minX, maxX = math.Min(minX, p.x*c.px), math.Max(maxX, p.x*c.px)
			minY, maxY = math.Min(minY, p.y*c.px), math.Max(maxY, p.y*c.px)
		}
	}
	box := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY))).Intersect(c.img.Bounds())
	if box.Empty() {
		return
	}
	c.r.Reset(box.Dx(), box.Dy())
	c.r.DrawOp = draw.Over
	ox, oy := float64(box.Min.X), float64(box.Min.Y)
	for _, poly := range polys {
		if len(poly) < 3 {
			continue
		}
		n, step := len(poly), 1
		start := 0
		if area(poly) < 0 { // wind every polygon the same way
			start, step = n-1, -1
		}
		for k := range n {
			p := poly[(start+k*step+n)%n]
			x, y := float32(p.x*c.px-ox), float32(p.y*c.px-oy)
			if k == 0 {
				c.r.MoveTo(x, y)
			} else {
				c.r.LineTo(x, y)
			}
		}
		c.r.ClosePath()
	}
	c.r.Draw(c.img, box, image.NewUniform(col), image.Point{})
}

// fill rasterises a polygon; an opaque rectangle with level sides (the
// background, the legend's box) is painted directly but for its
// fractional edges, disjoint strips the rasteriser antialiases.
func (c *pngCanvas) fill(pts []pt, col color.NRGBA) {
	if col.A != 255 || len(pts) != 4 || pts[0].y != pts[1].y || pts[1].x != pts[2].x || pts[2].y != pts[3].y || pts[3].x != pts[0].x {
		c.rasterize([][]pt{pts}, col)
		return
	}
	b := bounds(pts)
	x0, y0, x1, y1 := b.min.x*c.px, b.min.y*c.px, b.max.x*c.px, b.max.y*c.px
	ix0, iy0, ix1, iy1 := math.Ceil(x0), math.Ceil(y0), math.Floor(x1), math.Floor(y1)
	if ix1 <= ix0 || iy1 <= iy0 {
		c.rasterize([][]pt{pts}, col)
		return
	}
	draw.Draw(c.img, image.Rect(int(ix0), int(iy0), int(ix1), int(iy1)), image.NewUniform(col), image.Point{}, draw.Src)
	strip := func(ax, ay, bx, by float64) {
		if bx > ax && by > ay {
			c.rasterize([][]pt{rect(pt{ax / c.px, ay / c.px}, pt{bx / c.px, by / c.px})}, col)
		}
	}
	strip(x0, y0, x1, iy0)   // top
	strip(x0, iy1, x1, y1)   // bottom
	strip(x0, iy0, ix0, iy1) // left
	strip(ix1, iy0, x1, iy1) // right
}

// stroke turns the line into polygons: each dash's segments become
// quadrilaterals of the line's width, with a disc at each join between
// them (round joins); the dashes' ends are cut square.
func (c *pngCanvas) stroke(pts []pt, closed bool, st lineStyle) {
	hw := st.width / 2
	var polys [][]pt
	for _, piece := range dash(pts, closed, st.dashes) {
		for i := 1; i < len(piece); i++ {
			a, b := piece[i-1], piece[i]
			l := math.Hypot(b.x-a.x, b.y-a.y)
			if l == 0 {
				continue
			}
			nx, ny := -(b.y-a.y)/l*hw, (b.x-a.x)/l*hw
			polys = append(polys, []pt{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}})
			if i < len(piece)-1 || (closed && len(st.dashes) == 0) {
				polys = append(polys, circle(b, hw, c.px))
			}
		}
	}
	if st.color.A != 255 {
		c.rasterize(polys, st.color)
		return
	}
	// An opaque line is laid in pieces of a few consecutive polygons each:
	// the rasteriser's work is the area of what it covers at once, which
	// for a whole line across the plot is most of the figure.
	start, box := 0, bbox{}
	for i, poly := range polys {
		b := bounds(poly)
		if i > start && box.union(b).area()*c.px*c.px > chunkArea {
			c.rasterize(polys[start:i], st.color)
			start, box = i, bbox{}
		}
		box = box.union(b)
	}
	c.rasterize(polys[start:], st.color)
}

// chunkArea is the most pixels an opaque line's piece covers.
const chunkArea = 128 * 128

// bbox is a rectangle in points; the zero bbox is empty.
type bbox struct {
	min, max pt
	ok       bool
}

func bounds(poly []pt) bbox {
	var b bbox
	for _, p := range poly {
		b = b.union(bbox{p, p, true})
	}
	return b
}

func (b bbox) union(o bbox) bbox {
	switch {
	case !b.ok:
		return o
	case !o.ok:
		return b
	}
	return bbox{pt{math.Min(b.min.x, o.min.x), math.Min(b.min.y, o.min.y)}, pt{math.Max(b.max.x, o.max.x), math.Max(b.max.y, o.max.y)}, true}
}

func (b bbox) area() float64 { return (b.max.x - b.min.x) * (b.max.y - b.min.y) }

// face is the font at size points, at the canvas's resolution.
func (c *pngCanvas) face(size float64) font.Face {
	if f, ok := c.faces[size]; ok {
		return f
	}
	f, err := opentype.NewFace(mustTypeface(), &opentype.FaceOptions{Size: size, DPI: 72 * c.px, Hinting: font.HintingNone})
	if err != nil {
		panic("plot: " + err.Error())
	}
	c.faces[size] = f
	return f
}

// drawRuns draws a line of runs on dst from (x, y), in pixels, placing
// each character by the advance widths the layout was measured with.
func (c *pngCanvas) drawRuns(dst draw.Image, x, y float64, runs []textRun, col color.NRGBA) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(col)}
	for _, r := range runs {
		d.Face = c.face(r.size)
		ry := y - r.rise*c.px
		for _, ch := range r.s {
			d.Dot = fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(ry * 64))}
			d.DrawString(string(ch))
			x += advance(&c.buf, ch) * r.size * c.px
		}
	}
}

// text draws a line; a line turned upwards is drawn level on an image of
// its own, then turned by transposing its pixels and laid on the figure.
func (c *pngCanvas) text(at pt, runs []textRun, col color.NRGBA, a anchor, up bool) {
	along := runsWidth(runs) * a.fraction()
	if !up {
		c.drawRuns(c.img, (at.x-along)*c.px, at.y*c.px, runs, col)
		return
	}
	asc, desc := 0.0, 0.0
	for _, r := range runs {
		asc = math.Max(asc, ascent(r.size)+r.rise)
		desc = math.Max(desc, descent(r.size)-r.rise)
	}
	const margin = 2 // pixels around the text
	tw := int(math.Ceil(runsWidth(runs)*c.px)) + 2*margin
	th := int(math.Ceil((asc+desc)*c.px)) + 2*margin
	level := image.NewRGBA(image.Rect(0, 0, tw, th))
	base := margin + asc*c.px // the baseline's y on level
	c.drawRuns(level, margin, base, runs, col)
	turned := image.NewRGBA(image.Rect(0, 0, th, tw))
	for y := range th {
		for x := range tw {
			turned.SetRGBA(y, tw-1-x, level.RGBAAt(x, y))
		}
	}
	// level's (margin, base), the line's start, lands on turned's
	// (base, tw-margin); it must land at the start, along below at.
	ox := int(math.Round(at.x*c.px - base))
	oy := int(math.Round((at.y+along)*c.px - float64(tw-margin)))
	draw.Draw(c.img, turned.Bounds().Add(image.Pt(ox, oy)), turned, image.Point{}, draw.Over)
}
