// Package view is elect's trace viewer: one web page, embedded in the
// binary, that draws a version 2 trace (docs/trace.md) on canvases (the
// network with its messages moving, a space-time diagram) and steps
// through it; and static exports of a trace, a ShiViz log (shiviz.go) and
// an SVG space-time diagram (svg.go).
//
// The page is plain hand-written JavaScript with the trace inlined in it,
// so it needs no server once written (Page, `elect view --out`), loads
// nothing from anywhere (its Content-Security-Policy forbids it), and the
// server (Serve) has one route; for a trace of more than DefaultThreshold
// (10^5) events, two: the page gets the header and an index, and asks the
// server for windows of events as the user moves through it (window.go).
// The server answers only GET and HEAD requests that name one of the
// addresses it printed (serve.go).
package view

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/electkit/elect/trace"
)

//go:embed page.html
var pageHTML []byte

// traceMark is where the trace goes in page.html.
var traceMark = []byte("/*TRACE*/")

// Load reads a trace file and checks it with package trace, a line at a
// time (ReadTrace). Version 1 traces are refused: without a header the
// page cannot draw the network.
func Load(path string) ([]byte, *trace.Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("view: %w", err)
	}
	defer f.Close()
	return ReadTrace(f, path, 0, true)
}

// Parse checks a trace held in memory (see Load).
func Parse(data []byte) (*trace.Trace, error) {
	_, t, err := readTrace(bytes.NewReader(data), "", 0, false, true)
	return t, err
}

// Page writes the viewer's page with the trace data inlined: one file that
// works offline. data must be a trace Parse accepts, of at most
// DefaultPageLimit events. Above DefaultThreshold events the page holds
// the trace in windows, each in a script element of its own with the
// checkpoint before it, and the page parses one window at a time, as it
// does when served (window.go).
func Page(w io.Writer, data []byte) error { return PageWith(w, data, Options{}) }

// PageWith is Page with the threshold, window size and page limit of opt.
func PageWith(w io.Writer, data []byte, opt Options) error {
	opt = opt.norm()
	e := CountEvents(data)
	if e > opt.PageLimit {
		return PageTooLong(e, opt)
	}
	if e <= opt.Threshold {
		return page(w, data)
	}
	ix, err := buildIndex(data, opt.Window)
	if err != nil {
		return err
	}
	ix.inline = true
	return pageWindows(w, ix)
}

// PageTooLong is the refusal of a trace of more than opt.PageLimit events
// (0: DefaultPageLimit) for a self-contained page: events is its count, or
// 0 when it was refused at the first event past the limit (ReadTrace).
func PageTooLong(events int, opt Options) error {
	opt = opt.norm()
	return fmt.Errorf("view: the trace has %s; a self-contained page holds at most %d (the file would be too large to open quickly); 'elect view FILE' serves it in windows of %d events instead", eventCount(events, opt.PageLimit), opt.PageLimit, opt.Window)
}

// eventCount says how many events a trace past a limit has: events, or
// more than limit when they were not counted (0).
func eventCount(events, limit int) string {
	if events == 0 {
		return fmt.Sprintf("more than %d events", limit)
	}
	return fmt.Sprintf("%d events", events)
}

// escapeScript makes trace data safe inside a script element: in a valid
// trace "<" occurs only inside JSON strings, where \u003c means the same;
// so no "</script>" can end the data early.
func escapeScript(data []byte) []byte {
	return bytes.ReplaceAll(data, []byte("<"), []byte(`\u003c`))
}

// page writes the page with data inlined.
func page(w io.Writer, data []byte) error {
	k := bytes.Index(pageHTML, traceMark)
	if _, err := w.Write(pageHTML[:k]); err != nil {
		return err
	}
	if _, err := w.Write(escapeScript(bytes.TrimSpace(data))); err != nil {
		return err
	}
	_, err := w.Write(pageHTML[k+len(traceMark):])
	return err
}

