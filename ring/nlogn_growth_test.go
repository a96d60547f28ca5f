package ring_test

import (
	"fmt"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
)

// TestNLogNGrowthOnBitReversalAndDecreasingRings measures HS, Peterson,
// Franklin and LCR on the bit-reversal ring (seed 001 §5.4.2, the
// arrangement of the Omega(n log n) lower bound for comparison-based
// algorithms), the decreasing ring (LCR's worst case, seed 001 §5.2.1.1) and
// random rings at n = 2^6..2^16, logs messages / (n lg n), and checks the
// exact counts derived below for n = 2^k:
//
//   - bit-reversal: the odd nodes hold the IDs >= n/2 and their IDs, in ring
//     order, form a bit-reversal ring of size n/2, two hops apart.
//   - HS: in each phase j < k the starters are 2^j apart and alternate
//     winner/loser; a loser's probes both die 2^j hops away at a winner
//     (2*2^j ELECTION), a winner's come back as replies (2*2^j ELECTION,
//     2*2^j REPLY), so each phase costs 2n ELECTION and n REPLY; the last
//     phase 2n ELECTION: n(3k+2) messages, (3k+2)/k -> 3 per n lg n.
//   - Peterson and Franklin: every phase/round halves the candidates exactly,
//     k+1 phases of 2n probes: 2n(k+1), (2k+2)/k -> 2 per n lg n.
//   - LCR: the even nodes' IDs stop after 1 hop, the odd ones behave as on
//     the half ring with 2 hops per step: H(n) = n/2 + 2H(n/2), H(1) = 1,
//     H(2^k) = n(k/2+1), (k/2+1)/k -> 1/2 per n lg n.
//   - decreasing: Peterson and Franklin keep only the maximum's successor
//     (resp. the maximum) after phase 0: 4n. HS: phase 0 costs 2n probes
//     and n replies (every node's smaller neighbour replies, the maximum has
//     two, the minimum none), then only the maximum goes on: 4*2^j in phase
//     j for 1 <= j < k and 2n in phase k: 5n + 4(2^k - 2) = 9n - 8. LCR:
//     n(n+1)/2 (checked up to 2^12 only).
//
// Every declared bound is checked by the monitor on each run (nlRun). Skipped
// with -short (about 4*10^7 message deliveries).
func TestNLogNGrowthOnBitReversalAndDecreasingRings(t *testing.T) {
	if testing.Short() {
		t.Skip("long: n up to 2^16 for four algorithms")
	}
	type formula func(n, k int64) int64
	exact := map[string]map[string]formula{
		"bit-reversal": {
			"hs":       func(n, k int64) int64 { return n * (3*k + 2) },
			"peterson": func(n, k int64) int64 { return 2 * n * (k + 1) },
			"franklin": func(n, k int64) int64 { return 2 * n * (k + 1) },
			"lcr":      func(n, k int64) int64 { return n * (k + 2) / 2 },
		},
		"decreasing": {
			"hs":       func(n, k int64) int64 { return 9*n - 8 },
			"peterson": func(n, k int64) int64 { return 4 * n },
			"franklin": func(n, k int64) int64 { return 4 * n },
			"lcr":      func(n, k int64) int64 { return n * (n + 1) / 2 },
		},
		"random": {},
	}
	algs := []*elect.Algorithm{ring.HS, ring.Peterson, ring.Franklin, ring.LCR}
	for _, arrangement := range []string{"bit-reversal", "decreasing", "random"} {
		for _, alg := range algs {
			line := fmt.Sprintf("%-12s %-9s msgs/(n lg n):", arrangement, alg.Name)
			for k := int64(6); k <= 16; k += 2 {
				n := int64(1) << k
				if alg == ring.LCR && arrangement == "decreasing" && k > 12 {
					continue
				}
				cfg := election.Config{Algorithm: alg, IDs: nlIDs(t, arrangement, int(n), 1), Delivery: election.FIFO}
				if alg == ring.Peterson {
					cfg.Params = elect.Params{"variant": "tagged"}
				}
				res := nlRun(t, cfg)
				if f, ok := exact[arrangement][alg.Name]; ok {
					if want := f(n, k); res.Messages != want {
						t.Errorf("%s %s n=2^%d: %d messages, want %d", alg.Name, arrangement, k, res.Messages, want)
					}
				}
				line += fmt.Sprintf(" 2^%d:%.3f", k, float64(res.Messages)/float64(n*k))
			}
			t.Log(line)
		}
	}
}
