package sim

import "unsafe"

// queueGuard holds a run to election.Config.MaxQueueBytes. It counts the
// bytes of the arrays that hold the run's messages in flight (the unit
// delays' lists, the wheel's buckets, the newest-first stack, the late
// messages of delay faults), by their capacity, which is what the run
// really holds whatever the messages' fates (duplicates included). It is
// asked only when one of those arrays must grow, which doubling makes
// rare, so that the hot path pays nothing for it.
//
// When an array cannot grow within the limit, the message that needed the
// room is not kept, over is set and the engine's next event check ends
// the run with outcome memory-limit (the rest of the instant being
// handled runs first, keeping nothing more).
type queueGuard struct {
	held  int64 // bytes of the arrays the run holds
	limit int64 // Config.MaxQueueBytes (0: none)
	over  bool
	// maxEvents is the engine's: set to 0 when over, so that the next
	// event takes the engine's slow path (checkpoint), which stops.
	maxEvents *int64
}

// growQueue returns s with room for at least extra more elements: at least
// twice its capacity, or less when the limit allows less. ok is false, and
// s is returned as it is, when they do not fit. A nil g has no limit.
func growQueue[T any](g *queueGuard, s []T, extra int) (_ []T, ok bool) {
	var zero T
	size := int64(unsafe.Sizeof(zero))
	k := int64(len(s))
	// At least double: append grows large slices by a quarter at a time,
	// and the lists of HS at n = 10^6 (two million 40-byte deliveries at
	// the first instant) took 558 MB of allocations on their way to 80 MB;
	// doubled, at most twice the final size.
	want := max(2*k+16, k+int64(extra))
	if g == nil { // a wheel outside a run (tests)
		return append(make([]T, 0, want), s...), true
	}
	if g.limit > 0 {
		// While s is copied, its array and the new one are both held.
		room := (g.limit - g.held - int64(cap(s))*size) / size
		want = min(want, int64(cap(s))+room)
		if want < k+int64(extra) {
			g.refuse()
			return s, false
		}
	}
	t := make([]T, k, want)
	copy(t, s)
	g.held += int64(cap(t)-cap(s)) * size
	return t, true
}

// refuse marks the run over its limit.
func (g *queueGuard) refuse() {
	g.over = true
	*g.maxEvents = 0
}

// arrayBytes is the memory of s's array.
func arrayBytes[T any](s []T) int64 {
	var zero T
	return int64(cap(s)) * int64(unsafe.Sizeof(zero))
}
