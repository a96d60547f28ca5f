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
	"math"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
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

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
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
	return p.initial(vals["initial"])
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

func (p *parser) states(n *yaml.Node) error {
	switch n.Kind {
	case yaml.SequenceNode:
		fd, err := p.values(n, "states")
		if err != nil {
			return err
		}
		p.f.fields = []field{fd}
	case yaml.MappingNode:
		seen := map[string]int{}
		total := 1
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			name, err := p.scalar(k, "field name")
			if err != nil {
				return err
			}
			if !validValue(name) {
				return p.errorf(k, "field name %q: use letters, digits and _ + -", name)
			}
			if l, ok := seen[name]; ok {
				return p.errorf(k, "field %q is listed twice (lines %d and %d)", name, l, k.Line)
			}
			seen[name] = k.Line
			if v.Kind != yaml.SequenceNode {
				return p.errorf(v, "field %q: a list of values expected, e.g. %s: [0, 1]", name, name)
			}
			fd, err := p.values(v, "field "+name)
			if err != nil {
				return err
			}
			fd.name = name
			total *= len(fd.values)
			if total > MaxStates {
				return p.errorf(v, "the fields make more than %d states", MaxStates)
			}
			p.f.fields = append(p.f.fields, fd)
		}
		if len(p.f.fields) == 0 {
			return p.errorf(n, "states: no field given")
		}
	default:
		return p.errorf(n, "states: a list of names ([L, F]) or of fields ({role: [L, F], coin: [0, 1]}) expected")
	}
	q := 1
	for _, fd := range p.f.fields {
		q *= len(fd.values)
	}
	p.f.States = make([]string, q)
	for s := range q {
		p.f.States[s] = p.stateName(s)
	}
	return nil
}

func (p *parser) values(n *yaml.Node, what string) (field, error) {
	fd := field{index: map[string]int{}}
	lines := map[string]int{}
	if len(n.Content) == 0 {
		return fd, p.errorf(n, "%s: no value given", what)
	}
	if len(n.Content) > MaxStates {
		return fd, p.errorf(n, "%s: more than %d values", what, MaxStates)
	}
	for _, c := range n.Content {
		v, err := p.scalar(c, what)
		if err != nil {
			return fd, err
		}
		if !validValue(v) || v == "*" {
			return fd, p.errorf(c, "%s: %q is not a valid name (letters, digits and _ + -)", what, v)
		}
		if l, ok := lines[v]; ok {
			return fd, p.errorf(c, "%s: %q is listed twice (lines %d and %d)", what, v, l, c.Line)
		}
		lines[v] = c.Line
		fd.index[v] = len(fd.values)
		fd.values = append(fd.values, v)
	}
	return fd, nil
}

// stateName joins the values of state s's fields with ".".
func (p *parser) stateName(s int) string {
	parts := make([]string, len(p.f.fields))
	for i := len(p.f.fields) - 1; i >= 0; i-- {
		k := len(p.f.fields[i].values)
		parts[i] = p.f.fields[i].values[s%k]
		s /= k
	}
	return strings.Join(parts, ".")
}

// decode splits state s into its field values' indices.
func (f *File) decode(s int, out []int) {
	for i := len(f.fields) - 1; i >= 0; i-- {
		k := len(f.fields[i].values)
		out[i] = s % k
		s /= k
	}
}

func (f *File) encode(v []int) int {
	s := 0
	for i, fd := range f.fields {
		s = s*len(fd.values) + v[i]
	}
	return s
}

// pattern is a state with some fields left open (-1): on a rule's left side
// an open field matches any value, on its right side it is kept.
type pattern []int

func (p pattern) match(v []int) bool {
	for i, x := range p {
		if x >= 0 && x != v[i] {
			return false
		}
	}
	return true
}

func (p pattern) open() bool {
	for _, v := range p {
		if v < 0 {
			return true
		}
	}
	return false
}

