package conformance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/conformance"
)

// The kit's own tests: an algorithm written for them passes every check,
// and each of its broken copies (one bug each, of the kinds a writer of an
// algorithm makes) fails the check meant to catch it, with the kit's
// message.

// allTheWay is the "all the way" election on a unidirectional ring
// (Fokkink, Distributed Algorithms: An Intuitive Approach, section 9.1;
// the example of examples/custom-algorithm): every ID travels all the way
// round, and a node decides when its own comes back. It is built from
// parts so that the tests can break one.
func allTheWay(name string, mk func(info elect.NodeInfo) elect.Node, randomized bool) *elect.Algorithm {
	return &elect.Algorithm{
		Name: name,
		Model: elect.Model{
			Topology: elect.UniRing, Sync: true, Async: true, FIFO: true, UniqueIDs: true,
			WakeUp: elect.AnySubset, Elects: elect.ElectsMax, Announce: elect.AlwaysAnnounce, Randomized: randomized,
		},
		Messages: []elect.MessageType{{Name: "id", Fields: []string{"j"}}},
		Bounds: []elect.Bound{{
			Name: "messages", Quantity: elect.Messages, Relation: elect.Exactly, Formula: "n^2",
			Value: func(c elect.BoundContext) float64 { return float64(c.N) * float64(c.N) },
		}},
		New: mk,
	}
}

type wayNode struct {
	id, max elect.ID
	// forwarded[0] counts the IDs forwarded: a slice, changed in place,
	// for the tests' bugs about copies.
	forwarded []int64
}

func newWayNode(info elect.NodeInfo) *wayNode {
	return &wayNode{id: info.ID, max: info.ID, forwarded: make([]int64, 1)}
}

func (p *wayNode) Wake(env elect.Env, spontaneous bool) {
	env.Send(elect.Left, elect.Message{ID: p.id})
}

func (p *wayNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	if m.ID != p.id {
		p.max = max(p.max, m.ID)
		p.forwarded[0]++
		env.Send(elect.Left, m)
		return
	}
	env.SetLeader(p.max)
	if p.max == p.id {
		env.Decide(elect.Elected)
	} else {
		env.Decide(elect.NotElected)
	}
}

func (p *wayNode) Clone() elect.Node {
	c := *p
	c.forwarded = append([]int64(nil), p.forwarded...)
	return &c
}

func (p *wayNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(elect.AppendInt(b, int64(p.id)), int64(p.max))
	return elect.AppendList(b, p.forwarded, elect.AppendInt)
}

// Broken copies, one bug each.

// silentNode: a node woken by a message forgets to send its own ID.
type silentNode struct{ wayNode }

func (p *silentNode) Wake(env elect.Env, spontaneous bool) {
	if spontaneous {
		p.wayNode.Wake(env, spontaneous)
	}
}
func (p *silentNode) Clone() elect.Node {
	c := *p
	c.forwarded = append([]int64(nil), p.forwarded...)
	return &c
}

// blindNode: its encoding leaves out the largest ID seen.
type blindNode struct{ wayNode }

func (p *blindNode) Clone() elect.Node {
	c := *p
	c.forwarded = append([]int64(nil), p.forwarded...)
	return &c
}
func (p *blindNode) AppendState(b []byte) []byte {
	return elect.AppendList(elect.AppendInt(b, int64(p.id)), p.forwarded, elect.AppendInt)
}

// sharingNode: a clone shares its slice with the original.
type sharingNode struct{ wayNode }

func (p *sharingNode) Clone() elect.Node { c := *p; return &c }

// dicingNode: a node declared deterministic that draws, and sends its ID
// twice on a six.
type dicingNode struct{ wayNode }

func (p *dicingNode) Clone() elect.Node {
	c := *p
	c.forwarded = append([]int64(nil), p.forwarded...)
	return &c
}
func (p *dicingNode) Wake(env elect.Env, spontaneous bool) {
	p.wayNode.Wake(env, spontaneous)
	if env.Rand().IntN(6) == 0 {
		env.Send(elect.Left, elect.Message{ID: p.id})
	}
}

