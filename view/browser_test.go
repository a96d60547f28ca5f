package view_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/view"
)

// The browser tests drive Debian's chromium (/usr/bin/chromium, or
// $ELECT_CHROMIUM) through chromedp, one browser for the whole package and
// one tab per test. Without a browser they skip, unless ELECT_BROWSER_TESTS
// is set (CI sets it): then a missing browser fails them.

var update = flag.Bool("update", false, "rewrite the golden screenshots in testdata/")

var (
	browserCtx  context.Context
	browserErr  error
	browserPath string
)

func TestMain(m *testing.M) {
	flag.Parse()
	browserPath = os.Getenv("ELECT_CHROMIUM")
	if browserPath == "" {
		browserPath = "/usr/bin/chromium"
	}
	var cancel func()
	if _, err := exec.LookPath(browserPath); err == nil {
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
			chromedp.ExecPath(browserPath), chromedp.Headless, chromedp.NoSandbox,
			chromedp.Flag("disable-gpu", true), chromedp.Flag("hide-scrollbars", true),
			chromedp.Flag("font-render-hinting", "none"), chromedp.WindowSize(1100, 820),
			// TestBrowserRefusedUnderAForeignName: a name that resolves to
			// loopback, as a DNS rebinding attack makes it.
			chromedp.Flag("host-resolver-rules", "MAP rebind.test 127.0.0.1"))
		ctx, cancelCtx := chromedp.NewContext(alloc)
		// Start the browser now, with no timeout on this first call.
		browserErr = chromedp.Do(ctx, chromedp.Navigate("about:blank"))
		browserCtx = ctx
		cancel = func() { cancelCtx(); cancelAlloc() }
	} else {
		browserErr = fmt.Errorf("no browser at %s", browserPath)
	}
	code := m.Run()
	if cancel != nil {
		cancel()
	}
	os.Exit(code)
}

// tab opens a new tab of the shared browser, with a listener that collects
// console calls, exceptions and requests.
func tab(t *testing.T) (context.Context, *events) {
	t.Helper()
	if browserErr != nil {
		if os.Getenv("ELECT_BROWSER_TESTS") == "" {
			t.Skipf("browser tests skipped: %v (set ELECT_BROWSER_TESTS=1 to make this a failure)", browserErr)
		}
		t.Fatalf("ELECT_BROWSER_TESTS is set, but the browser is not usable: %v", browserErr)
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	ev := &events{}
	if err := chromedp.Listen(ctx, ev.add); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, runtime.Enable, cdp.Empty{})
		return err
	}), chromedp.EmulateViewport(1100, 820))
	if err != nil {
		t.Fatal(err)
	}
	tctx, tcancel := context.WithTimeout(ctx, 30*time.Second)
	t.Cleanup(tcancel)
	return tctx, ev
}

// events is what a tab's listener saw.
type events struct {
	mu       sync.Mutex
	console  []string // console.error and console.warn calls, and exceptions
	requests []string
}

func (e *events) add(ev any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value))
			}
			e.console = append(e.console, fmt.Sprintf("console.%s %s", ev.Type, strings.Join(args, " ")))
		}
	case *runtime.EventExceptionThrown:
		e.console = append(e.console, (&chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails}).Error())
	case *network.EventRequestWillBeSent:
		e.requests = append(e.requests, ev.Request.URL)
	}
}

func (e *events) snapshot() (console, requests []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.console...), append([]string(nil), e.requests...)
}

