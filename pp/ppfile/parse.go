// Package ppfile reads population protocols written in a file, YAML or
// JSON, and compiles them to the transition tables that every engine of
// elect/pp runs: the agent array, the batched and the null-skipping engines,
// chosen automatically as for the built-in protocols. The format is
// described in docs/pp-files.md; in short:
//
//	name: angluin
//	states: [L, F]                 # or fields: {role: [L, F], coin: [0, 1]}
//	initial: {L: all}              # or counts {L: 10, F: 90}, fractions {L: 0.1, F: rest}
//	rules:                         # initiator, responder -> initiator', responder'
//	  - [L, L, L, F]
//	output: {L: leader, F: follower}
//	stop: one-leader               # or {consensus: OUTPUT}
//
// Ordered pairs that no rule names are null. On a rule's left side `*`
// matches any state (or any value of one field); on its right side `*`
// keeps the state (or the field) unchanged. Every validation error names
// the file and the line.
package ppfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/electkit/elect/internal/bounded"
)

// Limits of a protocol file: the number of states, the number of ordered
// pairs its rules may name once their wildcards are expanded, and the size
// of the file.
const (
	MaxStates = 1 << 16
	MaxPairs  = 1 << 22
	MaxBytes  = 1 << 20
)

// Error is a problem with a protocol file, at a line (0: the whole file).
type Error struct {
	Path string
	Line int
	Msg  string
}

// Error writes the message with its excerpts of the file cut to
// bounded.MaxExcerpt bytes (bounded.Cut).
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, bounded.Cut(e.Msg))
	}
	return fmt.Sprintf("%s: %s", e.Path, bounded.Cut(e.Msg))
}

// StopKind says when a run of a file protocol has reached its goal.
type StopKind int

const (
	// OneLeader: exactly one agent outputs "leader".
	OneLeader StopKind = iota
	// Consensus: every agent gives the output Stop.Output.
	Consensus
)

// Stop is a file's stop condition.
type Stop struct {
	Kind   StopKind
	Output string // Consensus: the output every agent must give
}

// String is the condition as written in a file.
func (s Stop) String() string {
	if s.Kind == Consensus {
		return "consensus on " + s.Output
	}
	return "one-leader"
}

// LeaderOutput is the output that counts as L (a leader) for the engines.
const LeaderOutput = "leader"

// field is one component of a state: its name and its values. A file with
// a plain list of states has one field, without a name, whose values are
// the states.
type field struct {
	name   string
	values []string
	index  map[string]int
}

// initItem is one entry of the initial configuration.
type initItem struct {
	state int
	kind  initKind
	count int64   // kind count
	frac  float64 // kind fraction
	line  int
}

type initKind int

const (
	initCount initKind = iota
	initFraction
	initRest
	initAll
)

// File is a protocol file, parsed and compiled.
type File struct {
	Path        string
	Name        string
	Source      string
	Description string
	// States lists the state names in index order; states made of fields
	// are named by their values joined with "." (role L, coin 0: "L.0").
	States []string
	// Outputs lists the distinct outputs in order of first appearance.
	Outputs []string
	Stop    Stop
	// Rules is the number of rules, Pairs the number of ordered pairs they
	// name (wildcards expanded), NonNull the number that change a state.
	Rules, Pairs, NonNull int

	fields   []field
	out      []int32 // output index of each state
	trans    table
	initial  []initItem
	initLine int
	stopLine int
	monotone bool
}

