package elect_test

import (
	"reflect"
	"testing"

	"elect"
	"elect/catalog"
)

// TestNewAllBuildsWhatNewBuilds checks, for every algorithm that builds a
// network's nodes at once, that they equal the nodes New builds one by one.
func TestNewAllBuildsWhatNewBuilds(t *testing.T) {
	infos := []elect.NodeInfo{
		{ID: 5, Degree: 2},
		{ID: 0, Degree: 2, N: 3, Announce: true},
		{ID: 1 << 40, Degree: 2, Params: elect.Params{"variant": "untagged"}},
	}
	checked := 0
	for _, alg := range catalog.All() {
		if alg.NewAll == nil {
			continue
		}
		checked++
		nodes := make([]elect.Node, len(infos))
		alg.NewAll(nodes, func(i int) elect.NodeInfo { return infos[i] })
		for i, info := range infos {
			if one := alg.New(info); !reflect.DeepEqual(one, nodes[i]) {
				t.Errorf("%s: NewAll built %+v for %+v, New %+v", alg.Name, nodes[i], info, one)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no algorithm has NewAll")
	}
}
