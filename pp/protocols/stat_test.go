package protocols

import (
	"math"
	"testing"

	"github.com/electkit/elect/pp"
)

// sample collects one figure per trial and compares its mean with an exact
// expectation in units of the exact standard error sqrt(Var/T).
type sample struct{ xs []float64 }

func (s *sample) add(x float64) { s.xs = append(s.xs, x) }

func (s *sample) mean() float64 {
	m := 0.0
	for _, x := range s.xs {
		m += x
	}
	return m / float64(len(s.xs))
}

// within fails t unless |mean - want| <= k standard errors, where the
// standard error is computed from the exact variance.
func (s *sample) within(t *testing.T, what string, want, variance, k float64) {
	t.Helper()
	se := math.Sqrt(variance / float64(len(s.xs)))
	got := s.mean()
	z := (got - want) / se
	t.Logf("%s: mean %.4f over %d trials, exact %.4f, SE %.4f, z = %+.2f", what, got, len(s.xs), want, se, z)
	if math.Abs(z) > k {
		t.Errorf("%s: mean %.4f is %.2f standard errors from the exact %.4f (tolerance %.0f SE)", what, got, z, want, k)
	}
}

// geometricSteps returns the mean and variance of the number of trials up
// to and including the first success of a Bernoulli(p) sequence.
func geometricSteps(p float64) (mean, variance float64) { return 1 / p, (1 - p) / (p * p) }

// angluinStepsVariance is the variance of the steps of Angluin's protocol
// to one leader among n agents under the ordered scheduler: the phases are
// geometric with p_k = k(k-1)/(n(n-1)) for k = n..2 leaders
// (TestAngluinExpectedStepsToOneLeaderIsNMinus1Squared).
func angluinStepsVariance(n int) float64 {
	var variance float64
	for k := 2; k <= n; k++ {
		_, v := geometricSteps(float64(k*(k-1)) / float64(n*(n-1)))
		variance += v
	}
	return variance
}

// epidemicStepsVariance is the variance of the epidemic's steps until all
// n agents hold the maximum: the phases are geometric with p_i =
// 2i(n-i)/pairs for i = 1..n-1 holders, pairs being the number of pairs the
// scheduler draws from (TestEpidemicExpectedStepsUntilAllHoldMax).
func epidemicStepsVariance(n int, pairs float64) float64 {
	var variance float64
	for i := 1; i < n; i++ {
		_, v := geometricSteps(float64(2*i*(n-i)) / pairs)
		variance += v
	}
	return variance
}

func harmonic(k int) float64 {
	h := 0.0
	for i := 1; i <= k; i++ {
		h += 1 / float64(i)
	}
	return h
}

func trials(t *testing.T, full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

func seeds(t int) []uint64 {
	s := make([]uint64, t)
	for i := range s {
		s[i] = pp.TrialSeed(20260101, i)
	}
	return s
}

// se is the sample standard error of the mean.
func (s *sample) se() float64 {
	m := s.mean()
	v := 0.0
	for _, x := range s.xs {
		v += (x - m) * (x - m)
	}
	return math.Sqrt(v / float64(len(s.xs)-1) / float64(len(s.xs)))
}
