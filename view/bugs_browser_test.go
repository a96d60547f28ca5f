package view_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/trace"
	"github.com/electkit/elect/view"
)

// The bugs of issue 33, each reproduced in Chromium before its fix.

// openAt serves a trace and loads the page at address hash (e.g. "#end")
// in a window of w x h CSS pixels.
func openAt(t *testing.T, data []byte, hash string, w, h int64) context.Context {
	t.Helper()
	hd, err := view.Handler(data)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(hd)
	t.Cleanup(srv.Close)
	ctx, ev := tab(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h), chromedp.Navigate(srv.URL+"/"+hash), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if console, _ := ev.snapshot(); len(console) > 0 {
			t.Errorf("console errors: %q", console)
		}
	})
	return ctx
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

func testdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestArrowStepsOneEventAfterTheSlider: once the slider has been used (it
// keeps the focus), an arrow key steps one event, not two (the slider's
// own step and the page's).
func TestArrowStepsOneEventAfterTheSlider(t *testing.T) {
	ctx := openAt(t, lcrTrace(t, 8), "", 1100, 820)
	r := eval[struct{ X, Y, W, H float64 }](t, ctx, `(() => { const r = document.getElementById("slider").getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(r.X+r.W/2, r.Y+r.H/2)); err != nil {
		t.Fatal(err)
	}
	p := eval[int](t, ctx, `elect.pos`)
	if p == 0 {
		t.Fatal("the click on the slider did not move")
	}
	for k, key := range []string{kb.ArrowRight, kb.ArrowRight, kb.ArrowLeft} {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(key)); err != nil {
			t.Fatal(err)
		}
		want := p + []int{1, 2, 1}[k]
		if got := eval[int](t, ctx, `elect.pos`); got != want {
			t.Fatalf("after the slider (at %d) and %d arrow keys: event %d, want %d", p, k+1, got, want)
		}
		if got := eval[int](t, ctx, `+document.getElementById("slider").value`); got != want {
			t.Errorf("the slider shows %d, want %d", got, want)
		}
	}
}

// TestArrowWithTheSpeedMenuFocused: an arrow key steps the run and leaves
// the speed alone while the speed menu has the focus.
func TestArrowWithTheSpeedMenuFocused(t *testing.T) {
	ctx := openAt(t, lcrTrace(t, 8), "", 1100, 820)
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#speed")), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	if got := eval[int](t, ctx, `elect.pos`); got != 1 {
		t.Errorf("event %d, want 1", got)
	}
	if got := eval[string](t, ctx, `document.getElementById("speed").value`); got != "20" {
		t.Errorf("the speed changed to %s", got)
	}
}

// TestTruncatedTraceEnd: at the end of a trace cut by its size limit the
// time is that of the last event written (not 0), and no bound shows as
// met (green): the run went on past the trace.
func TestTruncatedTraceEnd(t *testing.T) {
	var buf bytes.Buffer
	ids := []elect.ID{8, 7, 6, 5, 4, 3, 2, 1}
	if _, err := sim.Run(election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(8), IDs: ids, Delivery: election.FIFO, Trace: &buf, TraceLimit: 6000}); err != nil {
		t.Fatal(err)
	}
	tr, err := trace.ReadAll(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	evs := tr.Events
	if evs[len(evs)-1].Ev != "truncated" {
		t.Fatal("the trace is not truncated")
	}
	last := evs[len(evs)-2].Time()
	ctx := openAt(t, buf.Bytes(), "#end", 1100, 820)
	status := text(t, ctx, "#status")
	if !strings.Contains(status, fmt.Sprintf("t = %g ", last)) || !strings.Contains(status, "cut at its size limit") {
		t.Errorf("status %q, want t = %g and the cut", status, last)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#counts td.ok").length`); n != 0 {
		t.Errorf("%d bounds shown as met at the end of a truncated trace", n)
	}
	if got := eval[string](t, ctx, `[...document.querySelectorAll("#counts td")].map(x => x.textContent).join("|")`); !strings.Contains(got, fmt.Sprintf("%g / 8", last)) {
		t.Errorf("the time bound row is not %g / 8: %s", last, got)
	}
}

// TestEndInTheAddressKeepsTheTitle: #end at 1366 x 768 does not scroll the
// page (the address named the "to the end" button's id).
func TestEndInTheAddressKeepsTheTitle(t *testing.T) {
	ctx := openAt(t, lcrTrace(t, 8), "#end", 1366, 768)
	if got := eval[int](t, ctx, `elect.pos`); got != eval[int](t, ctx, `elect.events`) {
		t.Errorf("#end went to %d", got)
	}
	if y := eval[float64](t, ctx, `document.getElementById("title").getBoundingClientRect().top`); y < 0 {
		t.Errorf("the title is scrolled away (top %g)", y)
	}
}

// TestBigIntegersStayExact: IDs and state above 2^53 (LCR with 63-bit IDs)
// show exactly, not rounded to a double.
func TestBigIntegersStayExact(t *testing.T) {
	ids := []elect.ID{1<<62 + 1, 1<<53 + 1, 1<<62 + 3}
	var buf bytes.Buffer
	if _, err := sim.Run(election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(3), IDs: ids, Delivery: election.FIFO, Trace: &buf}); err != nil {
		t.Fatal(err)
	}
	ctx := openAt(t, buf.Bytes(), "#end", 1100, 820)
	xy := eval[struct{ X, Y float64 }](t, ctx, `elect.nodeXY(2)`)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy.X, xy.Y)); err != nil {
		t.Fatal(err)
	}
	expectPage(t, ctx, "node 2 at the end", map[string]string{"#leader-id": "4611686018427387907", "#node-id": "4611686018427387907",
		`#node-state td[data-var="maxID"]`: "4611686018427387907", `#node-state td[data-var="id"]`: "4611686018427387907"})
	xy = eval[struct{ X, Y float64 }](t, ctx, `elect.nodeXY(1)`)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy.X, xy.Y)); err != nil {
		t.Fatal(err)
	}
	expectPage(t, ctx, "node 1 at the end", map[string]string{"#node-id": "9007199254740993", `#node-state td[data-var="id"]`: "9007199254740993"})
}

