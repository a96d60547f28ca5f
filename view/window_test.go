package view_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/trace"
	"github.com/electkit/elect/view"
)

// windowed are the options the window tests use: the page loads a trace
// of more than 1000 events in windows of 400 (the defaults are 10^6 and
// 10^5; the code is the same).
var windowed = view.Options{Threshold: 1000, Window: 400}

// prefixCounts replays the first p events of a trace as the page counts
// them: election messages sent, and the nodes elected.
func prefixCounts(t *testing.T, data []byte, p int) (election int, elected []int64) {
	t.Helper()
	tr, err := trace.ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range tr.Events[:p] {
		if ev.Ev == "send" && ev.Type == "election" {
			election++
		}
		if ev.Ev == "decide" && ev.Decision == "elected" {
			elected = append(elected, tr.Header.IDs[ev.Node])
		}
	}
	return election, elected
}

// TestWindowEndpoint: above the threshold the page holds no event line, and
// /window?k=K gives the checkpoint before window K and its 400 lines; a
// trace at the threshold is inlined whole; --out refuses a trace above it.
func TestWindowEndpoint(t *testing.T) {
	data := lcrTrace(t, 40)
	events := view.CountEvents(data)
	if events <= windowed.Threshold {
		t.Fatalf("%d events: not above the threshold", events)
	}
	h, err := view.NewHandler(data, windowed)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	get := func(path string) (int, string) {
		r, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		return r.StatusCode, string(b)
	}
	// The page may be served before the background check ends; once it
	// has, the page's index carries the first violation (none here).
	if code, body := get("/violation"); code != 200 || body != `{"first_violation":-1}` {
		t.Errorf("/violation: %d %s", code, body)
	}
	_, page := get("/")
	if strings.Contains(page, `"ev":"send"`) || !strings.Contains(page, `{"ev":"windows","events":2502,"first_violation":-1,"inline":false,"starts":[`) {
		t.Errorf("the windowed page inlines events, or has no index")
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	last := (events - 1) / windowed.Window
	for _, k := range []int{0, 2, last} {
		code, body := get(fmt.Sprintf("/window?k=%d", k))
		got := strings.Split(strings.TrimRight(body, "\n"), "\n")
		want := lines[1+k*windowed.Window : 1+min(events, (k+1)*windowed.Window)]
		if code != 200 || strings.Join(got[1:], "\n") != strings.Join(want, "\n") {
			t.Errorf("window %d: status %d, %d lines, want %d", k, code, len(got)-1, len(want))
		}
		if !strings.HasPrefix(got[0], `{"dec":[`) {
			t.Errorf("window %d: checkpoint %.60s", k, got[0])
		}
	}
	if code, _ := get(fmt.Sprintf("/window?k=%d", last+1)); code != 404 {
		t.Errorf("a window past the end: status %d", code)
	}
	// --out: above the threshold the page holds the windows, one script
	// element each (the same checkpoint and lines as /window); above the
	// page limit it is refused.
	var out bytes.Buffer
	if err := view.PageWith(&out, data, windowed); err != nil {
		t.Errorf("--out of a trace above the threshold: %v", err)
	}
	for _, k := range []int{0, last} {
		_, body := get(fmt.Sprintf("/window?k=%d", k))
		body = strings.TrimRight(body, "\n")
		if !strings.Contains(out.String(), fmt.Sprintf(`<script type="application/x-ndjson" id="w%d">%s</script>`, k, body)) {
			t.Errorf("the page does not hold window %d as /window serves it", k)
		}
	}
	if !strings.Contains(out.String(), `"inline":true`) {
		t.Errorf("the page's index does not say its windows are inline")
	}
	out.Reset()
	if err := view.PageWith(&out, data, view.Options{Threshold: 1000, Window: 400, PageLimit: 1000}); err == nil || !strings.Contains(err.Error(), "the trace has 2502 events; a self-contained page holds at most 1000") {
		t.Errorf("--out of a trace above the page limit: %v", err)
	}
	out.Reset()
	if err := view.PageWith(&out, data, view.Options{Threshold: events}); err != nil || strings.Contains(out.String(), `{"ev":"windows","events":`) {
		t.Errorf("--out at the threshold: %v, or in windows", err)
	}
}

// TestWindowedLoadingInTheBrowser: LCR on the decreasing ring of 40 (2,502
// events) served in windows of 400: the page opens on window 0, jumping to
// event 2,000 loads window 4 (the one holding event 1,999, the last that
// happened), and the page shows the counts of the first 2,000 events as Go
// replays them, and the caption of event 1,999; the end shows one leader, ID 40 and
// 820 = n(n+1)/2 election messages; one step back from a window's start
// loads the window before; no console errors, and the page's requests stay
// in its origin.
func TestWindowedLoadingInTheBrowser(t *testing.T) {
	t.Run("served", func(t *testing.T) { windowedInTheBrowser(t, false) })
	t.Run("out", func(t *testing.T) { windowedInTheBrowser(t, true) })
}

// windowedInTheBrowser runs TestWindowedLoadingInTheBrowser on the served
// page, or on a page written with --out (a file holding its windows).
func windowedInTheBrowser(t *testing.T, out bool) {
	data := lcrTrace(t, 40)
	events := view.CountEvents(data)
	h, err := view.NewHandler(data, windowed)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	url := srv.URL + "/"
	if out {
		var b bytes.Buffer
		if err := view.PageWith(&b, data, windowed); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "page.html")
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		url = "file://" + path
	}
	ctx, ev := tab(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
		t.Fatal(err)
	}
	if e := text(t, ctx, "#error"); e != "" {
		t.Fatalf("the page says: %s", e)
	}
	expectPage(t, ctx, "at the start", map[string]string{"#leaders": "0", "#count-election": "0", "#status": fmt.Sprintf("event 0 / %d, t = 0", events)})
	if w, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`elect.window`)); w != 0 {
		t.Errorf("window %d loaded at the start, want 0", w)
	}
	const p = 2000
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#jump"), fmt.Sprintf("#%d", p)), chromedp.Click(chromedp.CSS("#go")),
		chromedp.WaitVisible(chromedp.CSS(`body[data-window="4"]`))); err != nil {
		t.Fatal(err)
	}
	election, elected := prefixCounts(t, data, p)
	if s := text(t, ctx, "#status"); !strings.HasPrefix(s, fmt.Sprintf("event %d / %d,", p, events)) {
		t.Errorf("status %q after jumping to #%d", s, p)
	}
	expectPage(t, ctx, "at event 2000", map[string]string{"#count-election": fmt.Sprint(election), "#leaders": fmt.Sprint(len(elected))})
	// The caption of event 1999 (the window's lines, read as the page reads them).
	if c, want := text(t, ctx, "#caption"), captionStart(t, data, p-1); !strings.HasPrefix(c, want) {
		t.Errorf("caption at event %d: %q, want it to start %q", p, c, want)
	}
	click(t, ctx, "#to-end")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`body[data-window="%d"]`, (events-1)/windowed.Window)))); err != nil {
		t.Fatal(err)
	}
	expectPage(t, ctx, "at the end", map[string]string{"#leaders": "1", "#leader-id": "40", "#count-election": "820"})
	// From the start of window 3 (event 1200), one step back is in window 2.
	_ = chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`elect.seek(1201)`), chromedp.WaitVisible(chromedp.CSS(`body[data-window="3"]`)))
	click(t, ctx, "#back")
	click(t, ctx, "#back")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`body[data-window="2"]`))); err != nil {
		t.Fatal(err)
	}
	election, _ = prefixCounts(t, data, 1199)
	expectPage(t, ctx, "at event 1199", map[string]string{"#count-election": fmt.Sprint(election)})
	console, requests := ev.snapshot()
	if len(console) > 0 {
		t.Errorf("console errors: %q", console)
	}
	windows := 0
	for _, u := range requests {
		if out && u != url {
			t.Errorf("the --out page made a request: %s", u)
		}
		if !out && !strings.HasPrefix(u, srv.URL+"/") {
			t.Errorf("request outside the page's origin: %s", u)
		}
		if strings.Contains(u, "/window?k=") {
			windows++
		}
	}
	t.Logf("%d events, %d window requests", events, windows)
}

