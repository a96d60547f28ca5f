package plot

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestParseSize: the sizes of a paper's columns in each unit, and what is
// refused, each with the reason.
func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		w, h float64
	}{
		{"3.5x2.6in", 3.5, 2.6},
		{"7x3in", 7, 3},
		{"8.89x6.6cm", 3.5, 6.6 / 2.54},
		{"252x187.2pt", 3.5, 2.6},
		{"2.54x30.48cm", 1, 12},
	} {
		w, h, err := ParseSize(c.in)
		if err != nil || math.Abs(w-c.w) > 1e-9 || math.Abs(h-c.h) > 1e-9 {
			t.Errorf("ParseSize(%q) = %v, %v, %v; want %v x %v in", c.in, w, h, err, c.w, c.h)
		}
	}
	for in, why := range map[string]string{
		"3.5x2.6":     "no unit",
		"3.5in":       "no x",
		"3.5x2.6mm":   "no unit",
		"3.5X2.6in":   "no x",
		"x2.6in":      `"" is not a plain decimal`,
		"3.5x in":     `" " is not a plain decimal`,
		"-3x2in":      `"-3" is not a plain decimal`,
		"1e1x2in":     `"1e1" is not a plain decimal`,
		"3..5x2in":    `"3..5" is not a plain decimal`,
		".x2in":       `"." is not a plain decimal`,
		"3.5x2.6x1in": `"2.6x1" is not a plain decimal`,
		"0.5x2in":     "a side of 0.5 in",
		"13x2in":      "a side of 13 in",
		"3.5x2.6inin": `"2.6in" is not a plain decimal`,
		"":            "no unit",
	} {
		_, _, err := ParseSize(in)
		if err == nil || !strings.Contains(err.Error(), why) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseSize(%q): %v; want one line with %q", in, err, why)
		}
	}
}

// FuzzParseSize: any text is either refused with one line naming it, or
// gives a size whose sides are within MinSide..MaxSide inches and which
// reads back the same when written in points.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"3.5x2.6in", "7x3in", "9x6cm", "252x187pt", "1x1in", "12x12in", "x", "3.5x2.6", "0x0pt", "1.x.1in", "99999999999999999999x1in"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, h, err := ParseSize(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "size ") {
				t.Fatalf("ParseSize(%q): %q is not one line naming the size", s, err)
			}
			return
		}
		for _, v := range []float64{w, h} {
			if !(v >= MinSide-1e-9 && v <= MaxSide+1e-9) {
				t.Fatalf("ParseSize(%q) = %v x %v in: a side outside %v..%v", s, w, h, MinSide, MaxSide)
			}
		}
		w2, h2, err := ParseSize(inPoints(w) + "x" + inPoints(h) + "pt")
		if err != nil || math.Abs(w2-w) > 1e-6 || math.Abs(h2-h) > 1e-6 {
			t.Fatalf("ParseSize(%q) = %v x %v in; in points it reads %v x %v, %v", s, w, h, w2, h2, err)
		}
	})
}

// inPoints writes inches as points, to a billionth of one.
func inPoints(in float64) string { return strconv.FormatFloat(in*72, 'f', 9, 64) }
