package sim

import (
	"bufio"
	"io"
	"strconv"

	"github.com/electkit/elect"
)

// Tracer writes one JSON object per line for every event of a run:
//
//	{"t":3,"ev":"deliver","from":2,"to":3,"port":"right","type":"election","payload":{"j":7}}
//	{"t":5,"ev":"decide","node":7,"decision":"elected"}
//
// Other events: "wake" (with "spontaneous"), "timer" (with "tag"), "learn"
// (with "leader"), "halt", "drop" (a delivery to a halted node) and
// "violation" (with "name" and "message"); a checker's counterexample of
// non-termination has "loop" (the state it returns to) and "cut" (with
// "reason") lines. Lines are written in event order
// with a fixed field order, so equal runs give equal bytes.
//
// Every engine writes its traces with a Tracer, so that equal runs give equal
// traces on every engine.
type Tracer struct {
	w     *bufio.Writer
	cfg   *Config
	unit  int64
	clock func() int64
	buf   []byte
}

// NewTracer returns a Tracer of a run of cfg writing to w. clock gives the
// time each line is stamped with: ticks, or under newest-first delivery the
// causal depth reached so far.
func NewTracer(w io.Writer, cfg *Config, clock func() int64) *Tracer {
	unit := cfg.Delivery.Unit()
	if cfg.Delivery == NewestFirst {
		unit = 1
	}
	return &Tracer{w: bufio.NewWriterSize(w, 1<<16), cfg: cfg, unit: unit, clock: clock}
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

func (t *Tracer) end() {
	t.buf = append(t.buf, '}', '\n')
	t.w.Write(t.buf)
}

// Wake writes node i's wake-up.
func (t *Tracer) Wake(i int32, spontaneous bool) {
	t.start("wake")
	t.int("node", int64(i))
	t.buf = append(t.buf, `,"spontaneous":`...)
	t.buf = strconv.AppendBool(t.buf, spontaneous)
	t.end()
}

func (t *Tracer) deliver(d *delivery, dropped bool) { t.Deliver(d.to, d.port, d.msg, dropped) }

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

// Halt writes that node i terminated.
func (t *Tracer) Halt(i int32) {
	t.start("halt")
	t.int("node", int64(i))
	t.end()
}

// Violation writes a violated property.
func (t *Tracer) Violation(name, msg string) {
	t.start("violation")
	t.str("name", name)
	t.str("message", msg)
	t.end()
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

// Flush writes what is buffered.
func (t *Tracer) Flush() error { return t.w.Flush() }
