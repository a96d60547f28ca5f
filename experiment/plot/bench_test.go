package plot

import (
	"io"
	"testing"
)

// BenchmarkRender draws the figure of twelve reference lines (three
// algorithms' bounds and three theory curves) at 7 x 5 in in each
// format, the PNG's time about half drawing, half encoding.
func BenchmarkRender(b *testing.B) {
	f, err := Make(manyBoundsSpec())
	if err != nil {
		b.Fatal(err)
	}
	for _, ext := range []string{".png", ".svg", ".pdf"} {
		b.Run("format="+ext[1:], func(b *testing.B) {
			for b.Loop() {
				if err := f.render(ext, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
