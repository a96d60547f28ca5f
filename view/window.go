package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"

	"github.com/electkit/elect/trace"
)

// Windows: a trace of more than Options.Threshold events is not inlined
// whole into the served page. The page gets the header and an index (the
// number of events, the window size, the time at which each window starts,
// the first violation), and asks the server for one window of events at a
// time (GET /window?k=K, same origin) as the user moves: the window's
// lines, preceded by a checkpoint, the running state of the run before the
// window's first event (every node's decision, wake-up, termination,
// leader learned, messages sent and received and last state line; the
// counts by type; leaders and violations), from which the page computes
// any position in the window as it does for a whole trace.

// Options set when the page loads a trace in windows.
type Options struct {
	// Threshold is the number of events above which the served page loads
	// the trace in windows (0: DefaultThreshold), and above which Page
	// refuses to write a self-contained page.
	Threshold int
	// Window is the number of events in a window (0: DefaultWindow).
	Window int
	// PageLimit is the number of events above which Page refuses to
	// write a self-contained page (0: DefaultPageLimit).
	PageLimit int
}

// DefaultThreshold and DefaultWindow: a page holds up to 10^5 events whole
// (about 10 MB of trace, under a second to open); beyond, it loads windows
// of 5 x 10^4 events, each opening in about half a second, from the server
// or, in a page written with --out, from the page itself. DefaultPageLimit:
// a self-contained page holds up to 10^6 events (about 100 MB, the trace
// limit's default); 'elect view' serves larger ones (docs/viewer.md).
const (
	DefaultThreshold = 100_000
	DefaultWindow    = 50_000
	DefaultPageLimit = 1_000_000
)

func (o Options) norm() Options {
	if o.Threshold <= 0 {
		o.Threshold = DefaultThreshold
	}
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.PageLimit <= 0 {
		o.PageLimit = DefaultPageLimit
	}
	return o
}

// CountEvents is the number of event lines of a trace (its non-blank
// lines after the header).
func CountEvents(data []byte) int {
	k, lines := 0, 0
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if lines > 0 {
				k++
			}
			lines++
		}
	}
	return k
}

// index is what the server knows of a windowed trace.
type index struct {
	data    []byte
	header  []byte // the header line
	events  int
	window  int
	offsets []int     // byte offset of each window's first line; one more for the end
	starts  []float64 // time of each window's first event
	checks  [][]byte  // the checkpoint before each window, as JSON
	firstV  int       // global index of the first violation, -1
	trunc   bool      // the trace ends with the size limit's marker
	inline  bool      // the windows are in the page (Page), not served
}

// checkpoint is the running state of a network run before an event, as
// the page's compute() keeps it.
type checkpoint struct {
	Dec        []int8   `json:"dec"` // 0 undecided, 1 elected, 2 not elected
	Learned    []*int64 `json:"learned"`
	Awake      []int8   `json:"awake"`
	Term       []int8   `json:"term"`
	Sent       []int64  `json:"sent"`
	Recv       []int64  `json:"recv"`
	Types      []int64  `json:"types"`
	Leaders    int      `json:"leaders"`
	Violations int      `json:"violations"`
	Elected    []int32  `json:"elected"` // the first two distinct nodes elected (the page marks the second)
	States     [][2]any `json:"states"`  // [node, its last state line]
	state      [][]byte // per node, its last state line
}

func newCheckpoint(h *trace.Header) *checkpoint {
	n := h.N
	return &checkpoint{Dec: make([]int8, n), Learned: make([]*int64, n), Awake: make([]int8, n), Term: make([]int8, n),
		Sent: make([]int64, n), Recv: make([]int64, n), Types: make([]int64, len(h.Messages)), state: make([][]byte, n), Elected: []int32{}}
}

