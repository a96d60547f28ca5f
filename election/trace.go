package election

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"

	"github.com/electkit/elect"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/trace"
)

// DefaultTraceLimit is the size limit of a trace when a command sets none
// (Config.TraceLimit): 100 MB, about a million events.
const DefaultTraceLimit = 100 << 20

// Tracer writes a run's trace in format version 2 (docs/trace.md, read by
// package trace): a header line that says what ran (algorithm, parameters,
// n, seed, topology with its edges, IDs, delivery model, runtime, message
// types, the declared bounds evaluated), then one JSON object per event:
//
//	{"t":3,"ev":"send","from":2,"port":"left","to":3,"type":"election","payload":{"j":7}}
//	{"t":4,"ev":"deliver","from":2,"to":3,"port":"right","type":"election","payload":{"j":7}}
//	{"t":4,"ev":"decide","node":7,"decision":"elected"}
//	{"t":4,"ev":"state","node":7,"vars":{"id":8,"maxID":8,"leader":true,"announce":false}}
//
// Other events: "wake" (with "spontaneous"), "timer" (with "tag"), "learn"
// (with "leader"), "terminate", "drop" (a delivery to a halted node),
// "violation" (with "name" and "message") and "truncated", the last line
// of a trace that reached its size limit; a checker's counterexample of
// non-termination has "loop" (the state it returns to) and "cut" (with
// "reason") lines. A node's "state" line follows
// each of its steps that changed its state (elect.Snapshotter's encoding),
// so that the state at any point is the last one written before it; nodes
// that are not Snapshotters have none. Lines are written in event order
// with a fixed field order, so equal runs give equal bytes.
//
// Every engine writes its traces with a Tracer, so that equal runs give equal
// traces on every engine (the header's runtime aside).
type Tracer struct {
	w         io.Writer
	buffered  *bufio.Writer // w, unless w keeps each write (keepsEachWrite)
	err       error         // the first error of a write to w
	cfg       *Config
	unit      int64
	clock     func() int64
	buf       []byte
	runtime   string
	headed    bool
	limit     int64
	written   int64
	truncated bool
	states    [][]byte // each node's last state written
	state     []byte
}

// NewTracer returns a Tracer of a run of cfg writing to w. clock gives the
// time each line is stamped with: ticks of the delivery model, or under
// newest-first delivery and in runs with cfg.CausalTime the causal depth
// reached so far (or a Lamport time); SetUnit overrides this. The header is written with the first line;
// it names the runtime "sim" unless SetRuntime says otherwise. The size
// limit is cfg.TraceLimit (0: none).
func NewTracer(w io.Writer, cfg *Config, clock func() int64) *Tracer {
	unit := cfg.Delivery.Unit()
	if cfg.Delivery == NewestFirst || cfg.CausalTime {
		unit = 1 // the clock gives causal depths (or Lamport times)
	}
	t := &Tracer{w: w, cfg: cfg, unit: unit, clock: clock, runtime: "sim", limit: cfg.TraceLimit}
	if _, ok := w.(keepsEachWrite); !ok {
		t.buffered = bufio.NewWriterSize(w, 1<<16)
		t.w = t.buffered
	}
	return t
}

// keepsEachWrite is a writer that keeps each write in its file as soon as
// it returns, at the cost of a memory copy (internal/cmdio.Stream: its
// buffer is the file's pages). A Tracer gives it each line directly: a
// buffer of its own would hold lines that SIGKILL loses.
type keepsEachWrite interface {
	io.Writer
	KeepsEachWrite()
}

// write hands b to the writer, keeping the first error for Flush.
func (t *Tracer) write(b []byte) {
	if _, err := t.w.Write(b); err != nil && t.err == nil {
		t.err = err
	}
}

// SetRuntime names the runtime in the header: "sim", "reference", "live",
// "cluster", "check".
func (t *Tracer) SetRuntime(name string) { t.runtime = name }

// Continue makes t write the rest of old's trace: no header, the same
// states known, the same bytes counted against the limit.
func (t *Tracer) Continue(old *Tracer) {
	t.headed, t.written, t.truncated = old.headed, old.written, old.truncated
	t.states = make([][]byte, len(old.states))
	for i, s := range old.states {
		t.states[i] = append([]byte(nil), s...)
	}
	if old.states == nil {
		t.states = nil
	}
}

