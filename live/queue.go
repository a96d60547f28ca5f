package live

import "sync"

// readyQueue is the asynchronous runtime's shared queue of ready nodes, in
// the order they were queued. Most ready nodes never enter it: a node made
// ready by the node a worker runs becomes that worker's next (see
// asyncRun.signal), which costs no lock, and only the one it replaces is
// queued. A worker that finds the queue empty waits until a node is queued
// or the queue is closed; a put wakes one waiting worker, and only when one
// waits.
//
// A node is made ready only when it leaves the idle or parked state, under
// its own lock, and leaves the ready state only on its worker: so it is at
// most once in the queue, or in one worker's next, or run by one worker,
// and a run's queue needs a slot per node.
type readyQueue struct {
	mu     sync.Mutex
	nodes  []*node // a ring: count nodes from head on
	head   int
	count  int
	idle   int  // workers waiting in take
	closed bool // the run is over: take returns nil
	cond   sync.Cond
}

// init makes q empty, with room for n nodes.
func (q *readyQueue) init(n int) {
	q.nodes = make([]*node, max(n, 1))
	q.cond.L = &q.mu
}

// put queues nd and wakes a waiting worker, if any.
func (q *readyQueue) put(nd *node) {
	q.mu.Lock()
	q.push(nd)
	if q.idle > 0 {
		q.cond.Signal()
	}
	q.mu.Unlock()
}

// push adds nd at the tail (under mu).
func (q *readyQueue) push(nd *node) {
	if q.count == len(q.nodes) {
		// Not reached (see the type's comment); kept so that a queue
		// never loses a node.
		grown := make([]*node, 2*len(q.nodes))
		for k := range q.count {
			grown[k] = q.nodes[(q.head+k)%len(q.nodes)]
		}
		q.nodes, q.head = grown, 0
	}
	q.nodes[(q.head+q.count)%len(q.nodes)] = nd
	q.count++
}

// pop takes the node at the head (under mu, with count > 0).
func (q *readyQueue) pop() *node {
	nd := q.nodes[q.head]
	q.nodes[q.head] = nil
	q.head++
	if q.head == len(q.nodes) {
		q.head = 0
	}
	q.count--
	return nd
}

// take returns the oldest queued node, waiting for one if there is none;
// it returns nil once the queue is closed.
func (q *readyQueue) take() *node {
	q.mu.Lock()
	for q.count == 0 && !q.closed {
		q.idle++
		q.cond.Wait()
		q.idle--
	}
	var nd *node
	if !q.closed {
		nd = q.pop()
	}
	q.mu.Unlock()
	return nd
}

// swap queues nd and returns the oldest queued node: nd itself when the
// queue is empty.
func (q *readyQueue) swap(nd *node) *node {
	q.mu.Lock()
	if q.count > 0 {
		q.push(nd)
		nd = q.pop()
	}
	q.mu.Unlock()
	return nd
}

// close ends the queue: the waiting workers, and every later take, get nil.
func (q *readyQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
}
