package reference_test

import (
	"bytes"
	"testing"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// TestRecordsOfFaultsOnAWakeUpReplay: the engines write what a wake-up
// that a message causes did (its sends, the faults that hit them, a crash
// right after it) before the line of that message; the replay wakes the
// node when it reads the wake-up, with the message the record names next,
// so that those lines find what they speak of. HS on 4 nodes, node 0 the
// only initiator: message 3 is node 1's first probe, sent by the wake-up
// node 0's probe causes; losing it (simulator's record), or crashing node 1
// right after that wake-up (the reference engine's, whose record drops the
// message after the crash), replays to the run's counts, outcome and
// fault report. Before, the first replay stopped ("a lose line for a
// ELECTION message from node 1 to node 2, which is not in flight") and the
// second ended with messages in flight.
func TestRecordsOfFaultsOnAWakeUpReplay(t *testing.T) {
	for _, c := range []struct {
		faults string
		run    func(election.Config) (*election.Result, error)
	}{
		{"loss:msg=3", sim.Run},
		{"crash:node=1@step=1", reference.Run},
	} {
		cfg, err := scenario.Build(scenario.Spec{Algorithm: "hs", N: 4, IDs: "list:1,2,3,4", Initiators: "nodes:0@0"})
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Faults, err = faults.Parse(c.faults); err != nil {
			t.Fatal(err)
		}
		var record bytes.Buffer
		cfg.Trace = &record
		want, err := c.run(*cfg)
		if err != nil {
			t.Fatal(err)
		}
		replayCfg := *cfg
		replayCfg.Trace, replayCfg.Faults = nil, nil
		got, err := reference.Replay(replayCfg, bytes.NewReader(record.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", c.faults, err)
		}
		if got.Outcome != want.Outcome || got.Messages != want.Messages || got.Faults == nil || want.Faults == nil ||
			got.Faults.Verdict != want.Faults.Verdict || got.Faults.Lost != want.Faults.Lost || len(got.Faults.Crashed) != len(want.Faults.Crashed) {
			t.Errorf("%s: the replay gives %s, %d messages, %+v; the run %s, %d messages, %+v", c.faults, got.Outcome, got.Messages, got.Faults, want.Outcome, want.Messages, want.Faults)
		}
	}
}
