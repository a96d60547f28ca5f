package pp

import (
	"fmt"
	"math"
	"math/big"
	"testing"
)

// Statistical tests of the exact samplers. Each compares the empirical
// frequencies of a sampler with an exact probability mass function by
// Pearson's chi-square test: bins are merged from the tails until every
// expected count is at least 5, and a case fails when its p-value is below
// alpha = 1e-4 (fixed seeds, so a pass is reproducible; with the ~25 cases
// below the chance that a correct sampler fails somewhere is below 0.3%).
// Against the exact pmfs these tests also detect a sampler whose law is off
// by about 1% of the mass in a bin of 5% probability (at 10^5 samples the
// standard error of such a bin's frequency is 0.07%).

const chiAlpha = 1e-4

// chiSquare returns Pearson's statistic and its p-value for observed counts
// against probabilities p (summing to 1), merging bins with expected counts
// below 5 into their neighbours.
func chiSquare(obs []int64, p []float64) (stat float64, df int, pval float64) {
	var total int64
	for _, o := range obs {
		total += o
	}
	var eBins []float64
	var oBins []float64
	var e, o float64
	for i := range p {
		e += p[i] * float64(total)
		o += float64(obs[i])
		if e >= 5 {
			eBins = append(eBins, e)
			oBins = append(oBins, o)
			e, o = 0, 0
		}
	}
	if len(eBins) == 0 {
		return 0, 0, 1
	}
	eBins[len(eBins)-1] += e
	oBins[len(oBins)-1] += o
	for i := range eBins {
		d := oBins[i] - eBins[i]
		stat += d * d / eBins[i]
	}
	df = len(eBins) - 1
	if df == 0 {
		return stat, 0, 1
	}
	return stat, df, gammaQ(float64(df)/2, stat/2)
}

// gammaQ is the regularized upper incomplete gamma function Q(a, x), by its
// series for x < a+1 and its continued fraction otherwise (modified Lentz).
func gammaQ(a, x float64) float64 {
	if x <= 0 {
		return 1
	}
	lg, _ := math.Lgamma(a)
	if x < a+1 {
		sum, term := 1/a, 1/a
		for n := 1; n < 10000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if term < sum*1e-16 {
				break
			}
		}
		return 1 - sum*math.Exp(-x+a*math.Log(x)-lg)
	}
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 10000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return math.Exp(-x+a*math.Log(x)-lg) * h
}

// hypPMF returns the hypergeometric pmf over [lo, lo+len) computed from the
// mode by the ratio P(x+1)/P(x) = (K-x)(k-x) / ((x+1)(N-K-k+x+1)) and
// normalised: independent of the sampler's log-factorial code.
func hypPMF(N, K, k int64) (lo int64, p []float64) {
	mode := int64(math.Floor(float64(k+1) * float64(K+1) / float64(N+2)))
	xmin, xmax := max(0, k-(N-K)), min(k, K)
	mode = min(max(mode, xmin), xmax)
	up := []float64{1}
	for x := mode; x < xmax; x++ {
		r := float64(K-x) * float64(k-x) / (float64(x+1) * float64(N-K-k+x+1))
		v := up[len(up)-1] * r
		if v < 1e-18 {
			break
		}
		up = append(up, v)
	}
	var down []float64
	cur := 1.0
	for x := mode; x > xmin; x-- {
		// P(x-1)/P(x) = x (N-K-k+x) / ((K-x+1)(k-x+1))
		cur *= float64(x) * float64(N-K-k+x) / (float64(K-x+1) * float64(k-x+1))
		if cur < 1e-18 {
			break
		}
		down = append(down, cur)
	}
	lo = mode - int64(len(down))
	for i := len(down) - 1; i >= 0; i-- {
		p = append(p, down[i])
	}
	p = append(p, up...)
	var s float64
	for _, v := range p {
		s += v
	}
	for i := range p {
		p[i] /= s
	}
	return lo, p
}

