// Package format is the one home of the number formatting the command's
// tables and reports share.
package format

import (
	"math"
	"strconv"
)

// Number prints x: an integer (below 10^15 in magnitude) without a
// fraction, any other value with the given number of significant digits.
func Number(x float64, digits int) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', digits, 64)
}
