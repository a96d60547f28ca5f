// Package faults is the fault vocabulary of every runtime: the --faults
// specification (Parse), and the seeded schedule a run draws from it
// (Spec.Schedule), which decides for every message sent whether it is lost,
// duplicated or delayed, and for every node whether and when it crashes.
//
// A specification is one or more clauses joined with ';':
//
//	crash:k=2            two distinct nodes crash, at times drawn uniformly in 0..n
//	crash:k=2,by=50      the same, at times drawn in 0..50
//	crash:node=3@t=10    node 3 crashes at time 10 (rounds or time units)
//	crash:node=3@step=2  node 3 crashes right after its second step
//	loss:k=1             one message lost, drawn among the first n sent
//	loss:k=1,by=40       one message lost, drawn among the first 40 sent
//	loss:msg=5           the fifth message sent is lost
//	loss:p=0.01          every message is lost with probability 0.01
//	dup:p=0.01           every message is delivered twice with probability 0.01
//	dup:msg=5            the fifth message sent is delivered twice
//	delay:p=0.01,d=50    every message is late by 50 more time units with probability 0.01
//	delay:msg=5,d=3      the fifth message sent is late by 3 more time units
//	partition:0-3|4-7@10-20  messages sent between nodes 0..3 and 4..7 from time 10 up to 20 are lost
//
// Messages are numbered 1, 2, ... in the order the run sends them (the same
// order on the simulator and the reference engine); a duplicate is not a
// message sent and has no number. Node sets are lists of indexes and ranges
// ("0-3,7"). A crashed node stops for good: it takes no more steps, its
// timers never fire, and messages that reach it are dropped. Crashes happen
// at the start of their instant, before the wake-ups, deliveries and timers
// due then, and only while the run goes on: a run that has ended by
// quiescence ends before a crash scheduled after it.
//
// Every random choice comes from streams of the run's seed (the caller hands
// them to Spec.Schedule, as election.Stream gives them), so the same
// specification, n and seed give the same schedule on every runtime. The
// package imports only the root contract: elect.Faults names the kinds.
package faults

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/electkit/elect"
)

// Usage is the one-line summary of the specification, for flags and errors.
const Usage = "clauses joined with ';': crash:k=K[,by=T], crash:node=I@t=T, crash:node=I@step=S, loss:k=K[,by=M], loss:msg=M, loss:p=P, dup:k=K[,by=M], dup:p=P, dup:msg=M, delay:p=P,d=D, delay:msg=M,d=D, partition:A|B@T1-T2 (A, B: node sets as 0-3,7)"

// MaxSpecLength is the longest specification Parse reads.
const MaxSpecLength = 4096

// maxValue bounds every count, time and message number of a specification.
const maxValue = 1 << 40

// Spec is a parsed fault specification: its clauses in the order given.
type Spec struct {
	Clauses []Clause
}

// Clause is one fault of a specification. Which fields are meaningful
// depends on Kind and on the form it was written in (see the package doc):
//
//   - crash: K and By (drawn), or Node with At (a time) or Step;
//   - loss, dup, delay: K and By (loss only, drawn), Msg, or P; delay has D;
//   - partition: A, B, From and To.
type Clause struct {
	Kind elect.Faults
	K    int64   // drawn: how many crashes or lost messages
	By   int64   // drawn: the horizon (time for crashes, message number for losses); 0 is n
	Node int     // crash of one node: its index (-1: drawn)
	At   int64   // crash of one node at this time (-1: by step)
	Step int64   // crash of one node after this many steps (0: by time)
	Msg  int64   // the message number (1-based) the clause hits (0: none)
	P    float64 // probability per message (0: none)
	D    int64   // delay: time units added
	A, B []int   // partition: the two sides
	From int64   // partition: from this time...
	To   int64   // ...up to (not including) this one
}

// Kinds returns the set of fault kinds the specification can inject.
func (s *Spec) Kinds() elect.Faults {
	if s == nil {
		return 0
	}
	var k elect.Faults
	for _, c := range s.Clauses {
		k |= c.Kind
	}
	return k
}

// Timed reports whether the specification speaks of time (a crash at a
// time, a drawn crash, a delay or a partition), which the newest-first
// delivery model, where messages have no time, cannot give.
func (s *Spec) Timed() bool {
	for _, c := range s.Clauses {
		switch {
		case c.Kind == elect.FaultCrash && c.Step == 0:
			return true
		case c.Kind == elect.FaultDelay, c.Kind == elect.FaultPartition:
			return true
		}
	}
	return false
}