// Parse reads a protocol file; path names it in errors and decides the
// syntax: JSON for a name ending in .json, YAML otherwise (JSON files are
// checked to be JSON, then read by the same YAML reader, which keeps line
// numbers).
func Parse(path string, data []byte) (*File, error) {
	fail := func(line int, format string, args ...any) error {
		return &Error{Path: path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if len(data) > MaxBytes {
		return nil, fail(0, "file of %d bytes; protocol files are limited to %d", len(data), MaxBytes)
	}
	if strings.HasSuffix(strings.ToLower(path), ".json") {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			line := 0
			var se *json.SyntaxError
			if errors.As(err, &se) {
				line = 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte{'\n'})
			}
			return nil, fail(line, "invalid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(path, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, fail(0, "empty file; a protocol needs name, states, initial, rules, output and stop")
	}
	p := &parser{path: path, f: &File{Path: path}}
	if err := p.file(doc.Content[0]); err != nil {
		return nil, err
	}
	return p.f, nil
}

var yamlLine = regexp.MustCompile(`^yaml: (?:line (\d+): )?`)

// yamlError turns the YAML reader's error into one line naming the file and
// the line.
func yamlError(path string, err error) error {
	msg := strings.ReplaceAll(err.Error(), "\n", "; ")
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		if m[1] != "" {
			line, _ = strconv.Atoi(m[1])
		}
		msg = msg[len(m[0]):]
	}
	return &Error{Path: path, Line: line, Msg: "invalid YAML: " + msg}
}

type parser struct {
	path string
	f    *File
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{Path: p.path, Line: line, Msg: fmt.Sprintf(format, args...)}
}

var topKeys = []string{"name", "source", "description", "states", "initial", "rules", "output", "stop"}

func (p *parser) file(root *yaml.Node) error {
	if root.Kind != yaml.MappingNode {
		return p.errorf(root, "a protocol file is a mapping with the keys %s", strings.Join(topKeys, ", "))
	}
	if err := noAliases(p, root, 0); err != nil {
		return err
	}
	vals := map[string]*yaml.Node{}
	keys := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return p.errorf(k, "keys of a protocol file are names: %s", strings.Join(topKeys, ", "))
		}
		known := false
		for _, t := range topKeys {
			known = known || t == k.Value
		}
		if !known {
			return p.errorf(k, "unknown key %q; keys: %s", k.Value, strings.Join(topKeys, ", "))
		}
		vals[k.Value], keys[k.Value] = v, k
	}
	need := func(k string) (*yaml.Node, error) {
		if vals[k] == nil {
			return nil, p.errorf(root, "missing key %q (a protocol needs name, states, initial, rules, output and stop)", k)
		}
		return vals[k], nil
	}
	v, err := need("name")
	if err != nil {
		return err
	}
	if p.f.Name, err = p.scalar(v, "name"); err != nil {
		return err
	}
	if !validName(p.f.Name) || len(p.f.Name) > 64 {
		return p.errorf(v, "name %q: use at most 64 letters, digits and _ . + -", p.f.Name)
	}
	for _, k := range []string{"source", "description"} {
		if v := vals[k]; v != nil {
			s, err := p.scalar(v, k)
			if err != nil {
				return err
			}
			if k == "source" {
				p.f.Source = s
			} else {
				p.f.Description = s
			}
		}
	}
	if v, err = need("states"); err != nil {
		return err
	}
	if err := p.states(v); err != nil {
		return err
	}
	if v, err = need("output"); err != nil {
		return err
	}
	if err := p.output(v, keys["output"].Line); err != nil {
		return err
	}
	if v, err = need("stop"); err != nil {
		return err
	}
	if err := p.stop(v); err != nil {
		return err
	}
	rules := vals["rules"]
	if rules == nil {
		rules = &yaml.Node{Kind: yaml.SequenceNode, Line: keys["stop"].Line}
	}
	if err := p.rules(rules); err != nil {
		return err
	}
	if v, err = need("initial"); err != nil {
		return err
	}
	p.f.initLine = keys["initial"].Line
	return p.initial(v)
}

// noAliases refuses YAML anchors and aliases (a protocol file has no use
// for them, and expanding them could blow up) and bounds the nesting.
func noAliases(p *parser, n *yaml.Node, depth int) error {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return p.errorf(n, "YAML anchors and aliases are not supported in protocol files")
	}
	if depth > 8 {
		return p.errorf(n, "nesting too deep for a protocol file")
	}
	if n.Kind == yaml.MappingNode {
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				continue
			}
			if l, ok := seen[k.Value]; ok {
				return p.errorf(k, "key %q is already defined on line %d", k.Value, l)
			}
			seen[k.Value] = k.Line
		}
	}
	for _, c := range n.Content {
		if err := noAliases(p, c, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) scalar(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", p.errorf(n, "%s: a single value expected", what)
	}
	return n.Value, nil
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '+' || r == '.') {
			return false
		}
	}
	return true
}

// validValue: a state name or a field value (no ".", which joins fields).
func validValue(s string) bool { return validName(s) && !strings.Contains(s, ".") && len(s) <= 64 }
