// Package trace reads the traces of elect's runs: format version 2 (a
// header line, then one event per line; docs/trace.md) and the headerless
// version 1 that earlier releases wrote. The writer is election.Tracer; the
// readers are the viewer (package view), the reference engine's replay and
// anyone's own tools.
//
// The reader checks what it returns: every line is a JSON object with a
// known "ev", node indices are within the header's n, and the header's
// topology, IDs and message types agree with each other, so that a program
// drawing or replaying a trace can index its arrays without checking again.
package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/electkit/elect/internal/bounded"
)

// Version is the trace format this package writes (through election.Tracer) and
// reads. Version 1 traces (no header) are read too; see Reader.Version.
const Version = 2

// Format is the value of the header's "format" field.
const Format = "elect-trace"

// MaxLine is the longest line the reader accepts.
const MaxLine = 16 << 20

// MaxBytes is the largest trace the reader accepts: a run's trace stops at
// --trace-limit (100 MiB by default), and one of this size takes hours to
// replay.
const MaxBytes = 64 << 30

// Limits are a trace file's limits, for its readers.
var Limits = bounded.Limits{What: "a trace", MaxBytes: MaxBytes, MaxLine: MaxLine}

// Header is the first line of a version 2 trace: what ran, where, and how.
type Header struct {
	Ev        string            `json:"ev"` // "header"
	Format    string            `json:"format"`
	Version   int               `json:"version"`
	Algorithm string            `json:"algorithm"`
	Title     string            `json:"title,omitempty"`
	Params    map[string]string `json:"params,omitempty"`
	N         int               `json:"n"`
	Seed      uint64            `json:"seed"`
	Topology  Topology          `json:"topology"`
	IDs       []int64           `json:"ids"`
	Delivery  string            `json:"delivery"`
	// Time says what "t" counts: "rounds", "time units" or "causal depth".
	Time     string        `json:"time"`
	Runtime  string        `json:"runtime"`
	Announce bool          `json:"announce"`
	Wake     []Wake        `json:"wake,omitempty"`
	Messages []MessageType `json:"messages"`
	Bounds   []Bound       `json:"bounds,omitempty"`
	// StateValues names the values of enumerated state fields (the
	// algorithm's elect.Algorithm.StateValues): value k of field f is
	// StateValues[f][k].
	StateValues map[string][]string `json:"state_values,omitempty"`
	// Ports lists each node's neighbours in port order: Ports[i][p] is the
	// node at the other end of node i's port p (for complete and general
	// graphs of at most MaxPortsListed ports; a ring's port 0, left, leads
	// to i+1 and its port 1 to i-1; older traces have none).
	Ports [][]int32 `json:"ports,omitempty"`
	// Tree names the state field that marks a node's tree ports (the
	// algorithm's elect.Algorithm.TreePorts), absent when it has none.
	Tree *Tree `json:"tree,omitempty"`
	// Faults is the run's fault specification (--faults), when it has one.
	Faults string `json:"faults,omitempty"`

	// A population protocol's run (Kind "population"; docs/trace.md,
	// "Population runs") has no network: Protocol, Engine, Scheduler and
	// States instead of Algorithm, Topology, IDs and Messages.
	Kind      string  `json:"kind,omitempty"`
	Protocol  string  `json:"protocol,omitempty"`
	Engine    string  `json:"engine,omitempty"`
	Scheduler string  `json:"scheduler,omitempty"`
	States    []State `json:"states,omitempty"`
	// StateFields, when the protocol declares them, read a state's name
	// (a packed unsigned integer, in decimal) as named fields.
	StateFields []StateField `json:"state_fields,omitempty"`
}

// StateField is one field of a population protocol's state packed in an
// unsigned integer s: its value is (s >> Shift) & (2^Bits - 1), or s >>
// Shift when Bits is 0; Values, when set, names value k Values[k].
type StateField struct {
	Name   string   `json:"name"`
	Shift  uint8    `json:"shift"`
	Bits   uint8    `json:"bits,omitempty"`
	Values []string `json:"values,omitempty"`
}

