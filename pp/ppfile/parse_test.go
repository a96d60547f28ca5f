package ppfile_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/ppfile"
)

const angluinYAML = `name: angluin
states: [L, F]
initial: {L: all}
rules:
  - [L, L, L, F]
output: {L: leader, F: follower}
stop: one-leader
`

// TestValidationErrorsNameTheLine: every kind of mistake the format can
// hold is refused with the file's name and the line of the mistake.
func TestValidationErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       int
		want       string
	}{
		{"unknown state in a rule", "name: x\nstates: [L, F]\ninitial: {L: all}\nrules:\n  - [L, L, L, F]\n  - [L, X, L, F]\noutput: {L: leader, F: follower}\nstop: one-leader\n", 6, `unknown state "X"`},
		{"two rules for one pair", "name: x\nstates: [L, F]\ninitial: {L: all}\nrules:\n  - [L, L, L, F]\n  - [L, F, F, F]\n  - [L, L, F, F]\noutput: {L: leader, F: follower}\nstop: one-leader\n", 7, "two rules for the ordered pair (L, L): this one and the one on line 5"},
		{"a wildcard overlapping a rule", "name: x\nstates: [L, F]\ninitial: {L: all}\nrules:\n  - [L, F, L, L]\n  - ['*', F, '*', L]\noutput: {L: leader, F: follower}\nstop: one-leader\n", 6, "two rules for the ordered pair (L, F)"},
		{"missing output", "name: x\nstates: [L, F, G]\ninitial: {L: all}\nrules: []\noutput:\n  L: leader\n  F: follower\nstop: one-leader\n", 5, "no output for state G"},
		{"two outputs", "name: x\nstates: [L, F]\ninitial: {L: all}\noutput:\n  '*': follower\n  L: leader\nstop: one-leader\n", 6, "two outputs for state L (lines 5 and 6)"},
		{"unknown key", "name: x\nstates: [L, F]\ninital: {L: all}\n", 3, `unknown key "inital"`},
		{"missing key", "name: x\nstates: [L, F]\nrules: []\noutput: {L: leader, F: follower}\nstop: one-leader\n", 1, `missing key "initial"`},
		{"state listed twice", "name: x\nstates:\n  - L\n  - F\n  - L\n", 5, `"L" is listed twice (lines 3 and 5)`},
		{"rule of three entries", "name: x\nstates: [L, F]\ninitial: {L: all}\nrules:\n  - [L, L, F]\noutput: {L: leader, F: follower}\nstop: one-leader\n", 5, "a rule is [initiator, responder, initiator', responder']"},
		{"stop without leader", "name: x\nstates: [L, F]\ninitial: {L: all}\noutput: {L: a, F: b}\nstop: one-leader\n", 5, "needs a state whose output is \"leader\""},
		{"consensus on no output", "name: x\nstates: [L, F]\ninitial: {L: all}\noutput: {L: a, F: b}\nstop: {consensus: c}\n", 5, `no state has the output "c"`},
		{"bare consensus", "name: x\nstates: [L, F]\ninitial: {L: all}\noutput: {L: a, F: b}\nstop: consensus\n", 5, "consensus needs the output"},
		{"unknown field value", "name: x\nstates: {role: [L, F], coin: [0, 1]}\ninitial: {L.0: all}\nrules:\n  - [{role: L}, {coin: 2}, '*', '*']\noutput: {role: {L: leader, F: follower}}\nstop: one-leader\n", 5, `unknown value "2" of field coin`},
		{"unknown field", "name: x\nstates: {role: [L, F], coin: [0, 1]}\ninitial: {L.0: all}\nrules:\n  - [{rol: L}, '*', '*', '*']\noutput: {role: {L: leader, F: follower}}\nstop: one-leader\n", 5, `unknown field "rol"`},
		{"bad fraction", "name: x\nstates: [L, F]\ninitial: {L: 1.5, F: rest}\noutput: {L: leader, F: follower}\nstop: one-leader\n", 3, "a count, a fraction in [0, 1], rest or all expected"},
		{"all with another entry", "name: x\nstates: [L, F]\ninitial: {L: all, F: 3}\noutput: {L: leader, F: follower}\nstop: one-leader\n", 3, "all must be the only entry"},
		{"initial with a wildcard", "name: x\nstates: {role: [L, F], coin: [0, 1]}\ninitial: {L.*: all}\noutput: {role: {L: leader, F: follower}}\nstop: one-leader\n", 3, "names several states"},
		{"YAML syntax", "name: x\nstates: [L, F]\n  initial: {L: all}\n", 2, "invalid YAML: did not find expected key"},
		{"duplicate field in a pattern", "name: x\nstates: {role: [L, F], coin: [0, 1]}\ninitial: {L.0: all}\nrules:\n  - [{role: L, role: F}, '*', '*', '*']\n", 5, `key "role" is already defined on line 5`},
		{"alias", "name: x\nstates: &s [L, F]\n", 2, "anchors and aliases"},
		{"duplicate key", "name: x\nname: y\n", 2, "already defined"},
		{"bad name", "name: 'a b'\n", 1, `name "a b"`},
		{"not a mapping", "- a\n- b\n", 1, "a protocol file is a mapping"},
	} {
		_, err := ppfile.Parse("p.yaml", []byte(tc.text))
		var pe *ppfile.Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: want a *ppfile.Error, got %v", tc.name, err)
			continue
		}
		if pe.Path != "p.yaml" || pe.Line != tc.line || !strings.Contains(pe.Msg, tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %q (line %d), want line %d and %q", tc.name, err, pe.Line, tc.line, tc.want)
		}
		if !strings.HasPrefix(err.Error(), "p.yaml:") {
			t.Errorf("%s: %q does not start with the file name", tc.name, err)
		}
	}
}

