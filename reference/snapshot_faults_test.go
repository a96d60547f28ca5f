package reference_test

import (
	"reflect"
	"testing"

	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
)

// TestSnapshotUnderFaults: a snapshot of a run with faults carries the
// fault schedule's state (messages numbered, random draws made, steps
// counted, crashes pending), so that the run continued and two restores
// of it end as the run without a snapshot does.
func TestSnapshotUnderFaults(t *testing.T) {
	cfg, err := scenario.Build(scenario.Spec{Algorithm: "lcr", N: 12, Delivery: "random", Seed: 4,
		Faults: "loss:p=0.03;dup:p=0.2;delay:p=0.2,d=2;crash:node=3@step=3;crash:k=1,by=12"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := reference.Run(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	if f := want.Faults; f == nil || f.Lost == 0 || f.Duplicated == 0 || f.Delayed == 0 || len(f.Crashed) == 0 || want.Events < 40 {
		t.Fatalf("the run has %d events and faults %+v: want every kind, and a middle to snapshot in", want.Events, want.Faults)
	}
	e, err := reference.New(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	for range want.Events / 2 {
		e.Step()
	}
	snap, err := e.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	for _, which := range []string{"restored", "continued", "restored again"} {
		run := e
		if which != "continued" {
			if run, err = snap.Restore(nil); err != nil {
				t.Fatal(err)
			}
		}
		got, err := run.Run()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v\nwant %+v", which, *got, *want)
		}
	}
}
