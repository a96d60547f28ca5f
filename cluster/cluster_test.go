package cluster

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// initCluster writes a cluster for spec in a temporary directory.
func initCluster(t testing.TB, spec scenario.Spec) (string, *Description) {
	dir := t.TempDir()
	d, err := Init(dir, spec, InitOptions{Host: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	return dir, d
}

// runInProcess runs every node of the cluster on goroutines of this
// process (each with real sockets and TLS) and returns their lines.
func runInProcess(t testing.TB, dir string, n int, opt NodeOptions) ([]*NodeResult, []error) {
	res := make([]*NodeResult, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := opt
			o.Index = i
			res[i], errs[i] = RunNode(dir, o)
		}()
	}
	wg.Wait()
	return res, errs
}

func TestClusterInProcess(t *testing.T) {
	for _, c := range []struct {
		alg string
		n   int
	}{{"lcr", 8}, {"hs", 12}, {"peterson", 16}, {"afek-gafni", 10}, {"echo", 9}} {
		t.Run(c.alg, func(t *testing.T) {
			spec := scenario.Spec{Algorithm: c.alg, N: c.n, Seed: 3}
			if c.alg == "echo" {
				spec.Topology = "grid:3x3"
			}
			dir, d := initCluster(t, spec)
			res, errs := runInProcess(t, dir, c.n, NodeOptions{Timeout: 5 * time.Second})
			for i, err := range errs {
				if err != nil {
					t.Fatalf("node %d: %v", i, err)
				}
			}
			rec, err := Judge(d, nil, res, nil)
			if err != nil {
				t.Fatal(err)
			}
			cfg, _ := scenario.Build(d.Spec(nil))
			want, _ := sim.Run(*cfg)
			if rec.Outcome != sim.OutcomeElected || rec.LeaderID != want.LeaderID && c.alg != "afek-gafni" {
				t.Fatalf("tcp: %s leader %d (%s); simulator: leader %d", rec.Outcome, rec.LeaderID, rec.Violation, want.LeaderID)
			}
			if c.alg == "lcr" && rec.Messages != want.Messages {
				t.Errorf("lcr on tcp: %d messages; simulator %d", rec.Messages, want.Messages)
			}
			for _, ch := range rec.Checks {
				if !ch.Holds {
					t.Errorf("check failed: %s %v %s %v", ch.Name, ch.Actual, ch.Relation, ch.Expected)
				}
			}
		})
	}
}

var _ = bytes.NewBuffer
