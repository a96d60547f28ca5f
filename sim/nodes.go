package sim

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/topology"
)

// This file is the simulator's speed layer: where a run's nodes and the
// simulator's record of each node live. Nothing of it is in the contract
// (package elect): the simulator discovers it from the nodes themselves.
//
// An algorithm with an Init (elect.NodesOf) has its nodes built in place in
// one array of its node type per network, which the simulator allocates
// through reflection, keeps for the next network of the same type, and
// reads without the per-node interface values: node i is at first +
// i*size, and a delivery rebuilds its interface value from the type word
// and that address (a cache miss less per message on networks larger than
// the cache). When node and an 8-byte status word fit in 64 bytes, the
// array's slots hold both, so that a delivery to a node out of cache misses
// once, not twice. Any other algorithm (New only) gets its nodes from New,
// one by one, in a slice: correct on every network, a little slower.

// status is the simulator's record of one node that every delivery and send
// reads and writes: whether the node is woken and halted (the low two bits)
// and how many messages it has sent (the rest).
type status uint64

const (
	statusWoken  status = 1
	statusHalted status = 2
	statusSent   status = 4 // one message sent
)

func (st status) awake() bool { return st&(statusWoken|statusHalted) == statusWoken }

// nodeStore is where a run's nodes and statuses live.
type nodeStore struct {
	list  []elect.Node // the nodes New built, when they are not in an array
	array *nodeArray   // the array Init built the nodes in, if it did
	// nodeType is the nodes' interface type word, first node 0's address
	// and size the distance from one node to the next, when they are in an
	// array (first == nil otherwise).
	nodeType unsafe.Pointer
	first    unsafe.Pointer
	size     uintptr
	// statusBase and statusStride place node i's status at statusBase +
	// i*statusStride: in the array's slots, or in status.
	statusBase   unsafe.Pointer
	statusStride uintptr
	statusInNode bool
	// slotInLine: every slot lies within one 64-byte line (slots of 32
	// or 64 bytes in a line-aligned array), so one prefetch fetches it.
	slotInLine bool
	status     []status
	// touchAhead is how many deliveries ahead touch looks (0: it is not
	// used, the network's state fits in cache).
	touchAhead int
}

// nodeArray is one network's nodes in slots of a type made for their node
// type: the node alone, or a status word and the node.
type nodeArray struct {
	slots   reflect.Value // a slice of slots
	pool    *sync.Pool
	nodeOff uintptr // the node's offset in a slot
	words   bool    // slots begin with a status word
}

// arrayPools holds released arrays by node type (reflect.Type to
// *sync.Pool of *nodeArray, all zero).
var arrayPools sync.Map

// touchBytes is the size of the nodes' state beyond which deliveries
// prefetch (touch) what the coming ones need: what the L2 cache of the
// development machine holds (below it, prefetching only costs: at 10^4
// nodes of 128 bytes it made random delays 25% slower). Node sizes are
// measured as laid out (slot or node, and status); the declared estimates
// they replace were about twice as large, against a threshold of 4 MiB, so
// the ring benchmarks switch at the same sizes as before.
const touchBytes = 2 << 20

// build builds the nodes of cfg.
func (s *nodeStore) build(cfg *election.Config, buf *buffers) {
	alg, n := cfg.Algorithm, cfg.Graph.N
	info := cfg.NodeInfos()
	nodeBytes := uintptr(32) // an interface value and a small node, at least
	if alg.Init != nil && n > 0 {
		probe := alg.New(info(0))
		if t := reflect.TypeOf(probe); t.Kind() == reflect.Pointer && t.Elem().Size() > 0 {
			s.array = takeArray(t.Elem(), n)
			s.nodeType = ifaceWords(&probe)[0]
			s.first = unsafe.Add(s.array.slots.UnsafePointer(), s.array.nodeOff)
			s.size = s.array.slots.Type().Elem().Size()
			// NodeInfos' values, built here without a call per node (a
			// tenth of a short run's time goes into building its nodes).
			init, one, ids := alg.Init, info(0), cfg.IDs
			regular := cfg.Graph.Kind != topology.General
			weights := cfg.PortWeights()
			for i := range n {
				one.ID = ids[i]
				if !regular {
					one.Degree = cfg.Graph.Degree(i)
				}
				if weights != nil {
					one.Weights = weights(i)
				}
				if one.PortID != nil {
					one.PortID = info(i).PortID
				}
				init(s.node(int32(i)), one)
			}
			nodeBytes = s.size
		}
	}
	if s.first == nil {
		s.list = grow(buf.nodes, n)
		adviseSliceHugePages(s.list)
		for i := range n {
			s.list[i] = alg.New(info(i))
		}
		if n > 0 {
			if t := reflect.TypeOf(s.list[0]); t.Kind() == reflect.Pointer {
				nodeBytes += t.Elem().Size()
			}
		}
	}
	if s.array != nil && s.array.words {
		s.statusBase, s.statusStride, s.statusInNode = s.array.slots.UnsafePointer(), s.size, true
		s.slotInLine = 64%s.size == 0 && uintptr(s.statusBase)%64 == 0
	} else if n > 0 {
		s.status = grow(buf.status, n)
		adviseSliceHugePages(s.status)
		s.statusBase, s.statusStride = unsafe.Pointer(&s.status[0]), unsafe.Sizeof(status(0))
	}
	if !s.statusInNode {
		nodeBytes += unsafe.Sizeof(status(0))
	}
	if int64(n)*int64(nodeBytes) > touchBytes {
		// Far ahead in the long lists of unit delays, nearer in the short
		// buckets of random delays (distances tried on HS and Franklin at
		// n = 10^6: 4, 8, 16).
		s.touchAhead = 4
		if cfg.Delivery == election.Sync || cfg.Delivery == election.FIFO {
			s.touchAhead = 16
		}
	}
}