// pattern reads a state written as a name ("L"), as field values joined
// with "." ("L.0", "L.*"), as "*", or as a mapping of some fields
// ({role: L}).
func (p *parser) pattern(n *yaml.Node, what string) (pattern, error) {
	fs := p.f.fields
	pat := make(pattern, len(fs))
	for i := range pat {
		pat[i] = -1
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil, p.errorf(n, "%s: a state expected", what)
		}
		s := strings.TrimSpace(n.Value)
		if s == "*" {
			return pat, nil
		}
		parts := []string{s}
		if len(fs) > 1 {
			parts = strings.Split(s, ".")
			if len(parts) != len(fs) {
				return nil, p.errorf(n, "%s: unknown state %q (states are written %s, with * for any value, or as a mapping {%s: ...})", what, s, p.fieldHint(), fs[0].name)
			}
		}
		for i, v := range parts {
			if v == "*" {
				continue
			}
			k, ok := fs[i].index[v]
			if !ok {
				if len(fs) == 1 {
					return nil, p.errorf(n, "%s: unknown state %q; states: %s", what, s, listHead(fs[0].values))
				}
				return nil, p.errorf(n, "%s: unknown value %q of field %s in %q; values: %s", what, v, fs[i].name, s, listHead(fs[i].values))
			}
			pat[i] = k
		}
	case yaml.MappingNode:
		if len(fs) == 1 && fs[0].name == "" {
			return nil, p.errorf(n, "%s: the states have no fields; write a state name", what)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			fi := -1
			for j, fd := range fs {
				if fd.name == k.Value {
					fi = j
				}
			}
			if k.Kind != yaml.ScalarNode || fi < 0 {
				return nil, p.errorf(k, "%s: unknown field %q; fields: %s", what, k.Value, p.fieldNames())
			}
			val, err := p.scalar(v, what)
			if err != nil {
				return nil, err
			}
			if val == "*" {
				pat[fi] = -1
				continue
			}
			x, ok := fs[fi].index[val]
			if !ok {
				return nil, p.errorf(v, "%s: unknown value %q of field %s; values: %s", what, val, fs[fi].name, listHead(fs[fi].values))
			}
			pat[fi] = x
		}
	default:
		return nil, p.errorf(n, "%s: a state expected", what)
	}
	return pat, nil
}

func (p *parser) fieldNames() string {
	var s []string
	for _, fd := range p.f.fields {
		s = append(s, fd.name)
	}
	return strings.Join(s, ", ")
}

func (p *parser) fieldHint() string {
	var s []string
	for _, fd := range p.f.fields {
		s = append(s, strings.ToUpper(fd.name))
	}
	return strings.Join(s, ".")
}

func listHead(xs []string) string {
	if len(xs) > 12 {
		return strings.Join(xs[:12], ", ") + ", ..."
	}
	return strings.Join(xs, ", ")
}

// matches lists the states a left-side pattern matches, in index order,
// in time proportional to their number: the open fields are enumerated
// like the digits of a mixed-radix counter.
func (f *File) matches(pat pattern) []int {
	v := make([]int, len(f.fields))
	var open []int
	for i, x := range pat {
		if x < 0 {
			open = append(open, i)
		} else {
			v[i] = x
		}
	}
	var out []int
	for {
		out = append(out, f.encode(v))
		// Next value of the open fields, the last one fastest.
		k := len(open) - 1
		for ; k >= 0; k-- {
			i := open[k]
			if v[i]++; v[i] < len(f.fields[i].values) {
				break
			}
			v[i] = 0
		}
		if k < 0 {
			return out
		}
	}
}

// apply gives state s the fields that a right-side pattern sets.
func (f *File) apply(pat pattern, s int, scratch []int) int {
	f.decode(s, scratch)
	for i, x := range pat {
		if x >= 0 {
			scratch[i] = x
		}
	}
	return f.encode(scratch)
}

var arrow = regexp.MustCompile(`^\s*([^,]+?)\s*,\s*([^,]+?)\s*->\s*([^,]+?)\s*,\s*([^,]+?)\s*$`)

