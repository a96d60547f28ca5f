package protocols

import (
	"strings"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/ppfile"
)

// IsFile says whether a protocol name given on the command line is a
// protocol file (a name ending in .yaml, .yml or .json) rather than a
// catalog name.
func IsFile(name string) bool {
	l := strings.ToLower(name)
	return strings.HasSuffix(l, ".yaml") || strings.HasSuffix(l, ".yml") || strings.HasSuffix(l, ".json")
}

// LoadFile reads the protocol file at path (see elect/pp/ppfile) and
// returns it as a catalog entry: it runs on every engine, chosen as for the
// built-in protocols, and takes no parameters. DefaultN is the population
// that the file's initial counts fix, if any.
func LoadFile(path string) (Entry, error) {
	f, err := ppfile.Load(path)
	if err != nil {
		return Entry{}, err
	}
	goal := "one agent outputs leader"
	if f.Stop.Kind == ppfile.Consensus {
		goal = "every agent outputs " + f.Stop.Output
	}
	src := path
	if f.Source != "" {
		src += " (" + f.Source + ")"
	}
	e := Entry{Name: f.Name, Goal: goal, Source: src, File: path,
		run: func(c Config) (pp.Result, error) { return ppfile.Simulate(f, c.N, c.Seed, c.Options) }}
	if n, ok := f.DefaultN(); ok && n <= pp.MaxCountN {
		e.DefaultN = int(n)
	}
	return e, nil
}
