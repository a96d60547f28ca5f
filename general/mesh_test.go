package general_test

import (
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// meshCorners returns the corners of the w x h grid of topology.Grid (node
// x + w*y) in their order round the border, and the sides between them:
// corner i to corner i+1 is gaps[i] links along the border.
func meshCorners(w, h int) (corners [4]int, gaps [4]int) {
	return [4]int{0, w - 1, w*h - 1, w * (h - 1)}, [4]int{w - 1, h - 1, w - 1, h - 1}
}

// meshElectCount is the number of ELECT messages worked out from the corners'
// IDs alone, without the nodes: each corner's ID goes each way round the
// border until it reaches a corner with a smaller ID, or its own corner.
func meshElectCount(w, h int, idList []elect.ID) int64 {
	corners, gaps := meshCorners(w, h)
	var total int64
	for i := range 4 {
		for _, dir := range []int{1, 3} { // +1 and -1 mod 4
			j := i
			for {
				next := (j + dir) % 4
				if dir == 1 {
					total += int64(gaps[j])
				} else {
					total += int64(gaps[next])
				}
				j = next
				if j == i || idList[corners[j]] < idList[corners[i]] {
					break
				}
			}
		}
	}
	return total
}

// TestPetersonMeshCountsExactly: on grids of several shapes, under every
// delivery model, with random, increasing and decreasing IDs, all or some
// starters: the corner with the smallest ID is elected and known to all,
// WAKEUP is exactly 2m, LEADER exactly 2m - n + 1, and ELECT exactly the
// count worked out from the corners' IDs (it does not depend on the
// schedule); every declared bound holds.
func TestPetersonMeshCountsExactly(t *testing.T) {
	shapes := [][2]int{{2, 2}, {3, 3}, {3, 7}, {8, 3}, {4, 4}, {5, 9}, {16, 11}}
	for _, wh := range shapes {
		w, h := wh[0], wh[1]
		g, err := topology.Grid(w, h)
		if err != nil {
			t.Fatal(err)
		}
		n, m := g.N, int(g.Edges())
		corners, _ := meshCorners(w, h)
		for _, d := range []election.Delivery{election.Sync, election.FIFO, election.Random, election.NewestFirst} {
			for k, arrangement := range []string{"random", "increasing", "decreasing"} {
				for seed := uint64(1); seed <= 2; seed++ {
					idList := arrangedIDs(t, arrangement, n, seed)
					cfg := election.Config{Algorithm: general.PetersonMesh, Graph: g, IDs: idList, Delivery: d, Seed: seed, Announce: true}
					if seed == 2 && d != election.Sync {
						cfg.Wake = []election.Wake{{Node: n / 2}, {Node: n - 1 - k, At: 3}}
					}
					res, err := sim.Run(cfg)
					if err != nil {
						t.Fatal(err)
					}
					name := g.Name + "/" + d.String() + "/" + arrangement
					if res.Outcome != election.OutcomeElected || !res.AllKnowLeader {
						t.Fatalf("%s seed %d: %s (%s)", name, seed, res.Outcome, res.Violation)
					}
					best := idList[corners[0]]
					for _, c := range corners {
						best = min(best, idList[c])
					}
					if res.LeaderID != best {
						t.Errorf("%s seed %d: leader ID %d, want the smallest corner ID %d", name, seed, res.LeaderID, best)
					}
					if got, want := res.MessagesByType["WAKEUP"], int64(2*m); got != want {
						t.Errorf("%s seed %d: WAKEUP %d, want 2m = %d", name, seed, got, want)
					}
					if got, want := res.MessagesByType["LEADER"], int64(2*m-n+1); got != want {
						t.Errorf("%s seed %d: LEADER %d, want 2m-n+1 = %d", name, seed, got, want)
					}
					if got, want := res.MessagesByType["ELECT"], meshElectCount(w, h, idList); got != want {
						t.Errorf("%s seed %d: ELECT %d, want %d", name, seed, got, want)
					}
					for _, c := range res.Checks {
						if !c.Holds {
							t.Errorf("%s seed %d: %s: %v %s %v", name, seed, c.Name, c.Actual, c.Relation, c.Expected)
						}
					}
				}
			}
		}
	}
}

// TestPetersonMeshSyncTime: every node starting at round 0, the smallest
// corner's ID is back after exactly L = 2(a+b)-4 rounds (a border node knows
// its border links from round 1 on, so nothing waits), the flood reaches
// the opposite corner a+b-2 rounds later, and that corner's single LEADER
// lands one round after: exactly 3(a+b) - 5 rounds, whichever corner wins.
func TestPetersonMeshSyncTime(t *testing.T) {
	for _, wh := range [][2]int{{2, 2}, {3, 3}, {3, 10}, {7, 5}, {20, 30}} {
		g, err := topology.Grid(wh[0], wh[1])
		if err != nil {
			t.Fatal(err)
		}
		for _, arrangement := range []string{"random", "increasing", "decreasing"} {
			res := runArranged(t, general.PetersonMesh, g, arrangement, election.Sync)
			if want := float64(3*(wh[0]+wh[1]) - 5); res.Time != want {
				t.Errorf("%s, ids %s: %v rounds, want 3(a+b)-5 = %v", g.Name, arrangement, res.Time, want)
			}
		}
	}
}

// TestPetersonMeshOneNode: the mesh of one node elects it without a message.
func TestPetersonMeshOneNode(t *testing.T) {
	g, err := topology.Grid(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	res := runArranged(t, general.PetersonMesh, g, "random", election.FIFO)
	if res.Messages != 0 || res.Time != 0 {
		t.Errorf("1x1: %d messages, time %v; want none", res.Messages, res.Time)
	}
}

// TestMeshSidesAndCheckRun: the sides are recovered from the node and link
// counts of every grid; PetersonMesh runs on sides >= 3, 2x2 and 1x1, and
// refuses grids two or one nodes wide, rings (but the 4-ring, which is the
// 2x2 grid), tori and hypercubes.
func TestMeshSidesAndCheckRun(t *testing.T) {
	for w := 1; w <= 12; w++ {
		for h := 1; h <= 12; h++ {
			g, err := topology.Grid(w, h)
			if err != nil {
				t.Fatal(err)
			}
			a, b, ok := general.MeshSides(g.N, int(g.Edges()))
			if a != min(w, h) || b != max(w, h) {
				t.Errorf("grid %dx%d: sides %d, %d", w, h, a, b)
			}
			want := min(w, h) >= 3 || (w == 2 && h == 2) || (w == 1 && h == 1)
			err = general.PetersonMesh.CheckRun(elect.BoundContext{N: g.N, Edges: int(g.Edges())})
			if ok != want || (err == nil) != want {
				t.Errorf("grid %dx%d: ok %v, CheckRun %v; want runs = %v", w, h, ok, err, want)
			}
		}
	}
	for _, c := range []struct{ n, m int }{{5, 5}, {100, 100}, {9, 18}, {16, 32}, {2, 2}, {3, 3}} {
		if err := general.PetersonMesh.CheckRun(elect.BoundContext{N: c.n, Edges: c.m}); err == nil {
			t.Errorf("n=%d m=%d: CheckRun accepts it", c.n, c.m)
		}
	}
	if err := general.PetersonMesh.CheckRun(elect.BoundContext{N: 4, Edges: 4}); err != nil {
		t.Errorf("the 4-ring (grid 2x2): %v", err)
	}
}