func (p *parser) rules(n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode {
		return p.errorf(n, "rules: a list of rules expected, each [initiator, responder, initiator', responder']")
	}
	f := p.f
	q := len(f.States)
	f.trans = newTable(q)
	// Who names each ordered pair: a bitset (q^2 bits, at most 512 MiB
	// for 2^16 states, allocated only when the rules name many pairs) or a
	// map; the line of an earlier rule is found again from its patterns.
	type named struct {
		left [2]pattern
		line int
	}
	var done []named
	var bits []uint64
	owner := map[uint64]bool{}
	useBits := q <= 1<<13
	if useBits {
		bits = make([]uint64, (q*q+63)/64)
	}
	taken := func(a, b int) bool {
		if useBits {
			k := a*q + b
			w, m := k/64, uint64(1)<<(k%64)
			old := bits[w]&m != 0
			bits[w] |= m
			return old
		}
		key := uint64(a)<<32 | uint64(b)
		old := owner[key]
		owner[key] = true
		return old
	}
	scratch := make([]int, len(f.fields))
	va, vb := make([]int, len(f.fields)), make([]int, len(f.fields))
	isL := func(s int) int8 {
		if f.Outputs[f.out[s]] == LeaderOutput {
			return 1
		}
		return 0
	}
	inGoal := func(s int) int8 {
		if f.Stop.Kind == Consensus && f.Outputs[f.out[s]] == f.Stop.Output {
			return 1
		}
		return 0
	}
	for _, r := range n.Content {
		var sides [4]*yaml.Node
		switch {
		case r.Kind == yaml.SequenceNode && len(r.Content) == 4:
			copy(sides[:], r.Content)
		case r.Kind == yaml.ScalarNode && arrow.MatchString(r.Value):
			m := arrow.FindStringSubmatch(r.Value)
			for i := range sides {
				sides[i] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: m[i+1], Line: r.Line, Column: r.Column}
			}
		default:
			return p.errorf(r, "a rule is [initiator, responder, initiator', responder'] or \"A, B -> C, D\"")
		}
		var pats [4]pattern
		for i, what := range []string{"initiator", "responder", "new initiator", "new responder"} {
			pt, err := p.pattern(sides[i], "rule: "+what)
			if err != nil {
				return err
			}
			pats[i] = pt
		}
		as, bs := f.matches(pats[0]), f.matches(pats[1])
		if f.Pairs+len(as)*len(bs) > MaxPairs {
			return p.errorf(r, "the rules name more than %d ordered pairs once their wildcards are expanded", MaxPairs)
		}
		f.Rules++
		for _, a := range as {
			for _, b := range bs {
				if taken(a, b) {
					line := 0
					f.decode(a, va)
					f.decode(b, vb)
					for _, d := range done {
						if d.left[0].match(va) && d.left[1].match(vb) {
							line = d.line
						}
					}
					return p.errorf(r, "two rules for the ordered pair (%s, %s): this one and the one on line %d", f.States[a], f.States[b], line)
				}
				f.Pairs++
				x, y := f.apply(pats[2], a, scratch), f.apply(pats[3], b, scratch)
				if x != a || y != b {
					f.NonNull++
					f.trans.set(a, b, step{x: uint16(x), y: uint16(y), set: true,
						dl: isL(x) + isL(y) - isL(a) - isL(b), dg: inGoal(x) + inGoal(y) - inGoal(a) - inGoal(b)})
				}
			}
		}
		done = append(done, named{[2]pattern{pats[0], pats[1]}, r.Line})
	}
	// Monotone leaders: no rule increases the number of agents that output
	// leader, and none removes the last leader of its pair. The engines'
	// monitor then checks both at every step.
	f.monotone = true
	f.trans.each(func(a, b int, v step) {
		if in := isL(a) + isL(b); v.dl > 0 || (in > 0 && in+v.dl == 0) {
			f.monotone = false
		}
	})
	return nil
}

func (p *parser) output(n *yaml.Node, keyLine int) error {
	f := p.f
	if n.Kind != yaml.MappingNode {
		return p.errorf(n, "output: a mapping from states to outputs expected, e.g. {L: leader, F: follower}")
	}
	q := len(f.States)
	f.out = make([]int32, q)
	line := make([]int, q)
	outIndex := map[string]int32{}
	give := func(s int, o string, at int) error {
		if line[s] != 0 {
			return &Error{Path: p.path, Line: at, Msg: fmt.Sprintf("two outputs for state %s (lines %d and %d)", f.States[s], line[s], at)}
		}
		k, ok := outIndex[o]
		if !ok {
			k = int32(len(f.Outputs))
			outIndex[o] = k
			f.Outputs = append(f.Outputs, o)
		}
		f.out[s], line[s] = k, at
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if fi := p.fieldIndex(k.Value); k.Kind == yaml.ScalarNode && fi >= 0 && v.Kind == yaml.MappingNode {
			// By one field: {role: {L: leader, F: follower}}.
			fd := f.fields[fi]
			byValue := make([]string, len(fd.values))
			lineOf := make([]int, len(fd.values))
			for j := 0; j+1 < len(v.Content); j += 2 {
				vk, vv := v.Content[j], v.Content[j+1]
				x, ok := fd.index[vk.Value]
				if vk.Kind != yaml.ScalarNode || !ok {
					return p.errorf(vk, "output: unknown value %q of field %s; values: %s", vk.Value, fd.name, listHead(fd.values))
				}
				o, err := p.output1(vv)
				if err != nil {
					return err
				}
				byValue[x], lineOf[x] = o, vk.Line
			}
			// The field's value of state s is (s / stride) mod k.
			stride := 1
			for _, g := range f.fields[fi+1:] {
				stride *= len(g.values)
			}
			for s := range q {
				x := s / stride % len(fd.values)
				if lineOf[x] == 0 {
					continue // left to another entry; checked below
				}
				if err := give(s, byValue[x], lineOf[x]); err != nil {
					return err
				}
			}
			continue
		}
		pat, err := p.pattern(k, "output")
		if err != nil {
			return err
		}
		o, err := p.output1(v)
		if err != nil {
			return err
		}
		for _, s := range f.matches(pat) {
			if err := give(s, o, k.Line); err != nil {
				return err
			}
		}
	}
	for s := range q {
		if line[s] == 0 {
			return &Error{Path: p.path, Line: keyLine, Msg: fmt.Sprintf("no output for state %s: every state needs one", f.States[s])}
		}
	}
	return nil
}