// TestHypergeometricMatchesExactPMF: the univariate sampler against the
// exact pmf, for the inversion and ratio-of-uniforms branches, the
// symmetry reductions, and populations up to 2^50 (where lgamma differences
// would have lost every digit).
func TestHypergeometricMatchesExactPMF(t *testing.T) {
	cases := []struct{ N, K, k int64 }{
		{20, 7, 5}, {20, 13, 15}, {1000, 300, 100}, {1000, 700, 900}, {100, 50, 50},
		{1e6, 5e5, 1000}, {1e6, 30, 1e5}, {1e9, 50, 1e7},
		{1 << 40, 1 << 38, 5000}, {1 << 44, 1 << 43, 1 << 30},
		{1 << 50, 3, 1 << 49}, {1 << 50, 1<<49 + 12345, 1 << 20}, {1 << 50, 1 << 25, 1 << 25},
		{1<<50 - 1, 1 << 48, 1<<50 - 1000},
	}
	samples := 100000
	if testing.Short() {
		samples = 20000
	}
	for ci, c := range cases {
		g := newRNG(uint64(ci+1), 7)
		lo, p := hypPMF(c.N, c.K, c.k)
		obs := make([]int64, len(p))
		for range samples {
			x := g.hypergeometric(c.N, c.K, c.k)
			if x < max(0, c.k-(c.N-c.K)) || x > min(c.k, c.K) {
				t.Fatalf("N=%d K=%d k=%d: %d out of the support", c.N, c.K, c.k, x)
			}
			i := x - lo
			if i < 0 {
				i = 0 // beyond 1e-18 of the mode: merged into the tail bins
			}
			if i >= int64(len(p)) {
				i = int64(len(p)) - 1
			}
			obs[i]++
		}
		stat, df, pv := chiSquare(obs, p)
		t.Logf("N=%d K=%d k=%d: chi2 = %.1f, df = %d, p = %.3f", c.N, c.K, c.k, stat, df, pv)
		if pv < chiAlpha {
			t.Errorf("N=%d K=%d k=%d: chi-square p-value %.2g < %g", c.N, c.K, c.k, pv, chiAlpha)
		}
	}
}

// TestMultiHypergeometricMatchesExactPMF: the multivariate sampler against
// the exact law prod_i C(c_i, x_i) / C(N, k), enumerated with big integers.
func TestMultiHypergeometricMatchesExactPMF(t *testing.T) {
	for ci, tc := range []struct {
		counts []int64
		k      int64
	}{
		{[]int64{5, 3, 7, 2}, 6},
		{[]int64{0, 10, 1, 0, 4}, 8},
		{[]int64{30, 30, 30}, 40},
	} {
		var N int64
		for _, c := range tc.counts {
			N += c
		}
		// Enumerate the outcomes.
		var outcomes [][]int64
		var rec func(i int, left int64, cur []int64)
		rec = func(i int, left int64, cur []int64) {
			if i == len(tc.counts) {
				if left == 0 {
					outcomes = append(outcomes, append([]int64(nil), cur...))
				}
				return
			}
			for x := int64(0); x <= min(left, tc.counts[i]); x++ {
				rec(i+1, left-x, append(cur, x))
			}
		}
		rec(0, tc.k, nil)
		total := new(big.Int).Binomial(N, tc.k)
		p := make([]float64, len(outcomes))
		key := map[string]int{}
		for oi, o := range outcomes {
			num := big.NewInt(1)
			for i, x := range o {
				num.Mul(num, new(big.Int).Binomial(tc.counts[i], x))
			}
			p[oi], _ = new(big.Rat).SetFrac(num, total).Float64()
			key[fmt.Sprint(o)] = oi
		}
		g := newRNG(uint64(100+ci), 9)
		obs := make([]int64, len(p))
		out := make([]int64, len(tc.counts))
		for range 100000 {
			g.multiHypergeometric(tc.counts, N, tc.k, out, nil)
			oi, ok := key[fmt.Sprint(out)]
			if !ok {
				t.Fatalf("impossible outcome %v", out)
			}
			obs[oi]++
		}
		stat, df, pv := chiSquare(obs, p)
		t.Logf("counts %v, k=%d: chi2 = %.1f, df = %d, p = %.3f", tc.counts, tc.k, stat, df, pv)
		if pv < chiAlpha {
			t.Errorf("counts %v, k=%d: chi-square p-value %.2g < %g", tc.counts, tc.k, pv, chiAlpha)
		}
	}
}

// freshPMF is the exact law of the number of fresh interactions from
// sampleFresh's derivation, P(L >= k) = prod_{i<k} (n-r-2i)(n-r-2i-1)/(n(n-1)),
// computed by the product itself.
func freshPMF(n, r int64) []float64 {
	var surv []float64
	s := 1.0
	for k := int64(0); ; k++ {
		surv = append(surv, s)
		if s < 1e-18 || n-r-2*k < 2 {
			break
		}
		s *= float64(n-r-2*k) * float64(n-r-2*k-1) / (float64(n) * float64(n-1))
	}
	p := make([]float64, len(surv))
	for k := range surv {
		next := 0.0
		if k+1 < len(surv) {
			next = surv[k+1]
		}
		p[k] = surv[k] - next
	}
	return p
}

