package view_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/electkit/elect/view"
)

// BenchmarkOpenTrace measures how long Chromium takes to open the viewer on
// a trace of about 10^5 events (LCR on a decreasing ring of 260 nodes:
// 33,930 sends, as many deliveries, and the state lines): from the start
// of the navigation to the page drawn and ready, as the page measures it
// (performance.now() when its script ends, ms-since-navigation) and as seen
// from Go (navigate until body[data-ready]). Run it with
//
//	go test ./view/ -run '^$' -bench OpenTrace -benchtime 5x
func BenchmarkOpenTrace(b *testing.B) {
	data := lcrTrace(b, 260)
	events := bytes.Count(data, []byte("\n")) - 1
	h, err := view.Handler(data)
	if err != nil {
		b.Fatal(err)
	}
	ctx, url := benchTab(b, h)
	var pageMs, wallMs, scriptMs, parseMs float64
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`)))
		if err != nil {
			b.Fatal(err)
		}
		wallMs += float64(time.Since(start).Microseconds()) / 1000
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`elect.loadMs`))
		if err != nil {
			b.Fatal(err)
		}
		pageMs += ms
		// elect.phases: navigation to script start, parse, layout,
		// space-time diagram, first draw (ms).
		ph, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`elect.phases`))
		if err != nil || len(ph) != 5 {
			b.Fatal(ph, err)
		}
		scriptMs += ph[0]
		parseMs += ph[1]
	}
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(pageMs/float64(b.N), "page-ms/open")
	b.ReportMetric(wallMs/float64(b.N), "wall-ms/open")
	b.ReportMetric(scriptMs/float64(b.N), "html-ms/open")
	b.ReportMetric(parseMs/float64(b.N), "parse-ms/open")
	b.ReportMetric(float64(len(data))/1e6, "trace-MB")
}

// BenchmarkOpenWindowed measures a trace above the window threshold: LCR on
// a decreasing ring of 900 (1,217,252 events, 116 MB), served in windows of
// 10^5 events. It reports the server's indexing (once, before the
// timer), and per open: navigation until the first window is drawn
// (body[data-ready]), then a jump to event 650,000 (a full window, the
// seventh) until it is drawn.
//
//	go test ./view/ -run '^$' -bench OpenWindowed -benchtime 3x
func BenchmarkOpenWindowed(b *testing.B) {
	data := lcrTrace(b, 900)
	events := view.CountEvents(data)
	start := time.Now()
	h, err := view.NewHandler(data, view.Options{})
	if err != nil {
		b.Fatal(err)
	}
	index := time.Since(start)
	ctx, url := benchTab(b, h)
	const target = 650_000
	mid := (target - 1) / view.DefaultWindow // the window of the last event before the target
	var openMs, jumpMs float64
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
			b.Fatal(err)
		}
		openMs += float64(time.Since(t0).Microseconds()) / 1000
		t1 := time.Now()
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf("elect.seek(%d)", target)), chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`body[data-window="%d"]`, mid)))); err != nil {
			b.Fatal(err)
		}
		jumpMs += float64(time.Since(t1).Microseconds()) / 1000
	}
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(float64(len(data))/1e6, "trace-MB")
	b.ReportMetric(index.Seconds(), "index-s")
	b.ReportMetric(openMs/float64(b.N), "open-ms")
	b.ReportMetric(jumpMs/float64(b.N), "jump-ms")
}

// benchTab serves h and opens a browser tab for a benchmark, which it skips
// when no browser is usable; it returns the tab and the page's address.
// Both close when the benchmark ends.
func benchTab(b *testing.B, h http.Handler) (context.Context, string) {
	b.Helper()
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	if browserErr != nil {
		b.Skipf("no browser: %v", browserErr)
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	b.Cleanup(cancel)
	return ctx, srv.URL + "/"
}