// captionStart is how the page's caption of event k starts: the node that
// acts and what it does.
func captionStart(t *testing.T, data []byte, k int) string {
	t.Helper()
	tr, err := trace.ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	ev := tr.Events[k]
	switch ev.Ev {
	case "send":
		return fmt.Sprintf("node %d (ID %d) sends %s(%d) on its %s port to node %d", ev.From, tr.Header.IDs[ev.From], ev.Type, ev.Payload["j"], ev.Port, ev.To)
	case "deliver":
		return fmt.Sprintf("node %d (ID %d) receives %s(%d) on its %s port", ev.To, tr.Header.IDs[ev.To], ev.Type, ev.Payload["j"], ev.Port)
	case "state":
		return fmt.Sprintf("node %d (ID %d)'s state: ", ev.Node, tr.Header.IDs[ev.Node])
	}
	return fmt.Sprintf("node %d (ID %d) ", ev.Node, tr.Header.IDs[ev.Node])
}

// TestOpenFileServesWindowsFromTheFile: view.OpenFile serves the windows
// of a trace file as NewHandler does from memory, and a line made bad in
// window 3 leaves windows 0 to 2 served and refuses it, the later ones, the
// first violation and the check, naming the line.
func TestOpenFileServesWindowsFromTheFile(t *testing.T) {
	data := lcrTrace(t, 40)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	bad := filepath.Join(dir, "bad.jsonl")
	broken := append([]string(nil), lines...)
	badLine := 1 + 3*windowed.Window + 17
	broken[badLine] = `{"ev":"send","t":"x"}`
	if err := os.WriteFile(good, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(strings.Join(broken, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mem, err := view.NewHandler(data, windowed)
	if err != nil {
		t.Fatal(err)
	}
	get := func(h http.Handler, path string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec.Code, rec.Body.String()
	}
	s, err := view.OpenFile(good, windowed)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Windowed || s.Events != 2502 {
		t.Fatalf("OpenFile: windowed %v, %d events", s.Windowed, s.Events)
	}
	for k := range 8 {
		c1, b1 := get(mem, fmt.Sprintf("/window?k=%d", k))
		c2, b2 := get(s, fmt.Sprintf("/window?k=%d", k))
		if c1 != c2 || b1 != b2 {
			t.Errorf("window %d: from the file %d (%d bytes), from memory %d (%d bytes)", k, c2, len(b2), c1, len(b1))
		}
	}
	if err := <-s.Checked; err != nil {
		t.Errorf("the check of a good trace: %v", err)
	}
	b, err := view.OpenFile(bad, windowed)
	if err != nil {
		t.Fatalf("the first pass reads only line ends and window starts: %v", err)
	}
	defer b.Close()
	for k := range 3 {
		if code, _ := get(b, fmt.Sprintf("/window?k=%d", k)); code != 200 {
			t.Errorf("window %d, before the bad line: status %d", k, code)
		}
	}
	want := fmt.Sprintf("line %d", badLine+1)
	for _, path := range []string{"/window?k=3", "/window?k=5", "/violation"} {
		if code, body := get(b, path); code != 422 || !strings.Contains(body, want) {
			t.Errorf("%s after the bad line: %d %.100q, want 422 naming %s", path, code, body, want)
		}
	}
	if err := <-b.Checked; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("the check of the bad trace: %v", err)
	}
}

// TestFirstViolationAskedOfTheServer: a windowed trace served before the
// server's check has ended (held open here) opens with its first
// violation unknown; the "first violation" button asks GET /violation,
// which answers once the check ends, and goes there: LCR forced onto IDs
// 2, 2, 1, 1 (as TestJumpToFirstViolation), in windows of 8 events.
func TestFirstViolationAskedOfTheServer(t *testing.T) {
	var buf bytes.Buffer
	if _, err := sim.Run(election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(4), IDs: []elect.ID{2, 2, 1, 1}, Delivery: election.FIFO, Trace: &buf}); err != nil {
		t.Fatal(err)
	}
	release := view.HoldChecks()
	released := false
	defer func() {
		if !released {
			release()
		}
	}()
	h, err := view.NewHandler(buf.Bytes(), view.Options{Threshold: 10, Window: 8})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ctx, ev := tab(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
		t.Fatal(err)
	}
	fv, err := chromedp.Run(ctx, chromedp.Evaluate[string](`String(JSON.parse(document.getElementById('trace').textContent.split('\n')[1]).first_violation)`))
	if err != nil {
		t.Fatal(err)
	}
	if fv != "null" {
		t.Fatalf("the page's first violation before the check ends: %s, want null", fv)
	}
	click(t, ctx, "#viol")
	var s string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if s = text(t, ctx, "#status"); strings.Contains(s, "looking for the first violation") {
			break
		}
	}
	if !strings.Contains(s, "looking for the first violation") {
		t.Errorf("status while the server checks: %q", s)
	}
	release()
	released = true
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && text(t, ctx, "#violations") != "1"; time.Sleep(20 * time.Millisecond) {
	}
	expectPage(t, ctx, "at the first violation", map[string]string{"#leaders": "2", "#leader-id": "2, 1", "#violations": "1"})
	if s := text(t, ctx, "#status"); !strings.Contains(s, "VIOLATION multiple-leaders") {
		t.Errorf("status %q does not name the violation", s)
	}
	if console, _ := ev.snapshot(); len(console) > 0 {
		t.Errorf("console errors: %q", console)
	}
}

