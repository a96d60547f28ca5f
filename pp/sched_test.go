package pp

import (
	"testing"
)

// TestSchedulersAreUniform checks, with a chi-square statistic on a fixed
// seed, that each scheduler gives every admissible ordered pair the same
// probability: 1/(n(n-1)) for ordered and symmetric (seed 004, Section 2:
// "Pr(Gamma_t = (u, v)) = 1/(n(n-1)) for any distinct u, v"), and 1/n^2
// for with-repeats (seed 000, proof of Theorem 1). With n = 7 and 420,000
// draws the statistic has 41 (resp. 48) degrees of freedom; its 99.99%
// quantile is below 90, the bound used.
func TestSchedulersAreUniform(t *testing.T) {
	const n, draws = 7, 420000
	for _, kind := range []Scheduler{Ordered, Symmetric, WithRepeats} {
		src := newPairSource(n, 12345, kind)
		counts := make([]int, n*n)
		buf := make([]Pair, 1000)
		for d := 0; d < draws; d += len(buf) {
			src.fill(buf)
			for _, p := range buf {
				if p.U >= n || p.V >= n {
					t.Fatalf("%v: pair (%d, %d) out of range", kind, p.U, p.V)
				}
				if kind != WithRepeats && p.U == p.V {
					t.Fatalf("%v: pair of one agent (%d, %d)", kind, p.U, p.V)
				}
				counts[p.U*n+p.V]++
			}
		}
		cells := n * (n - 1)
		if kind == WithRepeats {
			cells = n * n
		}
		want := float64(draws) / float64(cells)
		chi := 0.0
		for u := 0; u < n; u++ {
			for v := 0; v < n; v++ {
				if u == v && kind != WithRepeats {
					continue
				}
				d := float64(counts[u*n+v]) - want
				chi += d * d / want
			}
		}
		if chi > 90 {
			t.Errorf("%v: chi-square %.1f over %d cells, want < 90", kind, chi, cells)
		}
	}
}

// TestBoundedIsExactForLargeN draws from a range that is not a power of two
// close to 2^32, where a plain multiply-shift would be biased, and checks
// the values stay in range (rejection is exercised).
func TestBoundedIsExactForLargeN(t *testing.T) {
	src := newPairSource(2, 1, Ordered)
	const n = 3<<30 + 1
	for range 100000 {
		if x := src.bounded(uint32(src.r.Uint64()), n); x >= n {
			t.Fatalf("bounded gave %d >= %d", x, n)
		}
	}
}

func TestTrialSeed(t *testing.T) {
	if TrialSeed(42, 0) != 42 {
		t.Fatal("trial 0 must use the seed itself")
	}
	seen := map[uint64]bool{}
	for tr := range 1000 {
		s := TrialSeed(42, tr)
		if seen[s] {
			t.Fatalf("trial %d repeats a seed", tr)
		}
		seen[s] = true
	}
}

// FuzzParseScheduler: the parser never panics, accepts exactly the listed
// names (and ""), and round-trips through String.
func FuzzParseScheduler(f *testing.F) {
	for _, s := range []string{"", "ordered", "symmetric", "with-repeats", "Ordered", "with_repeats", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		s, err := ParseScheduler(name)
		if err != nil {
			return
		}
		if name != "" && s.String() != name {
			t.Fatalf("ParseScheduler(%q) = %v", name, s)
		}
	})
}
