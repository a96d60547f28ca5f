package sim

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/topology"
)

// TestNodeArrayLayout checks what the speed layer assumes of the nodes it
// lays out in arrays: for every catalog algorithm, on rings and complete
// graphs, node i rebuilt from the type word and its slot's address is a
// node of the algorithm's type, set up as New sets it up for node i's info,
// and its status word is zero; a run on the same store twice (its arrays
// reused) gives the same nodes again.
func TestNodeArrayLayout(t *testing.T) {
	for _, alg := range catalog.All() {
		params := elect.Params{}
		for _, p := range alg.Params {
			params[p.Name] = p.Default
		}
		for _, g := range []*topology.Graph{topology.NewRing(7), topology.NewComplete(5)} {
			ids := make([]elect.ID, g.N)
			for i := range ids {
				ids[i] = elect.ID(3*i + 1)
			}
			cfg := &election.Config{Algorithm: alg, Graph: g, IDs: ids, Delivery: election.FIFO, Params: params}
			info := cfg.NodeInfos()
			for round := range 2 {
				var s nodeStore
				s.build(cfg, new(buffers))
				if s.first == nil {
					t.Fatalf("%s: the nodes are not in an array", alg.Name)
				}
				for i := range g.N {
					got := s.node(int32(i))
					want := alg.New(info(i))
					if reflect.TypeOf(got) != reflect.TypeOf(want) {
						t.Fatalf("%s: node %d is a %T, New builds a %T", alg.Name, i, got, want)
					}
					gs, ws := got.(elect.Snapshotter).AppendState(nil), want.(elect.Snapshotter).AppendState(nil)
					if !bytes.Equal(gs, ws) || *s.st(int32(i)) != 0 {
						t.Errorf("%s, round %d: node %d in the array is not New's node for its info (status %d)", alg.Name, round, i, *s.st(int32(i)))
					}
					if reflect.ValueOf(got).Pointer() != uintptr(s.nodeData(int32(i))) {
						t.Errorf("%s: node %d's interface does not point at its slot", alg.Name, i)
					}
				}
				s.release(new(buffers))
			}
		}
	}
}
