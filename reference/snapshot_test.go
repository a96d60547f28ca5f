package reference_test

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
)

// TestSnapshotRestoreContinue: for every catalog algorithm, a run stopped
// after k events, snapshotted, and continued, both by the engine that was
// stopped and by one restored from the snapshot, ends exactly as the run
// that went straight through: the same result, and the same trace (the
// restored engine writes the part after the snapshot). Snapshots are taken
// at several points of each run, early and late, and a snapshot is restored
// twice, so that a clone sharing memory with its original (or with another
// clone) would show.
func TestSnapshotRestoreContinue(t *testing.T) {
	for _, alg := range catalog.All() {
		topo := ""
		if alg.Model.Topology == elect.General {
			topo = "grid:3x3"
		}
		for _, delivery := range []string{"fifo", "random", "sync", "newest-first"} {
			s := scenario.Spec{Algorithm: alg.Name, N: 9, Topology: topo, Delivery: delivery, Seed: 4,
				Announce: alg.Model.Announce == elect.OptionalAnnounce}
			cfg, err := scenario.Build(s)
			if err != nil {
				continue // not in this algorithm's model
			}
			var straight bytes.Buffer
			cfg.Trace = &straight
			want, err := reference.Run(*cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []int64{1, 5, want.Events / 2, want.Events - 1} {
				name := fmt.Sprintf("%s/%s/after %d of %d events", alg.Name, delivery, k, want.Events)
				var first bytes.Buffer
				cfg.Trace = &first
				e, err := reference.New(*cfg)
				if err != nil {
					t.Fatal(err)
				}
				for range k {
					e.Step()
				}
				snap, err := e.Snapshot()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				var restored, again bytes.Buffer
				r1, err := snap.Restore(&restored)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := e.Run()
				gotRestored, _ := r1.Run()
				r2, _ := snap.Restore(&again)
				gotAgain, _ := r2.Run()
				for which, r := range map[string]any{"continued": got, "restored": gotRestored, "restored again": gotAgain} {
					if !reflect.DeepEqual(r, want) {
						t.Errorf("%s: the %s run ended %+v, the straight one %+v", name, which, r, want)
					}
				}
				if !bytes.Equal(first.Bytes(), straight.Bytes()) {
					t.Errorf("%s: the continued run's trace differs from the straight one's", name)
				}
				if !bytes.HasSuffix(straight.Bytes(), restored.Bytes()) || !bytes.Equal(restored.Bytes(), again.Bytes()) {
					t.Errorf("%s: the restored runs' traces (%d and %d bytes) are not the end of the straight one's (%d bytes)",
						name, restored.Len(), again.Len(), straight.Len())
				}
			}
		}
	}
}