// SetUnit says how many ticks of the clock make one time unit (a line's
// "t" is the clock divided by it): an engine whose clock counts ticks under
// random delays sets it, whatever the configuration's CausalTime says.
func (t *Tracer) SetUnit(unit int64) { t.unit = max(unit, 1) }

// Truncated reports whether the size limit stopped the trace.
func (t *Tracer) Truncated() bool { return t != nil && t.truncated }

// Header returns the header of a trace of cfg written by runtime.
func Header(cfg *Config, runtime string) trace.Header {
	g, alg := cfg.Graph, cfg.Algorithm
	h := trace.Header{
		Ev: "header", Format: trace.Format, Version: trace.Version,
		Algorithm: alg.Name, Title: alg.Title, Params: cfg.Params, N: g.N, Seed: cfg.Seed,
		Topology: trace.Topology{Kind: [...]string{"ring", "complete", "general"}[min(int(g.Kind), 2)], Name: g.Name},
		IDs:      make([]int64, len(cfg.IDs)),
		Delivery: cfg.Delivery.String(), Runtime: runtime, Announce: cfg.Announce,
		Time: "time units",
	}
	switch {
	case cfg.Delivery == Sync:
		h.Time = "rounds"
	case cfg.Delivery == NewestFirst || cfg.CausalTime:
		h.Time = "causal depth"
	}
	for i, id := range cfg.IDs {
		h.IDs[i] = int64(id)
	}
	if g.Kind == topology.General {
		for i := range int32(g.N) {
			for p := range g.Degree(int(i)) {
				if j, _ := g.Neighbor(i, elect.Port(p)); j > i {
					h.Topology.Edges = append(h.Topology.Edges, [2]int32{i, j})
				}
			}
		}
	}
	for _, w := range cfg.Wake {
		h.Wake = append(h.Wake, trace.Wake{Node: w.Node, At: w.At})
	}
	if cfg.Faults != nil {
		h.Faults = cfg.Faults.String()
	}
	for _, m := range alg.Messages {
		h.Messages = append(h.Messages, trace.MessageType{Name: m.Name, Fields: m.Fields})
	}
	h.StateValues = alg.StateValues
	if alg.TreePorts.Field != "" {
		h.Tree = &trace.Tree{Field: alg.TreePorts.Field, Value: alg.TreePorts.Value}
	}
	// A ring's ports need no list (port 0, left, leads to i+1).
	if g.Kind != topology.Ring && g.Ports() <= trace.MaxPortsListed {
		h.Ports = make([][]int32, g.N)
		for i := range int32(g.N) {
			h.Ports[i] = make([]int32, g.Degree(int(i)))
			for p := range h.Ports[i] {
				h.Ports[i][p], _ = g.Neighbor(i, elect.Port(p))
			}
		}
	}
	ctx := cfg.BoundContext()
	for _, b := range alg.Bounds {
		if b.Applies != nil && !b.Applies(ctx) {
			continue
		}
		v := b.Value(ctx)
		if math.IsInf(v, 0) || math.IsNaN(v) {
			continue
		}
		h.Bounds = append(h.Bounds, trace.Bound{Name: b.Name, Quantity: b.Quantity.String(), Types: b.Types,
			Relation: b.Relation.String(), Formula: b.Formula, Value: v})
	}
	return h
}

func (t *Tracer) start(ev string) {
	t.buf = append(t.buf[:0], `{"t":`...)
	if now := t.clock(); t.unit == 1 {
		t.buf = strconv.AppendInt(t.buf, now, 10)
	} else {
		t.buf = strconv.AppendFloat(t.buf, float64(now)/float64(t.unit), 'g', -1, 64)
	}
	t.buf = append(t.buf, `,"ev":"`...)
	t.buf = append(t.buf, ev...)
	t.buf = append(t.buf, '"')
}

func (t *Tracer) int(key string, v int64) {
	t.buf = append(t.buf, ',', '"')
	t.buf = append(t.buf, key...)
	t.buf = append(t.buf, '"', ':')
	t.buf = strconv.AppendInt(t.buf, v, 10)
}

func (t *Tracer) str(key, v string) {
	t.buf = append(t.buf, ',', '"')
	t.buf = append(t.buf, key...)
	t.buf = append(t.buf, '"', ':')
	t.buf = strconv.AppendQuote(t.buf, v)
}

