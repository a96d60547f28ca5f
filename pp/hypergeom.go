package pp

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"
)

// Exact sampling for the count-based engines: univariate and multivariate
// hypergeometric draws for populations up to 2^62, and the log-factorial
// differences they need, computed without the catastrophic cancellation of
// lgamma(N) - lgamma(N - d) at N = 2^50 (where lgamma itself is ~ 2^55 and
// one unit in the last place is ~ 8).

// lnFactSmall bounds the arguments of the table of ln(k!).
const lnFactSmall = 1 << 16

// lnFactTable holds ln(k!) for k < lnFactSmall once lnFacts has filled it:
// 512 KiB, made on first use rather than at start-up, so that a process
// that samples nothing (every elect command but the count-based population
// engines) neither computes nor holds it.
var (
	lnFactTable []float64
	lnFactOnce  sync.Once
)

// lnFacts returns the table of ln(k!), k < lnFactSmall, filling it first if
// needed.
func lnFacts() []float64 {
	lnFactOnce.Do(func() {
		t := make([]float64, lnFactSmall)
		for k := 1; k < lnFactSmall; k++ {
			t[k] = t[k-1] + math.Log(float64(k))
		}
		lnFactTable = t
	})
	return lnFactTable
}

// lnFactRatio returns ln(a!) - ln(b!) for integers a, b >= 0. Small
// arguments use a table; otherwise the Stirling series of ln x!, written in
// the difference d = a - b,
//
//	ln a! - ln b! = (b + 1/2) ln(1 + d/b) + d ln a - d + c(a) - c(b),
//	c(x) = 1/(12x) - 1/(360x^3) + 1/(1260x^5),
//
// whose terms are all of the size of the result (the truncation error of c
// is below 1/(1680 x^7) < 2e-14 for x >= 32). This avoids the catastrophic
// cancellation of lgamma(a+1) - lgamma(b+1) at a = 2^50, where lgamma itself
// is ~ 2^55 and one unit in its last place is ~ 8.
func lnFactRatio(a, b int64) float64 {
	if a == b {
		return 0
	}
	if a < b {
		return -lnFactRatio(b, a)
	}
	if a < lnFactSmall {
		t := lnFacts()
		return t[a] - t[b]
	}
	fa := float64(a)
	if b < 32 {
		// Full Stirling series for a (>= 2^16) against the table for b.
		return (fa+0.5)*math.Log(fa) - fa + 0.5*math.Log(2*math.Pi) + stirlingTail(fa) - lnFacts()[b]
	}
	fb, d := float64(b), float64(a-b)
	return (fb+0.5)*math.Log1p(d/fb) + d*math.Log(fa) - d + stirlingTail(fa) - stirlingTail(fb)
}

func stirlingTail(x float64) float64 {
	if x > 1<<20 {
		return 1 / (12 * x) // the next term, 1/(360x^3), is below 1e-20
	}
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
	if b >= 32 && N >= lnFactSmall {
		fN, fb, d := float64(N), float64(b), float64(k)
		// (b + 1/2) ln(N/b) - k + tails: the d ln N term cancels against k ln N.
		return (fb+0.5)*math.Log1p(d/fb) - d + stirlingTail(fN) - stirlingTail(fb)
	}
	return lnFactRatio(N, b) - float64(k)*math.Log(float64(N))
}

// rng is the random source of the count-based engines: a PCG stream with
// helpers for exact bounded integers and open-interval uniforms, and the
// same stream wrapped for math/rand/v2's ziggurat exponential.
type rng struct {
	r   *rand.PCG
	std *rand.Rand
}

func newRNG(seed, stream uint64) rng {
	r := rand.NewPCG(seed, stream)
	return rng{r, rand.New(r)}
}

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
	// The law is symmetric in K and k: draw the smaller number, so that the
	// inversion's P(0) below stays well conditioned.
	if k > K {
		K, k = k, K
	}
	mean := float64(k) * float64(K) / float64(N)
	if mean < 12 {
		return g.hypInvert(N, K, k)
	}
	return g.hypRatio(N, K, k)
}

// hypProductMax is the largest k for which hypInvert computes P(0) as a
// product (k divisions, pipelined, instead of four logarithms and an
// exponential).
const hypProductMax = 48

