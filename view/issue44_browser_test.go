package view_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/protocols"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/trace"
	"github.com/electkit/elect/view"
)

// The viewer's defects of issue 44, each reproduced in Chromium before its
// fix. Several read what the page draws on its canvases: a script run
// before the page's own records every fillText call (the canvas's id, ""
// for an off-screen one; the text, its position and width in CSS pixels,
// its alignment) in window.__texts.

const recordTexts = `window.__texts = [];
(() => {
  const f = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (s, x, y) {
    window.__texts.push({ canvas: this.canvas.id || '', text: String(s), x: x, y: y, w: this.measureText(String(s)).width, align: this.textAlign });
    return f.apply(this, arguments);
  };
})();`

// drawnText is one fillText call the page made.
type drawnText struct {
	Canvas, Text, Align string
	X, Y, W             float64
}

// openRecording serves a trace and loads the page at hash in a window of
// w x h CSS pixels, recording what it draws (recordTexts).
func openRecording(t *testing.T, data []byte, hash string, w, h int64) context.Context {
	t.Helper()
	ctx := tabRecording(t)
	url := serveTrace(t, data)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h), chromedp.Navigate(url+"/"+hash), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`))); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// serveTrace serves a trace's page (view.Handler) for the test's length.
func serveTrace(t *testing.T, data []byte) string {
	t.Helper()
	h, err := view.Handler(data)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func tabRecording(t *testing.T) context.Context {
	t.Helper()
	ctx, ev := tab(t)
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: recordTexts})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if console, _ := ev.snapshot(); len(console) > 0 {
			t.Errorf("console errors: %q", console)
		}
	})
	return ctx
}

func texts(t *testing.T, ctx context.Context) []drawnText {
	t.Helper()
	return eval[[]drawnText](t, ctx, `window.__texts`)
}

// waitFor polls the page until js is true (at most 10 s).
func waitFor(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	for range 200 {
		if eval[bool](t, ctx, js) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the page never made %s true", js)
}

// TestEventsNumberedFromOneEverywhere: the checker's counterexample of
// Chang-Roberts on IDs 1,1,1 (view/testdata/cr3-equal-ids.jsonl, written
// by 'elect check chang-roberts --n 3 --ids list:1,1,1 --force
// --counterexample'): its 14th line after the header is node 1's election,
// the second. At #e=14 the status says event 14 and the violation; every
// tick of the event axis labelled #N stands on the event the status calls
// event N (the 0-based event N-1: it stood on event N); node 1's history
// rows say #N for the position N they go to.
func TestEventsNumberedFromOneEverywhere(t *testing.T) {
	ctx := openRecording(t, testdata(t, "cr3-equal-ids.jsonl"), "#e=14", 1100, 820)
	if s := text(t, ctx, "#status"); !strings.HasPrefix(s, "event 14 / 27") || !strings.Contains(s, "VIOLATION multiple-leaders") {
		t.Fatalf("status at #e=14: %q", s)
	}
	if a := eval[string](t, ctx, `elect.axis`); a != "event" {
		t.Fatalf("a counterexample opens on the %s axis", a)
	}
	tick := regexp.MustCompile(`^#(\d+)$`)
	ticks := 0
	for _, d := range texts(t, ctx) {
		m := tick.FindStringSubmatch(d.Text)
		if d.Canvas != "" || m == nil {
			continue
		}
		ticks++
		k, _ := strconv.Atoi(m[1])
		x := eval[float64](t, ctx, fmt.Sprintf(`elect.eventX(%d)`, k-1))
		if math.Abs(d.X-x) > 0.5 {
			t.Errorf("the tick %s is at x = %.1f; event %d (the status's numbering) is at x = %.1f", d.Text, d.X, k, x)
		}
	}
	if ticks < 3 {
		t.Fatalf("%d event ticks drawn", ticks)
	}
	// node 1's history: each row's event number is the position it goes to
	xy := eval[struct{ X, Y float64 }](t, ctx, `elect.nodeXY(1)`)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy.X, xy.Y)); err != nil {
		t.Fatal(err)
	}
	rows := eval[[][2]string](t, ctx, `Array.from(document.querySelectorAll('#node-history tr[data-pos]')).map((r) => [r.dataset.pos, r.cells[0].textContent])`)
	if len(rows) == 0 {
		t.Fatal("node 1 shows no history")
	}
	for _, r := range rows {
		if r[1] != "#"+r[0] {
			t.Errorf("a history row says %s and goes to position %s", r[1], r[0])
		}
	}
	// a message's tooltip names its events as the status does: node 1's
	// election, event 14, follows the delivery of event 13, the first
	// message, node 0's, sent at event 2
	if tip := eval[string](t, ctx, `elect.messageTip(0)`); !strings.Contains(tip, "sent at event 2 ") || !strings.Contains(tip, "delivered at event 13 ") {
		t.Errorf("message 0's tooltip: %q, want it sent at event 2 and delivered at event 13", tip)
	}
}