// end writes the line in t.buf, after the header, unless the size limit is
// reached: then it writes the "truncated" line instead, and nothing more.
func (t *Tracer) end() {
	t.buf = append(t.buf, '}', '\n')
	if t.truncated {
		return
	}
	if !t.headed {
		t.writeHeader()
	}
	if t.limit > 0 && t.written+int64(len(t.buf)) > t.limit {
		t.truncated = true
		mark := strconv.AppendInt([]byte(`{"ev":"truncated","limit":`), t.limit, 10)
		mark = append(mark, "}\n"...)
		t.write(mark)
		return
	}
	t.written += int64(len(t.buf))
	t.write(t.buf)
}

func (t *Tracer) writeHeader() {
	t.headed = true
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false) // relations read "<=", not "\u003c="
	if err := enc.Encode(Header(t.cfg, t.runtime)); err != nil {
		panic("election: the trace header does not encode: " + err.Error()) // only plain values in it
	}
	t.written += int64(line.Len())
	t.write(line.Bytes())
}

// Wake writes node i's wake-up.
func (t *Tracer) Wake(i int32, spontaneous bool) {
	t.start("wake")
	t.int("node", int64(i))
	t.buf = append(t.buf, `,"spontaneous":`...)
	t.buf = strconv.AppendBool(t.buf, spontaneous)
	t.end()
}

func (t *Tracer) message(m elect.Message) {
	mt := t.cfg.Algorithm.Messages[m.Type]
	t.str("type", mt.Name)
	t.buf = append(t.buf, `,"payload":{`...)
	vals := [3]int64{int64(m.ID), m.A, m.B}
	for k, f := range mt.Fields {
		if k > 0 {
			t.buf = append(t.buf, ',')
		}
		t.buf = strconv.AppendQuote(t.buf, f)
		t.buf = append(t.buf, ':')
		t.buf = strconv.AppendInt(t.buf, vals[k], 10)
	}
	t.buf = append(t.buf, '}')
}

// Send writes that node from sent m on its port p, to node to. Only sends
// the model allows are written (the others are violations).
func (t *Tracer) Send(from int32, p elect.Port, to int32, m elect.Message) {
	if int(m.Type) >= len(t.cfg.Algorithm.Messages) {
		return
	}
	t.start("send")
	t.int("from", int64(from))
	t.str("port", t.cfg.Graph.PortName(p))
	t.int("to", int64(to))
	t.message(m)
	t.end()
}

// Deliver writes the delivery of m to node to on its port, or its drop when
// node to has halted.
func (t *Tracer) Deliver(to int32, port elect.Port, m elect.Message, dropped bool) {
	if dropped {
		t.start("drop")
	} else {
		t.start("deliver")
	}
	from, _ := t.cfg.Graph.Neighbor(to, port)
	t.int("from", int64(from))
	t.int("to", int64(to))
	t.str("port", t.cfg.Graph.PortName(port))
	t.message(m)
	t.end()
}

// Fault writes what a fault did to message number no (in sending order),
// which node from sent on its port p to node to, right after its "send"
// line: ev is "lose" (with "cause", "loss" or "partition"), "dup" (it will
// be delivered twice) or "delay" (with "by", the time units it is late
// by). The number ("no") is what the run's report calls the message, so
// that a replay of the record reports it alike.
func (t *Tracer) Fault(ev string, no int64, from int32, p elect.Port, to int32, m elect.Message, cause string, by int64) {
	if int(m.Type) >= len(t.cfg.Algorithm.Messages) {
		return
	}
	t.start(ev)
	t.int("no", no)
	t.int("from", int64(from))
	t.str("port", t.cfg.Graph.PortName(p))
	t.int("to", int64(to))
	t.message(m)
	if cause != "" {
		t.str("cause", cause)
	}
	if by > 0 {
		t.int("by", by)
	}
	t.end()
}

// Crash writes that node i crashed (a "crash" line).
func (t *Tracer) Crash(i int32) {
	t.start("crash")
	t.int("node", int64(i))
	t.end()
}

// Decide writes node i's decision.
func (t *Tracer) Decide(i int32, d elect.Decision) {
	t.start("decide")
	t.int("node", int64(i))
	t.str("decision", d.String())
	t.end()
}

// Learn writes that node i learned the leader's ID.
func (t *Tracer) Learn(i int32, id elect.ID) {
	t.start("learn")
	t.int("node", int64(i))
	t.int("leader", int64(id))
	t.end()
}

