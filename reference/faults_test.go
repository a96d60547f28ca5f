package reference

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
)

// plan draws the fault plan of spec at n nodes and seed.
func plan(t *testing.T, spec string, n int, seed uint64) *faultPlan {
	t.Helper()
	s, err := faults.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	p, err := drawFaultPlan(s, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFloydSampleDrawsDistinctNumbersInRange: k distinct numbers in 1..by,
// and every number when k = by (docs/faults.md, "Drawing it").
func TestFloydSampleDrawsDistinctNumbersInRange(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 1))
		got := slices.Sorted(maps.Keys(floydSample(rng, 3, 10)))
		if len(got) != 3 || got[0] < 1 || got[2] > 10 {
			t.Fatalf("seed %d: k=3, by=10 drew %v", seed, got)
		}
	}
	got := slices.Sorted(maps.Keys(floydSample(rand.New(rand.NewPCG(1, 2)), 7, 7)))
	if !slices.Equal(got, []int64{1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("k = by = 7 drew %v, want 1..7", got)
	}
	// loss:k=5,by=3 asks for more than there are: all three.
	p := plan(t, "loss:k=5,by=3", 4, 9)
	if got := slices.Sorted(maps.Keys(p.messageClauses[0].numbers)); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Errorf("loss:k=5,by=3 hits %v, want 1..3", got)
	}
}

// TestDrawnCrashesPassOverANamedNode: crash:k=4 at n = 5 after a clause
// that crashes node 2 crashes the four others, each once, at times in
// 0..n, in the order (time, node).
func TestDrawnCrashesPassOverANamedNode(t *testing.T) {
	for seed := range uint64(50) {
		p := plan(t, "crash:node=2@t=1;crash:k=4", 5, seed)
		var nodes []int32
		for k, c := range p.timedCrashes {
			nodes = append(nodes, c.node)
			if c.at < 0 || c.at > 5 {
				t.Fatalf("seed %d: node %d crashes at %d, outside 0..5", seed, c.node, c.at)
			}
			if k > 0 {
				prev := p.timedCrashes[k-1]
				if prev.at > c.at || prev.at == c.at && prev.node > c.node {
					t.Fatalf("seed %d: crashes out of (time, node) order: %v", seed, p.timedCrashes)
				}
			}
		}
		if slices.Sort(nodes); !slices.Equal(nodes, []int32{0, 1, 2, 3, 4}) {
			t.Fatalf("seed %d: crashed nodes %v, want each of 0..4 once", seed, nodes)
		}
	}
	// Five drawn at n = 5 after a named one: the order ends first.
	if p := plan(t, "crash:node=0@t=1;crash:k=5", 5, 3); len(p.timedCrashes) != 5 {
		t.Errorf("crash:node=0@t=1;crash:k=5 at n = 5: %d crashes %v, want 5, one per node", len(p.timedCrashes), p.timedCrashes)
	}
	p := plan(t, "crash:node=1@step=4;crash:node=1@step=2;crash:node=3@step=1", 4, 1)
	if !slices.Equal(p.crashAfter, []int64{0, 2, 0, 1}) {
		t.Errorf("crash steps %v, want [0 2 0 1]: the smaller of two steps counts", p.crashAfter)
	}
}

// TestFateOfAMessage: a lost message is neither duplicated nor delayed and
// the first clause to lose it names the cause; delays add up; two
// duplicating clauses duplicate once.
func TestFateOfAMessage(t *testing.T) {
	for _, c := range []struct {
		spec string
		want messageFate
	}{
		{"dup:msg=1;delay:msg=1,d=2;loss:msg=1", messageFate{number: 1, lostBy: elect.FaultLoss}},
		{"partition:0|1@0-5;loss:msg=1", messageFate{number: 1, lostBy: elect.FaultPartition}},
		{"loss:msg=1;partition:0|1@0-5", messageFate{number: 1, lostBy: elect.FaultLoss}},
		{"delay:msg=1,d=2;delay:msg=1,d=3;dup:msg=1;dup:msg=1", messageFate{number: 1, late: 5, duplicated: true}},
		{"partition:0|1@1-5", messageFate{number: 1}},                               // sent at time 0, before the window
		{"partition:0|2@0-5", messageFate{number: 1}},                               // not across it
		{"partition:1|0@0-5", messageFate{number: 1, lostBy: elect.FaultPartition}}, // either way
	} {
		p := plan(t, c.spec, 3, 1)
		if got := p.fateOfNextMessage(0, 1, 0, 1); got != c.want {
			t.Errorf("%s: message 1 from node 0 to node 1 at time 0: %+v, want %+v", c.spec, got, c.want)
		}
	}
	// Under random delays a tick is a fraction of a time unit: a partition
	// from time 1 starts at tick Unit.
	p := plan(t, "partition:0|1@1-2", 2, 1)
	unit := int64(election.RandomDelayTicks)
	for _, c := range []struct {
		tick int64
		lost bool
	}{{unit - 1, false}, {unit, true}, {2*unit - 1, true}, {2 * unit, false}} {
		if got := p.fateOfNextMessage(0, 1, c.tick, unit).lostBy != 0; got != c.lost {
			t.Errorf("partition 1-2, tick %d of unit %d: lost %v, want %v", c.tick, unit, got, c.lost)
		}
	}
}

// TestProbabilisticClauseDrawsForEveryMessage: loss:p=0.5 draws from its
// own stream (purpose faults-loss, its index) once per message, even for a
// message an earlier clause loses, so its hits are those of that stream's
// draws in order.
func TestProbabilisticClauseDrawsForEveryMessage(t *testing.T) {
	const seed = 7
	p := plan(t, "loss:msg=1;crash:k=1;loss:p=0.5", 3, seed)
	stream := election.Stream(seed, "faults-loss", 2)
	for no := int64(1); no <= 200; no++ {
		want := stream.Float64() < 0.5 || no == 1
		if got := p.fateOfNextMessage(0, 1, 0, 1); got.number != no || (got.lostBy != 0) != want {
			t.Fatalf("message %d: %+v, want lost %v", no, got, want)
		}
	}
}