// lcrTrace runs LCR on a ring of n nodes with IDs n, n-1, ..., 1 (the
// decreasing ring, seed 001 §5.2.1.1: n(n+1)/2 election messages).
func lcrTrace(t testing.TB, n int) []byte {
	t.Helper()
	ids := make([]elect.ID, n)
	for i := range ids {
		ids[i] = elect.ID(n - i)
	}
	var buf bytes.Buffer
	if _, err := sim.Run(election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(n), IDs: ids, Delivery: election.FIFO, Trace: &buf}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// open serves a trace and loads the page in a new tab.
func open(t *testing.T, data []byte) (context.Context, *events, string) {
	t.Helper()
	if _, err := view.Parse(data); err != nil {
		t.Fatal(err)
	}
	h, err := view.Handler(data)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ctx, ev := tab(t)
	err = chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`)))
	if err != nil {
		t.Fatal(err)
	}
	return ctx, ev, srv.URL
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// expectPage checks what the page shows.
func expectPage(t *testing.T, ctx context.Context, when string, want map[string]string) {
	t.Helper()
	for sel, w := range want {
		if got := text(t, ctx, sel); got != w {
			t.Errorf("%s: %s shows %q, want %q", when, sel, got, w)
		}
	}
}

// TestLCRDecreasingRingInTheBrowser loads LCR at n = 8 with IDs 8..1, goes
// to the end with the page's own button and reads what it shows: one
// leader, ID 8, 36 = n(n+1)/2 election messages (seed 001 §5.2.1.1); two
// steps back (before the state line and the decision) the leader is gone,
// the messages stay; clicking node 0 shows its ID, decision and state.
func TestLCRDecreasingRingInTheBrowser(t *testing.T) {
	ctx, ev, _ := open(t, lcrTrace(t, 8))
	expectPage(t, ctx, "at the start", map[string]string{"#leaders": "0", "#leader-id": "none", "#count-election": "0"})
	click(t, ctx, "#to-end")
	expectPage(t, ctx, "at the end", map[string]string{"#leaders": "1", "#leader-id": "8", "#count-election": "36", "#count-leader": "0", "#violations": "0"})
	click(t, ctx, "#back")
	expectPage(t, ctx, "one step back", map[string]string{"#leaders": "1", "#count-election": "36"})
	click(t, ctx, "#back")
	expectPage(t, ctx, "two steps back", map[string]string{"#leaders": "0", "#leader-id": "none", "#count-election": "36"})
	click(t, ctx, "#fwd")
	expectPage(t, ctx, "forward again", map[string]string{"#leaders": "1", "#leader-id": "8"})
	click(t, ctx, "#to-end")

	// Click node 0 (ID 8) where the page drew it.
	xy, err := chromedp.Run(ctx, chromedp.Evaluate[struct{ X, Y float64 }](`elect.nodeXY(0)`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy.X, xy.Y)); err != nil {
		t.Fatal(err)
	}
	expectPage(t, ctx, "node 0 clicked", map[string]string{"#node-index": "0", "#node-id": "8", "#node-decision": "elected",
		`#node-state td[data-var="maxID"]`: "8", `#node-state td[data-var="leader"]`: "true"})
	click(t, ctx, "#start")
	expectPage(t, ctx, "node 0 at the start", map[string]string{"#node-decision": "undecided", "#count-election": "0"})
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`elect.seek(12)`)); err != nil {
		t.Fatal(err)
	}
	// After the 8 wake-ups (each a wake, a send and a state line: 24
	// events) node 0 holds its own ID; at event 12 it has woken.
	expectPage(t, ctx, "node 0 at event 12", map[string]string{`#node-state td[data-var="maxID"]`: "8", "#node-counts": "1 / 0"})

	console, _ := ev.snapshot()
	if len(console) > 0 {
		t.Errorf("console errors: %q", console)
	}
}

// TestJumpToFirstViolation: LCR forced onto a ring with IDs 2,2,1,1 (not
// unique) elects node 1 when node 0's 2 reaches it, then node 3 when node
// 2's 1 does, at time 1; the page's "first violation" button goes to the
// second election, where two leaders (IDs 2 and 1) and one violation show,
// and one step back there is one leader and none.
func TestJumpToFirstViolation(t *testing.T) {
	var buf bytes.Buffer
	_, err := sim.Run(election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(4), IDs: []elect.ID{2, 2, 1, 1}, Delivery: election.FIFO, Trace: &buf})
	if err != nil {
		t.Fatal(err)
	}
	ctx, ev, _ := open(t, buf.Bytes())
	click(t, ctx, "#viol")
	expectPage(t, ctx, "at the first violation", map[string]string{"#leaders": "2", "#leader-id": "2, 1", "#violations": "1"})
	if s := text(t, ctx, "#status"); !strings.Contains(s, "VIOLATION multiple-leaders") {
		t.Errorf("status %q does not name the violation", s)
	}
	click(t, ctx, "#back")
	expectPage(t, ctx, "one step before", map[string]string{"#leaders": "1", "#violations": "0"})
	if console, _ := ev.snapshot(); len(console) > 0 {
		t.Errorf("console errors: %q", console)
	}
}

