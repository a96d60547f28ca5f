package view

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/electkit/elect/trace"
)

// ShivizRegexp is the first line of a ShiViz log written by ShiViz: the
// expression ShiViz parses each entry with (named groups host, clock and
// event, in ShiViz's own syntax).
const ShivizRegexp = `(?<host>\S+) (?<clock>\{[^}]*\}) (?<event>.*)`

// ShivizMaxEvents and ShivizMaxBytes cap the ShiViz export: each line
// holds a vector clock of up to n entries, so a long run of a large network
// makes a log of gigabytes (962,000 events of LCR at n = 800: 2.4 GB, 5.5
// minutes), far beyond what ShiViz, which runs in a browser, can draw.
const (
	ShivizMaxEvents = 100_000
	ShivizMaxBytes  = 128 << 20
)

// ShivizTooLong is the error for a trace of more than ShivizMaxEvents
// events, which ShiViz refuses before writing anything: events is its
// count, or 0 when it was refused at the first event past the limit
// (ReadTrace).
func ShivizTooLong(events int) error {
	return fmt.Errorf("view: the trace has %s; a ShiViz log holds at most %d (each line carries a vector clock of up to n entries, and ShiViz draws a few thousand events at most): cut the run shorter with --trace-limit, or use a smaller network", eventCount(events, ShivizMaxEvents), ShivizMaxEvents)
}

// ShiViz writes a trace as a log that ShiViz
// (https://bestchai.bitbucket.io/shiviz/) reads: the parsing expression on
// the first line, an empty second line (one execution), then one line per
// event of a node, "node3 {"node1":2,"node3":4} deliver election j=7 from
// node1", with the node's vector clock after the event. A node's clock
// ticks at each of its events (wake, send, delivery, drop, decision,
// learning, timer, termination); a delivery first takes the maximum of the
// node's clock and the clock the message was sent with. State lines are
// not events of ShiViz's model and are left out; so are violations, which
// belong to no node.
//
// A trace of more than ShivizMaxEvents events is refused (ShivizTooLong),
// and the export stops with an error once the log passes ShivizMaxBytes.
func ShiViz(w io.Writer, tr *trace.Trace) error {
	if len(tr.Events) > ShivizMaxEvents {
		return ShivizTooLong(len(tr.Events))
	}
	cw := &capWriter{w: w, limit: ShivizMaxBytes}
	bw := bufio.NewWriter(cw)
	fmt.Fprintf(bw, "%s\n\n", ShivizRegexp)
	_, of := matchMessages(tr)
	n := tr.Header.N
	clocks := make([]map[int32]int64, n)
	for i := range clocks {
		clocks[i] = map[int32]int64{}
	}
	sentWith := map[int]map[int32]int64{}
	var keys []int32
	for k := range tr.Events {
		ev := &tr.Events[k]
		var host int32
		var text string
		switch ev.Ev {
		case "wake":
			host, text = ev.Node, "wake"
			if ev.Spontaneous {
				text += " (spontaneous)"
			}
		case "send":
			host, text = ev.From, fmt.Sprintf("send %s %s to node%d", ev.Type, payloadText(ev.Payload), ev.To)
			// the faults that hit it, on the lines right after it
			for j := k + 1; j < len(tr.Events); j++ {
				f := &tr.Events[j]
				if f.Ev == "lose" && f.Cause == "partition" {
					text += " (FAULT: lost, cut by a partition)"
				} else if f.Ev == "lose" {
					text += " (FAULT: lost)"
				} else if f.Ev == "dup" {
					text += " (FAULT: duplicated)"
				} else if f.Ev == "delay" {
					text += fmt.Sprintf(" (FAULT: delayed by %d)", f.By)
				} else {
					break
				}
			}
		case "deliver", "drop":
			host, text = ev.To, fmt.Sprintf("%s %s %s from node%d", ev.Ev, ev.Type, payloadText(ev.Payload), ev.From)
			if m := of[k]; m >= 0 {
				for j, c := range sentWith[m] {
					clocks[host][j] = max(clocks[host][j], c)
				}
				delete(sentWith, m)
			}
		case "decide":
			host, text = ev.Node, "decide "+ev.Decision
		case "learn":
			host, text = ev.Node, fmt.Sprintf("learn leader %d", ev.Leader)
		case "timer":
			host, text = ev.Node, fmt.Sprintf("timer tag %d", ev.Tag)
		case "terminate", "halt":
			host, text = ev.Node, "terminate"
		case "crash":
			host, text = ev.Node, "FAULT: crash"
		case "dup":
			// the copy travels with the clock its original was sent with
			if m := of[k]; m >= 0 && k > 0 && of[k-1] >= 0 {
				if c, ok := sentWith[of[k-1]]; ok {
					sentWith[m] = copyClock(c)
				}
			}
			continue
		default:
			continue
		}
		c := clocks[host]
		c[host]++
		if ev.Ev == "send" && of[k] >= 0 {
			sentWith[of[k]] = copyClock(c)
		}
		keys = keys[:0]
		for j := range c {
			keys = append(keys, j)
		}
		slices.Sort(keys)
		fmt.Fprintf(bw, "node%d {", host)
		for x, j := range keys {
			if x > 0 {
				bw.WriteByte(',')
			}
			fmt.Fprintf(bw, `"node%d":%d`, j, c[j])
		}
		bw.WriteString("} ")
		fmt.Fprintf(bw, "t=%s %s\n", ev.T, strings.ReplaceAll(text, "\n", " "))
		if cw.full {
			return fmt.Errorf("view: the ShiViz log passed %d MB at event %d of %d (each line carries a vector clock of up to n = %d entries); ShiViz draws a few thousand events at most: cut the run shorter with --trace-limit, or use a smaller network", ShivizMaxBytes>>20, k, len(tr.Events), n)
		}
	}
	return bw.Flush()
}

// capWriter passes at most limit bytes to w, then notes that it is full
// and drops the rest.
type capWriter struct {
	w     io.Writer
	n     int64
	limit int64
	full  bool
}

func (c *capWriter) Write(p []byte) (int, error) {
	if c.n+int64(len(p)) > c.limit {
		c.full = true
		return len(p), nil
	}
	c.n += int64(len(p))
	return c.w.Write(p)
}

func copyClock(c map[int32]int64) map[int32]int64 {
	d := make(map[int32]int64, len(c))
	for k, v := range c {
		d[k] = v
	}
	return d
}
