package ring_test

import (
	"fmt"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/topology"
)

// BenchmarkRandomizedAndSynchronousRings measures simulator throughput
// (messages per second of wall time) on lcr-random (decreasing IDs, FIFO:
// about n*H_n messages), itai-rodeh (anonymous, FIFO), slow-fast (a random
// permutation of 0..n-1, all starting at round 0) and time-slice (IDs from
// 10^9 up: idle rounds skipped).
func BenchmarkRandomizedAndSynchronousRings(b *testing.B) {
	type setup struct {
		alg      *elect.Algorithm
		delivery election.Delivery
		ids      func(n int) []elect.ID
		params   elect.Params
	}
	decreasing := func(n int) []elect.ID {
		ids := make([]elect.ID, n)
		for i := range ids {
			ids[i] = elect.ID(n - 1 - i)
		}
		return ids
	}
	setups := []setup{
		{ring.LCRRandom, election.FIFO, decreasing, elect.Params{"bits": "32"}},
		{ring.ItaiRodeh, election.FIFO, func(n int) []elect.ID { return make([]elect.ID, n) }, nil},
		{ring.SlowFast, election.Sync, func(n int) []elect.ID { return nlIDsPerm(n) }, elect.Params{"variant": "prose"}},
		{ring.TimeSlice, election.Sync, func(n int) []elect.ID {
			ids := nlIDsPerm(n)
			for i := range ids {
				ids[i] += 1_000_000_000
			}
			return ids
		}, nil},
	}
	for _, s := range setups {
		for _, n := range []int{1_000, 10_000, 100_000} {
			b.Run(fmt.Sprintf("%s/n=%d", s.alg.Name, n), func(b *testing.B) {
				cfg := election.Config{Algorithm: s.alg, Graph: topology.NewRing(n), IDs: s.ids(n), Delivery: s.delivery, Params: s.params, Announce: s.alg.Model.Announce == elect.AlwaysAnnounce}
				benchSim(b, cfg, true)
			})
		}
	}
}

// nlIDsPerm is a fixed pseudo-random permutation of 0..n-1 (multiplication
// by an odd constant modulo the next power of two, skipping values >= n).
func nlIDsPerm(n int) []elect.ID {
	size := 1
	for size < n {
		size <<= 1
	}
	ids := make([]elect.ID, 0, n)
	for i := range size {
		if v := (i*0x9e3779b1 + 12345) & (size - 1); v < n {
			ids = append(ids, elect.ID(v))
		}
	}
	return ids
}