// TestDroppedMessagesDrawnApart: Echo with extinction on a ring of 4 under
// newest-first delivery drops 2 messages (they reach terminated nodes);
// the space-time diagram draws them dashed, so that about half the pixels
// along them are unpainted, while a delivered message's line is solid.
func TestDroppedMessagesDrawnApart(t *testing.T) {
	ctx := openAt(t, testdata(t, "echo4-drops.jsonl"), "#end", 1100, 820)
	got := eval[[]struct {
		Dropped bool
		Painted float64
	}](t, ctx, `(() => {
	  const st = document.getElementById("st"), c = st.getContext("2d"), d = window.devicePixelRatio || 1, out = [];
	  for (let m = 0; m < elect.messages; m++) {
	    const g = elect.messageLine(m); if (!g) continue;
	    let painted = 0, all = 0;
	    for (let f = 0.3; f <= 0.7; f += 0.002) {
	      const x = Math.round((g.x0 + (g.x1 - g.x0) * f) * d), y = Math.round((g.y0 + (g.y1 - g.y0) * f) * d);
	      const p = c.getImageData(x - 1, y - 1, 3, 3).data; all++;
	      // painted: a dark enough, opaque enough pixel (the canvas is transparent where nothing is drawn)
	      const dark = (k) => p[k + 3] > 128 && p[k] + p[k + 1] + p[k + 2] < 500;
	      let any = false; for (let k = 0; k < 36; k += 4) any = any || dark(k);
	      if (any) painted++;
	    }
	    out.push({Dropped: g.dropped, Painted: painted / all});
	  }
	  return out; })()`)
	drops := 0
	for m, g := range got {
		if g.Dropped {
			drops++
			if g.Painted > 0.8 {
				t.Errorf("dropped message %d: %.0f%% of its line painted, want a dashed line", m, 100*g.Painted)
			}
		} else if g.Painted < 0.9 {
			t.Errorf("delivered message %d: %.0f%% of its line painted, want a solid line", m, 100*g.Painted)
		}
	}
	if drops != 2 {
		t.Errorf("%d dropped messages, want 2", drops)
	}
}

// TestVersionOneHeader: a header that says version 1 is refused with a
// message that says why (version 1 has no header), not "(1 and 2)".
func TestVersionOneHeader(t *testing.T) {
	_, err := trace.NewReader(strings.NewReader(`{"ev":"header","format":"elect-trace","version":1}` + "\n"))
	if err == nil || strings.Contains(err.Error(), "(1 and 2)") || !strings.Contains(err.Error(), "version 1 traces have no header") {
		t.Errorf("error %v", err)
	}
}

