package format

import "testing"

func TestNumber(t *testing.T) {
	cases := []struct {
		x      float64
		digits int
		want   string
	}{
		{0, 4, "0"}, {-3, 4, "-3"}, {524800, 4, "524800"}, {1e14, 6, "100000000000000"},
		{1e15, 4, "1e+15"}, {2.5, 4, "2.5"}, {3.14159265, 4, "3.142"}, {3.14159265, 6, "3.14159"},
		{0.000123456, 3, "0.000123"},
	}
	for _, c := range cases {
		if got := Number(c.x, c.digits); got != c.want {
			t.Errorf("Number(%v, %d) = %q, want %q", c.x, c.digits, got, c.want)
		}
	}
}
