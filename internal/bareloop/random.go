package bareloop

import (
	"math/bits"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
)

// LCRRandom runs LCR on the unidirectional ring of ids under the
// simulator's random delays (election.Random): every message is late by 1
// to election.RandomDelayTicks ticks, drawn from the run's "delivery"
// stream in sending order, and the messages due at one tick arrive in the
// order they were sent. It is LCR's plain loop with the least a random
// schedule needs: a wheel of one bucket (a plain slice of 16-byte
// messages) per tick and a bitmap of the buckets in use, so that it sends,
// delays and delivers exactly the simulator's messages for the same seed
// (the tests check the counts and the leader). Nothing else: no interfaces,
// no counters per type or node, no event limit.
func LCRRandom(ids []elect.ID, seed uint64) Result {
	const span = election.RandomDelayTicks
	const size = 2 * span // buckets: more than the longest delay
	n := int32(len(ids))
	delays := election.StreamSource(seed, "delivery", 0)
	var buckets [size][]lcrMsg
	var used [size / 64]uint64
	var words uint64 // bit i: used[i] is not zero
	pending := 0
	send := func(now int64, to int32, j elect.ID) {
		if to == n {
			to = 0
		}
		b := (now + 1 + int64(delays.Uint64()&(span-1))) & (size - 1)
		buckets[b] = append(buckets[b], lcrMsg{to, j})
		used[b>>6] |= 1 << (b & 63)
		words |= 1 << (b >> 6)
		pending++
	}
	nodes := make([]lcrNode, n)
	for i := range n {
		nodes[i] = lcrNode{ids[i], ids[i]}
		send(0, i+1, ids[i])
	}
	r := Result{Messages: int64(n), Leader: -1}
	now := int64(0)
	for pending > 0 {
		// The next bucket in use after now's, wrapping round the wheel.
		start := (now + 1) & (size - 1)
		wi := start >> 6
		word := used[wi] &^ (1<<(start&63) - 1)
		if word == 0 {
			later := words &^ (1<<(wi+1) - 1)
			if later == 0 {
				later = words
			}
			wi = int64(bits.TrailingZeros64(later))
			word = used[wi]
		}
		b := wi<<6 | int64(bits.TrailingZeros64(word))
		now += 1 + (b-start)&(size-1)
		due := buckets[b]
		// LCR's step as in LCR's loop, written out again: a shared helper,
		// inlined, cost the yardstick 3 instructions a message (43, not 40,
		// on the decreasing ring of 2000).
		for _, m := range due {
			p := &nodes[m.to]
			if m.j == p.id {
				r.Leader = int(m.to)
			}
			if m.j > p.maxID {
				p.maxID = m.j
				send(now, m.to+1, m.j)
				r.Messages++
			}
		}
		pending -= len(due)
		buckets[b] = due[:0]
		if used[b>>6] &^= 1 << (b & 63); used[b>>6] == 0 {
			words &^= 1 << (b >> 6)
		}
	}
	return r
}