// TestNodeIndexBesideEqualIDs: the same counterexample's three nodes all
// hold ID 1; each lane label and each disc names its node's index as well:
// "[i] ID 1" on the lanes, "[i]" beside disc i (the IDs are drawn once the
// discs are 7 px or more, which they are at n = 3).
func TestNodeIndexBesideEqualIDs(t *testing.T) {
	ctx := openRecording(t, testdata(t, "cr3-equal-ids.jsonl"), "#end", 1100, 820)
	lanes, beside := map[string]bool{}, map[int]bool{}
	r := eval[struct{ X, Y float64 }](t, ctx, `(() => { const r = document.getElementById('net').getBoundingClientRect(); return {X: r.left, Y: r.top}; })()`)
	radius := eval[float64](t, ctx, `elect.radius`)
	for _, d := range texts(t, ctx) {
		switch {
		case d.Canvas == "" && strings.Contains(d.Text, "ID "):
			lanes[d.Text] = true
		case d.Canvas == "net" && regexp.MustCompile(`^\[\d\]$`).MatchString(d.Text):
			i := int(d.Text[1] - '0')
			xy := eval[struct{ X, Y float64 }](t, ctx, fmt.Sprintf(`elect.nodeXY(%d)`, i))
			if math.Hypot(d.X-(xy.X-r.X), d.Y-(xy.Y-r.Y)) > 3*radius+20 {
				t.Errorf("%s is drawn at (%.0f, %.0f), far from node %d at (%.0f, %.0f)", d.Text, d.X, d.Y, i, xy.X-r.X, xy.Y-r.Y)
			}
			beside[i] = true
		}
	}
	screenshot(t, ctx, "cr3-equal-ids")
	for i := range 3 {
		if l := fmt.Sprintf("[%d] ID 1", i); !lanes[l] {
			t.Errorf("no lane labelled %q (lane labels: %v)", l, lanes)
		}
		if !beside[i] {
			t.Errorf("node %d's disc has no [%d] beside it", i, i)
		}
	}
}

// ghsWeighted runs GHS on a graph of 6 nodes whose edges weigh 7, 2.5,
// -1.5, 0.25, 12, 3.75 and 100 (an edge list's weights: the runtime hands
// them to the nodes as order-preserving keys, their float64 bits).
func ghsWeighted(t *testing.T) ([]byte, [][2]int32, []float64) {
	t.Helper()
	edges := [][2]int32{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {0, 3}}
	weights := []float64{7, 2.5, -1.5, 0.25, 12, 3.75, 100}
	g, err := topology.FromWeightedEdges(6, edges, weights, "hexagon+chord")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := sim.Run(election.Config{Algorithm: general.GHS, Graph: g, IDs: []elect.ID{3, 6, 1, 4, 2, 5}, Delivery: election.FIFO, Trace: &buf}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), edges, weights
}

