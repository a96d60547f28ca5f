package view

import (
	"fmt"
	"slices"
	"strings"

	"github.com/electkit/elect/trace"
)

// message is one sent message of a trace: its send and delivery events
// (recv -1: in flight when the trace ends, or lost), and the faults that
// hit it (docs/faults.md): lost ("loss" or "partition": never delivered),
// dup (it is the copy of a duplicated message, sent at its dup line) and
// delay (time units added).
type message struct {
	from, to   int32
	typ        string
	payload    string
	send, recv int
	dropped    bool
	lost       string
	dup        bool
	delay      int64
}

// matchMessages pairs every send with its delivery (or drop): on its link
// (sender, receiver; on a ring of two nodes, also the port), the first
// message in flight with the same type and payload, as the page does
// (docs/trace.md). It returns the messages in sending order and, for every
// event, the index of its message (-1 for events that are not sends,
// deliveries or drops, or deliveries with no send in the trace). A lose,
// dup or delay line hits the message sent just before it: a lost message
// leaves its link (it is never delivered), a duplicate's copy is a message
// of its own, sent at the dup line, matched as the others are.
func matchMessages(tr *trace.Trace) ([]message, []int) {
	h := tr.Header
	twoRing := h.Topology.Kind == "ring" && h.N <= 2
	key := func(from, to int32, port string) string {
		if twoRing {
			return fmt.Sprint(from, ",", to, ",", port)
		}
		return fmt.Sprint(from, ",", to)
	}
	var msgs []message
	of := make([]int, len(tr.Events))
	links := map[string][]int{}
	for k := range tr.Events {
		ev := &tr.Events[k]
		of[k] = -1
		switch ev.Ev {
		case "send":
			p := payloadText(ev.Payload)
			kk := key(ev.From, ev.To, ev.Port)
			links[kk] = append(links[kk], len(msgs))
			of[k] = len(msgs)
			msgs = append(msgs, message{from: ev.From, to: ev.To, typ: ev.Type, payload: p, send: k, recv: -1})
		case "lose", "dup", "delay":
			m := len(msgs) - 1
			if m < 0 || msgs[m].from != ev.From || msgs[m].to != ev.To {
				break
			}
			kk := key(ev.From, ev.To, ev.Port)
			switch ev.Ev {
			case "lose":
				msgs[m].lost = ev.Cause
				if q := links[kk]; len(q) > 0 && q[len(q)-1] == m {
					links[kk] = q[:len(q)-1]
				}
				of[k] = m
			case "delay":
				msgs[m].delay = ev.By
				of[k] = m
			case "dup":
				c := msgs[m]
				c.send, c.recv, c.dup, c.delay = k, -1, true, 0
				links[kk] = append(links[kk], len(msgs))
				of[k] = len(msgs)
				msgs = append(msgs, c)
			}
		case "deliver", "drop":
			sp := "left"
			if ev.Port == "left" {
				sp = "right"
			}
			kk := key(ev.From, ev.To, sp)
			q := links[kk]
			p := payloadText(ev.Payload)
			for j, m := range q {
				if msgs[m].typ == ev.Type && msgs[m].payload == p {
					msgs[m].recv, msgs[m].dropped = k, ev.Ev == "drop"
					of[k] = m
					links[kk] = slices.Delete(q, j, j+1)
					break
				}
			}
		}
	}
	return msgs, of
}

// payloadText writes a payload with its fields in name order.
func payloadText(p map[string]int64) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d", k, p[k])
	}
	return b.String()
}
