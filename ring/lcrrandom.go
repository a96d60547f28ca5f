package ring

import (
	"fmt"
	"strconv"

	"github.com/electkit/elect"
)

// LCRRandom is LCR run on random keys, as section 5.2.4 of the lecture notes
// (seed 001) describes it: "Run LCR where each ID is constructed by
// prepending a long random bit-string to the real ID."
//
//   - on waking, a node draws b random bits r (--bits b) and takes the key
//     (r, id), compared lexicographically: r first, the real ID breaking
//     ties; maxKey <- key; it sends its key clockwise;
//   - upon receiving key k: if k = key, it becomes leader; if k > maxKey,
//     maxKey <- k and it sends k clockwise (Algorithm 5.1 on keys).
//
// With distinct IDs the keys are distinct, exactly one node (the one with
// the largest key, not necessarily the largest ID) is elected, and the ring
// of keys is close to a uniformly random permutation whatever the IDs, so
// the expected number of messages is close to n*H_n (the notes' "i-th
// largest ID only propagates an expected n/i hops"; exactly n*H_n when no
// two prefixes tie). Without IDs (--ids anonymous) the key is the prefix
// alone, and two nodes may be elected: on FIFO links a node is elected
// exactly when the nearest node counterclockwise whose key is at least its
// own holds the same key (the node itself when no other does). The monitor
// reports such a run as multiple-leaders; ring/lcrrandom_test.go derives its
// probability. A message carries the key: the b random bits and the ID.
// Random delivery can reorder keys on a link; it never changes the outcome
// with distinct keys, but with ties it may (a larger key overtaking an
// equal one), so the derived probability is for FIFO and synchronous links.
var LCRRandom = &elect.Algorithm{
	Name:   "lcr-random",
	Title:  "LCR on random keys (random bits prepended to the ID)",
	Source: "seed 001 (lecture notes), section 5.2.4 (after Chang and Roberts' average-case analysis)",
	Summary: "Each node prepends b random bits to its ID and runs LCR on the resulting keys: " +
		"about n*H_n messages on any ID arrangement; without IDs, two nodes may be elected.",
	Model: elect.Model{
		Topology: elect.UniRing, Sync: true, Async: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsAny, Announce: elect.OptionalAnnounce,
		Randomized: true,
	},
	Growth: elect.Growth{Messages: "n H_n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "election", Fields: []string{"j", "r"}, Bits: lcrRandomBits},
		{Name: "leader", Fields: []string{"j", "r"}, Bits: lcrRandomBits},
	},
	Bounds: []elect.Bound{
		{Name: "election messages", Quantity: elect.Messages, Types: []string{"election"}, Relation: elect.AtMost,
			Formula: "n(n+1)/2", Source: "seed 001 §5.2.1.1 on keys: the k-th largest key travels at most n-k+1 hops (ties included)",
			Value: boundTriangular},
		{Name: "election messages", Quantity: elect.Messages, Types: []string{"election"}, Relation: elect.AtLeast,
			Formula: "n", Source: "every node wakes and sends its key to its successor",
			Value: boundN},
		announcementBound("leader", "seed 001 §5.2.1.1 (announcement)"),
		{Name: "time", Quantity: elect.Time, Relation: elect.AtMost,
			Formula: "n (2n with announcement)", Source: "seed 001 §5.2.1.1: at most n time, as LCR",
			Value:   lcrTime,
			Applies: timedFromZero},
	},
	Params: []elect.Param{{
		Name: "bits", Default: "32",
		Help:  "random bits prepended to each ID (1..63)",
		Check: checkLCRRandomBits,
	}},
	DrawRange: func(_ int, p elect.Params) int { return 1 << min(p.Int("bits"), 62) }, // b random bits
	New:       lcrRandomNodes.New,
	Init:      lcrRandomNodes.Init,
}

var lcrRandomNodes = elect.NodesOf(lcrRandomInit)

func lcrRandomInit(p *lcrRandomNode, info elect.NodeInfo) {
	*p = lcrRandomNode{id: info.ID, bits: uint(info.Params.Int("bits")), announce: info.Announce}
}

// lcrRandomBits is the size of a message: a type tag, the b random bits and
// the ID.
func lcrRandomBits(c elect.BitContext) int {
	b, _ := strconv.Atoi(c.Params["bits"])
	return elect.TagBits(c.Types) + b + c.IDBits
}

func checkLCRRandomBits(v string) error {
	b, err := strconv.Atoi(v)
	if err != nil || b < 1 || b > 63 {
		return fmt.Errorf("the number of random bits must be an integer in 1..63, got %q", v)
	}
	return nil
}

// Message types of LCRRandom, in the order of LCRRandom.Messages.
const (
	lcrRandomElection elect.MsgType = iota
	lcrRandomLeader
)

// lcrKey is a node's key: random prefix first, then the real ID.
type lcrKey struct {
	r  int64
	id elect.ID
}

func (k lcrKey) greater(o lcrKey) bool { return k.r > o.r || (k.r == o.r && k.id > o.id) }

func (k lcrKey) message(t elect.MsgType) elect.Message {
	return elect.Message{Type: t, ID: k.id, A: k.r}
}

func keyOf(m elect.Message) lcrKey { return lcrKey{r: m.A, id: m.ID} }

type lcrRandomNode struct {
	id       elect.ID
	bits     uint
	key      lcrKey
	maxKey   lcrKey
	leader   bool
	announce bool
}

// Wake draws the random prefix and sends the key: the notes' initial step on
// the constructed ID.
func (p *lcrRandomNode) Wake(env elect.Env, spontaneous bool) {
	p.key = lcrKey{r: int64(env.Rand().Uint64() >> (64 - p.bits)), id: p.id}
	p.maxKey = p.key
	env.Send(elect.Left, p.key.message(lcrRandomElection))
}

func (p *lcrRandomNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	switch m.Type {
	case lcrRandomElection:
		p.handleElection(env, keyOf(m))
	case lcrRandomLeader:
		p.handleLeader(env, keyOf(m))
	}
}

func (p *lcrRandomNode) handleElection(env elect.Env, k lcrKey) {
	if k == p.key {
		p.leader = true
		env.Decide(elect.Elected)
		if p.announce {
			env.Send(elect.Left, p.key.message(lcrRandomLeader))
		}
	}
	if k.greater(p.maxKey) {
		p.maxKey = k
		env.Send(elect.Left, k.message(lcrRandomElection))
	}
}

// handleLeader passes the announcement on until it is back at its leader. A
// node that was elected itself (only possible when keys tie) stops another
// leader's announcement instead of changing its decision: the run already
// has two leaders, which the monitor reports.
func (p *lcrRandomNode) handleLeader(env elect.Env, k lcrKey) {
	if k == p.key || p.leader {
		return
	}
	passOnLeader(env, elect.Left, k.message(lcrRandomLeader))
}
