package cluster

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// summary is what must agree between the simulator, the cluster and the
// replay of the cluster's record: the outcome, the leader, the counts and
// the fault report (the crashed nodes as a set, and the cause when one
// fault happened: a runtime with real timing reports its faults in the
// order they happened there).
func summary(r *election.Result, withCause bool) string {
	f := r.Faults
	if f == nil {
		return fmt.Sprintf("%s leader %d messages %d, no fault report", r.Outcome, r.LeaderID, r.Messages)
	}
	cause := ""
	if withCause && f.Lost+f.Duplicated+f.Delayed+int64(len(f.Crashed)) == 1 {
		cause = f.Cause
	}
	return fmt.Sprintf("%s leader %d messages %d; injected %s lost %d dup %d delayed %d crashed %v verdict %s; %s",
		r.Outcome, r.LeaderID, r.Messages, f.Injected, f.Lost, f.Duplicated, f.Delayed,
		slices.Sorted(slices.Values(f.Crashed)), f.Verdict, cause)
}

// TestFaultsOnTCP runs LCR clusters in process (real sockets, TLS) under
// fault schedules: the same outcome, counts and fault report as the
// simulator, and the merged record replays on the reference engine to the
// same result as the cluster's.
func TestFaultsOnTCP(t *testing.T) {
	cases := []struct {
		faults string
		seed   uint64
		ids    string // "": random
	}{
		{"loss:msg=3", 3, ""},
		{"loss:msg=5", 3, ""}, // the leader's first hop: no leader
		{"dup:msg=5;loss:msg=12", 3, ""},
		{"partition:0-2|3-5@1-3", 1, ""},
		{"crash:node=4@step=1", 3, ""},
		{"crash:node=2@step=2;loss:p=0.1", 2, ""},
		// A late message may be overtaken, in wall time: its delay must not
		// decide what happens (under increasing IDs node 1's ID is
		// swallowed by node 2 whenever it arrives).
		{"delay:msg=2,d=2", 1, "increasing"},
	}
	if testing.Short() {
		cases = cases[:4]
	}
	for _, c := range cases {
		t.Run(c.faults, func(t *testing.T) {
			n := 6
			dir, d := initCluster(t, scenario.Spec{Algorithm: "lcr", N: n, Seed: c.seed, Faults: c.faults, IDs: c.ids})
			cfg, err := scenario.Build(d.Spec(nil))
			if err != nil {
				t.Fatal(err)
			}
			want, err := sim.Run(*cfg)
			if err != nil {
				t.Fatal(err)
			}
			if want.Faults.Verdict == election.VerdictNone {
				t.Fatalf("the schedule hits nothing: the case says nothing")
			}
			traces := t.TempDir()
			res := make([]*NodeResult, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					f, err := os.Create(filepath.Join(traces, NodeName(i)+".jsonl"))
					if err != nil {
						errs[i] = err
						return
					}
					defer f.Close()
					res[i], errs[i] = RunNode(dir, NodeOptions{Index: i, Timeout: 10 * time.Second, Trace: f})
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("node %d: %v", i, err)
				}
			}
			rec, err := Judge(d, nil, res, nil)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Faults != cfg.Faults.String() {
				t.Errorf("the record's faults_spec %q, want %q", rec.Faults, cfg.Faults.String())
			}
			// Judge's cause is the first fault (it does not see the path);
			// the replay's, compared below, is the monitor's.
			if g, w := summary(rec.Result, false), summary(want, false); g != w {
				t.Fatalf("\ntcp       %s\nsimulator %s", g, w)
			}
			merged := filepath.Join(traces, "merged.jsonl")
			if err := mergeTraces(traces, n, merged); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(merged)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rc := *cfg
			rc.Faults = nil // the record says what happened
			again, err := reference.Replay(rc, f)
			if err != nil {
				t.Fatalf("replaying the cluster's record: %v", err)
			}
			if g, w := summary(again, true), summary(want, true); g != w {
				t.Errorf("\nreplay    %s\nsimulator %s", g, w)
			}
		})
	}
}