// TestSVGLegendDoesNotOverlap: with ten message types of long names, no
// two texts of the SVG overlap (legend entries, the t label, lane labels)
// and every one lies within the drawing, as Chromium lays them out.
func TestSVGLegendDoesNotOverlap(t *testing.T) {
	var msgs []string
	for k := range 10 {
		msgs = append(msgs, fmt.Sprintf(`{"name":"message-type-%d-with-a-long-name","fields":["j"]}`, k))
	}
	data := `{"ev":"header","format":"elect-trace","version":2,"algorithm":"x","n":3,"seed":1,"topology":{"kind":"ring","name":"ring"},"ids":[1,2,3],"delivery":"fifo","time":"time units","runtime":"sim","announce":false,"messages":[` + strings.Join(msgs, ",") + `]}
{"t":0,"ev":"wake","node":0,"spontaneous":true}
{"t":0,"ev":"send","from":0,"port":"left","to":1,"type":"message-type-9-with-a-long-name","payload":{"j":1}}
{"t":1.5,"ev":"deliver","from":0,"to":1,"port":"right","type":"message-type-9-with-a-long-name","payload":{"j":1}}
`
	tr, err := trace.ReadAll(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var svg bytes.Buffer
	if err := view.SVG(&svg, tr); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write(svg.Bytes())
	}))
	defer srv.Close()
	ctx, _ := tab(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	bad := eval[[]string](t, ctx, `(() => {
	  const svg = document.documentElement, W = svg.viewBox.baseVal.width, H = svg.viewBox.baseVal.height;
	  const ts = [...document.querySelectorAll("text")].map(e => ({s: e.textContent, b: e.getBBox()})), bad = [];
	  for (const a of ts) if (a.b.x < 0 || a.b.y < 0 || a.b.x + a.b.width > W || a.b.y + a.b.height > H) bad.push("outside: " + a.s);
	  for (let i = 0; i < ts.length; i++) for (let j = i + 1; j < ts.length; j++) {
	    const a = ts[i].b, b = ts[j].b;
	    if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) bad.push(ts[i].s + " / " + ts[j].s);
	  }
	  return bad; })()`)
	if len(bad) > 0 {
		t.Errorf("overlapping texts: %q", bad)
	}
}

// TestTreeLayoutKeepsNodesApart: on random trees, a star and a line of 64
// nodes no two node discs of the network drawing overlap.
func TestTreeLayoutKeepsNodesApart(t *testing.T) {
	star, _ := topology.Star(64)
	line, _ := topology.Line(64)
	tree1, _ := topology.RandomTree(64, rand.New(rand.NewPCG(1, 1)))
	tree2, _ := topology.RandomTree(64, rand.New(rand.NewPCG(2, 2)))
	for name, g := range map[string]*topology.Graph{"star": star, "line": line, "tree 1": tree1, "tree 2": tree2} {
		ids := make([]elect.ID, 64)
		for i := range ids {
			ids[i] = elect.ID(i + 1)
		}
		var buf bytes.Buffer
		if _, err := sim.Run(election.Config{Algorithm: general.Echo, Graph: g, IDs: ids, Delivery: election.FIFO, Trace: &buf}); err != nil {
			t.Fatal(err)
		}
		ctx := openAt(t, buf.Bytes(), "", 1100, 820)
		res := eval[struct {
			R, Min float64
			A, B   int
		}](t, ctx, `(() => { let min = Infinity, A = -1, B = -1;
		  for (let i = 0; i < elect.n; i++) for (let j = i + 1; j < elect.n; j++) { const p = elect.nodeXY(i), q = elect.nodeXY(j), d = Math.hypot(p.x - q.x, p.y - q.y); if (d < min) { min = d; A = i; B = j; } }
		  return {R: elect.radius, Min: min, A: A, B: B}; })()`)
		if res.R < 2 || res.Min < 2*res.R {
			t.Errorf("%s: nodes %d and %d are %.1f px apart, with discs of radius %.1f", name, res.A, res.B, res.Min, res.R)
		}
	}
}

// TestNoLeaderCounterexampleShowsItsViolation: the checker's counterexample
// of Peterson without phase tags under bag delivery, n = 4 (testdata,
// 'elect check peterson --n 4 --variant untagged --delivery bag --force
// --counterexample FILE': the execution ends with no leader) shows one
// violation at its end, and the "first violation" button goes there.
func TestNoLeaderCounterexampleShowsItsViolation(t *testing.T) {
	data := testdata(t, "peterson4-noleader.jsonl")
	ctx := openAt(t, data, "", 1100, 820)
	if eval[bool](t, ctx, `document.getElementById("viol").disabled`) {
		t.Fatal("the first violation button is disabled")
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#viol"))); err != nil {
		t.Fatal(err)
	}
	expectPage(t, ctx, "at the violation", map[string]string{"#violations": "1", "#leaders": "0"})
	if s := text(t, ctx, "#status"); !strings.Contains(s, "VIOLATION no-leader") {
		t.Errorf("status %q", s)
	}
	if got, want := eval[int](t, ctx, `elect.pos`), view.CountEvents(data); got != want {
		t.Errorf("the violation is at event %d, want the end, %d", got, want)
	}
}