// TestScanFindsTheWindows: the first pass, whatever its read size (a few
// bytes to the default) and whatever the lines (LF or CRLF, blank lines,
// lines starting with spaces, no final newline), serves each window with
// the event lines a plain split of the file gives, and the page counts
// them all.
func TestScanFindsTheWindows(t *testing.T) {
	data := lcrTrace(t, 40)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	variants := map[string]string{
		"lf":       strings.Join(lines, "\n") + "\n",
		"crlf":     strings.Join(lines, "\r\n") + "\r\n",
		"no-final": strings.Join(lines, "\n"),
	}
	var odd []string
	for i, l := range lines {
		switch {
		case i > 0 && i%97 == 0:
			odd = append(odd, "", "  \t", l)
		case i%31 == 5:
			odd = append(odd, "   "+l)
		default:
			odd = append(odd, l)
		}
	}
	variants["blank-and-spaced"] = strings.Join(odd, "\n") + "\n\n"
	defer view.SetScanChunk(view.SetScanChunk(0))
	for name, text := range variants {
		var events []string // the event lines, trimmed
		for _, l := range strings.Split(text, "\n")[1:] {
			if l = strings.TrimSpace(l); l != "" {
				events = append(events, l)
			}
		}
		for _, chunk := range []int{7, 200, 4096, 512 << 10} {
			view.SetScanChunk(chunk)
			h, err := view.NewHandler([]byte(text), windowed)
			if err != nil {
				t.Fatalf("%s, chunk %d: %v", name, chunk, err)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
			if !strings.Contains(rec.Body.String(), fmt.Sprintf(`"events":%d,`, len(events))) {
				t.Errorf("%s, chunk %d: the index does not count %d events", name, chunk, len(events))
			}
			for k := 0; k*windowed.Window < len(events); k++ {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest("GET", fmt.Sprintf("/window?k=%d", k), nil))
				var got []string
				for _, l := range strings.Split(rec.Body.String(), "\n")[1:] {
					if l = strings.TrimSpace(l); l != "" {
						got = append(got, l)
					}
				}
				want := events[k*windowed.Window : min(len(events), (k+1)*windowed.Window)]
				if rec.Code != 200 || strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s, chunk %d, window %d: status %d, %d lines, want %d", name, chunk, k, rec.Code, len(got), len(want))
				}
			}
		}
	}
}
