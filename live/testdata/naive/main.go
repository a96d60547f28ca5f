// Command naive runs LCR on a ring of n goroutines the naive way, as seed
// 002's framework does: one goroutine per node, one channel holding one
// message per link, a blocking send per message, and a WaitGroup counting
// the messages in flight. It runs the same LCR node code as elect (package
// ring) on the IDs of `elect run lcr --ids decreasing` (node i has ID
// n-1-i) and prints the number of messages sent and the leader's ID.
//
// It is the baseline of docs/performance.md's comparison of the goroutine
// runtime (live/testdata/compare.sh); it lives under testdata so that
// `go test ./...` does not build it.
//
//	go build -o /tmp/naive ./live/testdata/naive && /tmp/naive 4000
//
// LCR cannot deadlock on it: every node receives before it sends, so at most
// n messages are ever in flight, and a cycle of n blocked senders would need
// n more in the n full channels.
package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/electkit/elect"
	"github.com/electkit/elect/ring"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: naive N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[1])
	if err != nil || n < 1 {
		fmt.Fprintln(os.Stderr, "naive: N must be a positive number")
		os.Exit(2)
	}
	in := make([]chan elect.Message, n)
	for i := range in {
		in[i] = make(chan elect.Message, 1)
	}
	var inFlight sync.WaitGroup
	var total atomic.Int64
	var leader atomic.Int64
	leader.Store(-1)
	done := make(chan struct{})
	var wg sync.WaitGroup
	inFlight.Add(n) // the wake-ups
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			node := ring.LCR.New(elect.NodeInfo{ID: elect.ID(n - 1 - i), Degree: 2})
			rec := elect.NewRecorder(func() *rand.Rand { return nil })
			deliver := func() {
				for _, f := range rec.Effects() {
					switch f.Kind {
					case elect.EffectSend:
						inFlight.Add(1)
						total.Add(1)
						in[(i+1)%n] <- f.Msg
					case elect.EffectDecide:
						if f.Decision == elect.Elected {
							leader.Store(int64(n - 1 - i))
						}
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
	fmt.Printf("messages %d leader %d\n", total.Load(), leader.Load())
}