// TestJSONSyntaxErrorNamesTheLine: a JSON file is checked as JSON.
func TestJSONSyntaxErrorNamesTheLine(t *testing.T) {
	_, err := ppfile.Parse("p.json", []byte("{\n  \"name\": \"x\",\n  \"states\": [\"L\" \"F\"]\n}\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "p.json:3: invalid JSON") {
		t.Errorf("got %v", err)
	}
	// YAML that is not JSON is refused in a .json file.
	if _, err := ppfile.Parse("p.json", []byte(angluinYAML)); err == nil || !strings.Contains(err.Error(), "invalid JSON") {
		t.Errorf("YAML in a .json file: got %v", err)
	}
}

// TestInitialMustAddUpToN: counts that do not add up to n are refused at
// run time, naming the line of the initial configuration; fractions round
// down and hand the remainder to the largest remainders (or to rest).
func TestInitialMustAddUpToN(t *testing.T) {
	text := "name: x\nstates: [L, F]\ninitial:\n  L: 10\n  F: 90\nrules: [[L, L, L, F]]\noutput: {L: leader, F: follower}\nstop: one-leader\n"
	f, err := ppfile.Parse("p.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := f.DefaultN(); !ok || n != 100 {
		t.Errorf("DefaultN = %d, %v; want 100", n, ok)
	}
	_, err = ppfile.Simulate(f, 1000, 1, pp.Options{})
	if err == nil || err.Error() != "p.yaml:3: the initial configuration has 100 agents, not n = 1000 (give counts that add up to n, fractions, or a state with rest)" {
		t.Errorf("got %v", err)
	}
	if r, err := ppfile.Simulate(f, 100, 1, pp.Options{}); err != nil || r.Outcome != pp.Elected {
		t.Errorf("n = 100: %v %v", r.Outcome, err)
	}
	for _, tc := range []struct {
		init string
		n    int64
		want []int64
	}{
		{"{L: 0.5, F: 0.5}", 7, []int64{4, 3}},   // remainders 0.5, 0.5: the earlier entry first
		{"{L: 0.3, F: 0.7}", 10, []int64{3, 7}},  // exact
		{"{L: 0.25, F: rest}", 7, []int64{1, 6}}, // floor(1.75), rest
		{"{F: rest, L: 2}", 7, []int64{5, 2}},
		{"{L: 0.333333333333, F: 0.333333333333, G: 0.333333333334}", 10, []int64{3, 3, 4}},
	} {
		f, err := ppfile.Parse("p.yaml", []byte("name: x\nstates: [L, F, G]\ninitial: "+tc.init+"\noutput: {L: leader, '*': follower}\nstop: one-leader\n"))
		if err != nil {
			// '*' after L overlaps: use explicit outputs instead.
			f, err = ppfile.Parse("p.yaml", []byte("name: x\nstates: [L, F, G]\ninitial: "+tc.init+"\noutput: {L: leader, F: follower, G: follower}\nstop: one-leader\n"))
		}
		if err != nil {
			t.Fatal(err)
		}
		_, counts, err := f.Initial(tc.n)
		if err != nil || len(counts) != len(tc.want) {
			t.Fatalf("%s: %v %v", tc.init, counts, err)
		}
		for i := range counts {
			if counts[i] != tc.want[i] {
				t.Errorf("%s, n = %d: counts %v, want %v", tc.init, tc.n, counts, tc.want)
				break
			}
		}
	}
	f, _ = ppfile.Parse("p.yaml", []byte("name: x\nstates: [L, F]\ninitial: {L: 0.3, F: 0.3}\noutput: {L: leader, F: follower}\nstop: one-leader\n"))
	if _, _, err := f.Initial(10); err == nil || !strings.Contains(err.Error(), "has 6 agents, not n = 10") {
		t.Errorf("fractions adding up to 0.6: %v", err)
	}
}

// TestFieldsWildcardsAndArrows: states made of fields, rules that name
// fields, wildcards on both sides and the "A, B -> C, D" form compile to
// the transitions they say.
func TestFieldsWildcardsAndArrows(t *testing.T) {
	text := `name: coins
states: {role: [L, F], coin: [0, 1]}
initial: {L.0: all}
rules:
  # two leaders with the same coin: the responder resigns
  - [{role: L, coin: 0}, {role: L, coin: 0}, '*', {role: F}]
  - [L.1, L.1, '*', F.*]
  # leaders with different coins flip the initiator's coin
  - L.0, L.1 -> L.1, *
  - [L.1, L.0, {coin: 0}, '*']
  # a follower copies nothing but turns its coin to 1 on meeting anyone
  - [F.0, '*', F.1, '*']
output:
  role: {L: leader, F: follower}
stop: one-leader
`
	f, err := ppfile.Parse("c.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.States, " "); got != "L.0 L.1 F.0 F.1" {
		t.Fatalf("states %q", got)
	}
	idx := map[string]int{}
	for i, s := range f.States {
		idx[s] = i
	}
	want := map[[2]string][2]string{
		{"L.0", "L.0"}: {"L.0", "F.0"},
		{"L.1", "L.1"}: {"L.1", "F.1"},
		{"L.0", "L.1"}: {"L.1", "L.1"},
		{"L.1", "L.0"}: {"L.0", "L.0"},
		{"F.0", "L.0"}: {"F.1", "L.0"},
		{"F.0", "L.1"}: {"F.1", "L.1"},
		{"F.0", "F.0"}: {"F.1", "F.0"},
		{"F.0", "F.1"}: {"F.1", "F.1"},
	}
	for _, a := range f.States {
		for _, b := range f.States {
			x, y, nonNull := f.Transition(idx[a], idx[b])
			w, ok := want[[2]string{a, b}]
			if !ok {
				w = [2]string{a, b}
			}
			if f.States[x] != w[0] || f.States[y] != w[1] || nonNull != (w != [2]string{a, b}) {
				t.Errorf("(%s, %s) -> (%s, %s) %v; want (%s, %s)", a, b, f.States[x], f.States[y], nonNull, w[0], w[1])
			}
		}
	}
	if f.Rules != 5 || f.Pairs != 8 || f.NonNull != 8 || !f.Monotone() {
		t.Errorf("rules %d, pairs %d, non-null %d, monotone %v; want 5, 8, 8, true", f.Rules, f.Pairs, f.NonNull, f.Monotone())
	}
}

// TestYAMLAndJSONCompileAlike: the same protocol in both syntaxes gives
// the same table, and the same runs.
func TestYAMLAndJSONCompileAlike(t *testing.T) {
	fy, err := ppfile.Load("../../examples/protocols/angluin.yaml")
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(map[string]any{
		"name": "angluin", "states": []string{"L", "F"}, "initial": map[string]string{"L": "all"},
		"rules": [][]string{{"L", "L", "L", "F"}}, "output": map[string]string{"L": "leader", "F": "follower"}, "stop": "one-leader",
	})
	fj, err := ppfile.Parse("a.json", js)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []pp.Engine{pp.AgentArray, pp.Batched} {
		ry, _ := ppfile.Simulate(fy, 500, 3, pp.Options{Engine: e})
		rj, _ := ppfile.Simulate(fj, 500, 3, pp.Options{Engine: e})
		if ry.Interactions != rj.Interactions || ry.Outcome != pp.Elected {
			t.Errorf("%s: yaml %d (%s), json %d", e, ry.Interactions, ry.Outcome, rj.Interactions)
		}
	}
}

// TestBatcherMatchesInteract: the compiled protocol's batched loops give
// the same runs as one Interact call per interaction, on the example
// protocols (one with leaders, three with a goal count).
func TestBatcherMatchesInteract(t *testing.T) {
	for _, name := range []string{"angluin.yaml", "epidemic.json", "approx-majority.yaml", "exact-majority.yaml"} {
		f, err := ppfile.Load("../../examples/protocols/" + name)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 5; seed++ {
			a, _ := ppfile.Simulate(f, 300, seed, pp.Options{Engine: pp.AgentArray})
			b, _ := ppfile.Simulate(f, 300, seed, pp.Options{Engine: pp.AgentArray, NoBatch: true})
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if string(ja) != string(jb) {
				t.Errorf("%s seed %d:\n%s\n%s", name, seed, ja, jb)
			}
		}
	}
}

// TestManyStates: a protocol of 2^11 states (beyond the dense table, so
// kept in the hash table) written with fields, one per bit, runs on every
// engine: the lowest bit spreads as an epidemic, and the first bit records
// that an agent was reached.
func TestManyStates(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: bits\nstates:\n")
	for i := range 11 {
		b.WriteString("  b" + string(rune('a'+i)) + ": [0, 1]\n")
	}
	zeros := strings.Repeat("0.", 10)
	b.WriteString("initial: {" + zeros + "1: 1, " + zeros + "0: rest}\n")
	b.WriteString("rules:\n  - [{bk: 1}, {bk: 0}, '*', {bk: 1, ba: 1}]\n")
	b.WriteString("output: {bk: {0: no, 1: yes}}\nstop: {consensus: yes}\n")
	f, err := ppfile.Parse("bits.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.States) != 2048 || f.Pairs != 1024*1024 || f.NonNull != 1024*1024 {
		t.Fatalf("%d states, %d pairs, %d non-null", len(f.States), f.Pairs, f.NonNull)
	}
	for _, e := range []pp.Engine{pp.AgentArray, pp.Batched, pp.NullSkipping} {
		r, err := ppfile.Simulate(f, 3000, 1, pp.Options{Engine: e, TrackStates: true})
		// Reached: the initial agent, and the others with bit a set.
		if err != nil || r.Outcome != pp.GoalReached || r.StatesSeen != 3 {
			t.Errorf("%s: %v, %d states seen (%v)", e, r.Outcome, r.StatesSeen, err)
		}
	}
}

// TestLoadRefusesBinaryAtItsFirstLine (issue 42): a file that is not text
// is refused at its first line, naming the byte, in one short line.
func TestLoadRefusesBinaryAtItsFirstLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "random.yaml")
	data := append([]byte("name: x\n\x9f\x03\xfe"), bytes.Repeat([]byte("\x00garbage\n"), 100000)...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ppfile.Load(path)
	want := path + ":2: byte 1 (0x9f) is not UTF-8 text; a protocol file is YAML or JSON text"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}
