// Package catalog lists the message-passing election algorithms a command
// knows, in the order they are presented to users. A Catalog is a value:
// Default holds the algorithms this module ships, and With extends it with a
// user's own, which a program hands to the whole command (cli.MainWith) to
// run, sweep, plot and list them like the shipped ones.
package catalog

import (
	"fmt"

	"github.com/electkit/elect"
	"github.com/electkit/elect/complete"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/ring"
)

// Catalog is an ordered list of algorithms with distinct names.
type Catalog struct {
	algs []*elect.Algorithm
}

// shipped is the default catalog, grouped by topology class.
var shipped = &Catalog{algs: []*elect.Algorithm{
	ring.LCR,
	ring.ChangRoberts,
	ring.HS,
	ring.Peterson,
	ring.Franklin,
	ring.DolevKlaweRodeh,
	ring.HighamPrzytycka,
	ring.StagesWithFeedback,
	ring.LCRRandom,
	ring.TimeSlice,
	ring.SlowFast,
	ring.ItaiRodeh,
	ring.ProbabilisticFranklin,
	complete.AllToAll,
	complete.AfekGafni,
	complete.Humblet,
	complete.KMZ,
	complete.LMW,
	complete.Bully,
	complete.RingSkip,
	general.Echo,
	general.FloodMax,
	general.GHS,
	general.YoYo,
	general.HyperElect,
	general.PetersonMesh,
}}

// Default returns the catalog of the algorithms this module ships.
func Default() *Catalog { return shipped }

// With returns a new catalog: c's algorithms, then algs. It refuses an
// algorithm without a name or a New, and a name already taken.
func (c *Catalog) With(algs ...*elect.Algorithm) (*Catalog, error) {
	out := &Catalog{algs: append([]*elect.Algorithm(nil), c.algs...)}
	for _, a := range algs {
		switch {
		case a == nil || a.Name == "":
			return nil, fmt.Errorf("catalog: an algorithm without a name")
		case a.New == nil:
			return nil, fmt.Errorf("catalog: algorithm %s has no New", a.Name)
		}
		if _, dup := out.Lookup(a.Name); dup {
			return nil, fmt.Errorf("catalog: two algorithms are called %s", a.Name)
		}
		out.algs = append(out.algs, a)
	}
	return out, nil
}

// All returns the algorithms in catalog order.
func (c *Catalog) All() []*elect.Algorithm { return c.algs }

// Lookup returns the algorithm called name.
func (c *Catalog) Lookup(name string) (*elect.Algorithm, bool) {
	for _, a := range c.algs {
		if a.Name == name {
			return a, true
		}
	}
	return nil, false
}

// Names returns the algorithms' names in catalog order.
func (c *Catalog) Names() []string {
	names := make([]string, len(c.algs))
	for i, a := range c.algs {
		names[i] = a.Name
	}
	return names
}

// All returns the shipped algorithms (Default().All()).
func All() []*elect.Algorithm { return shipped.All() }

// Lookup looks a shipped algorithm up by name (Default().Lookup).
func Lookup(name string) (*elect.Algorithm, bool) { return shipped.Lookup(name) }

// Names returns the shipped algorithms' names (Default().Names()).
func Names() []string { return shipped.Names() }
