package ring_test

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/conformance"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
)

// Seed 001 §5.2.1.1 and seed 003 (worst case): "if the IDs are in decreasing
// order n, n-1, ..., 1, then no messages get eaten until they hit n": the
// i-th largest ID travels n-i+1 hops, n + (n-1) + ... + 1 = n(n+1)/2 in all.
// For n = 1024 that is 524800, under every FIFO delivery model (without FIFO
// a larger ID may overtake a smaller one: see TestLCRNonFIFOCanSendFewer).
func TestLCRDecreasingRingSendsNTimesNPlus1Over2(t *testing.T) {
	for _, d := range []election.Delivery{election.Sync, election.FIFO, election.RandomFIFO} {
		res := runRing(t, ring.LCR, nlIDs(t, "decreasing", 1024, 1), d, nil, false, 1)
		requireElected(t, res, d.String())
		if got := res.MessagesByType["election"]; got != 524800 {
			t.Errorf("%s: %d election messages, want 524800", d, got)
		}
	}
}

// Seed 003 (best case): on the increasing ring every ID but the maximum is
// eaten by its clockwise neighbour after one hop, and the maximum goes round:
// n + (n-1)*1 = 2n-1 messages.
func TestLCRIncreasingRingSends2NMinus1(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 1024} {
		res := runRing(t, ring.LCR, nlIDs(t, "increasing", n, 1), election.FIFO, nil, false, 1)
		requireElected(t, res, fmt.Sprint(n))
		if got := res.MessagesByType["election"]; got != int64(2*n-1) {
			t.Errorf("n=%d: %d election messages, want %d", n, got, 2*n-1)
		}
	}
}

// Seed 003 (average case) and seed 001 §5.2.4: over all n! rings, the ID
// that is the k-th largest... more simply, a given ID makes at least k hops
// with probability 1/k, so it makes H_n hops on average and all IDs n*H_n.
// Checked exactly for n = 6 over all 720 rings with rational arithmetic:
// the total must be 720 * 6 * H_6 = 720 * 6 * 49/20 = 10584.
func TestLCRMeanOverAllRingsOfSixIsNHn(t *testing.T) {
	const n = 6
	total := int64(0)
	rings := 0
	permute(n, func(p []elect.ID) {
		res := runRing(t, ring.LCR, p, election.FIFO, nil, false, 1)
		requireElected(t, res, fmt.Sprint(p))
		total += res.MessagesByType["election"]
		rings++
	})
	mean := big.NewRat(total, int64(rings))
	h := new(big.Rat)
	for k := int64(1); k <= n; k++ {
		h.Add(h, big.NewRat(1, k))
	}
	want := new(big.Rat).Mul(big.NewRat(n, 1), h)
	if rings != 720 || mean.Cmp(want) != 0 {
		t.Fatalf("mean over %d rings = %s, want n*H_n = %s", rings, mean.RatString(), want.RatString())
	}
}

// permute calls f with every permutation of 0..n-1 (Heap's algorithm).
func permute(n int, f func([]elect.ID)) {
	p := make([]elect.ID, n)
	for i := range p {
		p[i] = elect.ID(i)
	}
	c := make([]int, n)
	f(p)
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				p[0], p[i] = p[i], p[0]
			} else {
				p[c[i]], p[i] = p[i], p[c[i]]
			}
			f(p)
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
}

