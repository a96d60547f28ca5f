package ppfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/ppfile"
)

// FuzzProtocolFile: any input either parses or fails with one *ppfile.Error
// of one line naming the file; a file that parses runs a few steps on the
// agent array and the batched engine without panicking or a violation
// (the monitor's, or a counter mismatch), and every
// transition it compiled stays within its states.
func FuzzProtocolFile(f *testing.F) {
	paths, _ := filepath.Glob("../../examples/protocols/*")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(filepath.Base(p), b)
		}
	}
	f.Add("f.yaml", []byte(angluinYAML))
	f.Add("f.yaml", []byte("name: c\nstates: {a: [0, 1], b: [x, y]}\ninitial: {0.x: 3, 1.y: rest}\nrules:\n  - [{a: 0}, '*', {b: y}, '*']\n  - 1.*, 0.* -> *, 1.x\noutput: {a: {0: leader, 1: follower}}\nstop: one-leader\n"))
	f.Add("f.yaml", []byte("name: "+strings.Repeat("x", 5000)+"\nstates: ["+strings.Repeat("1", 5000)+"]\n"))
	f.Add("f.json", []byte(`{"name": "e", "states": ["S", "I"], "initial": {"S": "rest", "I": 1}, "rules": [["I", "S", "I", "I"]], "output": {"S": "s", "I": "i"}, "stop": {"consensus": "i"}}`))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		path := "f.yaml"
		if strings.HasSuffix(name, ".json") {
			path = "f.json"
		}
		file, err := ppfile.Parse(path, data)
		if err != nil {
			var pe *ppfile.Error
			if !errors.As(err, &pe) || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), path+":") {
				t.Fatalf("error %q: want one line naming %s", err, path)
			}
			// Excerpts of the file are cut (bounded.Cut): a message holds
			// a few of at most 200 bytes.
			if len(err.Error()) > 1000 {
				t.Fatalf("an error of %d bytes: %.300q", len(err.Error()), err)
			}
			return
		}
		q := len(file.States)
		for a := 0; a < q && a < 64; a++ {
			for b := 0; b < q && b < 64; b++ {
				if x, y, _ := file.Transition(a, b); x < 0 || x >= q || y < 0 || y >= q {
					t.Fatalf("(%d, %d) -> (%d, %d) out of %d states", a, b, x, y, q)
				}
			}
		}
		for _, e := range []pp.Engine{pp.AgentArray, pp.Batched} {
			r, err := ppfile.Simulate(file, 50, 1, pp.Options{Engine: e, MaxSteps: 2000, TrackStates: true})
			if err != nil {
				if strings.Contains(err.Error(), "\n") {
					t.Fatalf("run error of several lines: %q", err)
				}
				continue
			}
			// The monitor watches only protocols whose rules are monotone,
			// so a violation is an engine or compiler bug.
			if r.Outcome == pp.Violation {
				t.Fatalf("%s: %s", e, r.Violation)
			}
		}
	})
}