// MaxPortsListed bounds the ports a header lists (Header.Ports).
const MaxPortsListed = 1 << 16

// Tree names the state field that marks tree ports: with Value, a slice
// by port whose element Value (a name of StateValues[Field]) marks a tree
// port; without, a port number (negative: none).
type Tree struct {
	Field string `json:"field"`
	Value string `json:"value,omitempty"`
}

// KindPopulation is the header's Kind for a population protocol's run.
const KindPopulation = "population"

// State is a population protocol's state as a trace names it: its name
// and its output. Its index in the header's States is its column in the
// "counts" events.
type State struct {
	Name   string `json:"name"`
	Output string `json:"output"`
}

// Population reports whether the trace is a population protocol's run.
func (h *Header) Population() bool { return h != nil && h.Kind == KindPopulation }

// Topology is the network: its kind ("ring", "complete" or "general"), its
// specification as given (e.g. "grid:4x4") and, for general graphs, its
// edges in port order (ring and complete graphs have their edges implied:
// node i's port left leads to i+1 on a ring, port p of a complete graph's
// node i to p if p < i, else p+1).
type Topology struct {
	Kind  string     `json:"kind"`
	Name  string     `json:"name"`
	Edges [][2]int32 `json:"edges,omitempty"`
}

// Wake is one initiator and its spontaneous wake-up time.
type Wake struct {
	Node int   `json:"node"`
	At   int64 `json:"at"`
}

// MessageType is a declared message type: its name and payload fields.
type MessageType struct {
	Name   string   `json:"name"`
	Fields []string `json:"fields"`
}

// Bound is a declared bound evaluated for the run: messages of the listed
// types (all when empty), or time, compared with Value.
type Bound struct {
	Name     string   `json:"name"`
	Quantity string   `json:"quantity"` // "messages", "bits" or "time"
	Types    []string `json:"types,omitempty"`
	Relation string   `json:"relation"`
	Formula  string   `json:"formula"`
	Value    float64  `json:"value"`
}

// Event is one line after the header. Which fields are set depends on Ev;
// docs/trace.md lists them.
type Event struct {
	T           json.Number      `json:"t"`
	Ev          string           `json:"ev"`
	Node        int32            `json:"node"`
	Spontaneous bool             `json:"spontaneous"`
	From        int32            `json:"from"`
	To          int32            `json:"to"`
	Port        string           `json:"port"`
	Type        string           `json:"type"`
	Payload     map[string]int64 `json:"payload"`
	Decision    string           `json:"decision"`
	Leader      int64            `json:"leader"`
	Tag         int64            `json:"tag"`
	Name        string           `json:"name"`
	Message     string           `json:"message"`
	Vars        json.RawMessage  `json:"vars"`
	Limit       int64            `json:"limit"`
	Reason      string           `json:"reason"`
	// Faults: a "lose" line's cause ("loss" or "partition"), and a "delay"
	// line's added delay in time units.
	Cause string `json:"cause"`
	By    int64  `json:"by"`
	// No is a fault line's message number: the run's count of messages
	// sent, in sending order (docs/faults.md).
	No int64 `json:"no"`
	// Population runs: "counts" (Step, Counts, Leaders) and "result".
	Step         int64   `json:"step"`
	Counts       []int64 `json:"counts"`
	Leaders      int64   `json:"leaders"`
	Outcome      string  `json:"outcome"`
	Interactions int64   `json:"interactions"`
}

// Time returns the event's time as a number (0 when absent).
func (e *Event) Time() float64 {
	f, _ := strconv.ParseFloat(string(e.T), 64)
	return f
}

// The events (the values of "ev").
var events = map[string]bool{
	"wake": true, "send": true, "deliver": true, "drop": true, "decide": true, "learn": true,
	"timer": true, "terminate": true, "halt": true, "violation": true, "state": true, "truncated": true,
	"loop": true, "cut": true, "counts": true, "result": true,
	"lose": true, "dup": true, "delay": true, "crash": true,
}

