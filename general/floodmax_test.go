package general_test

import (
	"fmt"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// floodConfig is a synchronous FloodMax run with the given parameters.
func floodConfig(g *topology.Graph, ids []elect.ID, diam, variant string, seed uint64) election.Config {
	return election.Config{Algorithm: general.FloodMax, Graph: g, IDs: ids, Delivery: election.Sync, Seed: seed,
		Params: elect.Params{"diam": diam, "variant": variant}}
}

// TestFloodMaxSendsDiamTimesTwoEInDiamRounds: Lynch §4.1.2 — in each of diam
// rounds every node sends max-uid on each of its ports, so exactly
// diam*2|E| messages, and every node decides after round diam. Checked with
// the default bound n-1 and with the exact diameter (the smallest valid
// bound), on every topology; the maximum is elected and every node knows it.
// The on-change variant (OptFloodMax) elects the same node in the same time
// with 2|E| <= messages <= diam*2|E|.
func TestFloodMaxSendsDiamTimesTwoEInDiamRounds(t *testing.T) {
	for _, tp := range topologies(t) {
		for seed := range uint64(5) {
			g, ids := build(t, tp, seed)
			exact := g.Diameter()
			for _, diam := range []string{"n-1", fmt.Sprint(exact)} {
				rounds := int64(exact)
				if diam == "n-1" {
					rounds = int64(g.N - 1)
				}
				what := fmt.Sprintf("%s n=%d diam %s seed %d", tp.spec, g.N, diam, seed)
				res := run(t, floodConfig(g, ids, diam, "every-round", seed))
				if want := rounds * 2 * g.Edges(); res.Messages != want || res.Time != float64(rounds) {
					t.Fatalf("%s: %d messages in %v rounds, want %d in %d", what, res.Messages, res.Time, want, rounds)
				}
				if res.LeaderIndex != argmax(ids) || !res.AllKnowLeader {
					t.Fatalf("%s: leader %d, want %d; all informed %v", what, res.LeaderIndex, argmax(ids), res.AllKnowLeader)
				}
				opt := run(t, floodConfig(g, ids, diam, "on-change", seed))
				low := 2 * g.Edges()
				if rounds == 0 {
					low = 0
				}
				if opt.LeaderIndex != res.LeaderIndex || opt.Time != res.Time || opt.Messages < low || opt.Messages > res.Messages {
					t.Fatalf("%s on-change: leader %d, %d messages, time %v; want leader %d, messages in [%d, %d], time %v",
						what, opt.LeaderIndex, opt.Messages, opt.Time, res.LeaderIndex, low, res.Messages, res.Time)
				}
			}
		}
	}
}

// TestFloodMaxOnChangeLineOfThreeByHand: the line a - b - c with IDs 1, 3,
// 2 and diam 2. Round 1: a->b 1, b->a 3, b->c 3, c->b 2 (4 messages); a and
// c learn 3, b learns nothing larger. Round 2: only a and c, whose max-uid
// grew, send (2 messages). on-change: 6 messages; every-round: 2*2|E| = 8.
func TestFloodMaxOnChangeLineOfThreeByHand(t *testing.T) {
	g, err := topology.Line(3)
	if err != nil {
		t.Fatal(err)
	}
	ids := []elect.ID{1, 3, 2}
	for variant, want := range map[string]int64{"on-change": 6, "every-round": 8} {
		res := run(t, floodConfig(g, ids, "2", variant, 1))
		if res.Messages != want || res.Time != 2 || res.LeaderIndex != 1 {
			t.Errorf("%s: %d messages, time %v, leader %d; want %d, 2, 1", variant, res.Messages, res.Time, res.LeaderIndex, want)
		}
	}
}

// TestFloodMaxBelowTheDiameterFails: the bound matters. On the line with IDs
// 4, 0, 1, 2, 3 (diameter 4) and diam 1, node 4 sees only its neighbour's 2
// and keeps 3 as its maximum: nodes 0 and 4 are both elected.
func TestFloodMaxBelowTheDiameterFails(t *testing.T) {
	g, err := topology.Line(5)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(floodConfig(g, []elect.ID{4, 0, 1, 2, 3}, "1", "every-round", 1))
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != election.MultipleLeaders || res.Leaders != 2 {
		t.Errorf("outcome %s with %d leaders; want multiple-leaders with 2", res.Outcome, res.Leaders)
	}
}

// TestFloodMaxParams: --diam takes n-1 or a non-negative number; --variant
// every-round or on-change.
func TestFloodMaxParams(t *testing.T) {
	check := map[string]func(string) error{}
	for _, p := range general.FloodMax.Params {
		check[p.Name] = p.Check
	}
	for _, ok := range []string{"n-1", "0", "17"} {
		if err := check["diam"](ok); err != nil {
			t.Errorf("--diam %s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"-1", "n", "x", "1e9999"} {
		if err := check["diam"](bad); err == nil {
			t.Errorf("--diam %s accepted", bad)
		}
	}
	if check["variant"]("on-change") != nil || check["variant"]("every-round") != nil || check["variant"]("literal") == nil {
		t.Error("--variant accepts exactly every-round and on-change")
	}
}
