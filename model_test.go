package elect_test

import (
	"reflect"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
)

// TestInitBuildsWhatNewBuilds checks, for every catalog algorithm, that it
// can build its nodes in place (Init, which the fast simulator's node
// arrays need) and that a zero node set up by Init equals the node New
// builds for the same NodeInfo.
func TestInitBuildsWhatNewBuilds(t *testing.T) {
	infos := []elect.NodeInfo{
		{ID: 5, Degree: 2, N: 3},
		{ID: 0, Degree: 2, N: 3, Announce: true},
		{ID: 1 << 40, Degree: 2, N: 3},
		{ID: 9, Degree: 3, N: 2},
		{ID: 3, Degree: 1, N: 2, Announce: true},
	}
	for _, alg := range catalog.All() {
		if alg.Init == nil {
			t.Errorf("%s has no Init", alg.Name)
			continue
		}
		params := elect.Params{}
		for _, p := range alg.Params {
			params[p.Name] = p.Default
		}
		for _, info := range infos {
			info.Params = params
			one := alg.New(info)
			zero := reflect.New(reflect.TypeOf(one).Elem()).Interface().(elect.Node)
			alg.Init(zero, info)
			if !reflect.DeepEqual(one, zero) {
				t.Errorf("%s: Init set up %+v for %+v, New built %+v", alg.Name, zero, info, one)
			}
		}
	}
}