// wakeUps counts the wake-ups of every globalNode of the process: state
// outside the nodes, which a run leaves behind for the next.
var wakeUps int

// globalNode: the node whose ID is 0 sends its ID once more on every
// other wake-up of the process.
type globalNode struct{ wayNode }

func (p *globalNode) Clone() elect.Node {
	c := *p
	c.forwarded = append([]int64(nil), p.forwarded...)
	return &c
}
func (p *globalNode) Wake(env elect.Env, spontaneous bool) {
	p.wayNode.Wake(env, spontaneous)
	wakeUps++
	if p.id == 0 && wakeUps%2 == 0 {
		env.Send(elect.Left, elect.Message{ID: p.id})
	}
}

// capture is a testing.TB that keeps the errors reported to it.
type capture struct {
	testing.TB
	errors []string
}

func (c *capture) Helper() {}
func (c *capture) Errorf(format string, args ...any) {
	c.errors = append(c.errors, fmt.Sprintf(format, args...))
}
func (c *capture) Fatalf(format string, args ...any) { c.Errorf(format, args...) }
func (c *capture) Logf(string, ...any)               {}

// TestKitPassesTheCorrectAlgorithm: every check passes allTheWay.
func TestKitPassesTheCorrectAlgorithm(t *testing.T) {
	alg := allTheWay("all-the-way", func(info elect.NodeInfo) elect.Node { return newWayNode(info) }, false)
	conformance.Run(t, alg, conformance.Options{})
}

// TestKitCatchesEveryBrokenCopy: each broken copy fails the check meant
// for its bug, with a message that names the algorithm and the check.
func TestKitCatchesEveryBrokenCopy(t *testing.T) {
	for _, c := range []struct {
		bug        string
		check      func(testing.TB, *elect.Algorithm, conformance.Options)
		name       string
		randomized bool
		mk         func(info elect.NodeInfo) elect.Node
		want       string
	}{
		{"a non-initiator stays silent", conformance.Elects, "elects", false,
			func(info elect.NodeInfo) elect.Node { return &silentNode{*newWayNode(info)} }, "outcome violation"},
		{"a non-initiator stays silent", conformance.Exhaustive, "exhaustive", false,
			func(info elect.NodeInfo) elect.Node { return &silentNode{*newWayNode(info)} }, "initiators subsets"},
		{"the encoding misses a field", conformance.States, "states", false,
			func(info elect.NodeInfo) elect.Node { return &blindNode{*newWayNode(info)} }, "changing blindNode.wayNode.max leaves AppendState unchanged"},
		{"a clone shares a slice", conformance.States, "states", false,
			func(info elect.NodeInfo) elect.Node { return &sharingNode{*newWayNode(info)} }, "changing the original changed its clone"},
		{"a clone shares a slice", conformance.Snapshots, "snapshots", false,
			func(info elect.NodeInfo) elect.Node { return &sharingNode{*newWayNode(info)} }, "restored"},
		{"a deterministic declaration draws", conformance.Declaration, "declaration", false,
			func(info elect.NodeInfo) elect.Node { return &dicingNode{*newWayNode(info)} }, "declared deterministic"},
		{"a randomized declaration never draws", conformance.Declaration, "declaration", true,
			func(info elect.NodeInfo) elect.Node { return newWayNode(info) }, "declared randomized"},
		{"state outside the nodes", conformance.Engines, "engines", false,
			func(info elect.NodeInfo) elect.Node { return &globalNode{*newWayNode(info)} }, "the engines' results differ"},
	} {
		t.Run(c.bug+"/"+c.name, func(t *testing.T) {
			alg := allTheWay("broken", c.mk, c.randomized)
			var got capture
			c.check(&got, alg, conformance.Options{})
			prefix := "conformance: broken: " + c.name + ": "
			found := false
			for _, e := range got.errors {
				if !strings.HasPrefix(e, prefix) {
					t.Errorf("a message without the prefix %q: %s", prefix, e)
				}
				found = found || strings.Contains(e, c.want)
			}
			if !found {
				t.Errorf("the %s check did not catch it with %q; it reported:\n%s", c.name, c.want, strings.Join(got.errors, "\n"))
			}
		})
	}
}