// MaxDelay is the most time units one delay clause of the specification
// adds to a message (0: none delays any).
func (s *Spec) MaxDelay() int64 {
	var d int64
	if s == nil {
		return 0
	}
	for _, c := range s.Clauses {
		if c.Kind == elect.FaultDelay {
			d = max(d, c.D)
		}
	}
	return d
}

func kindOf(name string) (elect.Faults, bool) {
	for k, n := range elect.FaultNames() {
		if n == name {
			return 1 << k, true
		}
	}
	return 0, false
}

// Parse reads a fault specification. Its errors are one line that says what
// is wrong and what is allowed, prefixed "faults: ".
func Parse(text string) (*Spec, error) {
	if len(text) > MaxSpecLength {
		return nil, fmt.Errorf("faults: the specification is %d bytes long, more than %d", len(text), MaxSpecLength)
	}
	s := &Spec{}
	for _, part := range strings.Split(text, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("faults: empty clause in %q; use %s", text, Usage)
		}
		c, err := parseClause(part)
		if err != nil {
			return nil, err
		}
		s.Clauses = append(s.Clauses, c)
	}
	return s, nil
}

func parseClause(text string) (Clause, error) {
	name, args, ok := strings.Cut(text, ":")
	kind, known := kindOf(name)
	if !ok || !known {
		return Clause{}, fmt.Errorf("faults: %q is not a fault; use %s", text, Usage)
	}
	c := Clause{Kind: kind, Node: -1, At: -1}
	bad := func(format string, a ...any) (Clause, error) {
		return Clause{}, fmt.Errorf("faults: %q: %s; use %s", text, fmt.Sprintf(format, a...), Usage)
	}
	if kind == elect.FaultPartition {
		sides, times, ok := strings.Cut(args, "@")
		as, bs, ok2 := strings.Cut(sides, "|")
		if !ok || !ok2 {
			return bad("a partition is written A|B@T1-T2")
		}
		var err error
		if c.A, err = parseNodes(as); err != nil {
			return bad("side %q: %v", as, err)
		}
		if c.B, err = parseNodes(bs); err != nil {
			return bad("side %q: %v", bs, err)
		}
		for _, a := range c.A {
			if _, found := slices.BinarySearch(c.B, a); found {
				return bad("node %d is on both sides", a)
			}
		}
		from, to, ok := strings.Cut(times, "-")
		if !ok {
			return bad("the partition's times are written T1-T2")
		}
		if c.From, err = parseInt(from, 0); err != nil {
			return bad("start time %q: %v", from, err)
		}
		if c.To, err = parseInt(to, 0); err != nil {
			return bad("end time %q: %v", to, err)
		}
		if c.To <= c.From {
			return bad("the partition must end after it starts (%d-%d)", c.From, c.To)
		}
		return c, nil
	}
	if kind == elect.FaultCrash && strings.HasPrefix(args, "node=") {
		node, when, ok := strings.Cut(strings.TrimPrefix(args, "node="), "@")
		if !ok {
			return bad("a crash of one node is written node=I@t=T or node=I@step=S")
		}
		i, err := parseInt(node, 0)
		if err != nil || i > math.MaxInt32 {
			return bad("node %q is not a node index", node)
		}
		c.Node = int(i)
		key, val, _ := strings.Cut(when, "=")
		switch key {
		case "t":
			if c.At, err = parseInt(val, 0); err != nil {
				return bad("time %q: %v", val, err)
			}
		case "step":
			if c.Step, err = parseInt(val, 1); err != nil {
				return bad("step %q: %v", val, err)
			}
		default:
			return bad("a crash happens @t=T (a time) or @step=S (after the node's S-th step)")
		}
		return c, nil
	}
	seen := map[string]bool{}
	for _, kv := range strings.Split(args, ",") {
		key, val, ok := strings.Cut(kv, "=")
		if !ok || seen[key] {
			return bad("%q is not a key=value argument, or is given twice", kv)
		}
		seen[key] = true
		var err error
		switch key {
		case "k":
			c.K, err = parseInt(val, 1)
		case "by":
			c.By, err = parseInt(val, 1)
		case "msg":
			c.Msg, err = parseInt(val, 1)
		case "d":
			c.D, err = parseInt(val, 1)
		case "p":
			c.P, err = strconv.ParseFloat(val, 64)
			if err == nil && !(c.P > 0 && c.P <= 1) {
				err = fmt.Errorf("a probability must be in (0, 1]")
			}
		default:
			return bad("unknown argument %q", key)
		}
		if err != nil {
			return bad("%s=%q: %v", key, val, err)
		}
	}
	forms := 0
	for _, k := range []string{"k", "msg", "p"} {
		if seen[k] {
			forms++
		}
	}
	switch {
	case forms != 1:
		return bad("give exactly one of k=, msg= or p=")
	case seen["by"] && !seen["k"]:
		return bad("by= goes with k=")
	case kind == elect.FaultCrash && !seen["k"]:
		return bad("crashes are k=K[,by=T] or node=I@t=T or node=I@step=S")
	case kind == elect.FaultDelay && !seen["d"]:
		return bad("a delay needs d=D, the time units it adds")
	case kind != elect.FaultDelay && seen["d"]:
		return bad("d= belongs to delay")
	case kind != elect.FaultLoss && kind != elect.FaultCrash && kind != elect.FaultDup && seen["k"]:
		return bad("k= belongs to loss, dup and crash")
	}
	return c, nil
}

