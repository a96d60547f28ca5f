package view

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/electkit/elect/internal/bounded"
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

// index is what the server knows of a windowed trace. It is made in two
// passes over the source, neither of which holds the trace in memory. The
// first (scan) only looks for line ends: the number of events, the byte
// offset of each window's first line and its time, whether the trace ends
// truncated; the page can be served once it is done. The second (check),
// run in the background when serving, reads the trace with package
// trace's checked decoder and records each window's checkpoint as it goes
// past it, then the first violation; a window is served once the check
// has passed its end (window 0 within a fraction of a second).
type index struct {
	src     io.ReaderAt
	header  []byte // the header line
	events  int
	window  int
	offsets []int64   // byte offset of each window's first line; one more for the end
	starts  []float64 // time of each window's first event
	trunc   bool      // the trace ends with the size limit's marker
	inline  bool      // the windows are in the page (Page), not served

	mu     sync.Mutex
	checks [][]byte      // the checkpoint before each window, as JSON, as the check finds them
	more   chan struct{} // closed (and replaced) whenever checks grows or the check ends
	done   bool          // the check has ended
	err    error         // why the check stopped early
	firstV int           // global index of the first violation, -1; known once done
}

// scanIndex is the first pass over a version 2 trace of a network run of
// size bytes: its lines' ends, every event line counted, the first of
// every w remembered. It reads the source in chunks of whole lines
// (scanChunk bytes, more for a longer line); in a chunk whose every line
// starts with '{' (all elect writes) it only counts the line ends, and
// walks the lines only up to a window's first one; any other chunk it
// walks line by line, skipping blank ones as the decoder does.
func scanIndex(src io.ReaderAt, size int64, w int) (*index, error) {
	ix := &index{src: src, window: w, firstV: -1, more: make(chan struct{})}
	r := io.NewSectionReader(src, 0, size)
	buf := make([]byte, scanChunk)
	var base, last int64 = 0, -1 // base: the file offset of buf[0]
	phys, have := 0, 0
	header := true
	// window records the event line at offset off if it starts a window.
	window := func(line []byte, off int64) error {
		if ix.events%w == 0 {
			var ev struct {
				T json.RawMessage `json:"t"`
			}
			if err := json.Unmarshal(line, &ev); err != nil {
				return fmt.Errorf("trace: line %d: %s", phys, bounded.Cut(err.Error()))
			}
			t, _ := strconv.ParseFloat(string(ev.T), 64)
			ix.offsets = append(ix.offsets, off)
			ix.starts = append(ix.starts, t)
		}
		last = off
		ix.events++
		return nil
	}
	for eof := false; !eof; {
		n, err := io.ReadFull(r, buf[have:])
		have += n
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			eof = true
		} else if err != nil {
			return nil, fmt.Errorf("trace: reading line %d: %w", phys+1, err)
		}
		// chunk: the whole lines in buf (all of it at the end of the file)
		end := have
		if !eof {
			end = bytes.LastIndexByte(buf[:have], '\n') + 1
			if end == 0 {
				if len(buf) >= trace.MaxLine+2 {
					return nil, fmt.Errorf("trace: %w", trace.Limits.LineError("", phys+1))
				}
				buf = append(buf, make([]byte, len(buf))...)
				continue
			}
		}
		chunk := buf[:end]
		if header && len(chunk) > 0 {
			// the header: the first line, blank or not, as trace.NewReader reads it
			i := bytes.IndexByte(chunk, '\n') + 1
			if i == 0 {
				i = len(chunk)
			}
			phys++
			ix.header = append([]byte(nil), bytes.TrimRight(chunk[:i], "\r\n")...)
			rd, err := trace.NewReader(bytes.NewReader(ix.header))
			if err != nil {
				return nil, err
			}
			if h := rd.Header(); h == nil || h.Population() {
				return nil, fmt.Errorf("view: only a version 2 trace of a network run loads in windows")
			}
			header = false
			chunk, base = chunk[i:], base+int64(i)
		}
		lines := bytes.Count(chunk, []byte{'\n'})
		if len(chunk) > 0 && chunk[len(chunk)-1] != '\n' {
			lines++
		}
		braces := bytes.Count(chunk, []byte("\n{"))
		if len(chunk) > 0 && chunk[0] == '{' {
			braces++
		}
		rest, off := chunk, base
		if braces == lines {
			// every line an event: walk only up to the last window start in it
			if next := (ix.events + w - 1) / w * w; next < ix.events+lines {
				upto := (ix.events+lines-1)/w*w - ix.events // the index in chunk of the last window start
				for k := 0; k <= upto; k++ {
					i := bytes.IndexByte(rest, '\n') + 1
					if i == 0 {
						i = len(rest)
					}
					phys++
					if err := window(rest[:i], off); err != nil {
						return nil, err
					}
					rest, off = rest[i:], off+int64(i)
				}
			}
			if len(rest) > 0 {
				k := bytes.Count(rest, []byte{'\n'})
				if rest[len(rest)-1] != '\n' {
					k++
				}
				phys += k
				ix.events += k
				last = base + int64(bytes.LastIndexByte(chunk[:len(chunk)-1], '\n')+1)
			}
		} else {
			for len(rest) > 0 {
				i := bytes.IndexByte(rest, '\n') + 1
				if i == 0 {
					i = len(rest)
				}
				phys++
				if line := bytes.TrimSpace(rest[:i]); len(line) > 0 {
					if err := window(line, off); err != nil {
						return nil, err
					}
				}
				rest, off = rest[i:], off+int64(i)
			}
		}
		base += int64(len(chunk))
		have = copy(buf, buf[end:have])
	}
	if header {
		return nil, errors.New("trace: the file is empty")
	}
	if last >= 0 {
		l := bufio.NewReaderSize(io.NewSectionReader(src, last, size-last), 4096)
		text, _ := l.ReadSlice('\n')
		var ev struct {
			Ev string `json:"ev"`
		}
		json.Unmarshal(text, &ev)
		ix.trunc = ev.Ev == "truncated"
	}
	ix.offsets = append(ix.offsets, size)
	return ix, nil
}

