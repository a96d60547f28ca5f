package reference_test

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// TestReplayVersion1: a trace in the first format (no header, no send or
// state lines, "halt" for "terminate"), made here from a version 2 trace,
// still replays to the run it records; a version 2 trace of another
// algorithm or size is refused by its header, and a truncated one by its
// marker.
func TestReplayVersion1(t *testing.T) {
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "peterson", N: 12, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var v2 bytes.Buffer
	c := *cfg
	c.Trace = &v2
	want, err := sim.Run(c)
	if err != nil {
		t.Fatal(err)
	}
	var v1 strings.Builder
	newLines := regexp.MustCompile(`"ev":"(header|send|state)"`)
	for _, line := range strings.SplitAfter(v2.String(), "\n") {
		if !newLines.MatchString(line) {
			v1.WriteString(strings.Replace(line, `"ev":"terminate"`, `"ev":"halt"`, 1))
		}
	}
	got, err := reference.Replay(*cfg, strings.NewReader(v1.String()))
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome != want.Outcome || got.LeaderID != want.LeaderID || !slices.Equal(got.TypeCounts, want.TypeCounts) {
		t.Errorf("version 1 replay: %s leader %d counts %v; the run: %s leader %d counts %v", got.Outcome, got.LeaderID, got.TypeCounts, want.Outcome, want.LeaderID, want.TypeCounts)
	}
	other, err := scenario.Build(scenario.Spec{Algorithm: "peterson", N: 13, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reference.Replay(*other, bytes.NewReader(v2.Bytes())); err == nil || !strings.Contains(err.Error(), "at n = 12, not of peterson at n = 13") {
		t.Errorf("another n: %v", err)
	}
	c.Trace, c.TraceLimit = new(bytes.Buffer), 3000
	sim.Run(c)
	if _, err := reference.Replay(*cfg, c.Trace.(*bytes.Buffer)); err == nil || !strings.Contains(err.Error(), "size limit") {
		t.Errorf("a truncated trace: %v", err)
	}
}