// LCR's count is a function of the ring alone under FIFO channels, whatever
// the delivery timing and whoever wakes first: an ID j is eaten exactly at
// the first node clockwise whose own ID is larger, because on FIFO links no
// larger ID can overtake j (a node woken by a message sends its own ID before
// forwarding anything). So sync, fifo and random-fifo give the same count,
// which equals the count computed from that rule directly. Without FIFO
// (random, newest-first) a larger ID can overtake j and eat it earlier, so
// the count can only be smaller; the election is still correct.
func TestLCRCountDependsOnlyOnTheRingUnderFIFO(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		n := 2 + int(seed*7)%60
		idList := nlIDs(t, "random", n, seed)
		want := lcrCountByRule(idList)
		wakes := [][]election.Wake{nil, {{Node: int(seed) % n}}, {{Node: 0, At: 3}, {Node: n - 1, At: 1}}}
		for _, wake := range wakes {
			for _, d := range []election.Delivery{election.Sync, election.FIFO, election.RandomFIFO} {
				res := runRing(t, ring.LCR, idList, d, wake, false, seed)
				requireElected(t, res, d.String())
				if got := res.MessagesByType["election"]; got != want {
					t.Fatalf("seed %d n=%d %s wake %v: %d messages, want %d", seed, n, d, wake, got, want)
				}
			}
			for _, d := range []election.Delivery{election.Random, election.NewestFirst} {
				res := runRing(t, ring.LCR, idList, d, wake, false, seed)
				requireElected(t, res, d.String())
				if got := res.MessagesByType["election"]; got > want {
					t.Fatalf("seed %d n=%d %s: %d messages, more than the FIFO count %d", seed, n, d, got, want)
				}
			}
		}
	}
}

// TestLCRNonFIFOCanSendFewer shows the overtaking on the smallest example:
// IDs (1, 0, 2) clockwise on nodes 0, 1, 2. With FIFO links, 1 travels two
// hops (eaten at node 2), 0 one hop, 2 three: 6 messages. Under newest-first
// the wake-ups stack 1->node1, 0->node2, 2->node0; 2 is delivered first and
// forwarded by node 0 to node 1 and by node 1 to node 2, where it wins; 0 is
// then eaten at node 2 and 1 at node 1, whose maxId is already 2: the newer
// 2 overtook 1 on the link from node 0 to node 1. 5 messages.
func TestLCRNonFIFOCanSendFewer(t *testing.T) {
	idList := []elect.ID{1, 0, 2}
	if got := runRing(t, ring.LCR, idList, election.FIFO, nil, false, 1).Messages; got != 6 {
		t.Fatalf("fifo: %d messages, want 6", got)
	}
	res := runRing(t, ring.LCR, idList, election.NewestFirst, nil, false, 1)
	requireElected(t, res, "newest-first")
	if res.Messages != 5 {
		t.Fatalf("newest-first: %d messages, want 5", res.Messages)
	}
}

// lcrCountByRule counts LCR's election messages from the ring alone: ID j
// travels from its node to the first node clockwise with a larger ID (the
// maximum goes all the way round, n hops).
func lcrCountByRule(idList []elect.ID) int64 {
	n := len(idList)
	total := int64(0)
	for i, j := range idList {
		hops := 1
		for k := (i + 1) % n; k != i && idList[k] < j; k = (k + 1) % n {
			hops++
		}
		total += int64(hops)
	}
	return total
}

// Seed 001 §5.2.1.1: the announcement adds exactly n messages and doubles
// the time to 2n (exactly 2n rounds synchronously); every node learns the
// leader.
func TestLCRAnnouncementAddsNMessagesAndNTime(t *testing.T) {
	for _, n := range []int{1, 5, 64} {
		idList := nlIDs(t, "random", n, uint64(n))
		plain := runRing(t, ring.LCR, idList, election.Sync, nil, false, 1)
		res := runRing(t, ring.LCR, idList, election.Sync, nil, true, 1)
		requireElected(t, res, "announce")
		if res.MessagesByType["leader"] != int64(n) || res.Messages != plain.Messages+int64(n) || !res.AllKnowLeader {
			t.Fatalf("n=%d: %d leader messages (total %d vs %d without), all know: %v", n, res.MessagesByType["leader"], res.Messages, plain.Messages, res.AllKnowLeader)
		}
		if plain.Time != float64(n) || res.Time != float64(2*n) {
			t.Fatalf("n=%d: %v rounds without and %v with announcement, want %d and %d", n, plain.Time, res.Time, n, 2*n)
		}
	}
}

// Property: on random rings of many sizes (up to 97), under every delivery
// model, with random ID arrangements, initiator sets and wake-up times, with
// and without the announcement, LCR elects exactly the maximum and every
// declared bound holds: the conformance kit's elects check, on more sizes
// and seeds than its defaults.
func TestLCRElectsTheMaximumEverywhere(t *testing.T) {
	conformance.Elects(t, ring.LCR, conformance.Options{Sizes: propertySizes, Seeds: 6})
}