// parseInt reads a decimal integer in min..2^40.
func parseInt(s string, min int64) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("not an integer")
	}
	if v < min || v > maxValue {
		return 0, fmt.Errorf("out of range %d..%d", min, int64(maxValue))
	}
	return v, nil
}

// parseNodes reads a node set: indexes and ranges I-J joined with ','.
func parseNodes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(f, "-")
		a, err := parseInt(lo, 0)
		if err != nil || a > math.MaxInt32 {
			return nil, fmt.Errorf("%q is not a node index", lo)
		}
		b := a
		if isRange {
			if b, err = parseInt(hi, 0); err != nil || b < a || b > math.MaxInt32 {
				return nil, fmt.Errorf("%q is not a range I-J with I <= J", f)
			}
		}
		if b-a >= 1<<24 || len(out) > 1<<24 {
			return nil, fmt.Errorf("the set is larger than %d nodes", 1<<24)
		}
		for i := a; i <= b; i++ {
			out = append(out, int(i))
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// String writes the specification in its canonical form, which Parse reads
// back to an equal Spec.
func (s *Spec) String() string {
	parts := make([]string, len(s.Clauses))
	for k, c := range s.Clauses {
		parts[k] = c.String()
	}
	return strings.Join(parts, ";")
}

// String writes the clause in its canonical form.
func (c Clause) String() string {
	name := c.Kind.String()
	var args []string
	switch {
	case c.Kind == elect.FaultPartition:
		return fmt.Sprintf("%s:%s|%s@%d-%d", name, formatNodes(c.A), formatNodes(c.B), c.From, c.To)
	case c.Kind == elect.FaultCrash && c.Node >= 0 && c.Step > 0:
		return fmt.Sprintf("%s:node=%d@step=%d", name, c.Node, c.Step)
	case c.Kind == elect.FaultCrash && c.Node >= 0:
		return fmt.Sprintf("%s:node=%d@t=%d", name, c.Node, c.At)
	case c.K > 0:
		args = append(args, fmt.Sprintf("k=%d", c.K))
		if c.By > 0 {
			args = append(args, fmt.Sprintf("by=%d", c.By))
		}
	case c.Msg > 0:
		args = append(args, fmt.Sprintf("msg=%d", c.Msg))
	default:
		args = append(args, "p="+strconv.FormatFloat(c.P, 'g', -1, 64))
	}
	if c.Kind == elect.FaultDelay {
		args = append(args, fmt.Sprintf("d=%d", c.D))
	}
	return name + ":" + strings.Join(args, ",")
}

func formatNodes(set []int) string {
	var parts []string
	for k := 0; k < len(set); {
		j := k
		for j+1 < len(set) && set[j+1] == set[j]+1 {
			j++
		}
		if j == k {
			parts = append(parts, strconv.Itoa(set[k]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", set[k], set[j]))
		}
		k = j + 1
	}
	return strings.Join(parts, ",")
}

// Check returns an error when the specification names a node outside
// 0..n-1 or asks for more crashes than there are nodes.
func (s *Spec) Check(n int) error {
	crashes := int64(0)
	for _, c := range s.Clauses {
		if c.Kind == elect.FaultCrash {
			if c.Node >= n {
				return fmt.Errorf("faults: %s: node %d is not in 0..%d", c, c.Node, n-1)
			}
			if c.Node < 0 {
				crashes += c.K
			}
		}
		if c.Kind == elect.FaultPartition {
			for _, i := range append(slices.Clip(c.A), c.B...) {
				if i >= n {
					return fmt.Errorf("faults: %s: node %d is not in 0..%d", c, i, n-1)
				}
			}
		}
	}
	if crashes > int64(n) {
		return fmt.Errorf("faults: %d drawn crashes asked for, but there are only %d nodes", crashes, n)
	}
	return nil
}