func (p *parser) output1(n *yaml.Node) (string, error) {
	o, err := p.scalar(n, "output")
	if err != nil {
		return "", err
	}
	if !validName(o) || len(o) > 64 {
		return "", p.errorf(n, "output %q: use letters, digits and _ . + -", o)
	}
	return o, nil
}

func (p *parser) fieldIndex(name string) int {
	for i, fd := range p.f.fields {
		if fd.name != "" && fd.name == name {
			return i
		}
	}
	return -1
}

func (p *parser) stop(n *yaml.Node) error {
	f := p.f
	f.stopLine = n.Line
	hasOutput := func(o string) bool {
		for _, x := range f.Outputs {
			if x == o {
				return true
			}
		}
		return false
	}
	switch {
	case n.Kind == yaml.ScalarNode && n.Value == "one-leader":
		if !hasOutput(LeaderOutput) {
			return p.errorf(n, "stop: one-leader needs a state whose output is %q", LeaderOutput)
		}
		f.Stop = Stop{Kind: OneLeader}
		return nil
	case n.Kind == yaml.ScalarNode && n.Value == "consensus":
		return p.errorf(n, "stop: consensus needs the output to agree on, e.g. {consensus: %s}", f.Outputs[0])
	case n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == "consensus":
		o, err := p.scalar(n.Content[1], "stop: consensus")
		if err != nil {
			return err
		}
		if !hasOutput(o) {
			return p.errorf(n.Content[1], "stop: no state has the output %q; outputs: %s", o, strings.Join(f.Outputs, ", "))
		}
		f.Stop = Stop{Kind: Consensus, Output: o}
		return nil
	}
	return p.errorf(n, "stop: one-leader or {consensus: OUTPUT} expected")
}

func (p *parser) initial(n *yaml.Node) error {
	f := p.f
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return p.errorf(n, "initial: a mapping from states to counts, fractions, rest or all expected, e.g. {L: all}")
	}
	seen := map[int]int{}
	rest := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		pat, err := p.pattern(k, "initial")
		if err != nil {
			return err
		}
		if pat.open() {
			return p.errorf(k, "initial: %q names several states; give each its count", k.Value)
		}
		s := f.encode(pat)
		if l, ok := seen[s]; ok {
			return p.errorf(k, "initial: state %s is given twice (lines %d and %d)", f.States[s], l, k.Line)
		}
		seen[s] = k.Line
		val, err := p.scalar(v, "initial")
		if err != nil {
			return err
		}
		it := initItem{state: s, line: v.Line}
		switch {
		case val == "all":
			if len(n.Content) > 2 {
				return p.errorf(v, "initial: all must be the only entry")
			}
			it.kind = initAll
		case val == "rest":
			if rest {
				return p.errorf(v, "initial: only one state can take the rest")
			}
			rest = true
			it.kind = initRest
		default:
			if c, err := strconv.ParseInt(val, 10, 64); err == nil {
				if c < 0 || c > 1<<60 {
					return p.errorf(v, "initial: count %d of state %s is out of range [0, 2^60]", c, f.States[s])
				}
				it.count = c
				break
			}
			x, err := strconv.ParseFloat(val, 64)
			if err != nil || math.IsNaN(x) || x < 0 || x > 1 {
				return p.errorf(v, "initial: %q for state %s: a count, a fraction in [0, 1], rest or all expected", val, f.States[s])
			}
			it.kind, it.frac = initFraction, x
		}
		f.initial = append(f.initial, it)
	}
	return nil
}
