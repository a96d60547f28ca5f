package live

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// TestReadyQueueTakesEveryNodeOnce: eight goroutines queue 4000 distinct
// nodes while eight others take them (putting back, through swap, every
// third node they take and taking the oldest instead), on a queue made for
// 16 so that its ring wraps and grows: every node comes out as many times
// as it went in. Then, with every taker waiting, one more node is queued:
// one taker must wake for it (a lost wake-up hangs a run). Closing the
// queue releases the takers that wait.
func TestReadyQueueTakesEveryNodeOnce(t *testing.T) {
	const n, producers, takers = 4000, 8, 8
	nodes := make([]node, n+1)
	for i := range nodes {
		nodes[i].index = int32(i)
	}
	var q readyQueue
	q.init(16)
	var taken [n + 1]atomic.Int32 // takes less swaps back, by node
	var left sync.WaitGroup       // takes to come, net of swaps
	left.Add(n)
	var ended sync.WaitGroup
	for p := range producers {
		go func() {
			for i := p; i < n; i += producers {
				q.put(&nodes[i])
			}
		}()
	}
	for range takers {
		ended.Add(1)
		go func() {
			defer ended.Done()
			for k := 0; ; k++ {
				nd := q.take()
				if nd == nil {
					return
				}
				taken[nd.index].Add(1)
				if k%3 == 0 {
					// Queue it again and take the oldest instead, as a
					// worker does after a chain of its own next nodes.
					taken[nd.index].Add(-1)
					nd = q.swap(nd)
					taken[nd.index].Add(1)
				}
				left.Done()
			}
		}()
	}
	// A node lost, or a lost wake-up, would leave the test waiting for
	// ever: it fails after a generous minute instead.
	wait := func(wg *sync.WaitGroup, what string) {
		all := make(chan struct{})
		go func() { wg.Wait(); close(all) }()
		select {
		case <-all:
		case <-time.After(time.Minute):
			t.Fatalf("%s: takers wait with %d nodes queued", what, q.count)
		}
	}
	wait(&left, "4000 nodes")
	for {
		q.mu.Lock()
		idle := q.idle
		q.mu.Unlock()
		if idle == takers {
			break
		}
		runtime.Gosched()
	}
	left.Add(1)
	q.put(&nodes[n])
	wait(&left, "one node queued while every taker waits")
	q.close()
	wait(&ended, "closed")
	for i := range taken {
		if c := taken[i].Load(); c != 1 {
			t.Fatalf("node %d taken %d times (net of swaps), want once", i, c)
		}
	}
	if q.count != 0 || q.take() != nil {
		t.Fatalf("%d nodes left in a closed queue, or a take that did not return nil", q.count)
	}
}

// TestNodeLayout: a node's mailbox, which other workers write, is its
// first cache line, and the rest starts on the next; nodes are 256 bytes,
// so in a page-aligned slab (128 nodes or more) every node's mailbox is a
// line of its own.
func TestNodeLayout(t *testing.T) {
	var nd node
	if s, o := unsafe.Sizeof(nd), unsafe.Offsetof(nd.index); s != 256 || o != 64 {
		t.Fatalf("node: %d bytes, its own fields from byte %d; want 256 and 64", s, o)
	}
}