// TestFreshLengthMatchesDistinctPairScheduler checks the derivation of
// sampleFresh: the number of leading interactions with all-distinct agents,
// counted on actual ordered distinct-pair draws (the scheduler of the
// agent-array engine), follows the exact law; and sampleFresh follows it
// too, including with r agents already touched and at n = 2^40.
func TestFreshLengthMatchesDistinctPairScheduler(t *testing.T) {
	for _, n := range []int64{10, 11, 50, 1000} {
		src := newPairSource(int(n), uint64(n), Ordered)
		p := freshPMF(n, 0)
		obs := make([]int64, len(p))
		seen := make([]bool, n)
		buf := make([]Pair, 1)
		for range 100000 {
			clear(seen)
			var k int64
			for {
				src.fill(buf)
				u, v := buf[0].U, buf[0].V
				if seen[u] || seen[v] {
					break
				}
				seen[u], seen[v] = true, true
				k++
			}
			obs[min(k, int64(len(p)-1))]++
		}
		stat, df, pv := chiSquare(obs, p)
		t.Logf("scheduler n=%d: chi2 = %.1f, df = %d, p = %.3f", n, stat, df, pv)
		if pv < chiAlpha {
			t.Errorf("scheduler n=%d: the derived law does not fit (p = %.2g)", n, pv)
		}
	}
	for _, c := range []struct{ n, r int64 }{{10, 0}, {11, 3}, {50, 0}, {1000, 0}, {1000, 100}, {100, 90}, {1 << 20, 5000}, {1 << 30, 40000}, {1 << 30, 1000000}, {1 << 40, 0}} {
		g := newRNG(uint64(c.n+c.r), 3)
		p := freshPMF(c.n, c.r)
		obs := make([]int64, len(p))
		for range 100000 {
			k := sampleFresh(g, c.n, c.r, math.MaxInt64)
			obs[min(k, int64(len(p)-1))]++
		}
		if c.n >= 1<<20 {
			// Too many values for one bin each: compare by 50 quantile bins.
			obs, p = quantileBins(obs, p, 50)
		}
		stat, df, pv := chiSquare(obs, p)
		t.Logf("sampleFresh n=%d r=%d: chi2 = %.1f, df = %d, p = %.3f", c.n, c.r, stat, df, pv)
		if pv < chiAlpha {
			t.Errorf("sampleFresh n=%d r=%d: p-value %.2g < %g", c.n, c.r, pv, chiAlpha)
		}
	}
}

// quantileBins merges consecutive values into about m bins of equal mass.
func quantileBins(obs []int64, p []float64, m int) ([]int64, []float64) {
	var ob []int64
	var pb []float64
	var acc float64
	var o int64
	for i := range p {
		acc += p[i]
		o += obs[i]
		if acc >= 1/float64(m) || i == len(p)-1 {
			ob = append(ob, o)
			pb = append(pb, acc)
			acc, o = 0, 0
		}
	}
	return ob, pb
}

// TestLnFactRatioAgreesWithBigFloat: the log-factorial difference, on small
// and huge arguments, against a 200-bit evaluation of ln(a!/b!) as a sum of
// logs (for d = a - b up to 2000) and lgamma where lgamma is accurate.
func TestLnFactRatioAgreesWithBigFloat(t *testing.T) {
	for _, c := range [][2]int64{{10, 3}, {1000, 998}, {1500, 20}, {1 << 20, 1<<20 - 1500}, {1 << 50, 1<<50 - 2000}, {1<<60 + 7, 1<<60 - 1000}} {
		a, b := c[0], c[1]
		var want float64
		if a-b <= 2000 {
			for x := b + 1; x <= a; x++ {
				want += math.Log(float64(x))
			}
		} else {
			la, _ := math.Lgamma(float64(a + 1))
			lb, _ := math.Lgamma(float64(b + 1))
			want = la - lb
		}
		got := lnFactRatio(a, b)
		if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("lnFactRatio(%d, %d) = %.12g, want %.12g", a, b, got, want)
		}
	}
}

// TestLog1pSmall checks the series against math.Log1p on both sides of the
// range where it is used, to within a few rounding errors.
func TestLog1pSmall(t *testing.T) {
	for _, x := range []float64{1e-300, 1e-17, 1e-9, 3e-5, 1e-4, 1e-3, 0.0039, 0.0078, 0.00781249, 0.0079, 0.1, 0.9} {
		for _, v := range []float64{x, -x} {
			got, want := log1pSmall(v), math.Log1p(v)
			if math.Abs(got-want) > 4e-16*math.Abs(want) {
				t.Errorf("log1pSmall(%g) = %.17g, math.Log1p gives %.17g", v, got, want)
			}
		}
	}
}