// pageWindows writes the page of a trace in windows: the header and the
// index in the trace's script element, then window K (its checkpoint and
// its lines) in a script element with the id wK. The lines are copied from
// the source through one buffer of copyChunk bytes (escaped on the way),
// so that writing the page holds no window.
func pageWindows(w io.Writer, ix *index) error {
	k := bytes.Index(pageHTML, traceMark)
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(pageHTML[:k])
	bw.Write(escapeScript(ix.header))
	bw.WriteByte('\n')
	bw.Write(escapeScript(ix.meta()))
	buf := make([]byte, copyChunk)
	for i := range ix.checks {
		fmt.Fprintf(bw, `</script>`+"\n"+`<script type="application/x-ndjson" id="w%d">`, i)
		bw.Write(escapeScript(ix.checks[i]))
		bw.WriteByte('\n')
		end, err := trimmedEnd(ix.src, ix.offsets[i], ix.offsets[i+1], buf)
		if err != nil {
			return err
		}
		for at := ix.offsets[i]; at < end; {
			m := int(min(int64(len(buf)), end-at))
			if _, err := ix.src.ReadAt(buf[:m], at); err != nil && err != io.EOF {
				return err
			}
			writeEscaped(bw, buf[:m])
			at += int64(m)
		}
	}
	bw.Write(pageHTML[k+len(traceMark):])
	return bw.Flush()
}

// copyChunk is the size of pageWindows' reads.
const copyChunk = 256 << 10

// trimmedEnd is the end of the bytes from..to of src without the line
// ends (and blank lines) they end with, read backwards through buf.
func trimmedEnd(src io.ReaderAt, from, to int64, buf []byte) (int64, error) {
	for to > from {
		m := int(min(int64(len(buf)), to-from))
		if _, err := src.ReadAt(buf[:m], to-int64(m)); err != nil && err != io.EOF {
			return 0, err
		}
		if i := bytes.LastIndexFunc(buf[:m], func(r rune) bool { return r != '\r' && r != '\n' }); i >= 0 {
			return to - int64(m) + int64(i) + 1, nil
		}
		to -= int64(m)
	}
	return from, nil
}

// writeEscaped writes data as escapeScript makes it, without a copy.
func writeEscaped(w *bufio.Writer, data []byte) {
	for {
		i := bytes.IndexByte(data, '<')
		if i < 0 {
			w.Write(data)
			return
		}
		w.Write(data[:i])
		w.WriteString(`\u003c`)
		data = data[i+1:]
	}
}

// A PageFile is a trace file made ready for its page (OpenPage): checked
// whole, and either held (a trace of at most Options.Threshold events, or
// one from a pipe) or indexed in windows, whose lines stay in the file
// until Write copies them into the page.
type PageFile struct {
	// Events is the number of events of the trace.
	Events int
	f      *os.File
	data   []byte // the trace, when it is held
	ix     *index // its windows, when it is not
	opt    Options
}

