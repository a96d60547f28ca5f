package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/electkit/elect"
)

// TestWheelNextFindsEarliest checks the wheel's two-level bitmap against a
// plain list of pending times: pushes at random delays (some buckets far
// apart, some crowded), then the earliest bucket is taken and emptied, until
// the wheel is empty.
func TestWheelNextFindsEarliest(t *testing.T) {
	const span = randomDelayTicks
	for seed := range uint64(20) {
		g := rand.New(rand.NewPCG(seed, 1))
		w := newWheel(span)
		pending := map[int64]int{} // time -> deliveries due then
		now := int64(g.IntN(1 << 20))
		for step := 0; step < 3000; step++ {
			// A few sends from now, each 1..span ticks ahead; sparse
			// phases (one send) and dense ones.
			sends := 1 + g.IntN(3)
			if step%500 < 50 {
				sends = 0
			}
			for range sends {
				d := 1 + g.Int64N(span)
				if g.IntN(4) == 0 {
					d = span - g.Int64N(3) // the far end of the wheel
				}
				w.push(now+d, 0, 0, elect.Message{})
				pending[now+d]++
			}
			if w.count == 0 {
				now += 1 + g.Int64N(span)
				continue
			}
			want := int64(-1)
			for at := range pending {
				if want < 0 || at < want {
					want = at
				}
			}
			bk, at := w.next(now)
			if at != want || len(bk.items) != pending[want] {
				t.Fatalf("seed %d step %d: next(%d) = %d with %d items, want %d with %d", seed, step, now, at, len(bk.items), want, pending[want])
			}
			w.empty(bk, at)
			delete(pending, at)
			now = at
		}
	}
}
