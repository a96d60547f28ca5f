package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faultplan/resolve"
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
			if err := mergeTraces(traces, n, merged, nil); err != nil {
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

// TestNodeDescriptionCarriesItsPart: init resolves the schedule once and
// writes each node's part into that node's description alone, as
// json.MarshalIndent would write the description with it; the cluster's own
// description has no part.
func TestNodeDescriptionCarriesItsPart(t *testing.T) {
	spec := scenario.Spec{Algorithm: "lcr", N: 4, Seed: 3, Faults: "loss:msg=2;crash:node=3@step=1"}
	dir, d := initCluster(t, spec)
	cfg, err := scenario.Build(d.Spec(nil))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := resolve.Faults(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	top, _, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if top.FaultPlan != nil {
		t.Errorf("the cluster's description carries node %d's part", top.FaultPlan.Node)
	}
	for i := range 4 {
		data, err := os.ReadFile(filepath.Join(dir, NodeName(i), DescriptionFile))
		if err != nil {
			t.Fatal(err)
		}
		own := *d
		part := plan.Part(int32(i))
		own.FaultPlan = &part
		want, _ := json.MarshalIndent(&own, "", "  ")
		if string(data) != string(want)+"\n" {
			t.Errorf("node %d's description:\n%s\nwant:\n%s", i, data, want)
		}
		nd, _, err := Load(filepath.Join(dir, NodeName(i)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := json.Marshal(nd.FaultPlan); string(got) != mustJSON(t, part) {
			t.Errorf("node %d reads its part as %s, want %s", i, got, mustJSON(t, part))
		}
	}
	if c, ok := plan.CrashOf(3); !ok || c.Steps != 1 {
		t.Errorf("node 3's crash %+v %v: the case says nothing", c, ok)
	}
}

func mustLoad(t *testing.T, dir string) *Description {
	d, _, err := Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustJSON(t *testing.T, v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestOldFaultyDescriptionIsRefused: a node of a cluster written before
// init resolved the schedule (faults, no part) refuses to run, with a line
// that says to run init again; and init refuses faults it cannot resolve.
func TestOldFaultyDescriptionIsRefused(t *testing.T) {
	dir, _ := initCluster(t, scenario.Spec{Algorithm: "lcr", N: 3, Seed: 3, Faults: "loss:msg=2"})
	path := filepath.Join(dir, NodeName(1), DescriptionFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	delete(raw, "fault_plan")
	old, _ := json.MarshalIndent(raw, "", "  ")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = RunNode(dir, NodeOptions{Index: 1, Timeout: time.Second})
	if err == nil || !strings.Contains(err.Error(), "not this node's part") || !strings.Contains(err.Error(), "run 'elect cluster init' again") {
		t.Errorf("an old description with faults: %v, want a refusal saying to run init again", err)
	}
	// Node 0 still has its part: up's check reads node 0's.
	if err := CheckParts(dir, mustLoad(t, dir)); err != nil {
		t.Errorf("a cluster whose node 0 has its part: %v", err)
	}
	path0 := filepath.Join(dir, NodeName(0), DescriptionFile)
	data0, _ := os.ReadFile(path0)
	if err := json.Unmarshal(data0, &raw); err != nil {
		t.Fatal(err)
	}
	delete(raw, "fault_plan")
	old0, _ := json.MarshalIndent(raw, "", "  ")
	if err := os.WriteFile(path0, old0, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckParts(dir, mustLoad(t, dir)); err == nil || !strings.Contains(err.Error(), "run 'elect cluster init' again") {
		t.Errorf("up's check of an old faulty cluster: %v", err)
	}
	if _, _, err := Up(context.Background(), dir, UpOptions{Command: []string{"false"}}); err == nil || !strings.Contains(err.Error(), "fault_plan") {
		t.Errorf("Up of an old faulty cluster: %v, want the refusal before any node starts", err)
	}
	_, err = Init(t.TempDir(), scenario.Spec{Algorithm: "lcr", N: 3, Seed: 3, Faults: "loss:msg=2"}, InitOptions{Host: "127.0.0.1"})
	if err == nil || !strings.Contains(err.Error(), "ResolveFaults") {
		t.Errorf("init with faults and no resolver: %v", err)
	}
	// A part in a description without faults, or for no node of it, is
	// refused when read.
	for _, bad := range []string{`"faults": "", "fault_plan": {"node": 0}`, `"fault_plan": {"node": 7}`} {
		text := strings.Replace(string(data), `"fault_plan":`, `"x":`, 1)
		text = strings.Replace(text, `"ca": "ca.pem"`, `"ca": "ca.pem", `+bad, 1)
		if _, err := ParseDescription([]byte(text)); err == nil || !strings.Contains(err.Error(), "fault_plan") {
			t.Errorf("%s: %v, want a refusal of the fault_plan", bad, err)
		}
	}
}

// TestDelaysOnTCPAsInTheSimulator: on TCP a late message is late in the
// simulator's time (its sender holds it until nothing can pass it on its
// link, and node 0's waves release the earliest held messages when nothing
// else is left: faults.go), so LCR, whose node has one incoming link, takes
// the simulator's inputs in its order: the same messages, delayed count,
// time and verdict as the simulator's, and each node delays exactly the
// plan's messages. Before, a late message was held back in wall time, and
// LCR at n = 16 under delay:p=0.3,d=3, seed 3, sent 44 messages and delayed
// 14 against the simulator's 54 and 17.
func TestDelaysOnTCPAsInTheSimulator(t *testing.T) {
	cases := []struct {
		faults string
		n      int
		seed   uint64
	}{
		{"delay:p=0.3,d=3", 16, 3},
		{"delay:p=0.3,d=3", 8, 1},
		{"delay:p=0.5,d=5", 8, 3},
		{"delay:p=0.5,d=2;dup:p=0.1", 8, 1},
		{"delay:msg=1,d=4;loss:msg=9", 8, 2},
		{"delay:p=0.1,d=50", 12, 2},
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/n=%d/seed=%d", c.faults, c.n, c.seed), func(t *testing.T) {
			dir, d := initCluster(t, scenario.Spec{Algorithm: "lcr", N: c.n, Seed: c.seed, Faults: c.faults})
			cfg, err := scenario.Build(d.Spec(nil))
			if err != nil {
				t.Fatal(err)
			}
			want, err := sim.Run(*cfg)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := resolve.Faults(*cfg)
			if err != nil {
				t.Fatal(err)
			}
			res, errs := runInProcess(t, dir, c.n, NodeOptions{Timeout: 10 * time.Second})
			for i, err := range errs {
				if err != nil {
					t.Fatalf("node %d: %v", i, err)
				}
			}
			rec, err := Judge(d, nil, res, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := rec.Result
			if g, w := summary(got, false), summary(want, false); g != w || got.Time != want.Time {
				t.Errorf("\ntcp       %s, time %g\nsimulator %s, time %g", g, got.Time, w, want.Time)
			}
			delayed := 0
			for i, r := range res {
				var want, got []string
				for _, s := range plan.Hits(int32(i)) {
					if s.Delay > 0 && s.K <= r.Sent {
						want = append(want, fmt.Sprintf("no %d by %d", s.No, s.Delay))
					}
				}
				for _, ev := range r.Faults {
					if ev.Ev == "delay" {
						got = append(got, fmt.Sprintf("no %d by %d", ev.No, ev.By))
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("node %d sent %d messages and delayed %v; the plan delays %v of them", i, r.Sent, got, want)
				}
				delayed += len(got)
			}
			if delayed == 0 {
				t.Errorf("nothing was delayed: the case says nothing")
			}
		})
	}
}
