package plot

import (
	"fmt"
	"strconv"
	"strings"
)

// Figure sizes, in inches: the smallest and largest side taken (the
// largest a 300 dpi PNG of 3600 x 3600 pixels).
const (
	MinSide, MaxSide = 1.0, 12.0
)

// sizeUnits are the units a size is written in, with their length in
// inches.
var sizeUnits = []struct {
	name string
	inch float64
}{{"in", 1}, {"cm", 1 / 2.54}, {"pt", 1.0 / 72}}

// ParseSize reads a figure's size written WxH and a unit, in, cm or pt
// ("3.5x2.6in" for one column of a paper, "7x3in" for two, "9x6cm",
// "252x187pt"), each side a plain decimal number, and returns it in
// inches. A size with a side outside MinSide..MaxSide inches is refused.
func ParseSize(s string) (w, h float64, err error) {
	bad := func(why string) error {
		return fmt.Errorf("size %q: %s; write WxH and a unit (in, cm or pt), e.g. 3.5x2.6in", s, why)
	}
	var unit float64
	rest := ""
	for _, u := range sizeUnits {
		if strings.HasSuffix(s, u.name) {
			unit, rest = u.inch, strings.TrimSuffix(s, u.name)
		}
	}
	if unit == 0 {
		return 0, 0, bad("no unit")
	}
	ws, hs, ok := strings.Cut(rest, "x")
	if !ok {
		return 0, 0, bad("no x between the width and the height")
	}
	side := func(v string) (float64, error) {
		if v == "" || strings.Count(v, ".") > 1 || strings.Trim(v, "0123456789.") != "" || v == "." {
			return 0, bad(fmt.Sprintf("%q is not a plain decimal number", v))
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, bad(fmt.Sprintf("%q is not a number", v))
		}
		if in := f * unit; in < MinSide-1e-9 || in > MaxSide+1e-9 {
			return 0, bad(fmt.Sprintf("a side of %s in; each side must be %g to %g in", strconv.FormatFloat(in, 'g', 4, 64), MinSide, MaxSide))
		}
		return f * unit, nil
	}
	if w, err = side(ws); err != nil {
		return 0, 0, err
	}
	if h, err = side(hs); err != nil {
		return 0, 0, err
	}
	return w, h, nil
}
