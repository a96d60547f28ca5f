package reference_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/electkit/elect/reference"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/sim"
)

// FuzzReplay feeds arbitrary records to Replay: it must return a result or
// an error, never panic or hang, and a record it accepts must give the
// same result twice.
func FuzzReplay(f *testing.F) {
	for _, name := range []string{"hs", "time-slice"} {
		cfg, err := scenario.Build(scenario.Spec{Algorithm: name, N: 5, Seed: 1})
		if err != nil {
			f.Fatal(err)
		}
		var trace bytes.Buffer
		c := *cfg
		c.Trace = &trace
		if _, err := sim.Run(c); err != nil {
			f.Fatal(err)
		}
		f.Add(name, trace.Bytes())
		lines := strings.Split(trace.String(), "\n")
		f.Add(name, []byte(strings.Join(lines[:len(lines)/2], "\n")))
	}
	f.Add("hs", []byte(`{"t":0,"ev":"deliver","to":9,"port":"left","type":"x"}`))
	f.Add("hs", []byte(`{"t":"x","ev":"wake","node":-1}`))
	f.Fuzz(func(t *testing.T, name string, record []byte) {
		if name != "hs" && name != "time-slice" {
			return
		}
		cfg, err := scenario.Build(scenario.Spec{Algorithm: name, N: 5, Seed: 1, MaxEvents: 10000})
		if err != nil {
			t.Fatal(err)
		}
		r1, err1 := reference.Replay(*cfg, bytes.NewReader(record))
		r2, err2 := reference.Replay(*cfg, bytes.NewReader(record))
		if (err1 == nil) != (err2 == nil) || err1 == nil && (r1.Messages != r2.Messages || r1.Outcome != r2.Outcome) {
			t.Fatalf("two replays of one record differ: %v %v", err1, err2)
		}
	})
}