// TestConsoleListenerSeesErrors makes sure the listener the other tests
// rely on does see console errors and exceptions: otherwise "no console
// errors" would pass whatever the page did.
func TestConsoleListenerSeesErrors(t *testing.T) {
	ctx, ev, _ := open(t, lcrTrace(t, 3))
	_ = chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`console.error("canary"); setTimeout(() => { null.boom; }, 0)`))
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if console, _ := ev.snapshot(); len(console) >= 2 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	console, _ := ev.snapshot()
	t.Fatalf("the listener saw %q, want the console.error and the exception", console)
}

// TestPageStaysInItsOrigin: loading the page, playing it and clicking
// around makes no request outside the server's own origin (the page is one
// document with everything inlined; its CSP forbids the rest).
func TestPageStaysInItsOrigin(t *testing.T) {
	ctx, ev, origin := open(t, lcrTrace(t, 8))
	for _, sel := range []string{"#play", "#to-end", "#start", "#fwd", "#viol"} {
		_ = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel)))
	}
	_ = chromedp.Do(ctx, chromedp.Sleep(200*time.Millisecond))
	_, requests := ev.snapshot()
	if len(requests) == 0 {
		t.Fatal("the listener saw no request at all, not even the page's")
	}
	for _, u := range requests {
		if !strings.HasPrefix(u, origin+"/") && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "blob:") {
			t.Errorf("request outside the page's origin %s: %s", origin, u)
		}
	}
	t.Logf("requests: %q", requests)
}

// TestScreenshotMatchesGolden compares the page's two drawings at the end
// of LCR n = 8 (the network, and the space-time diagram) with
// testdata/lcr8-end-net.png and testdata/lcr8-end-st.png: at most 0.2% of
// the pixels of each may differ by more than 48 of 255 in a channel. The
// drawings, not the whole page, so that the fonts of the page's text (which
// differ between machines) do not decide it; a changed layout, colour or
// drawing moves far more. go test ./view/ -run Screenshot -update rewrites
// them.
func TestScreenshotMatchesGolden(t *testing.T) {
	ctx, _, _ := open(t, lcrTrace(t, 8))
	click(t, ctx, "#to-end")
	for _, c := range []string{"net", "st"} {
		url, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("`+c+`").toDataURL("image/png")`))
		if err != nil {
			t.Fatal(err)
		}
		shot, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, "data:image/png;base64,"))
		if err != nil {
			t.Fatal(err)
		}
		golden := "testdata/lcr8-end-" + c + ".png"
		if *update {
			if err := os.WriteFile(golden, shot, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		frac, err := pixelDifference(shot, want, 48)
		if err != nil {
			t.Fatal(err)
		}
		if frac > 0.002 {
			got := "testdata/lcr8-end-" + c + ".got.png"
			os.WriteFile(got, shot, 0o644)
			t.Errorf("%.2f%% of the pixels differ from %s (the drawing is in %s)", 100*frac, golden, got)
			continue
		}
		t.Logf("%s: %.3f%% of the pixels differ", golden, 100*frac)
	}
}

// pixelDifference is the fraction of pixels of two PNGs of the same size
// that differ by more than tol in some channel (8-bit).
func pixelDifference(a, b []byte, tol int) (float64, error) {
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		return 0, err
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	if ia.Bounds() != ib.Bounds() {
		return 1, fmt.Errorf("sizes differ: %v and %v", ia.Bounds(), ib.Bounds())
	}
	r := ia.Bounds()
	diff := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if far(ia, ib, x, y, tol) {
				diff++
			}
		}
	}
	return float64(diff) / float64(r.Dx()*r.Dy()), nil
}

func far(a, b image.Image, x, y, tol int) bool {
	r1, g1, b1, _ := a.At(x, y).RGBA()
	r2, g2, b2, _ := b.At(x, y).RGBA()
	d := func(u, v uint32) bool { return abs(int(u>>8)-int(v>>8)) > tol }
	return d(r1, r2) || d(g1, g2) || d(b1, b2)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
