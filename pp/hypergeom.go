package pp

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// Exact sampling for the count-based engines: univariate and multivariate
// hypergeometric draws for populations up to 2^62, and the log-factorial
// differences they need, computed without the catastrophic cancellation of
// lgamma(N) - lgamma(N - d) at N = 2^50 (where lgamma itself is ~ 2^55 and
// one unit in the last place is ~ 8).

// lnFactRatio returns ln(a!) - ln(b!) for integers a, b >= 0. For small
// arguments it uses math.Lgamma (absolute error ~ 1e-16 * lgamma <= 1e-8);
// when both are large it uses the Stirling series of ln x! written in the
// difference d = a - b,
//
//	ln a! - ln b! = (b + 1/2) ln(1 + d/b) + d ln a - d + c(a) - c(b),
//	c(x) = 1/(12x) - 1/(360x^3) + 1/(1260x^5),
//
// whose terms are all of the size of the result (the truncation error of c
// is below 1/(1680 x^7) < 1e-45 for x >= 2^20).
func lnFactRatio(a, b int64) float64 {
	if a == b {
		return 0
	}
	if a < b {
		return -lnFactRatio(b, a)
	}
	if b < 1<<20 {
		la, _ := math.Lgamma(float64(a) + 1)
		lb, _ := math.Lgamma(float64(b) + 1)
		return la - lb
	}
	fa, fb, d := float64(a), float64(b), float64(a-b)
	return (fb+0.5)*math.Log1p(d/fb) + d*math.Log(fa) - d + stirlingTail(fa) - stirlingTail(fb)
}

func stirlingTail(x float64) float64 {
	x2 := x * x
	return (1.0/12 - (1.0/360-1.0/(1260*x2))/x2) / x
}

// lnFallingRel returns ln((N)_k / N^k) = sum_{i<k} ln(1 - i/N) for
// 0 <= k <= N, the log-probability that k ordered draws with replacement from
// N items are distinct. It is ln N! - ln (N-k)! - k ln N, computed from
// lnFactRatio (the k ln N terms cancel inside it for large N).
func lnFallingRel(N, k int64) float64 {
	if k <= 1 {
		return 0
	}
	if k > N {
		return math.Inf(-1)
	}
	b := N - k
	if b >= 1<<20 {
		fN, fb, d := float64(N), float64(b), float64(k)
		// (b + 1/2) ln(N/b) - k + tails: the d ln N term cancels against k ln N.
		return (fb+0.5)*math.Log1p(d/fb) - d + stirlingTail(fN) - stirlingTail(fb)
	}
	return lnFactRatio(N, b) - float64(k)*math.Log(float64(N))
}

// rng is the random source of the count-based engines: a PCG stream with
// helpers for exact bounded integers and open-interval uniforms.
type rng struct{ r *rand.PCG }

func newRNG(seed, stream uint64) rng { return rng{rand.NewPCG(seed, stream)} }

// below returns a uniform integer in [0, n) for n >= 1 (Lemire's method with
// rejection, exact).
func (g rng) below(n uint64) uint64 {
	for {
		x := g.r.Uint64()
		hi, lo := bits.Mul64(x, n)
		if lo < n {
			t := -n % n
			if lo < t {
				continue
			}
		}
		return hi
	}
}

// uniform returns a uniform float64 in (0, 1].
func (g rng) uniform() float64 { return float64(g.r.Uint64()>>11+1) * (1.0 / (1 << 53)) }

// hypergeometric returns the number of marked items among k drawn without
// replacement from N items of which K are marked (0 <= K, k <= N). It is exact
// up to floating-point rounding in the evaluation of probabilities: small
// means use inversion by sequential search from 0, large ones Stadlober's
// ratio-of-uniforms method (HRUA) with the log-densities above.
func (g rng) hypergeometric(N, K, k int64) int64 {
	if k == 0 || K == 0 {
		return 0
	}
	if K == N {
		return k
	}
	if k == N {
		return K
	}
	// Reduce to k <= N/2 and K <= N/2.
	if k > N-k {
		return K - g.hypergeometric(N, K, N-k)
	}
	if K > N-K {
		return k - g.hypergeometric(N, N-K, k)
	}
	mean := float64(k) * float64(K) / float64(N)
	if mean < 12 {
		return g.hypInvert(N, K, k)
	}
	return g.hypRatio(N, K, k)
}

