package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/internal/atomicfile"
	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/internal/cmdio"
	"github.com/electkit/elect/trace"
	"github.com/electkit/elect/view"
)

func init() {
	register(command{name: "view", summary: "watch a trace in a browser, or export it (HTML, ShiViz, SVG)", run: viewCommand})
}

const viewUsage = `usage: elect view FILE [flags]

Serves a page that draws the trace FILE (format version 2, docs/trace.md):
the network with its messages moving along the links, the nodes coloured by
decision, a space-time diagram, the running message counts next to the
algorithm's bounds, and every node's state; for a population protocol's run
('elect pp PROTOCOL --trace FILE') the number of agents in each state over
parallel time as a stacked area, and the number of leaders. It listens on 127.0.0.1 on a
free port and prints the URLs it answers to (requests naming another host, as a DNS
rebinding page would, are refused); Ctrl-C stops it. The page is embedded in the
elect binary and loads nothing from the network.

With --out, --shiviz or --svg it writes files instead of serving:
--out a self-contained HTML page (the trace inlined) to share or put online,
--shiviz a log for ShiViz (https://bestchai.bitbucket.io/shiviz/) with vector
clocks, --svg a static space-time diagram (on the axis the page opens the
trace on, or --svg-axis's), its violations marked and named.

Examples:
  elect run lcr --n 8 --ids decreasing --trace lcr.jsonl
  elect view lcr.jsonl
  elect view lcr.jsonl --out lcr.html --svg lcr.svg --shiviz lcr.log
  elect run hs --n 16 --view
  elect pp angluin --n 1000 --trace angluin.jsonl && elect view angluin.jsonl

Flags:
`

func viewCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("view", viewUsage)
	addr := fs.String("addr", "127.0.0.1:0", "address to serve on (host:port; port 0 picks a free one)")
	out := fs.String("out", "", "write the page, with the trace inlined, to this HTML file instead of serving")
	shiviz := fs.String("shiviz", "", "write a ShiViz log (vector clocks) to this file")
	svg := fs.String("svg", "", "write a space-time diagram to this SVG file")
	svgAxis := fs.String("svg-axis", "", "the --svg diagram's axis: time, or event (every event a column, #1 the first); default: the page's, event order for a checker's counterexample")
	file, err := parseOne(fs, args, stdout, "view takes one trace file (got %d)")
	if err != nil {
		return err
	}
	if err := declareFiles("view", []cmdio.Path{input("the trace", file)}, output("--out", *out), output("--shiviz", *shiviz), output("--svg", *svg)); err != nil {
		return err
	}
	switch {
	case *svgAxis != "" && *svgAxis != view.AxisTime && *svgAxis != view.AxisEvent:
		return usagef("view: --svg-axis %q: use %s or %s", *svgAxis, view.AxisTime, view.AxisEvent)
	case *svgAxis != "" && *svg == "":
		return usagef("view: --svg-axis chooses the axis of --svg's diagram; name its file with --svg")
	}
	// Served, a trace file is not read whole (view.OpenFile), nor for its
	// page (view.OpenPage: checked, then copied from the file window by
	// window); --shiviz and --svg read and check it a line at a time first
	// (readExported), refusing a trace above view.ShivizMaxEvents for
	// --shiviz at the first event past it.
	if *out == "" && *shiviz == "" && *svg == "" {
		return serveView(file, *addr, stdout, stderr)
	}
	var tr *trace.Trace
	if *shiviz != "" || *svg != "" {
		_, tr, err = readExported(file, *shiviz != "", *svg != "")
		if err != nil {
			return err
		}
		if tr.Header.Population() {
			return usagef("view: %s is a population protocol's run (state counts over time): --shiviz and --svg draw message-passing runs; --out writes its page", file)
		}
	}
	var page *view.PageFile
	if *out != "" {
		if page, err = view.OpenPage(file, view.Options{}); err != nil {
			return usagef("%v", err)
		}
		defer page.Close()
	}
	for _, w := range []struct {
		path  string
		write func(io.Writer) error
	}{
		{*out, func(w io.Writer) error { return page.Write(w) }},
		{*shiviz, func(w io.Writer) error { return view.ShiViz(w, tr) }},
		{*svg, func(w io.Writer) error { return view.WriteSVG(w, tr, view.SVGOptions{Axis: *svgAxis}) }},
	} {
		if w.path == "" {
			continue
		}
		if err := writeFile(w.path, w.write); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", w.path)
	}
	return nil
}