// scanChunk is the size of the first pass's reads (a variable for the tests).
var scanChunk = 512 << 10

// check is the second pass: every line decoded and checked, the
// checkpoints recorded as the windows go by, then the first violation.
func (ix *index) check() {
	err := ix.checkAll()
	ix.mu.Lock()
	ix.done, ix.err = true, err
	close(ix.more)
	ix.mu.Unlock()
}

func (ix *index) checkAll() error {
	size := ix.offsets[len(ix.offsets)-1]
	rd, err := trace.NewReader(bufio.NewReaderSize(io.NewSectionReader(ix.src, 0, size), 1<<20))
	if err != nil {
		return err
	}
	h := rd.Header()
	types := map[string]int{}
	for k, m := range h.Messages {
		types[m.Name] = k
	}
	cp := newCheckpoint(h)
	cut, firstV, k := false, -1, 0
	for ; ; k++ {
		ev, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if k%ix.window == 0 {
			js, err := cp.json()
			if err != nil {
				return err
			}
			ix.mu.Lock()
			ix.checks = append(ix.checks, js)
			close(ix.more)
			ix.more = make(chan struct{})
			ix.mu.Unlock()
		}
		cut = cut || ev.Ev == "cut"
		if cp.apply(&ev, rd.Text(), types) && firstV < 0 {
			firstV = k
		}
	}
	if k != ix.events {
		return fmt.Errorf("view: the trace changed while it was read (%d events, then %d)", ix.events, k)
	}
	// A whole run that ends with no node elected: the page marks its last
	// event (as it marks a record cut at a loop: a violation line).
	if firstV < 0 && k > 0 && !ix.trunc && !cut && len(cp.Elected) == 0 {
		firstV = k - 1
	}
	if gate := checkGate.Load(); gate != nil {
		<-*gate
	}
	ix.mu.Lock()
	ix.firstV = firstV
	ix.mu.Unlock()
	return nil
}

