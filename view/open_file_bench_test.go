package view_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/electkit/elect/view"
)

// BenchmarkOpenFile opens the trace file $ELECT_OPEN_FILE as 'elect view'
// serves it (view.OpenFile with the default options: whole, or in windows
// above the threshold, from the file) and reports, per open, the time from the
// navigation to the page drawn and ready (open-ms, seen from Go), and then
// to the middle event shown (mid-ms: a window to load, or nothing), with
// the server's preparation (index-s, once). A FILE.html written with
// --out opens from the file (set $ELECT_OPEN_EVENTS to its events). It
// skips without the variable.
//
//	ELECT_OPEN_FILE=big.jsonl go test ./view/ -run '^$' -bench OpenFile -benchtime 3x
func BenchmarkOpenFile(b *testing.B) {
	path := os.Getenv("ELECT_OPEN_FILE")
	if path == "" {
		b.Skip("set ELECT_OPEN_FILE to a trace")
	}
	// A page written with --out (FILE.html) opens from the file; its
	// events are those of $ELECT_OPEN_EVENTS.
	var events int
	var index time.Duration
	var ctx context.Context
	var url string
	var size int64
	if st, err := os.Stat(path); err != nil {
		b.Fatal(err)
	} else {
		size = st.Size()
	}
	if strings.HasSuffix(path, ".html") {
		events, _ = strconv.Atoi(os.Getenv("ELECT_OPEN_EVENTS"))
		ctx, _ = benchTab(b, http.NotFoundHandler())
		abs, _ := filepath.Abs(path)
		url = "file://" + abs
	} else {
		start := time.Now()
		s, err := view.OpenFile(path, view.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		index = time.Since(start)
		events = s.Events
		ctx, url = benchTab(b, s)
	}
	var openMs, midMs float64
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
			b.Fatal(err)
		}
		openMs += float64(time.Since(t0).Microseconds()) / 1000
		t1 := time.Now()
		js := fmt.Sprintf(`new Promise((ok) => { elect.seek(%d); const w = () => elect.pos === %d ? requestAnimationFrame(() => ok(true)) : setTimeout(w, 5); w(); })`, events/2, events/2)
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](js, chromedp.EvalAwaitPromise)); err != nil {
			b.Fatal(err)
		}
		midMs += float64(time.Since(t1).Microseconds()) / 1000
	}
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(float64(size)/1e6, "trace-MB")
	b.ReportMetric(index.Seconds(), "index-s")
	b.ReportMetric(openMs/float64(b.N), "open-ms")
	b.ReportMetric(midMs/float64(b.N), "mid-ms")
}
