package election

import "fmt"

// Property is one property of an election that a run, a check or a
// population protocol's run can find broken: the monitor's, the checker's,
// the runtimes' and the population engines'. Its name (String) is the
// first word of a violation's text ("multiple-leaders: node 3 ...") in
// every output: records, reports, traces. Each property is declared once,
// in the table below; everything else names it by its constant, and only
// the decoders read a name back (ParseProperty).
type Property uint8

// The properties. The zero Property is none: a Violation with it is no
// violation.
const (
	PropNone Property = iota
	PropMultipleLeaders
	PropNoLeader
	PropWrongLeader
	PropWrongLeaderID
	PropNotInformed
	PropDeadlockUndecided
	PropDecisionChanged
	PropNonTermination
	PropBadPort
	PropAgainstDirection
	PropBadMessageType
	PropBadTimer
	PropTimeOverflow
	PropPanic
	PropFaultTolerance
	PropLeadersIncreased
	PropCounterMismatch
	PropAlgorithmCheck
	numProperties
)

// PropertyKind says whether a property is a safety property (a finite
// prefix of the run can break it: nothing bad ever happens) or a liveness
// property (only the run's end, or its going on for ever, can: something
// good eventually happens).
type PropertyKind uint8

// The kinds of property.
const (
	Safety PropertyKind = iota
	Liveness
)

func (k PropertyKind) String() string {
	if k == Liveness {
		return "liveness"
	}
	return "safety"
}

// PropertyInfo is the declaration of a property: its name, what it
// promises in one line, and its kind.
type PropertyInfo struct {
	Name    string
	Meaning string
	Kind    PropertyKind
}

// The names that are an outcome as well as a property: a run that ends
// with two leaders has outcome multiple-leaders, and the checker reports
// the execution that elects a second node as a violation of the property
// of the same name.
const (
	nameMultipleLeaders = "multiple-leaders"
	nameNoLeader        = "no-leader"
)

// properties is the table of every property, by Property.
var properties = [numProperties]PropertyInfo{
	PropNone:              {"", "no property", Safety},
	PropMultipleLeaders:   {nameMultipleLeaders, "at most one node is ever elected", Safety},
	PropNoLeader:          {nameNoLeader, "the run ends with a leader (in a population protocol: the last leader is never eliminated)", Liveness},
	PropWrongLeader:       {"wrong-leader", "the node elected is the one the algorithm promises (the maximum ID, the minimum, the smallest initiator)", Safety},
	PropWrongLeaderID:     {"wrong-leader-id", "a leader that promises to record the maximum ID records it", Liveness},
	PropNotInformed:       {"not-informed", "after the announcement every node knows the leader's ID", Liveness},
	PropDeadlockUndecided: {"deadlock-undecided", "after the announcement every node has decided", Liveness},
	PropDecisionChanged:   {"decision-changed", "no node changes a decision it has made", Safety},
	PropNonTermination:    {"non-termination", "every execution ends", Liveness},
	PropBadPort:           {"bad-port", "a node sends only on ports it has", Safety},
	PropAgainstDirection:  {"against-direction", "on a unidirectional ring a node sends only clockwise", Safety},
	PropBadMessageType:    {"bad-message-type", "a node sends only message types its algorithm declares", Safety},
	PropBadTimer:          {"bad-timer", "a node sets a timer only where timers exist (the synchronous model), in the future, able to receive it", Safety},
	PropTimeOverflow:      {"time-overflow", "a node sets a timer no later than the largest representable time", Safety},
	PropPanic:             {"panic", "a node's (or a protocol's) code never panics", Safety},
	PropFaultTolerance:    {"fault-tolerance", "under the faults an algorithm declares it tolerates, it still elects as it promises", Liveness},
	PropLeadersIncreased:  {"leaders-increased", "in a monotone population protocol the number of leaders never grows", Safety},
	PropCounterMismatch:   {"counter-mismatch", "a population engine's running counts agree with a recount of its agents", Safety},
	PropAlgorithmCheck:    {"algorithm-check", "a check an algorithm or protocol declares for itself (OwnCheck) holds", Safety},
}

// Properties returns the table of every property, in Property order
// (without PropNone).
func Properties() []PropertyInfo {
	return append([]PropertyInfo(nil), properties[1:]...)
}

// Info returns p's declaration.
func (p Property) Info() PropertyInfo {
	if p < numProperties {
		return properties[p]
	}
	return PropertyInfo{Name: fmt.Sprintf("property(%d)", uint8(p))}
}

// String returns p's name, as outputs write it.
func (p Property) String() string { return p.Info().Name }

// Meaning returns what p promises, in one line.
func (p Property) Meaning() string { return p.Info().Meaning }

// Kind returns whether p is a safety or a liveness property.
func (p Property) Kind() PropertyKind { return p.Info().Kind }

// ParseProperty returns the property named name. The decoders of the
// JSON outputs (Property.UnmarshalText) and of traces (TraceViolation) are
// its only callers: everything else holds properties as values.
func ParseProperty(name string) (Property, bool) {
	for p := PropNone + 1; p < numProperties; p++ {
		if properties[p].Name == name {
			return p, true
		}
	}
	return PropNone, false
}

// MarshalText writes p's name, so that a Property field of a JSON record
// reads as the name.
func (p Property) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a property by name (the JSON decoder's way).
func (p *Property) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*p = PropNone
		return nil
	}
	q, ok := ParseProperty(string(b))
	if !ok {
		return fmt.Errorf("election: %q is not a property (one of the names Properties lists)", b)
	}
	*p = q
	return nil
}

// OwnCheck is a check that an algorithm or a population protocol declares
// for itself, beyond the table's properties (a protocol's rule about when
// its election may be declared complete, say). It is declared once, beside
// the code that checks it; its violations are PropAlgorithmCheck ones
// that carry it, and their text starts with its Name.
type OwnCheck struct {
	Owner   string // the algorithm or protocol that declares it
	Name    string
	Meaning string
	Kind    PropertyKind
}

// Violation returns the violation of the check described by detail.
func (c *OwnCheck) Violation(detail string) Violation {
	return Violation{Property: PropAlgorithmCheck, Own: c, Detail: detail}
}

// Violation is a property found broken: which one, where (the step, the
// nodes involved) when the finder knows, and a sentence that says how.
// Its text (String), "name: detail", is what records, reports and the
// command print.
type Violation struct {
	Property Property
	// Own is, for PropAlgorithmCheck, the algorithm's check.
	Own *OwnCheck
	// Step is the number of the event (an exhaustive check's step in the
	// execution, a population protocol's interaction), counted from 1, at
	// which the property broke; 0 when not known.
	Step int64
	// Nodes are the nodes (or agents) involved, when known.
	Nodes  []int32
	Detail string
}

// NewViolation returns the violation of p described by detail, with the
// nodes involved.
func NewViolation(p Property, detail string, nodes ...int32) Violation {
	return Violation{Property: p, Nodes: nodes, Detail: detail}
}

// Found reports whether v is a violation (not the zero Violation).
func (v Violation) Found() bool { return v.Property != PropNone }

// Name is the name v's text starts with: its property's, or its own
// check's.
func (v Violation) Name() string {
	if v.Property == PropAlgorithmCheck && v.Own != nil {
		return v.Own.Name
	}
	return v.Property.String()
}

// String returns v's text, "name: detail" ("" for no violation).
func (v Violation) String() string {
	if !v.Found() {
		return ""
	}
	return v.Name() + ": " + v.Detail
}

// AtStep returns v with its Step set.
func (v Violation) AtStep(step int64) Violation {
	v.Step = step
	return v
}
