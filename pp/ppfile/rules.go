package ppfile

// The parts of a protocol file after its states: the rules (compiled to the
// transition table), the output of each state, the stop condition and the
// initial configuration.

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

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
