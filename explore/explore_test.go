package explore_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/electkit/elect/check"
	"github.com/electkit/elect/explore"
	"github.com/electkit/elect/scenario"
)

// The browser test drives Debian's chromium (/usr/bin/chromium, or
// $ELECT_CHROMIUM) as package view's tests do: it skips without one,
// unless ELECT_BROWSER_TESTS is set.

func browser(t *testing.T) context.Context {
	t.Helper()
	path := os.Getenv("ELECT_CHROMIUM")
	if path == "" {
		path = "/usr/bin/chromium"
	}
	if _, err := exec.LookPath(path); err != nil {
		if os.Getenv("ELECT_BROWSER_TESTS") == "" {
			t.Skipf("no browser at %s (set ELECT_BROWSER_TESTS=1 to make this a failure)", path)
		}
		t.Fatalf("ELECT_BROWSER_TESTS is set, but there is no browser at %s", path)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("hide-scrollbars", true), chromedp.WindowSize(1366, 768))
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	tctx, tcancel := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(tcancel)
	return tctx
}

// until waits for a JavaScript condition to hold on the page.
func until(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	js := fmt.Sprintf(`new Promise((ok) => { const w = () => { try { if (%s) return ok(true); } catch (e) {} setTimeout(w, 10); }; w(); })`, cond)
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](js, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("waiting for %s: %v", cond, err)
	}
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// TestBeTheSchedulerReachesTheCheckersExtremes: LCR at n = 5 over every ID
// assignment (FIFO). 'elect check lcr --n 5' finds 9..15 election messages
// (2n-1 and n(n+1)/2, seed 001 §5.2.1.1); the page says so at the start,
// its "worst steps to the end" (always the step that keeps the most
// reachable) ends with 15, and after restarting "best steps to the end"
// with 9, the bounds' rows shown green.
func TestBeTheSchedulerReachesTheCheckersExtremes(t *testing.T) {
	ss, err := check.NewSession(check.Options{Spec: scenario.Spec{Algorithm: "lcr", N: 5}, IDs: "all", Delivery: "fifo"})
	if err != nil {
		t.Fatal(err)
	}
	if err := ss.SearchFirst(); err != nil {
		t.Fatal(err)
	}
	ss.SearchRoots(0, nil)
	srv := httptest.NewServer(explore.Handler(ss))
	defer srv.Close()
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
		t.Fatal(err)
	}
	if lo, hi := text(t, ctx, "#reach-min"), text(t, ctx, "#reach-max"); lo != "9" || hi != "15" {
		t.Errorf("at the start: %s..%s election messages reachable, want 9..15", lo, hi)
	}
	// A few worst-case steps (the screenshot's moment), then to the end.
	for range 8 {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#worst"))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if dir := os.Getenv("ELECT_SCREENSHOTS"); dir != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "explore.png"), png, 0o644)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#worst-end"))); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, `explore.state.choices.length === 0`)
	if got := text(t, ctx, "#count-election"); got != "15" {
		t.Errorf("worst steps to the end: %s election messages, want 15", got)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#restart"))); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, `explore.state.ids === null && !explore.state.can_undo`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#best-end"))); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, `explore.state.choices.length === 0`)
	if got := text(t, ctx, "#count-election"); got != "9" {
		t.Errorf("best steps to the end: %s election messages, want 9", got)
	}
	if bad := text(t, ctx, "#counts"); strings.Contains(bad, "bad") {
		t.Errorf("counts %q", bad)
	}
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#counts td.ok").length`)); err != nil || n != 2 {
		t.Errorf("%d bounds green at the end (err %v), want the 2 election bounds", n, err)
	}
}

// TestThePageFillsInTheExtremesAsTheyAreFound (issue 44: the explorer
// serves the page at once): LCR at n = 5, served after the first of its 24
// ID assignments is searched; the page says so, shows the other 23 as
// being searched, and, while SearchRoots runs beside the server, fills
// them in by itself (it asks every half second) until the reach is the
// checker's 9..15 election messages and it says all 24 were searched.
func TestThePageFillsInTheExtremesAsTheyAreFound(t *testing.T) {
	ss, err := check.NewSession(check.Options{Spec: scenario.Spec{Algorithm: "lcr", N: 5}, IDs: "all", Delivery: "fifo"})
	if err != nil {
		t.Fatal(err)
	}
	if err := ss.SearchFirst(); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(explore.Handler(ss))
	defer srv.Close()
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
		t.Fatal(err)
	}
	if got := text(t, ctx, "#search"); !strings.HasPrefix(got, "Searching the ID assignments: 1 of 24 done") {
		t.Errorf("before the search: %q", got)
	}
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#choices td.pending").length`)); err != nil || n != 23 {
		t.Errorf("%d assignments shown as being searched (err %v), want 23", n, err)
	}
	go ss.SearchRoots(0, nil)
	until(t, ctx, `explore.state.search.done === 24 && document.getElementById("reach-max") !== null && document.querySelectorAll("#choices td.pending").length === 0`)
	if lo, hi := text(t, ctx, "#reach-min"), text(t, ctx, "#reach-max"); lo != "9" || hi != "15" {
		t.Errorf("once searched: %s..%s election messages reachable, want 9..15", lo, hi)
	}
	if got := text(t, ctx, "#search"); !strings.HasPrefix(got, "Searched all 24 ID assignments") {
		t.Errorf("once searched: %q", got)
	}
}