// The events of a population run.
var populationEvents = map[string]bool{"counts": true, "result": true, "truncated": true}

// Reader reads a trace line by line.
type Reader struct {
	sc      *bounded.Lines
	line    int
	header  *Header
	version int
	pending *Event // a version 1 trace's first event, read to see there is no header
	types   map[string]int
	err     error
}

// NewReader reads the first line of r: the header of a version 2 trace, or
// the first event of a version 1 trace. It returns an error for an empty
// input, a malformed first line, or a header of another version.
func NewReader(r io.Reader) (*Reader, error) { return NewNamedReader(r, "") }

// NewNamedReader is NewReader of an input that errors about its limits
// name (a file's path).
func NewNamedReader(r io.Reader, name string) (*Reader, error) {
	rd := &Reader{sc: bounded.NewLines(r, name, Limits)}
	if !rd.sc.Scan() {
		if err := rd.sc.Err(); err != nil {
			return nil, readError(1, err)
		}
		return nil, errors.New("trace: the file is empty")
	}
	rd.line = 1
	text := rd.sc.Bytes()
	var probe struct {
		Ev      string `json:"ev"`
		Version *int   `json:"version"`
	}
	if err := json.Unmarshal(text, &probe); err != nil {
		return nil, fmt.Errorf("trace: line 1 is not a JSON object: %s", bounded.Cut(err.Error()))
	}
	if probe.Ev != "header" {
		rd.version = 1
		ev, err := rd.event(text)
		if err != nil {
			return nil, err
		}
		rd.pending = &ev
		return rd, nil
	}
	if probe.Version == nil || *probe.Version != Version {
		v := "none"
		if probe.Version != nil {
			v = strconv.Itoa(*probe.Version)
		}
		if v == "1" {
			return nil, fmt.Errorf("trace: line 1 is a header of format version 1, but version 1 traces have no header (they start with their first event); this elect reads version %d traces and headerless version 1 traces", Version)
		}
		return nil, fmt.Errorf("trace: format version %s is not one this elect reads (it reads version %d, and version 1 traces, which have no header line)", v, Version)
	}
	var h Header
	if err := json.Unmarshal(text, &h); err != nil {
		return nil, fmt.Errorf("trace: line 1, the header: %s", bounded.Cut(err.Error()))
	}
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("trace: line 1, the header: %s", bounded.Cut(err.Error()))
	}
	rd.header, rd.version = &h, Version
	rd.types = make(map[string]int, len(h.Messages))
	for k, m := range h.Messages {
		rd.types[m.Name] = k
	}
	return rd, nil
}

// maxNodes bounds the n a header may declare (the viewer allocates per node).
const maxNodes = 1 << 24

