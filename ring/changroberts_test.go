package ring_test

import (
	"fmt"
	"testing"

	"github.com/electkit/elect/conformance"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
)

// Seed 003, worst case with every node initiating: on the decreasing ring the
// i-th largest ID travels n-i+1 hops, n(n+1)/2 ELECTION messages, and the
// leader's LEADER message goes once round the ring: n more.
func TestChangRobertsAllInitiatorsDecreasingRing(t *testing.T) {
	for _, n := range []int{1, 2, 7, 100} {
		res := runRing(t, ring.ChangRoberts, nlIDs(t, "decreasing", n, 1), election.FIFO, nil, false, 1)
		requireElected(t, res, fmt.Sprint(n))
		if e, l := res.MessagesByType["ELECTION"], res.MessagesByType["LEADER"]; e != int64(n*(n+1)/2) || l != int64(n) {
			t.Errorf("n=%d: %d ELECTION and %d LEADER, want %d and %d", n, e, l, n*(n+1)/2, n)
		}
		if !res.AllKnowLeader {
			t.Errorf("n=%d: not every node learned the leader", n)
		}
	}
}

// Seed 003, best case with every node initiating: increasing ring, the
// maximum goes round (n) and every other ID is eaten after one hop (n-1).
func TestChangRobertsAllInitiatorsIncreasingRing(t *testing.T) {
	const n = 50
	res := runRing(t, ring.ChangRoberts, nlIDs(t, "increasing", n, 1), election.Sync, nil, false, 1)
	requireElected(t, res, "increasing")
	if e := res.MessagesByType["ELECTION"]; e != 2*n-1 {
		t.Fatalf("%d ELECTION messages, want 2n-1 = %d", e, 2*n-1)
	}
}

// A single initiator, worked by hand on the slides' rules (n = 6):
//
//   - it holds the maximum (decreasing ring, node 0 with ID 5): every other
//     node is woken by ELECTION(5) > its ID, forwards it and becomes a
//     participant without sending its own: exactly n ELECTION messages;
//   - it holds the second largest (decreasing ring, node 1 with ID 4): 4
//     travels clockwise through IDs 3, 2, 1, 0 (each forwards it and joins)
//     to node 0, which holds 5, is not a participant and sends ELECTION(5):
//     5 hops for 4, then 6 for 5: 11 = 2n-1;
//   - it holds the minimum (increasing ring, node 0 with ID 0): node 1 eats 0
//     and, not yet a participant, sends its own 1; and so on: IDs 0..4 make
//     one hop each and 5 goes round: 5 + 6 = 11 = 2n-1.
//
// In every case LEADER adds n messages and the time is the hops in sequence.
func TestChangRobertsSingleInitiator(t *testing.T) {
	const n = 6
	cases := []struct {
		ids      string
		node     int
		election int64
		time     float64
	}{
		{"decreasing", 0, 6, 6 + 6},
		{"decreasing", 1, 11, 5 + 6 + 6},
		{"increasing", 0, 11, 5 + 6 + 6},
	}
	for _, c := range cases {
		res := runRing(t, ring.ChangRoberts, nlIDs(t, c.ids, n, 1), election.FIFO, []election.Wake{{Node: c.node}}, false, 1)
		requireElected(t, res, c.ids)
		if e, l := res.MessagesByType["ELECTION"], res.MessagesByType["LEADER"]; e != c.election || l != n || res.Time != c.time {
			t.Errorf("%s ring, initiator %d: %d ELECTION, %d LEADER, time %v; want %d, %d, %v", c.ids, c.node, e, l, res.Time, c.election, n, c.time)
		}
	}
}

// Property: random rings of many sizes (up to 97), every delivery model,
// random ID arrangements, initiator sets and wake-up times: the maximum is
// elected, every node learns it through LEADER (the monitor's check of an
// algorithm that announces), and every declared bound holds: the
// conformance kit's elects check, on more sizes and seeds than its
// defaults.
func TestChangRobertsElectsTheMaximumEverywhere(t *testing.T) {
	conformance.Elects(t, ring.ChangRoberts, conformance.Options{Sizes: propertySizes, Seeds: 6})
}
