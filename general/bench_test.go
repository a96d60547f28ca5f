package general_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// BenchmarkEchoGrid measures echo on W x W grids with random IDs: every
// node initiating (extinction at work) and only the maximum initiating
// (exactly 2|E| wave messages plus n-1 LEADER), under unit-delay FIFO and
// random delays. The 1000x1000 grid (10^6 nodes, about 2*10^6 edges) runs
// under fifo only, and is skipped with -short. Reports messages per second of wall time, messages per
// run, and the time to build the grid once.
func BenchmarkEchoGrid(b *testing.B) {
	for _, w := range []int{10, 100, 316, 1000} {
		if w == 1000 && testing.Short() {
			continue
		}
		g, ids, build := gridWithIDs(b, w)
		for _, wake := range []string{"all", "max"} {
			for _, d := range []election.Delivery{election.FIFO, election.Random} {
				if w == 1000 && d != election.FIFO {
					continue // minutes per run; fifo shows the scale
				}
				b.Run(fmt.Sprintf("grid=%dx%d/initiators=%s/delivery=%s", w, w, wake, d), func(b *testing.B) {
					cfg := election.Config{Algorithm: general.Echo, Graph: g, IDs: ids, Delivery: d, Announce: true, Seed: 1}
					if wake == "max" {
						cfg.Wake = []election.Wake{{Node: argmax(ids)}}
					}
					benchSim(b, cfg)
					b.ReportMetric(build, "build-s")
				})
			}
		}
	}
}

// BenchmarkFloodMaxGrid measures flood-max on W x W grids with the exact
// diameter 2W-2 as the bound: (2W-2)*2|E| messages in 2W-2 rounds.
func BenchmarkFloodMaxGrid(b *testing.B) {
	for _, w := range []int{10, 100} {
		g, ids, _ := gridWithIDs(b, w)
		b.Run(fmt.Sprintf("grid=%dx%d", w, w), func(b *testing.B) {
			benchSim(b, election.Config{Algorithm: general.FloodMax, Graph: g, IDs: ids, Delivery: election.Sync, Seed: 1,
				Params: elect.Params{"diam": fmt.Sprint(2*w - 2), "variant": "every-round"}})
		})
	}
}

// gridWithIDs builds the w x w grid, a random permutation of IDs, and the
// seconds the build took.
func gridWithIDs(b *testing.B, w int) (*topology.Graph, []elect.ID, float64) {
	b.Helper()
	start := time.Now()
	g, err := topology.Grid(w, w)
	if err != nil {
		b.Fatal(err)
	}
	build := time.Since(start).Seconds()
	return g, permutedIDs(rand.New(rand.NewPCG(1, 2)), g.N), build
}

// benchSim runs cfg once per iteration, checks that it elected, and reports
// messages per second and per run.
func benchSim(b *testing.B, cfg election.Config) {
	var msgs, runs int64
	for b.Loop() {
		res, err := sim.Run(cfg)
		if err != nil {
			b.Fatal(err)
		}
		if res.Outcome != election.OutcomeElected {
			b.Fatalf("outcome %s %s", res.Outcome, res.Violation)
		}
		msgs += res.Messages
		runs++
	}
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(msgs)/float64(runs), "msgs/op")
}

// BenchmarkGHS measures ghs on W x W grids and on complete graphs (ID-derived
// weights, all initiating, unit-delay FIFO): messages per second of wall
// time and per run. The complete graph of 2048 nodes has about 2*10^6 edges.
func BenchmarkGHS(b *testing.B) {
	for _, w := range []int{10, 100, 316} {
		g, ids, _ := gridWithIDs(b, w)
		b.Run(fmt.Sprintf("grid=%dx%d", w, w), func(b *testing.B) {
			benchSim(b, election.Config{Algorithm: general.GHS, Graph: g, IDs: ids, Delivery: election.FIFO, Seed: 1})
		})
	}
	for _, n := range []int{256, 2048} {
		b.Run(fmt.Sprintf("complete=%d", n), func(b *testing.B) {
			benchSim(b, election.Config{Algorithm: general.GHS, Graph: topology.NewComplete(n), IDs: permutedIDs(rand.New(rand.NewPCG(1, 2)), n), Delivery: election.FIFO, Seed: 1})
		})
	}
}

// BenchmarkPetersonMesh measures peterson-mesh on W x W grids (random IDs,
// all initiating, FIFO and random delays): messages per second of wall time
// and per run (about 7n).
func BenchmarkPetersonMesh(b *testing.B) {
	for _, w := range []int{10, 100, 316} {
		g, ids, _ := gridWithIDs(b, w)
		for _, d := range []election.Delivery{election.FIFO, election.Random} {
			b.Run(fmt.Sprintf("grid=%dx%d/delivery=%s", w, w, d), func(b *testing.B) {
				benchSim(b, election.Config{Algorithm: general.PetersonMesh, Graph: g, IDs: ids, Delivery: d, Announce: true, Seed: 1})
			})
		}
	}
}
