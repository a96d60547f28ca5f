package ppfile

// The states of a protocol file: its fields and their values, a state's
// name and its index (the fields' values in mixed radix), and the patterns
// with wildcards that rules and outputs are written in.

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

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
