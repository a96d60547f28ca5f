package protocols

import (
	"reflect"
	"strings"
	"testing"

	"github.com/electkit/elect/pp"
)

// TestDeclaredDefaultsAreTheDefaults: every parameter a protocol declares
// can be set by its declaration (Entry.SetParam), and setting the default
// it declares gives the run an empty Config gives, field for field, so the
// default 'elect pp list' shows is the one that runs. Defaults that are
// formulas (pll's m, ceil(lg n)) are refused as values and left out.
func TestDeclaredDefaultsAreTheDefaults(t *testing.T) {
	opts := pp.Options{Engine: pp.AgentArray, MaxSteps: 1 << 20}
	for _, e := range Catalog {
		for _, p := range e.Params {
			if p.set == nil {
				t.Errorf("%s: --%s has no setter", e.Name, p.Name)
				continue
			}
			c := Config{N: 300, Seed: 7, Options: opts}
			if err := e.SetParam(&c, p.Name, p.Default); err != nil {
				if !strings.Contains(p.Default, "(") {
					t.Errorf("%s: --%s %s, its declared default: %v", e.Name, p.Name, p.Default, err)
				}
				continue
			}
			if reflect.DeepEqual(c, Config{N: 300, Seed: 7, Options: opts}) && p.Default != "prose" && p.Default != "0" {
				t.Errorf("%s: --%s %s set nothing", e.Name, p.Name, p.Default)
			}
			got, err := e.Run(c)
			if err != nil {
				t.Fatalf("%s --%s %s: %v", e.Name, p.Name, p.Default, err)
			}
			want, err := e.Run(Config{N: 300, Seed: 7, Options: opts})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: --%s %s (its declared default) runs differently from no --%s:\n%+v\n%+v", e.Name, p.Name, p.Default, p.Name, got, want)
			}
		}
	}
}

// TestSetParamRefuses: values out of a parameter's range, and parameters a
// protocol does not declare, are refused with what is allowed.
func TestSetParamRefuses(t *testing.T) {
	term, _ := Lookup("epidemic-term")
	angluin, _ := Lookup("angluin")
	am, _ := Lookup("approx-majority")
	for _, c := range []struct {
		e           Entry
		name, value string
		want        string
	}{
		{term, "m", "0", "--m must be at least 1, got 0 (omit --m for the protocol's default)"},
		{term, "m", "x", `--m must be an integer, got "x"`},
		{term, "min-interactions", "1.5", `--min-interactions must be an integer, got "1.5"`},
		{am, "fraction-a", "1.5", "--fraction-a must be in (0, 1], got 1.5"},
		{am, "fraction-a", "NaN", "--fraction-a must be in (0, 1], got NaN"},
		{am, "fraction-a", "x", `--fraction-a: "x" is not a number`},
		{angluin, "m", "4", "angluin has no parameter --m; its parameters: none"},
		{term, "fraction-a", "0.5", "epidemic-term has no parameter --fraction-a; its parameters: --m, --min-interactions, --variant"},
	} {
		var cfg Config
		if err := c.e.SetParam(&cfg, c.name, c.value); err == nil || err.Error() != c.want {
			t.Errorf("%s --%s %s: %v, want %q", c.e.Name, c.name, c.value, err, c.want)
		}
	}
}