// takeArray returns n zero slots for nodes of type t: a released array when
// one is large enough.
func takeArray(t reflect.Type, n int) *nodeArray {
	p, ok := arrayPools.Load(t)
	if !ok {
		p, _ = arrayPools.LoadOrStore(t, new(sync.Pool))
	}
	pool := p.(*sync.Pool)
	if a, ok := pool.Get().(*nodeArray); ok && a.slots.Cap() >= n {
		a.slots = a.slots.Slice(0, n)
		return a
	}
	a := &nodeArray{pool: pool}
	slot := t
	if 8+t.Size() <= 64 && t.Align() <= 8 {
		slot = reflect.StructOf([]reflect.StructField{
			{Name: "Word", Type: reflect.TypeFor[uint64]()},
			{Name: "Node", Type: t},
		})
		a.words, a.nodeOff = true, slot.Field(1).Offset
	}
	a.slots = reflect.MakeSlice(reflect.SliceOf(slot), n, n)
	adviseHugePages(a.slots.UnsafePointer(), uintptr(n)*slot.Size())
	return a
}

// release hands the nodes and statuses back for the next run.
func (s *nodeStore) release(buf *buffers) {
	if a := s.array; a != nil {
		a.slots.Clear()
		a.pool.Put(a)
		s.array, s.first = nil, nil
	}
	if s.list != nil {
		clear(s.list)
		buf.nodes, s.list = s.list, nil
	}
	if s.status != nil {
		clear(s.status)
		buf.status, s.status = s.status, nil
	}
	s.statusBase, s.statusInNode, s.slotInLine = nil, false, false
}

// st is node i's status.
func (s *nodeStore) st(i int32) *status {
	return (*status)(unsafe.Add(s.statusBase, uintptr(i)*s.statusStride))
}

// countSent counts one more message sent by node i (the count has 62 bits:
// at the simulator's speed, centuries of sending).
func (s *nodeStore) countSent(i int32) { *s.st(i) += statusSent }

// sent returns how many messages node i has sent.
func (s *nodeStore) sent(i int32) int64 { return int64(*s.st(i) / statusSent) }

// node returns node i. When the nodes are one array, it builds the
// interface value from the type word and the node's address.
func (s *nodeStore) node(i int32) elect.Node {
	if s.first == nil {
		return s.list[i]
	}
	var v elect.Node
	w := ifaceWords(&v)
	w[0], w[1] = s.nodeType, unsafe.Add(s.first, uintptr(i)*s.size)
	return v
}

// nodeData is the address of node i's state: its interface's data word.
func (s *nodeStore) nodeData(i int32) unsafe.Pointer {
	if s.first != nil {
		return unsafe.Add(s.first, uintptr(i)*s.size)
	}
	return ifaceWords(&s.list[i])[1]
}

// ifaceWords views an interface value as its two machine words: type (or
// itab) and data pointer, the layout of every Go implementation so far.
// TestNodeArrayLayout checks it.
func ifaceWords(v *elect.Node) *[2]unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(v))
}

// touch prefetches what the deliveries to nodes soon and later will read.
// On large networks a delivery's cost is its cache misses, since receivers
// come in sending order, not memory order (under random delays, in random
// order); fetching what the next deliveries need while this one runs lets
// their misses overlap. When the nodes are one array, a node's address is
// known from its index: touch fetches later's node and status (side by side
// in its slot when the slot has a status word). Otherwise the node is found
// through its interface value: later's comes first, so that it is in cache
// when later becomes soon and its node pointer is read.
func (s *nodeStore) touch(soon, later int32) {
	if s.statusInNode {
		// The slot's first and last bytes: one cache line, or two when
		// it straddles a line boundary.
		w := unsafe.Pointer(s.st(later))
		prefetch(w)
		if !s.slotInLine {
			prefetch(unsafe.Add(w, s.size-1))
		}
		return
	}
	prefetch(unsafe.Pointer(s.st(later)))
	if s.first != nil {
		prefetch(unsafe.Add(s.first, uintptr(later)*s.size))
		return
	}
	prefetch(unsafe.Pointer(&s.list[later]))
	prefetch(s.nodeData(soon))
}

// touchWheel is touch across the buckets of random delays, which hold few
// deliveries each: while the bucket of time at is handled, it prefetches
// the nodes of the receivers in the next occupied bucket (their records were
// fetched at the previous instant) and the records of those in the one
// after.
func (e *engine) touchWheel(at int64) {
	w, s := e.wheel, &e.nodes
	b1, t1 := w.next(at + 1)
	if t1 <= at || t1 > at+randomDelayTicks {
		return // nothing pending after this bucket
	}
	for k := range min(len(b1.items), touchWheelItems) {
		prefetch(s.nodeData(b1.items[k].to))
	}
	b2, t2 := w.next(t1 + 1)
	if t2 <= t1 || t2 > at+randomDelayTicks {
		return
	}
	for k := range min(len(b2.items), touchWheelItems) {
		to := b2.items[k].to
		prefetch(unsafe.Pointer(s.st(to)))
		if s.first == nil {
			prefetch(unsafe.Pointer(&s.list[to]))
		}
	}
}

// touchWheelItems is how many deliveries of a bucket touchWheel prefetches
// for.
const touchWheelItems = 8
