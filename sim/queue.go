package sim

import (
	"math/bits"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
)

// Event kinds, in the order they happen within one instant: a spontaneous
// wake-up before the messages that arrive at the same time, timers after them
// (in a synchronous round a node reads its messages, then acts).
const (
	kindWake    = 0
	kindDeliver = 1
	kindTimer   = 2
)

// delivery is a message on its way to node to, arriving on port. When it
// arrives is where it is kept: which list or bucket.
type delivery struct {
	to   int32
	port elect.Port
	msg  elect.Message
}

// wheel holds pending deliveries when every delay is 1..span ticks: one
// bucket per tick, of which only the next span can be occupied, with a
// two-level bitmap to find the next occupied bucket in a few instructions,
// without looping over idle ticks (at most 4096 buckets: 64 words of 64
// bits and a word that says which of them are not zero). A bucket holds the
// deliveries due at its tick, in the order they were sent; it is handled
// whole and then emptied.
type wheel struct {
	mask    int64
	buckets []bucket
	used    []uint64 // bit b set: bucket b is not empty
	words   uint64   // bit i set: used[i] is not zero
	count   int
	guard   *queueGuard // the run's (set by each run)
}

type bucket struct {
	items []delivery
}

// newWheel returns a wheel for delays of 1..span ticks.
func newWheel(span int64) *wheel {
	size := int64(1) << bits.Len64(uint64(span)) // > span
	if size > 64*64 {
		panic("sim: a wheel holds at most 4096 buckets")
	}
	return &wheel{mask: size - 1, buckets: make([]bucket, size), used: make([]uint64, (size+63)/64)}
}

func (w *wheel) push(at int64, to int32, port elect.Port, m elect.Message) {
	b := at & w.mask
	bk := &w.buckets[b]
	if len(bk.items) == cap(bk.items) {
		if bk.items = growDeliveries(w.guard, bk.items); len(bk.items) == cap(bk.items) {
			return // over the run's queue limit: not kept
		}
	}
	bk.items = appendDelivery(bk.items, to, port, m)
	w.used[b>>6] |= 1 << (b & 63)
	w.words |= 1 << (b >> 6)
	w.count++
}

// appendDelivery appends a delivery to s, which has room for it (the
// caller grows it first with growDeliveries, through the run's guard). It
// fills the slot field by field: a delivery is too big for registers, and
// building it as a value first would copy it through a stack temporary.
func appendDelivery(s []delivery, to int32, port elect.Port, m elect.Message) []delivery {
	k := len(s)
	s = s[:k+1]
	d := &s[k]
	d.to, d.port, d.msg = to, port, m
	return s
}

// growDeliveries makes room for one more delivery in s through the run's
// guard g: s grown, or s as it is (full) when the guard refuses.
//
//go:noinline
func growDeliveries(g *queueGuard, s []delivery) []delivery {
	s, _ = growQueue(g, s, 1)
	return s
}

// bytes is the memory of the buckets' arrays.
func (w *wheel) bytes() int64 {
	var b int64
	for i := range w.buckets {
		b += arrayBytes(w.buckets[i].items)
	}
	return b
}

// next returns the earliest occupied bucket and its time, given the current
// time: every pending delivery is due in now+1..now+span, and the bucket of
// now itself is empty.
func (w *wheel) next(now int64) (*bucket, int64) {
	start := now & w.mask
	wi := start >> 6
	word := w.used[wi] &^ (1<<(start&63) - 1)
	if word == 0 {
		// The first word after wi with a bucket in it, else (wrapping
		// around) the first word, which may be wi's own, below start.
		later := w.words &^ (1<<(wi+1) - 1)
		if later == 0 {
			later = w.words
		}
		if later == 0 {
			panic("sim: wheel count and bitmap disagree")
		}
		wi = int64(bits.TrailingZeros64(later))
		word = w.used[wi]
	}
	b := wi<<6 | int64(bits.TrailingZeros64(word))
	return &w.buckets[b], now + (b-start)&w.mask
}

// clear empties every bucket, keeping their arrays.
func (w *wheel) clear() {
	for b := range w.buckets {
		w.buckets[b].items = w.buckets[b].items[:0]
	}
	clear(w.used)
	w.words = 0
	w.count = 0
}

// empty removes every delivery of bk, the bucket of time at.
func (w *wheel) empty(bk *bucket, at int64) {
	w.count -= len(bk.items)
	bk.items = bk.items[:0]
	b := at & w.mask
	if w.used[b>>6] &^= 1 << (b & 63); w.used[b>>6] == 0 {
		w.words &^= 1 << (b >> 6)
	}
}

// timed is an entry of the heap: a wake-up, a timer or (under newest-first
// or random delays that the wheel cannot hold) nothing else.
type timed struct {
	at   int64
	ord  uint64 // kind<<56 | sequence number: ties broken by kind, then order of creation
	node int32
	tag  int64
}

func (a *timed) before(b *timed) bool {
	return a.at < b.at || (a.at == b.at && a.ord < b.ord)
}

// timedHeap is a binary min-heap of timed entries.
type timedHeap []timed

func (h *timedHeap) push(t timed) {
	*h = append(*h, t)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].before(&s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *timedHeap) pop() timed {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		c := l
		if r := l + 1; r < len(s) && s[r].before(&s[l]) {
			c = r
		}
		if !s[c].before(&s[i]) {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
	*h = s
	return top
}

// randomDelayTicks is election.RandomDelayTicks, the ticks of one time unit
// under random delays.
const randomDelayTicks = election.RandomDelayTicks
