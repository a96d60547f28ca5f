package experiment

import (
	"bytes"
	"context"
	"testing"
)

func testJobs(t *testing.T) ([]Job, *Grid) {
	t.Helper()
	g := &Grid{Algorithms: []string{"lcr", "pp:epidemic"}, Sizes: []int{8, 32, 64}, Trials: 10, Seed: 9}
	points, err := g.Points()
	if err != nil {
		t.Fatal(err)
	}
	return g.Jobs(points, Shard{}), g
}

// TestRunCancelKeepsAPrefix: cancelling a sweep (Ctrl-C) stops it; what was
// emitted is a prefix of the full sweep's output, in grid order.
func TestRunCancelKeepsAPrefix(t *testing.T) {
	jobs, g := testJobs(t)
	var full bytes.Buffer
	n, err := Run(context.Background(), jobs, g.Seed, Options{Workers: 3}, func(r *Result) error { full.Write(r.Line); return nil })
	if err != nil || n != len(jobs) {
		t.Fatalf("full sweep: %d of %d, %v", n, len(jobs), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var part bytes.Buffer
	n, err = Run(ctx, jobs, g.Seed, Options{Workers: 3}, func(r *Result) error {
		part.Write(r.Line)
		if r.Job.Index == 17 {
			cancel()
		}
		return nil
	})
	if err != context.Canceled {
		t.Fatalf("cancelled sweep returned %v after %d runs", err, n)
	}
	if n < 18 || !bytes.HasPrefix(full.Bytes(), part.Bytes()) || bytes.Count(part.Bytes(), []byte("\n")) != n {
		t.Fatalf("cancelled sweep emitted %d runs, not a prefix of the full sweep", n)
	}
}

// TestSeedsDoNotDependOnTheShardOrWorkers: job j's seed is a function of
// the master seed and its trial only.
func TestSeedsDoNotDependOnTheShardOrWorkers(t *testing.T) {
	jobs, g := testJobs(t)
	for _, j := range jobs {
		if j.Point.Kind == MessagePassing && j.Seed(g.Seed) != g.Seed+uint64(j.Trial) {
			t.Fatalf("job %d: seed %d", j.Index, j.Seed(g.Seed))
		}
	}
	points, _ := g.Points()
	seen := map[int]bool{}
	for i := 1; i <= 4; i++ {
		for _, j := range g.Jobs(points, Shard{i, 4}) {
			if seen[j.Index] {
				t.Fatalf("job %d in two shards", j.Index)
			}
			seen[j.Index] = true
		}
	}
	if len(seen) != len(jobs) {
		t.Fatalf("4 shards hold %d of %d jobs", len(seen), len(jobs))
	}
}

// TestSummarizeCI: the 95% interval of 1..5 is 3 +- t(4) * sd/sqrt(5), with
// t(4) = 2.776 and sd = sqrt(2.5).
func TestSummarizeCI(t *testing.T) {
	s := Summarize([]float64{1, 2, 3, 4, 5}, 4, mustGrowth("n^2"))
	h := 2.776 * 1.5811388300841898 / 2.23606797749979
	if s.Mean != 3 || s.Min != 1 || s.Max != 5 || abs(s.Hi-3-h) > 1e-9 || abs(s.Lo-3+h) > 1e-9 || s.Fit != 3.0/16 {
		t.Fatalf("%+v", s)
	}
	if q := TQuantile975(1000); abs(q-1.9623) > 1e-3 {
		t.Fatalf("t(1000) = %v", q)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