// hypInvert samples by inversion: P(0) = (N-K)_k / (N)_k, then the ratio
// P(x+1)/P(x) = (K-x)(k-x) / ((x+1)(N-K-k+x+1)).
func (g rng) hypInvert(N, K, k int64) int64 {
	// P(0) = (N-K)_k / (N)_k: for small k the product of its k factors
	// (N-K-i)/(N-i), each rounded once; otherwise from logarithms,
	// ln P(0) = lnFallingRel(N-K, k) - lnFallingRel(N, k) + k ln(1 - K/N),
	// every term moderate since k <= K and kK/N < 12.
	var p0 float64
	if k <= hypProductMax {
		p0 = 1
		for i := range k {
			p0 *= float64(N-K-i) / float64(N-i)
		}
	} else {
		p0 = math.Exp(lnFallingRel(N-K, k) - lnFallingRel(N, k) + float64(k)*math.Log1p(-float64(K)/float64(N)))
	}
	for {
		p := p0
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
	// t(z) = ln f(z) - ln f(mode), f(x) = 1 / (x! (K-x)! (k-x)! (N-K-k+x)!),
	// is a sum of four ln(A!/B!) with A fixed per call: precompute their
	// ln A and Stirling tails.
	var terms [4]lnFactFrom
	terms[0].init(mode)
	terms[1].init(K - mode)
	terms[2].init(k - mode)
	terms[3].init(N - K - k + mode)
	for {
		x := g.uniform()
		y := g.uniform()
		w := a + s*(y-0.5)/x
		if w < 0 || w >= float64(top) {
			continue
		}
		z := int64(w)
		d := z - mode
		t := terms[0].ratio(d) + terms[1].ratio(-d) + terms[2].ratio(-d) + terms[3].ratio(d)
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

// lnFactFrom evaluates ln(A!) - ln((A+e)!) for a fixed A and varying small
// e, with what depends on A computed once: ln A! from the table for small
// A; ln A, 1/A and the Stirling tail of A for large A.
type lnFactFrom struct {
	A          int64
	fA, lA, tA float64
	invA, t12  float64   // 1/A and 1/(12A)
	tabA       float64   // ln A! when A < lnFactSmall
	tab        []float64 // lnFacts() when A < lnFactSmall
	big        bool
}

func (l *lnFactFrom) init(A int64) {
	l.A, l.fA = A, float64(A)
	l.big = A >= 1<<16
	if l.big {
		l.lA = math.Log(l.fA)
		l.tA = stirlingTail(l.fA)
		l.invA = 1 / l.fA
		l.t12 = l.invA / 12
	} else {
		l.tab = lnFacts()
		l.tabA = l.tab[A]
	}
}

// ratio returns ln(A!) - ln((A+e)!) (the sign convention of the terms of t).
func (l *lnFactFrom) ratio(e int64) float64 {
	b := l.A + e
	if !l.big {
		if uint64(b) < lnFactSmall {
			return l.tabA - l.tab[b]
		}
		return lnFactRatio(l.A, b)
	}
	if b < 1<<15 {
		return lnFactRatio(l.A, b)
	}
	// ln A! - ln b! = (b + 1/2) ln(A/b) - e ln A + e + c(A) - c(b), with
	// ln(A/b) = -ln(1 + e/A) and, for b > 2^20 (where c(x) = 1/(12x)),
	// c(b) = c(A) / (1 + x) = c(A) (1 - x + x^2 - x^3), x = e/A, whose
	// truncation error x^4 c(A) is below 1e-20 for |e| <= A/4: no
	// division on this path.
	fb, fe := float64(b), float64(e)
	x := fe * l.invA
	var tb float64
	if b > 1<<20 && l.A > 1<<20 && 4*max(e, -e) <= l.A {
		tb = l.t12 * (1 - x*(1-x*(1-x)))
	} else {
		tb = stirlingTail(fb)
	}
	return -(fb+0.5)*log1pSmall(x) - fe*l.lA + fe + l.tA - tb
}

// log1pSmall is ln(1+x), by its Taylor series x - x^2/2 + ... - x^10/10
// when |x| < 2^-7: the first omitted term is below 2^-63 |x|, under the
// rounding of the result, and the nine multiply-adds cost a fraction of a
// general logarithm (both of its hot callers, the hypergeometric sampler's
// ratios and the collision-length gaps, mostly pass |x| < 2^-7).
func log1pSmall(x float64) float64 {
	if math.Abs(x) < 1.0/(1<<7) {
		return x * (1 - x*(1.0/2-x*(1.0/3-x*(1.0/4-x*(1.0/5-x*(1.0/6-x*(1.0/7-x*(1.0/8-x*(1.0/9-x*(1.0/10))))))))))
	}
	return math.Log1p(x)
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
		for i := range counts {
			if k == 0 {
				return
			}
			N, k = g.drawKind(counts, i, N, k, out)
		}
		return
	}
	for _, i := range order {
		if k == 0 {
			return
		}
		N, k = g.drawKind(counts, int(i), N, k, out)
	}
}

// drawKind is one step of multiHypergeometric: it draws out[i] of the k
// items left from the N left, counts[i] of them of kind i, and returns the
// N and k left for the kinds after it.
func (g rng) drawKind(counts []int64, i int, N, k int64, out []int64) (int64, int64) {
	c := counts[i]
	if c == 0 {
		return N, k
	}
	x := g.hypergeometric(N, c, k)
	out[i] = x
	return N - c, k - x
}