// Timer writes a timer of node i firing.
func (t *Tracer) Timer(i int32, tag int64) {
	t.start("timer")
	t.int("node", int64(i))
	t.int("tag", tag)
	t.end()
}

// Halt writes that node i terminated (a "terminate" line).
func (t *Tracer) Halt(i int32) {
	t.start("terminate")
	t.int("node", int64(i))
	t.end()
}

// Violation writes a violated property: a "violation" line with its name
// and its detail as "message".
func (t *Tracer) Violation(v Violation) {
	t.start("violation")
	t.str("name", v.Name())
	t.str("message", v.Detail)
	t.end()
}

// TraceViolation reads a trace's "violation" line (ev.Ev == "violation")
// as the Violation it records: the trace decoder's one place where a
// property is read back from its name. A name that is no property is an
// error.
func TraceViolation(ev *trace.Event) (Violation, error) {
	p, ok := ParseProperty(ev.Name)
	if !ok || p == PropAlgorithmCheck {
		return Violation{}, fmt.Errorf("a violation of %q, which is not a property of an election", ev.Name)
	}
	return Violation{Property: p, Detail: ev.Message}, nil
}

// Loop marks the state the run has reached as the one it returns to where
// the record is cut (a checker's counterexample of non-termination): the
// lines between Loop and Cut can repeat for ever.
func (t *Tracer) Loop() {
	t.start("loop")
	t.end()
}

// Cut ends a record that is not a whole run, saying why.
func (t *Tracer) Cut(reason string) {
	t.start("cut")
	t.str("reason", reason)
	t.end()
}

// State writes node i's state after a step, when node is an
// elect.Snapshotter and its state differs from the last one written for
// it: its fields by name (the struct's own, read by reflection, nested
// structs as objects, slices as arrays of at most 64 elements).
func (t *Tracer) State(i int32, node elect.Node) {
	s, ok := node.(elect.Snapshotter)
	if !ok || t.truncated {
		return
	}
	if t.states == nil {
		t.states = make([][]byte, t.cfg.Graph.N)
	}
	t.state = s.AppendState(t.state[:0])
	if t.states[i] != nil && bytes.Equal(t.states[i], t.state) {
		return
	}
	t.states[i] = append(t.states[i][:0], t.state...)
	t.start("state")
	t.int("node", int64(i))
	t.buf = append(t.buf, `,"vars":`...)
	v := reflect.ValueOf(node)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct {
		t.buf = appendValue(t.buf, v, 0)
	} else {
		t.buf = append(t.buf, "{}"...)
	}
	t.end()
}

// appendValue appends v as JSON: numbers, booleans, strings, structs as
// objects of their fields, arrays and slices (at most 64 elements), and
// null for what has no plain value (a nil slice is empty, as in the
// state's encoding) (maps, funcs, channels, interfaces).
func appendValue(b []byte, v reflect.Value, depth int) []byte {
	switch v.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(b, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return strconv.AppendQuote(b, strconv.FormatFloat(f, 'g', -1, 64))
		}
		return strconv.AppendFloat(b, f, 'g', -1, 64)
	case reflect.String:
		return strconv.AppendQuote(b, v.String())
	case reflect.Pointer:
		if v.IsNil() || depth > 3 {
			return append(b, "null"...)
		}
		return appendValue(b, v.Elem(), depth+1)
	case reflect.Struct:
		if depth > 3 {
			return append(b, "null"...)
		}
		b = append(b, '{')
		ty := v.Type()
		for k := range v.NumField() {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, '"') // a Go identifier needs no escaping
			b = append(b, ty.Field(k).Name...)
			b = append(b, '"', ':')
			b = appendValue(b, v.Field(k), depth+1)
		}
		return append(b, '}')
	case reflect.Array, reflect.Slice:
		if depth > 3 {
			return append(b, "null"...)
		}
		b = append(b, '[')
		for k := range min(v.Len(), 64) {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, v.Index(k), depth+1)
		}
		return append(b, ']')
	}
	return append(b, "null"...)
}

// Flush writes what is buffered (the header at least, so that a run with no
// event still has a whole trace).
func (t *Tracer) Flush() error {
	if !t.headed {
		t.writeHeader()
	}
	if t.buffered != nil {
		if err := t.buffered.Flush(); err != nil {
			return err
		}
	}
	return t.err
}