// checkGate, when set, holds every check before its end until the channel
// is closed: a test's way to open a page before its first violation is
// known. It is read by the check's goroutine while a test sets it, hence
// atomic.
var checkGate atomic.Pointer[chan struct{}]

// checkpoint waits for the check to pass the end of window k (or ctx's
// end), so that every line served has been checked, and returns the
// checkpoint before it.
func (ix *index) checkpoint(ctx context.Context, k int) ([]byte, error) {
	for {
		ix.mu.Lock()
		if k+1 < len(ix.checks) || ix.done && ix.err == nil && k < len(ix.checks) {
			c := ix.checks[k]
			ix.mu.Unlock()
			return c, nil
		}
		if ix.done {
			err := ix.err
			ix.mu.Unlock()
			if err == nil {
				err = errors.New("no such window")
			}
			return nil, err
		}
		more := ix.more
		ix.mu.Unlock()
		select {
		case <-more:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// result waits for the check's end: the first violation, or why it failed.
func (ix *index) result(ctx context.Context) (int, error) {
	for {
		ix.mu.Lock()
		if ix.done {
			defer ix.mu.Unlock()
			return ix.firstV, ix.err
		}
		more := ix.more
		ix.mu.Unlock()
		select {
		case <-more:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// buildIndex reads a checked version 2 trace of a network run held in
// memory, both passes, cutting it into windows of w events.
func buildIndex(data []byte, w int) (*index, error) {
	ix, err := scanIndex(bytes.NewReader(data), int64(len(data)), w)
	if err != nil {
		return nil, err
	}
	ix.check()
	if ix.err != nil {
		return nil, ix.err
	}
	return ix, nil
}

// checkpoint is the running state of a network run before an event, as
// the page's compute() keeps it.
type checkpoint struct {
	Dec        []int8   `json:"dec"` // 0 undecided, 1 elected, 2 not elected
	Learned    []*int64 `json:"learned"`
	Awake      []int8   `json:"awake"`
	Term       []int8   `json:"term"`
	Crashed    []int8   `json:"crashed"` // crashed by a fault (docs/faults.md)
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
	return &checkpoint{Dec: make([]int8, n), Learned: make([]*int64, n), Awake: make([]int8, n), Term: make([]int8, n), Crashed: make([]int8, n),
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
	case "crash":
		c.Crashed[ev.Node] = 1
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

// meta is the line the windowed page gets after the header; its
// first_violation is null while the check has not ended (the page then
// asks GET /violation).
func (ix *index) meta() []byte {
	ix.mu.Lock()
	var fv any
	if ix.done && ix.err == nil {
		fv = ix.firstV
	}
	ix.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"ev": "windows", "events": ix.events, "window": ix.window, "starts": ix.starts, "first_violation": fv, "truncated": ix.trunc, "inline": ix.inline})
	return b
}

// serveWindow answers GET /window?k=K: the checkpoint before window K,
// then its event lines, read from the source. It waits for the check to
// pass the window's end; a trace found bad before then gets 422 and the
// reason.
func (ix *index) serveWindow(w http.ResponseWriter, r *http.Request) {
	k, err := strconv.Atoi(r.URL.Query().Get("k"))
	if err != nil || k < 0 || k >= len(ix.offsets)-1 {
		http.Error(w, "no such window", http.StatusNotFound)
		return
	}
	cp, err := ix.checkpoint(r.Context(), k)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.Write(cp)
	w.Write([]byte{'\n'})
	io.Copy(w, io.NewSectionReader(ix.src, ix.offsets[k], ix.offsets[k+1]-ix.offsets[k]))
}

// serveViolation answers GET /violation once the check has ended:
// {"first_violation": N} (-1 for none), or 422 and why the trace is bad.
func (ix *index) serveViolation(w http.ResponseWriter, r *http.Request) {
	fv, err := ix.result(r.Context())
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, `{"first_violation":%d}`, fv)
}
