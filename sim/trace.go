package sim

import (
	"bufio"
	"io"
	"strconv"

	"github.com/electkit/elect"
)

// tracer writes one JSON object per line for every event of a run:
//
//	{"t":3,"ev":"deliver","from":2,"to":3,"port":"right","type":"election","payload":{"j":7}}
//	{"t":5,"ev":"decide","node":7,"decision":"elected"}
//
// Other events: "wake" (with "spontaneous"), "timer" (with "tag"), "learn"
// (with "leader"), "halt", "drop" (a delivery to a halted node) and
// "violation" (with "name" and "message"). Lines are written in event order
// with a fixed field order, so equal runs give equal bytes.
type tracer struct {
	w   *bufio.Writer
	e   *engine
	buf []byte
}

func newTracer(w io.Writer, e *engine) *tracer {
	return &tracer{w: bufio.NewWriterSize(w, 1<<16), e: e}
}

func (t *tracer) start(ev string) {
	t.buf = append(t.buf[:0], `{"t":`...)
	if t.e.cfg.Delivery == NewestFirst {
		t.buf = strconv.AppendInt(t.buf, t.e.maxDepth, 10)
	} else if t.e.unit == 1 {
		t.buf = strconv.AppendInt(t.buf, t.e.now, 10)
	} else {
		t.buf = strconv.AppendFloat(t.buf, float64(t.e.now)/float64(t.e.unit), 'g', -1, 64)
	}
	t.buf = append(t.buf, `,"ev":"`...)
	t.buf = append(t.buf, ev...)
	t.buf = append(t.buf, '"')
}

func (t *tracer) int(key string, v int64) {
	t.buf = append(t.buf, ',', '"')
	t.buf = append(t.buf, key...)
	t.buf = append(t.buf, '"', ':')
	t.buf = strconv.AppendInt(t.buf, v, 10)
}

func (t *tracer) str(key, v string) {
	t.buf = append(t.buf, ',', '"')
	t.buf = append(t.buf, key...)
	t.buf = append(t.buf, '"', ':')
	t.buf = strconv.AppendQuote(t.buf, v)
}

func (t *tracer) end() {
	t.buf = append(t.buf, '}', '\n')
	t.w.Write(t.buf)
}

func (t *tracer) wake(i int32, spontaneous bool) {
	t.start("wake")
	t.int("node", int64(i))
	t.buf = append(t.buf, `,"spontaneous":`...)
	t.buf = strconv.AppendBool(t.buf, spontaneous)
	t.end()
}

func (t *tracer) deliver(d *delivery, dropped bool) {
	if dropped {
		t.start("drop")
	} else {
		t.start("deliver")
	}
	from, _ := t.e.g.Neighbor(d.to, d.port)
	t.int("from", int64(from))
	t.int("to", int64(d.to))
	t.str("port", t.e.g.PortName(d.port))
	mt := t.e.alg.Messages[d.msg.Type]
	t.str("type", mt.Name)
	t.buf = append(t.buf, `,"payload":{`...)
	vals := [3]int64{int64(d.msg.ID), d.msg.A, d.msg.B}
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

func (t *tracer) decide(i int32, d elect.Decision) {
	t.start("decide")
	t.int("node", int64(i))
	t.str("decision", d.String())
	t.end()
}

func (t *tracer) learn(i int32, id elect.ID) {
	t.start("learn")
	t.int("node", int64(i))
	t.int("leader", int64(id))
	t.end()
}

func (t *tracer) timer(i int32, tag int64) {
	t.start("timer")
	t.int("node", int64(i))
	t.int("tag", tag)
	t.end()
}

func (t *tracer) halt(i int32) {
	t.start("halt")
	t.int("node", int64(i))
	t.end()
}

func (t *tracer) violation(name, msg string) {
	t.start("violation")
	t.str("name", name)
	t.str("message", msg)
	t.end()
}

func (t *tracer) flush() error { return t.w.Flush() }
