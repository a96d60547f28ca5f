package live_test

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/live"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/scenario"
)

// BenchmarkLCR compares the goroutine runtime with a naive goroutine-per-
// node runtime, on the same LCR nodes and IDs: the design of seed 002's
// framework ("the node can only send one message without blocking the
// channel"): one channel of capacity one per link, a blocking send per
// message, and a WaitGroup counting the messages in flight. LCR cannot
// deadlock on it: every node receives before it sends, so at most n
// messages are ever in flight, and a cycle of n blocked senders would need
// n more in the n full channels.
func BenchmarkLCR(b *testing.B) {
	for _, c := range []struct {
		n   int
		ids string
	}{{1000, "random"}, {10000, "random"}, {1000, "decreasing"}} {
		n, ids := c.n, c.ids
		cfg, err := scenario.Build(scenario.Spec{Algorithm: "lcr", N: n, Seed: 1, IDs: ids})
		if err != nil {
			b.Fatal(err)
		}
		b.Run("runtime=goroutines/ids="+ids+"/n="+itoa(n), func(b *testing.B) {
			var msgs int64
			for b.Loop() {
				r, err := live.Run(*cfg)
				if err != nil || r.Outcome != "elected" {
					b.Fatal(err, r.Outcome)
				}
				msgs += r.Messages
			}
			b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "messages/s")
		})
		b.Run("runtime=naive-channels/ids="+ids+"/n="+itoa(n), func(b *testing.B) {
			var msgs int64
			for b.Loop() {
				msgs += naiveLCR(cfg.IDs)
			}
			b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "messages/s")
		})
	}
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// naiveLCR runs LCR nodes on a unidirectional ring of buffered channels and
// returns the number of messages sent.
func naiveLCR(ids []elect.ID) int64 {
	n := len(ids)
	in := make([]chan elect.Message, n)
	for i := range in {
		in[i] = make(chan elect.Message, 1)
	}
	var inFlight sync.WaitGroup
	var total atomic.Int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	inFlight.Add(n) // the wake-ups
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			node := ring.LCR.New(elect.NodeInfo{ID: ids[i], Degree: 2})
			rec := elect.NewRecorder(func() *rand.Rand { return nil })
			deliver := func() {
				for _, f := range rec.Effects() {
					if f.Kind == elect.EffectSend {
						inFlight.Add(1)
						total.Add(1)
						in[(i+1)%n] <- f.Msg
					}
				}
				rec.ClearEffects()
			}
			node.Wake(rec, true)
			deliver()
			inFlight.Done()
			for {
				select {
				case m := <-in[i]:
					node.Receive(rec, elect.Right, m)
					deliver()
					inFlight.Done()
				case <-done:
					return
				}
			}
		}()
	}
	inFlight.Wait()
	close(done)
	wg.Wait()
	return total.Load()
}

// BenchmarkLCRDecreasing1000Memory runs LCR on a decreasing ring of 1000
// nodes on the asynchronous runtime (the whole-process comparison's small
// case, `elect run lcr --n 1000 --ids decreasing --runtime goroutines`)
// and reports what one run allocates: at this size no garbage collection
// runs in the command, so every byte allocated is resident.
//
//	go test -run '^$' -bench LCRDecreasing1000Memory -benchtime 20x ./live/
func BenchmarkLCRDecreasing1000Memory(b *testing.B) {
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "lcr", N: 1000, Seed: 1, IDs: "decreasing"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r, err := live.Run(*cfg)
		if err != nil || r.Outcome != "elected" || r.Messages != 1000*1001/2 {
			b.Fatal(err, r.Outcome)
		}
	}
}
