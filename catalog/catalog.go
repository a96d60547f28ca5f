// Package catalog lists every message-passing election algorithm the tool
// knows, in the order they are presented to users.
package catalog

import (
	"github.com/electkit/elect"
	"github.com/electkit/elect/complete"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/ring"
)

// all is the catalog, grouped by topology class.
var all = []*elect.Algorithm{
	ring.LCR,
	ring.ChangRoberts,
	ring.HS,
	ring.Peterson,
	ring.Franklin,
	ring.LCRRandom,
	ring.TimeSlice,
	ring.SlowFast,
	ring.ItaiRodeh,
	complete.AllToAll,
	complete.AfekGafni,
	general.Echo,
	general.FloodMax,
}

// All returns every algorithm.
func All() []*elect.Algorithm { return all }

// Lookup returns the algorithm called name.
func Lookup(name string) (*elect.Algorithm, bool) {
	for _, a := range all {
		if a.Name == name {
			return a, true
		}
	}
	return nil, false
}

// Names returns the algorithms' names in catalog order.
func Names() []string {
	names := make([]string, len(all))
	for i, a := range all {
		names[i] = a.Name
	}
	return names
}