// TestGHSWeightsAsNumbers: each link of the network carries its weight
// (7, 2.5, ...: on the network drawing, near the link's middle); the node
// panel shows a node's port weights as those numbers, in port order
// (node 0: 7, 3.75, 100), not as their keys (4619567317775286272 is 7's);
// no caption of the run shows a key or 2^63-1, and GHS's "no outgoing
// edge" (a Report of infinity) reads ∞.
func TestGHSWeightsAsNumbers(t *testing.T) {
	data, edges, weights := ghsWeighted(t)
	ctx := openRecording(t, data, "#end", 1100, 820)
	r := eval[struct{ X, Y float64 }](t, ctx, `(() => { const r = document.getElementById('net').getBoundingClientRect(); return {X: r.left, Y: r.top}; })()`)
	drawn := texts(t, ctx)
	for k, e := range edges {
		a := eval[struct{ X, Y float64 }](t, ctx, fmt.Sprintf(`elect.nodeXY(%d)`, e[0]))
		b := eval[struct{ X, Y float64 }](t, ctx, fmt.Sprintf(`elect.nodeXY(%d)`, e[1]))
		mx, my := (a.X+b.X)/2-r.X, (a.Y+b.Y)/2-r.Y
		w := strconv.FormatFloat(weights[k], 'g', -1, 64)
		found := false
		for _, d := range drawn {
			if d.Canvas == "net" && d.Text == w && math.Hypot(d.X-mx, d.Y-my) < 40 {
				found = true
			}
		}
		if !found {
			t.Errorf("link %d-%d: no %q drawn near its middle (%.0f, %.0f)", e[0], e[1], w, mx, my)
		}
	}
	xy := eval[struct{ X, Y float64 }](t, ctx, `elect.nodeXY(0)`)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy.X, xy.Y)); err != nil {
		t.Fatal(err)
	}
	// node 0's ports in the header's order: 1 (7), 5 (3.75), 3 (100)
	tr, err := trace.ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, j := range tr.Header.Ports[0] {
		for k, e := range edges {
			if e == [2]int32{0, j} || e == [2]int32{j, 0} {
				want = append(want, strconv.FormatFloat(weights[k], 'g', -1, 64))
			}
		}
	}
	if got := text(t, ctx, `#node-state td[data-var="weights"]`); got != "["+strings.Join(want, ", ")+"]" {
		t.Errorf("node 0's weights show as %q, want [%s]", got, strings.Join(want, ", "))
	}
	screenshot(t, ctx, "ghs-weights")
	caps := eval[[]string](t, ctx, `(() => { const out = []; for (let p = 1; p <= elect.events; p++) { elect.seek(p); out.push(elect.caption()); } return out; })()`)
	big, inf := regexp.MustCompile(`\d{16,}`), 0
	for p, c := range caps {
		if big.MatchString(c) {
			t.Errorf("event %d's caption shows a raw key: %q", p+1, c)
		}
		if strings.Contains(c, "∞") {
			inf++
		}
	}
	if inf == 0 {
		t.Error("no caption shows ∞ (GHS's Report of no outgoing edge)")
	}
}

// TestPageFitsSmallScreens: HS on a ring of 64 at 1024 x 768 and 1366 x
// 768: the page needs no scrolling either way, the bounds table (the
// message counts and the algorithm's bounds) is in view whole without
// scrolling the side panel, and no label of a message in flight runs past
// the network canvas's edges, at 200 positions through the run. The
// bounds table names HS's bound after the messages it counts.
func TestPageFitsSmallScreens(t *testing.T) {
	data := hsTrace(t, 64)
	for _, size := range [][2]int64{{1024, 768}, {1366, 768}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			ctx := openRecording(t, data, "#e=1300", size[0], size[1])
			fit := eval[struct {
				ScrollW, ScrollH, InnerW, InnerH float64
				Table, Side                      struct{ Top, Bottom, Left, Right float64 }
			}](t, ctx, `(() => { const b = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return {Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right}; };
				return {ScrollW: document.documentElement.scrollWidth, ScrollH: document.documentElement.scrollHeight, InnerW: innerWidth, InnerH: innerHeight, Table: b('counts'), Side: b('side')}; })()`)
			if fit.ScrollW > fit.InnerW || fit.ScrollH > fit.InnerH {
				t.Errorf("the page is %.0f x %.0f in a window of %.0f x %.0f", fit.ScrollW, fit.ScrollH, fit.InnerW, fit.InnerH)
			}
			tb, sd := fit.Table, fit.Side
			if tb.Bottom > min(sd.Bottom, fit.InnerH) || tb.Right > min(sd.Right, fit.InnerW) || tb.Top < sd.Top || tb.Bottom-tb.Top < 20 {
				t.Errorf("the bounds table at %+v is not whole in view (side panel %+v, window %.0f x %.0f)", tb, sd, fit.InnerW, fit.InnerH)
			}
			if s := text(t, ctx, "#counts"); !strings.Contains(s, "ELECTION and REPLY messages <=") {
				t.Errorf("the bounds table does not name HS's bound after ELECTION and REPLY: %q", s)
			}
			screenshot(t, ctx, fmt.Sprintf("hs64-%dx%d", size[0], size[1]))
			cut := eval[[]string](t, ctx, `(() => { const out = [], net = document.getElementById('net'), W = net.clientWidth, H = net.clientHeight;
				for (let k = 1; k <= 200; k++) { window.__texts = []; elect.seek(Math.round(k * elect.events / 200));
					for (const d of window.__texts) { if (d.canvas !== 'net') continue; const x0 = d.align === 'center' ? d.x - d.w / 2 : d.align === 'right' ? d.x - d.w : d.x;
						if (x0 < 0 || x0 + d.w > W || d.y < 0 || d.y > H) out.push('at ' + elect.pos + ': ' + d.text + ' from x = ' + x0.toFixed(0) + ' to ' + (x0 + d.w).toFixed(0) + ', y = ' + d.y.toFixed(0) + ' (canvas ' + W + ' x ' + H + ')'); } }
				return out; })()`)
			if len(cut) > 0 {
				t.Errorf("%d labels run past the network canvas, the first: %q", len(cut), cut[:min(5, len(cut))])
			}
		})
	}
}

