package sim_test

import (
	"reflect"
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// guardConfig is Hirschberg-Sinclair on a random ring of n nodes (seed
// 1) under delivery d, with the given faults ("" none).
func guardConfig(t *testing.T, n int, d election.Delivery, faultSpec string) election.Config {
	t.Helper()
	spec, err := ids.Parse("random")
	if err != nil {
		t.Fatal(err)
	}
	idList, err := spec.Generate(n, election.Stream(1, "ids", 0))
	if err != nil {
		t.Fatal(err)
	}
	cfg := election.Config{Algorithm: ring.HS, Graph: topology.NewRing(n), IDs: idList, Delivery: d, Seed: 1}
	if faultSpec != "" {
		if cfg.Faults, err = faults.Parse(faultSpec); err != nil {
			t.Fatal(err)
		}
	}
	return cfg
}

// TestQueueLimitStopsDuplicates (issue 42): every message of HS
// duplicated, the replies multiply at each hop, and a run's queues would
// grow without end; with Config.MaxQueueBytes the run stops with outcome
// memory-limit, under every delivery model with time, its figures those
// it had reached. (Newest-first delivery takes each message as soon as it
// is sent, depth first: its stack stays small and the event limit ends
// such a run.)
func TestQueueLimitStopsDuplicates(t *testing.T) {
	for _, d := range []election.Delivery{election.Sync, election.FIFO, election.Random, election.RandomFIFO} {
		cfg := guardConfig(t, 2000, d, "dup:p=1")
		cfg.MaxQueueBytes = 1 << 20
		cfg.MaxEvents = 1e8 // a bound for a test that fails
		res, err := sim.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != election.MemoryLimit || res.Faults.Verdict != election.VerdictCut || res.Messages == 0 {
			t.Errorf("%s: outcome %s, verdict %s, %d messages; want memory-limit, cut-short", d, res.Outcome, res.Faults.Verdict, res.Messages)
		}
	}
}

// TestQueueLimitStopsLateMessages: delayed messages wait in their own
// queue, which the limit holds too.
func TestQueueLimitStopsLateMessages(t *testing.T) {
	cfg := guardConfig(t, 2000, election.FIFO, "dup:p=1;delay:p=1,d=3")
	cfg.MaxQueueBytes = 1 << 20
	cfg.MaxEvents = 1e8
	res, err := sim.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != election.MemoryLimit {
		t.Errorf("outcome %s, want memory-limit", res.Outcome)
	}
}

// TestQueueLimitLeavesRunsThatFit: a run whose queues fit in the limit is
// the run without one, to the last count.
func TestQueueLimitLeavesRunsThatFit(t *testing.T) {
	for _, d := range []election.Delivery{election.Sync, election.FIFO, election.Random, election.NewestFirst} {
		for _, f := range []string{"", "dup:k=5", "dup:k=5;delay:p=0.1,d=2"} {
			if d == election.NewestFirst && f != "" {
				continue
			}
			cfg := guardConfig(t, 500, d, f)
			free, err := sim.Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.MaxQueueBytes = 1 << 30
			held, err := sim.Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(free, held) {
				t.Errorf("%s %q: with a limit %+v, without %+v", d, f, held, free)
			}
		}
	}
}
