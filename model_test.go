package elect_test

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
)

// TestNewAllBuildsWhatNewBuilds checks, for every algorithm that builds a
// network's nodes at once, that they equal the nodes New builds one by one,
// also when NewAll reuses a released network's nodes.
func TestNewAllBuildsWhatNewBuilds(t *testing.T) {
	networks := [][]elect.NodeInfo{
		{
			{ID: 5, Degree: 2, N: 3},
			{ID: 0, Degree: 2, N: 3, Announce: true},
			{ID: 1 << 40, Degree: 2, N: 3},
		},
		{
			{ID: 9, Degree: 3, N: 2},
			{ID: 3, Degree: 1, N: 2, Announce: true},
		},
	}
	checked := 0
	for _, alg := range catalog.All() {
		if alg.NewAll == nil {
			continue
		}
		checked++
		params := elect.Params{}
		for _, p := range alg.Params {
			params[p.Name] = p.Default
		}
		for _, infos := range networks {
			for i := range infos {
				infos[i].Params = params
			}
			nodes := make([]elect.Node, len(infos))
			arr := alg.NewAll(nodes, func(i int) elect.NodeInfo { return infos[i] })
			first, size := arr.Layout()
			words := arr.Words()
			for i, info := range infos {
				if one := alg.New(info); !reflect.DeepEqual(one, nodes[i]) {
					t.Errorf("%s: NewAll built %+v for %+v, New %+v", alg.Name, nodes[i], info, one)
				}
				// The array's layout addresses the nodes the runtime holds.
				data := (*[2]unsafe.Pointer)(unsafe.Pointer(&nodes[i]))[1]
				if at := unsafe.Add(first, uintptr(i)*size); at != data {
					t.Errorf("%s: node %d is at %p, Layout puts it at %p", alg.Name, i, data, at)
				}
				// Its runtime word, if the nodes have them (node and word
				// in 64 bytes), is zero, within its slot and not in the
				// node (the word is before it in a NodeBlocks slot).
				if words == nil {
					if size <= 56 {
						t.Errorf("%s: nodes of %d bytes have no runtime word", alg.Name, size)
					}
					continue
				}
				w := unsafe.Add(words, uintptr(i)*size)
				if *(*uint64)(w) != 0 || uintptr(data)-uintptr(w) < 8 || uintptr(data)-uintptr(w) >= size || size > 64 {
					t.Errorf("%s: node %d at %p (slots of %d bytes) has its runtime word at %p, holding %d", alg.Name, i, data, size, w, *(*uint64)(w))
				}
			}
			// Dirty the nodes, as a run does, before handing them back.
			for _, node := range nodes {
				node.Wake(nopEnv{}, true)
			}
			arr.Release()
		}
	}
	if checked != len(catalog.All()) {
		t.Errorf("%d of %d algorithms have NewAll", checked, len(catalog.All()))
	}
}

// nopEnv is an Env that drops everything.
type nopEnv struct{}

func (nopEnv) Send(elect.Port, elect.Message) {}
func (nopEnv) Decide(elect.Decision)          {}
func (nopEnv) SetLeader(elect.ID)             {}
func (nopEnv) SetTimer(int64, int64)          {}
func (nopEnv) Round() int64                   { return 0 }
func (nopEnv) Rand() *rand.Rand               { return rand.New(rand.NewPCG(1, 2)) }
func (nopEnv) Terminate()                     {}