// pllTrace runs P_LL on 300 agents (seed 1) and returns its trace: 69
// states at n = 300.
func pllTrace(t *testing.T) []byte {
	t.Helper()
	entry, ok := protocols.Lookup("pll")
	if !ok {
		t.Fatal("no pll")
	}
	smp := &pp.Sampler{Points: 100}
	res, err := entry.Run(protocols.Config{N: 300, Seed: 1, Options: pp.Options{Sample: smp}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := pp.WriteTrace(&buf, pp.TraceHeader{Protocol: "pll", Seed: 1, StateFields: entry.StateFields}, smp, res); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestPopulationPage: P_LL's page shows none of the network's controls
// (the event axis, the lanes, the zoom, the first violation), gives each
// of its states a colour of its own (the states grouped as "other ..."
// excepted), opens at the snapshot #e= names, and follows the address
// when it changes.
func TestPopulationPage(t *testing.T) {
	ctx := openRecording(t, pllTrace(t), "#e=5", 1100, 820)
	for _, id := range []string{"viewctl", "viol", "axis-event", "lanes", "reset-view"} {
		if eval[bool](t, ctx, `document.getElementById('`+id+`').getClientRects().length > 0`) {
			t.Errorf("#%s, a network control, shows on a population page", id)
		}
	}
	colours := eval[[][2]string](t, ctx, `Array.from(document.querySelectorAll('#pp-counts td[data-state]')).map((td) => [td.dataset.state, td.parentElement.querySelector('.sw').style.background])`)
	seen := map[string]string{}
	states := 0
	for _, c := range colours {
		if strings.HasPrefix(c[0], "other") {
			continue
		}
		states++
		if o, ok := seen[c[1]]; ok {
			t.Errorf("states %s and %s share the colour %s", o, c[0], c[1])
		}
		seen[c[1]] = c[0]
	}
	t.Logf("%d states, %d colours", states, len(seen))
	if states < 40 {
		t.Fatalf("P_LL at n = 300 shows %d states", states)
	}
	if p := eval[int](t, ctx, `elect.pos`); p != 5 {
		t.Errorf("opened at #e=5, the page is at snapshot %d", p)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`location.hash = '#e=9'`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `elect.pos === 9`)
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`location.hash = '#end'`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, `elect.pos === elect.events - 1`)
}

// TestHashChangeMovesTheOpenPage: an open page goes where a changed
// address says, without a reload: #e=12, #end, #t=3 (after the last event
// at time 3 or before), #e=1.
func TestHashChangeMovesTheOpenPage(t *testing.T) {
	data := lcrTrace(t, 8)
	ctx := openRecording(t, data, "#e=5", 1100, 820)
	if p := eval[int](t, ctx, `elect.pos`); p != 5 {
		t.Fatalf("opened at #e=5, the page is at %d", p)
	}
	tr, err := trace.ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	at3 := 0
	for k, e := range tr.Events {
		if v, _ := e.T.Float64(); v <= 3 {
			at3 = k + 1
		}
	}
	for _, c := range []struct {
		hash string
		pos  int
	}{{"#e=12", 12}, {"#end", len(tr.Events)}, {"#t=3", at3}, {"#e=1", 1}} {
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`location.hash = '`+c.hash+`'`)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, fmt.Sprintf(`elect.pos === %d`, c.pos))
	}
}