// apply is the page's compute() for one event; it reports whether the
// event is a violation (a violation line, or the second distinct node
// elected, which the page marks itself).
func (c *checkpoint) apply(ev *trace.Event, line []byte, types map[string]int) bool {
	switch ev.Ev {
	case "wake":
		c.Awake[ev.Node] = 1
	case "send":
		c.Sent[ev.From]++
		c.Types[types[ev.Type]]++
	case "deliver":
		c.Recv[ev.To]++
	case "decide":
		elected := ev.Decision == "elected"
		if elected && c.Dec[ev.Node] != 1 {
			c.Leaders++
		}
		c.Dec[ev.Node] = 2
		if elected {
			c.Dec[ev.Node] = 1
			if len(c.Elected) < 2 && !slices.Contains(c.Elected, ev.Node) {
				c.Elected = append(c.Elected, ev.Node)
				if len(c.Elected) == 2 {
					c.Violations++
					return true
				}
			}
		}
	case "learn":
		l := ev.Leader
		c.Learned[ev.Node] = &l
	case "terminate", "halt":
		c.Term[ev.Node] = 1
	case "violation", "cut":
		c.Violations++
		return true
	case "state":
		c.state[ev.Node] = append([]byte(nil), line...)
	}
	return false
}

func (c *checkpoint) json() ([]byte, error) {
	c.States = make([][2]any, 0, len(c.States))
	for i, l := range c.state {
		if l != nil {
			c.States = append(c.States, [2]any{i, string(l)})
		}
	}
	return json.Marshal(c)
}

// buildIndex reads a checked version 2 trace of a network run once,
// cutting it into windows of w events.
func buildIndex(data []byte, w int) (*index, error) {
	rd, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	h := rd.Header()
	if h == nil || h.Population() {
		return nil, fmt.Errorf("view: only a version 2 trace of a network run loads in windows")
	}
	types := map[string]int{}
	for k, m := range h.Messages {
		types[m.Name] = k
	}
	ix := &index{data: data, window: w, firstV: -1}
	// cursor walks the data line by line alongside the reader, which
	// reports the number of the line it read.
	pos, lineNo := 0, 0
	nextLine := func() (int, []byte) {
		start := pos
		i := bytes.IndexByte(data[pos:], '\n')
		if i < 0 {
			pos = len(data)
		} else {
			pos += i + 1
		}
		lineNo++
		return start, bytes.TrimRight(data[start:pos], "\r\n")
	}
	_, ix.header = nextLine()
	cp := newCheckpoint(h)
	cut := false
	for k := 0; ; k++ {
		ev, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		var start int
		var line []byte
		for lineNo < rd.Line() {
			start, line = nextLine()
		}
		if k%w == 0 {
			js, err := cp.json()
			if err != nil {
				return nil, err
			}
			ix.offsets = append(ix.offsets, start)
			ix.starts = append(ix.starts, ev.Time())
			ix.checks = append(ix.checks, js)
		}
		ix.trunc = ix.trunc || ev.Ev == "truncated"
		cut = cut || ev.Ev == "cut"
		if cp.apply(&ev, line, types) && ix.firstV < 0 {
			ix.firstV = k
		}
		ix.events = k + 1
	}
	// A whole run that ends with no node elected: the page marks its last
	// event (as it marks a record cut at a loop: a violation line).
	if ix.firstV < 0 && ix.events > 0 && !ix.trunc && !cut && len(cp.Elected) == 0 {
		ix.firstV = ix.events - 1
	}
	ix.offsets = append(ix.offsets, len(data))
	return ix, nil
}

// meta is the line the windowed page gets after the header.
func (ix *index) meta() []byte {
	b, _ := json.Marshal(map[string]any{"ev": "windows", "events": ix.events, "window": ix.window, "starts": ix.starts, "first_violation": ix.firstV, "truncated": ix.trunc, "inline": ix.inline})
	return b
}

// serveWindow answers GET /window?k=K: the checkpoint before window K,
// then its event lines.
func (ix *index) serveWindow(w http.ResponseWriter, r *http.Request) {
	k, err := strconv.Atoi(r.URL.Query().Get("k"))
	if err != nil || k < 0 || k >= len(ix.checks) {
		http.Error(w, "no such window", http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.Write(ix.checks[k])
	w.Write([]byte{'\n'})
	w.Write(ix.data[ix.offsets[k]:ix.offsets[k+1]])
}