// hypInvert samples by inversion: P(0) = (N-K)_k / (N)_k, then the ratio
// P(x+1)/P(x) = (K-x)(k-x) / ((x+1)(N-K-k+x+1)).
func (g rng) hypInvert(N, K, k int64) int64 {
	for {
		// ln P(0) = ln (N-K)!/(N-K-k)! - ln N!/(N-k)!.
		lp0 := lnFactRatio(N-K, N-K-k) - lnFactRatio(N, N-k)
		p := math.Exp(lp0)
		u := g.uniform()
		limit := min(k, K)
		for x := int64(0); ; x++ {
			if u <= p {
				return x
			}
			u -= p
			if x >= limit {
				break
			}
			p *= float64(K-x) * float64(k-x) / (float64(x+1) * float64(N-K-k+x+1))
		}
		// Rounding left u above the total mass: draw again (probability ~1e-15).
	}
}

// hypRatio is the ratio-of-uniforms sampler with the table-mountain hat of
// Stadlober (1989), for K, k <= N/2: Z = floor(a + s (Y - 1/2) / X) with
// (X, Y) uniform in the unit square is accepted when X^2 <= f(Z)/f(mode),
// with the usual squeezes.
func (g rng) hypRatio(N, K, k int64) int64 {
	const (
		d1 = 1.7155277699214135 // 2 sqrt(2/e)
		d2 = 0.8989161620588988 // 3 - 2 sqrt(3/e)
	)
	fN, fK, fk := float64(N), float64(K), float64(k)
	p := fK / fN
	a := fk*p + 0.5
	sd := math.Sqrt((fN-fk)*fk*p*(1-p)/(fN-1) + 0.5)
	s := d1*sd + d2
	mode := int64(math.Floor((fk + 1) * (fK + 1) / (fN + 2)))
	top := min(min(k, K)+1, int64(math.Floor(a+16*sd)))
	for {
		x := g.uniform()
		y := g.uniform()
		w := a + s*(y-0.5)/x
		if w < 0 || w >= float64(top) {
			continue
		}
		z := int64(w)
		// t = ln f(z) - ln f(mode), f(x) = 1 / (x! (K-x)! (k-x)! (N-K-k+x)!).
		t := lnFactRatio(mode, z) + lnFactRatio(K-mode, K-z) + lnFactRatio(k-mode, k-z) +
			lnFactRatio(N-K-k+mode, N-K-k+z)
		if x*(4-x)-3 <= t {
			return z
		}
		if x*(x-t) >= 1 {
			continue
		}
		if 2*math.Log(x) <= t {
			return z
		}
	}
}

// multiHypergeometric draws k items without replacement from an urn holding
// counts[i] items of kind i (total N = sum of counts) and writes the number
// drawn of each kind into out (same length as counts). It samples kind after
// kind, each conditionally on the previous ones (exact), and stops as soon as
// all k are assigned. order, when not nil, lists the kinds to visit (kinds
// not listed must have count 0).
func (g rng) multiHypergeometric(counts []int64, N, k int64, out []int64, order []int32) {
	clear(out)
	if order == nil {
		for i, c := range counts {
			if k == 0 {
				return
			}
			if c == 0 {
				continue
			}
			x := g.hypergeometric(N, c, k)
			out[i] = x
			N -= c
			k -= x
		}
		return
	}
	for _, i := range order {
		if k == 0 {
			return
		}
		c := counts[i]
		if c == 0 {
			continue
		}
		x := g.hypergeometric(N, c, k)
		out[i] = x
		N -= c
		k -= x
	}
}
