package experiment_test

import (
	"context"
	"fmt"

	"github.com/electkit/elect/experiment"
)

// Run a sweep: Hirschberg-Sinclair and Peterson on random rings of 16 and 64
// nodes, three trials each, and read the results in grid order (the same
// whatever the number of workers).
func ExampleRun() {
	grid := &experiment.Grid{Algorithms: []string{"hs", "peterson"}, Sizes: []int{16, 64}, Trials: 3, Seed: 1}
	points, err := grid.Points()
	if err != nil {
		panic(err)
	}
	jobs := grid.Jobs(points, experiment.Shard{Index: 1, Count: 1})
	elected := 0
	_, err = experiment.Run(context.Background(), jobs, grid.Seed, experiment.Options{Workers: 2}, func(r *experiment.Result) error {
		if r.Succeeded() {
			elected++
		}
		if r.Job.Trial == 0 {
			fmt.Println(r.MP.Algorithm, r.MP.N, r.MP.Outcome)
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(elected, "of", len(jobs), "runs elected")
	// Output:
	// hs 16 elected
	// hs 64 elected
	// peterson 16 elected
	// peterson 64 elected
	// 12 of 12 runs elected
}
