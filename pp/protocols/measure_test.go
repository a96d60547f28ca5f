package protocols

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/electkit/elect/pp"
)

// The measurements of issue 5 are long runs that print tables: they are
// benchmarks, run once each (never under -short):
//
//	go test ./pp/protocols -run XXX -bench Measure -benchtime 1x -timeout 0
//
// ELECT_PP_TRIALS_1E6 sets the number of trials at n = 10^6 (default 10);
// ELECT_PP_ONLY=pll or pll-sym restricts TestMeasurePLLScaling to one of them.
func measuring(t testing.TB) {
	if testing.Short() {
		t.Skip("measurement: run without -short")
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// BenchmarkMeasurePLLScaling reports, for pll and pll-sym at n = 10^3..10^6, the
// mean parallel time to one leader with its standard error, the constant
// time / ln n, the distinct states met (and states / ln n), and how often
// BackUp was needed, and the share of trials that ended in epoch 1 (by
// QuickElimination alone) with their mean time; then the least-squares
// constant c of time = c ln n.
func BenchmarkMeasurePLLScaling(t *testing.B) {
	measuring(t)
	sizes := []struct{ n, trials int }{{1000, 400}, {10000, 200}, {100000, 40}, {1000000, envInt("ELECT_PP_TRIALS_1E6", 10)}}
	for _, sym := range []bool{false, true} {
		name := "pll"
		if sym {
			name = "pll-sym"
		}
		if only := os.Getenv("ELECT_PP_ONLY"); only != "" && only != name {
			continue
		}
		fmt.Printf("\n%s (m = ceil(lg n), c_max = 41m, ordered scheduler, seeds TrialSeed(20260101, t))\n", name)
		fmt.Printf("%9s %6s %4s %12s %8s %9s %10s %10s %8s %14s %14s\n", "n", "trials", "m", "mean time", "SE", "time/ln n", "states", "states/ln", "backup", "epoch 1: share", "mean time")
		var sxy, sxx float64
		for _, sz := range sizes {
			var times, states, early sample
			backups := 0
			m := 0
			for _, seed := range seeds(sz.trials) {
				p, err := NewPLL(sz.n, 0, sym, "prose")
				if err != nil {
					t.Fatal(err)
				}
				m = p.M()
				r := pp.Run(p, sz.n, seed, pp.Options{TrackStates: true})
				if r.Outcome != pp.Elected || r.Leaders != 1 {
					t.Fatalf("%s n=%d seed=%d: %s %s", name, sz.n, seed, r.Outcome, r.Violation)
				}
				times.add(r.ParallelTime)
				states.add(float64(r.StatesSeen))
				if r.Details.Get("backup_needed") == true {
					backups++
				}
				if r.Details.Get("max_epoch") == uint8(1) {
					early.add(r.ParallelTime)
				}
			}
			ln := math.Log(float64(sz.n))
			mt := times.mean()
			sxy += mt * ln
			sxx += ln * ln
			fmt.Printf("%9d %6d %4d %12.2f %8.2f %9.2f %10.1f %10.1f %8s %14.3f %14.2f\n", sz.n, sz.trials, m, mt, times.se(), mt/ln,
				states.mean(), states.mean()/ln, fmt.Sprintf("%d/%d", backups, sz.trials),
				float64(len(early.xs))/float64(sz.trials), early.mean())
		}
		fmt.Printf("least-squares fit: mean parallel time = %.2f ln n\n", sxy/sxx)
	}
}

// BenchmarkMeasureEpidemicTermFigure1 repeats the experiment of seed 000's
// Figure 1 (n = 1000..10000, m = 4) and reports the rate of correct
// declarations with a 95% Wilson interval, for the prose rule (default) and
// the literal pseudo-code.
func BenchmarkMeasureEpidemicTermFigure1(t *testing.B) {
	measuring(t)
	T := envInt("ELECT_PP_TRIALS_FIG1", 400)
	for _, variant := range []string{"prose", "literal"} {
		fmt.Printf("\nepidemic-term, m = 4, variant %s, %d trials per n (seeds TrialSeed(20260101, t))\n", variant, T)
		fmt.Printf("%6s %9s %17s %10s %10s %12s %12s\n", "n", "correct", "95% CI", "no-decl", "wrong-id", "completion", "declaration")
		pool := map[string][2]int{}
		for n := 1000; n <= 10000; n += 1000 {
			correct, none, wrongID := 0, 0, 0
			var comp, decl sample
			for _, seed := range seeds(T) {
				r := pp.Run(NewEpidemicTerm(n, 4, 0, variant), n, seed, pp.Options{})
				switch {
				case r.Outcome == pp.StepLimit:
					none++
				case r.Details.Get("correct") == true:
					correct++
				}
				if r.Outcome != pp.StepLimit && r.Details.Get("declarer_holds_max") != true {
					wrongID++
				}
				if c := r.Details.Get("completion_step").(int64); c >= 0 {
					comp.add(float64(c))
				}
				if d := r.Details.Get("declaration_step").(int64); d >= 0 {
					decl.add(float64(d))
				}
			}
			lo, hi := wilson(correct, T)
			fmt.Printf("%6d %9.4f [%6.4f, %6.4f] %10d %10d %12.0f %12.0f\n", n, float64(correct)/float64(T), lo, hi, none, wrongID, comp.mean(), decl.mean())
			key := "middle"
			if n < 3335 {
				key = "n < 3335"
			} else if n > 7000 {
				key = "n > 7000"
			}
			c := pool[key]
			pool[key] = [2]int{c[0] + correct, c[1] + T}
		}
		for _, key := range []string{"n < 3335", "middle", "n > 7000"} {
			c := pool[key]
			lo, hi := wilson(c[0], c[1])
			fmt.Printf("pooled %-9s %d/%d = %.4f, 95%% CI [%.4f, %.4f]\n", key, c[0], c[1], float64(c[0])/float64(c[1]), lo, hi)
		}
	}
}

// wilson is the 95% Wilson score interval of k successes in n trials.
func wilson(k, n int) (lo, hi float64) {
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nn := float64(n)
	d := 1 + z*z/nn
	c := (p + z*z/(2*nn)) / d
	h := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / d
	return c - h, c + h
}