// OpenPage reads the trace file path for a self-contained page (Page)
// without holding it: a regular file's first opt.Threshold+1 events are
// parsed a line at a time (a file that is not a trace is refused at its
// first bad line); a trace of more events is then indexed from the file
// in two passes as OpenFile indexes it (the first only counts lines, the
// second decodes and checks every line, keeping each window's
// checkpoint), and refused when it has more than opt.PageLimit events. A
// trace from a pipe, which cannot be read twice, is held, up to
// opt.PageLimit events. What OpenPage accepts, Write writes whole; the
// file stays open until Close.
func OpenPage(path string, opt Options) (*PageFile, error) {
	opt = opt.norm()
	f, st, err := openTrace(path)
	if err != nil {
		return nil, err
	}
	limit := opt.PageLimit
	if st.Mode().IsRegular() {
		limit = opt.Threshold
	}
	data, _, err := readTrace(f, path, limit, true, false)
	var many *TooManyEventsError
	switch {
	case errors.As(err, &many) && !st.Mode().IsRegular():
		f.Close()
		return nil, PageTooLong(0, opt)
	case err == nil:
		f.Close()
		return &PageFile{Events: CountEvents(data), data: data, opt: opt}, nil
	case !errors.As(err, &many):
		f.Close()
		return nil, err
	}
	ix, err := scanIndex(f, st.Size(), opt.Window)
	if err == nil && ix.events > opt.PageLimit {
		err = PageTooLong(ix.events, opt)
	}
	if err == nil {
		ix.check()
		err = ix.err
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	ix.inline = true
	return &PageFile{Events: ix.events, f: f, ix: ix, opt: opt}, nil
}

// Write writes the page: what PageWith writes for the file's contents.
func (p *PageFile) Write(w io.Writer) error {
	if p.ix != nil {
		return pageWindows(w, p.ix)
	}
	return PageWith(w, p.data, p.opt)
}

// Close closes the trace file.
func (p *PageFile) Close() error {
	if p.f == nil {
		return nil
	}
	return p.f.Close()
}

// Handler serves the page at "/" and nothing else, or, for a trace of
// more than DefaultThreshold events, the page at "/" and its windows at
// "/window" (window.go).
func Handler(data []byte) (http.Handler, error) { return NewHandler(data, Options{}) }

// NewHandler is Handler with the threshold and window size of opt.
func NewHandler(data []byte, opt Options) (http.Handler, error) {
	opt = opt.norm()
	if CountEvents(data) > opt.Threshold {
		ix, err := scanIndex(bytes.NewReader(data), int64(len(data)), opt.Window)
		if err != nil {
			return nil, err
		}
		go ix.check()
		return windowedHandler(ix), nil
	}
	var pg bytes.Buffer
	if err := page(&pg, data); err != nil {
		return nil, err
	}
	return pageHandler(func() []byte { return pg.Bytes() }), nil
}

// Served is a trace file prepared for serving (OpenFile).
type Served struct {
	http.Handler
	// Events is the number of events of the trace.
	Events int
	// Windowed reports whether the page loads it in windows.
	Windowed bool
	// Checked is sent the result of the background check of a windowed
	// trace (nil: every line is valid) once it ends; nil for a whole one.
	Checked <-chan error
	f       *os.File
}

// Close closes the trace file.
func (s *Served) Close() error {
	if s.f == nil {
		return nil
	}
	return s.f.Close()
}

// OpenFile prepares the trace file path for serving, reading it with
// package trace a line at a time: a trace of at most opt.Threshold events
// is held whole (its lines as parsed, ReadTrace) and inlined in the page,
// and so is a trace from a pipe, of any size up to MaxBytes; a larger trace
// file is served in windows straight from the file: once its first
// opt.Threshold+1 events are parsed, one pass looking only for line ends
// counts its events and makes the page's index, and each window is served
// once a check in the background has passed its start (window.go). The
// file stays open until Close.
func OpenFile(path string, opt Options) (*Served, error) {
	opt = opt.norm()
	f, st, err := openTrace(path)
	if err != nil {
		return nil, err
	}
	regular := st.Mode().IsRegular()
	limit := 0
	if regular {
		limit = opt.Threshold
	}
	data, _, err := readTrace(f, path, limit, true, false)
	var many *TooManyEventsError
	if !errors.As(err, &many) {
		f.Close()
		if err != nil {
			return nil, err
		}
		h, err := NewHandler(data, opt)
		if err != nil {
			return nil, err
		}
		s := &Served{Handler: h, Events: CountEvents(data)}
		if s.Events > opt.Threshold { // from a pipe: in windows from memory, every line checked already
			checked := make(chan error, 1)
			checked <- nil
			s.Windowed, s.Checked = true, checked
		}
		return s, nil
	}
	ix, err := scanIndex(f, st.Size(), opt.Window)
	if err != nil {
		f.Close()
		return nil, err
	}
	done := make(chan error, 1)
	go func() {
		ix.check()
		done <- ix.err
	}()
	return &Served{Handler: windowedHandler(ix), Events: ix.events, Windowed: true, Checked: done, f: f}, nil
}

// windowedHandler serves the page of a windowed trace (its header and
// index, the first violation once known), its windows and its first
// violation.
func windowedHandler(ix *index) http.Handler {
	body := func() []byte {
		var pg bytes.Buffer
		page(&pg, append(append(append([]byte(nil), ix.header...), '\n'), ix.meta()...))
		return pg.Bytes()
	}
	mux := pageHandler(body)
	mux.HandleFunc("GET /window", ix.serveWindow)
	mux.HandleFunc("GET /violation", ix.serveViolation)
	return mux
}

// pageHandler serves body() at "/".
func pageHandler(body func() []byte) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; connect-src 'self'")
		h.Set("Cache-Control", "no-store")
		w.Write(body())
	})
	return mux
}

// openTrace opens the trace at path for OpenPage and OpenFile, with what
// its file is (a regular file can be read twice, a pipe cannot).
func openTrace(path string) (*os.File, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("view: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("view: %w", err)
	}
	return f, st, nil
}