func (h *Header) check() error {
	if h.Format != Format {
		return fmt.Errorf("format %q, want %q", h.Format, Format)
	}
	switch h.Kind {
	case "":
	case KindPopulation:
		return h.checkPopulation()
	default:
		return fmt.Errorf("kind %q is not a network run (no kind) or %q", h.Kind, KindPopulation)
	}
	if h.N < 1 || h.N > maxNodes {
		return fmt.Errorf("n = %d is not in 1..%d", h.N, maxNodes)
	}
	if len(h.IDs) != h.N {
		return fmt.Errorf("%d IDs for %d nodes", len(h.IDs), h.N)
	}
	switch h.Topology.Kind {
	case "ring", "complete":
		if len(h.Topology.Edges) > 0 {
			return fmt.Errorf("a %s lists no edges", h.Topology.Kind)
		}
	case "general":
		for _, e := range h.Topology.Edges {
			if e[0] < 0 || int(e[0]) >= h.N || e[1] < 0 || int(e[1]) >= h.N {
				return fmt.Errorf("edge %d-%d is not between nodes 0..%d", e[0], e[1], h.N-1)
			}
		}
	default:
		return fmt.Errorf("topology kind %q is not ring, complete or general", h.Topology.Kind)
	}
	if len(h.Ports) > 0 {
		if len(h.Ports) != h.N {
			return fmt.Errorf("ports are listed for %d nodes, not n = %d", len(h.Ports), h.N)
		}
		for i, nb := range h.Ports {
			for p, j := range nb {
				if j < 0 || int(j) >= h.N {
					return fmt.Errorf("node %d's port %d leads to %d, not a node 0..%d", i, p, j, h.N-1)
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, m := range h.Messages {
		if m.Name == "" || seen[m.Name] {
			return fmt.Errorf("message type %q is empty or declared twice", m.Name)
		}
		seen[m.Name] = true
	}
	for _, w := range h.Wake {
		if w.Node < 0 || w.Node >= h.N {
			return fmt.Errorf("wake-up of node %d, not in 0..%d", w.Node, h.N-1)
		}
	}
	return nil
}

// maxPopulation is the largest n of a population run (pp.MaxCountN), and
// maxStates the most states a population trace names.
const (
	maxPopulation = 1 << 60
	maxStates     = 1 << 12
)

func (h *Header) checkPopulation() error {
	if h.N < 2 || h.N > maxPopulation {
		return fmt.Errorf("n = %d is not in 2..2^60", h.N)
	}
	for _, f := range h.StateFields {
		if f.Name == "" || int(f.Shift)+int(f.Bits) > 64 {
			return fmt.Errorf("state field %q (shift %d, %d bits) is not a named field of a 64-bit integer", f.Name, f.Shift, f.Bits)
		}
	}
	if h.Protocol == "" {
		return errors.New("a population run names its protocol")
	}
	if len(h.States) == 0 || len(h.States) > maxStates {
		return fmt.Errorf("%d states; a population run names 1..%d", len(h.States), maxStates)
	}
	seen := map[string]bool{}
	for _, s := range h.States {
		if s.Name == "" || seen[s.Name] {
			return fmt.Errorf("state %q is empty or named twice", s.Name)
		}
		seen[s.Name] = true
	}
	if len(h.IDs) > 0 || len(h.Messages) > 0 || h.Topology.Kind != "" || len(h.Wake) > 0 {
		return errors.New("a population run has no IDs, messages, topology or wake-ups")
	}
	return nil
}

// Version is the trace's format version: 2, or 1 for a headerless trace.
func (rd *Reader) Version() int { return rd.version }

// Header returns the trace's header (nil for a version 1 trace).
func (rd *Reader) Header() *Header { return rd.header }

// Line is the number of the last line read.
func (rd *Reader) Line() int { return rd.line }

// Text is the last line read, without its line ending; it is valid until
// the next call to Next.
func (rd *Reader) Text() []byte { return rd.sc.Bytes() }

// Next returns the next event, or io.EOF after the last one. An error names
// its line.
func (rd *Reader) Next() (Event, error) {
	if rd.pending != nil {
		ev := *rd.pending
		rd.pending = nil
		return ev, nil
	}
	if rd.err != nil {
		return Event{}, rd.err
	}
	for rd.sc.Scan() {
		rd.line++
		text := rd.sc.Bytes()
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		ev, err := rd.event(text)
		if err != nil && rd.sc.Cut() {
			err = fmt.Errorf("trace: line %d, the last, was cut short: the trace's writer was killed while writing it (the lines before it are whole: remove this one to read them)", rd.line)
		}
		if err != nil {
			rd.err = err
			return Event{}, err
		}
		return ev, nil
	}
	if err := rd.sc.Err(); err != nil {
		rd.err = readError(rd.line+1, err)
		return Event{}, rd.err
	}
	rd.err = io.EOF
	return Event{}, io.EOF
}

// readError is the error of a trace that could not be read at line: past
// a limit (which the error states), or the reader's own.
func readError(line int, err error) error {
	var be *bounded.Error
	if errors.As(err, &be) {
		return fmt.Errorf("trace: %w", err)
	}
	return fmt.Errorf("trace: reading line %d: %w", line, err)
}

// quickDecoding turns quickEvent on; the benchmark turns it off to compare.
var quickDecoding = true

// event decodes and checks one event line.
func (rd *Reader) event(text []byte) (Event, error) {
	var ev Event
	fail := func(format string, args ...any) (Event, error) {
		return Event{}, fmt.Errorf("trace: line %d: %s", rd.line, bounded.Cut(fmt.Sprintf(format, args...)))
	}
	if !quickDecoding || !quickEvent(text, &ev) {
		ev = Event{}
		if err := json.Unmarshal(text, &ev); err != nil {
			return fail("not a trace event: %v", err)
		}
	}
	if !events[ev.Ev] {
		if ev.Ev == "header" {
			return fail("a second header")
		}
		return fail("unknown event %q", ev.Ev)
	}
	if ev.T != "" {
		if _, err := strconv.ParseFloat(string(ev.T), 64); err != nil {
			return fail("time %q is not a number", ev.T)
		}
	}
	if rd.header == nil {
		return ev, nil
	}
	if rd.header.Population() {
		return rd.populationEvent(ev, fail)
	}
	n := int32(rd.header.N)
	in := func(i int32) bool { return i >= 0 && i < n }
	switch ev.Ev {
	case "send", "deliver", "drop", "lose", "dup", "delay":
		if !in(ev.From) || !in(ev.To) {
			return fail("%s from node %d to node %d; nodes are 0..%d", ev.Ev, ev.From, ev.To, n-1)
		}
		if _, ok := rd.types[ev.Type]; !ok {
			return fail("message type %q is not declared in the header", ev.Type)
		}
	case "truncated", "violation", "loop", "cut":
	case "counts", "result":
		return fail("%s is an event of population runs; this trace is a network run's", ev.Ev)
	default:
		if !in(ev.Node) {
			return fail("%s of node %d; nodes are 0..%d", ev.Ev, ev.Node, n-1)
		}
	}
	if ev.Ev == "lose" && ev.Cause != "loss" && ev.Cause != "partition" {
		return fail("a lost message's cause is loss or partition, not %q", ev.Cause)
	}
	if ev.Ev == "delay" && ev.By < 1 {
		return fail("a delay of %d time units; it is at least 1", ev.By)
	}
	if ev.Ev == "state" && len(ev.Vars) > 0 && ev.Vars[0] != '{' {
		return fail("state vars are not an object")
	}
	return ev, nil
}

// populationEvent checks an event of a population run: counts, one per
// state of the header, that add up to n, and leaders within 0..n.
func (rd *Reader) populationEvent(ev Event, fail func(string, ...any) (Event, error)) (Event, error) {
	if !populationEvents[ev.Ev] {
		return fail("%s is not an event of a population run", ev.Ev)
	}
	n := int64(rd.header.N)
	if ev.Leaders < 0 || ev.Leaders > n {
		return fail("%d leaders of %d agents", ev.Leaders, n)
	}
	if ev.Step < 0 || ev.Interactions < 0 {
		return fail("a negative step")
	}
	if ev.Ev != "counts" {
		return ev, nil
	}
	if len(ev.Counts) != len(rd.header.States) {
		return fail("%d counts for the header's %d states", len(ev.Counts), len(rd.header.States))
	}
	var sum int64
	for _, k := range ev.Counts {
		if k < 0 {
			return fail("a negative count")
		}
		if k > n-sum {
			return fail("the counts add up to more than n = %d", n)
		}
		sum += k
	}
	if sum != n {
		return fail("the counts add up to %d, not n = %d", sum, n)
	}
	return ev, nil
}

// Trace is a whole trace in memory.
type Trace struct {
	Header    *Header // nil for version 1
	Version   int
	Events    []Event
	Truncated bool // the writer's size limit cut it (a "truncated" line)
}

// ReadAll reads a whole trace.
func ReadAll(r io.Reader) (*Trace, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	t := &Trace{Header: rd.Header(), Version: rd.Version()}
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, err
		}
		if ev.Ev == "truncated" {
			t.Truncated = true
		}
		t.Events = append(t.Events, ev)
	}
}