// serveView serves a trace file until the process is stopped: a small
// trace read and checked whole; a large one served in windows from the
// file as soon as its lines are counted, checked in the background (a bad
// line is reported on stderr, and the windows from it on are refused).
func serveView(file, addr string, stdout, stderr io.Writer) error {
	start := time.Now()
	s, err := view.OpenFile(file, view.Options{})
	if err != nil {
		return usagef("%v", err)
	}
	defer s.Close()
	if s.Windowed {
		fmt.Fprintf(stdout, "elect view: %d events, served in windows of %d (indexed in %.1f s, checked in the background)\n", s.Events, view.DefaultWindow, time.Since(start).Seconds())
		go func() {
			if err := <-s.Checked; err != nil {
				fmt.Fprintf(stderr, "elect view: %s: %v (the windows from there on are refused)\n", file, err)
			}
		}()
	}
	h := s.Handler
	ln, err := view.Listen(addr)
	if err != nil {
		return usagef("%v", err)
	}
	url := ln.URLs[0]
	if !ln.Loopback {
		fmt.Fprintf(stderr, "elect: warning: %s is not a loopback address; anyone who can reach it sees the trace\n", addr)
	}
	fmt.Fprintf(stdout, "elect view: %s (Ctrl-C stops)\n", url)
	if len(ln.URLs) > 1 {
		fmt.Fprintf(stdout, "           also %s (requests naming any other host are refused)\n", strings.Join(ln.URLs[1:], " "))
	}
	if os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		if p, err := exec.LookPath("xdg-open"); err == nil {
			cmd := exec.Command(p, url)
			if cmd.Start() == nil {
				go cmd.Wait()
			}
		}
	}
	// A signal closes the listener, so that the caller's cleanup runs (run
	// --view removes its temporary trace).
	return serveUntilSignal(ln, h, stderr)
}

// readExported reads the trace file for --shiviz and --svg, parsing each
// line before it reads the next (view.ReadTrace): its events, at most the
// events a ShiViz log (view.ShivizMaxEvents) holds.
func readExported(file string, shiviz, svg bool) ([]byte, *trace.Trace, error) {
	f, err := bounded.Open(file, view.MemoryLimits)
	if err != nil {
		return nil, nil, usagef("view: %v", err)
	}
	defer f.Close()
	limit := 0
	if shiviz {
		limit = view.ShivizMaxEvents
	}
	data, tr, err := view.ReadTrace(f, file, limit, shiviz || svg)
	var many *view.TooManyEventsError
	switch {
	case errors.As(err, &many):
		return nil, nil, usagef("%v", view.ShivizTooLong(0))
	case err != nil:
		return nil, nil, usagef("%v", err)
	}
	return data, tr, nil
}

// writeFile writes a file through write, leaving no partial file behind
// when it fails and whatever was at path as it was (internal/atomicfile).
func writeFile(path string, write func(io.Writer) error) error {
	return outputError(atomicfile.Write(path, write))
}

// viewAfterRun serves the trace a run just wrote (elect run --view).
func viewAfterRun(path string, stdout, stderr io.Writer) error {
	fmt.Fprintf(stdout, "trace     %s\n", filepath.Clean(path))
	if strings.Contains(path, "elect-view-") {
		fmt.Fprintln(stdout, "          (a temporary file, removed when the viewer stops; --trace FILE keeps one)")
	}
	return serveView(path, "", stdout, stderr)
}
