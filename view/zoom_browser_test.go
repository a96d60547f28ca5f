package view_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/ids"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// stImage is the space-time canvas as a data URL.
func stImage(t *testing.T, ctx context.Context) string {
	return eval[string](t, ctx, `document.getElementById("st").toDataURL()`)
}

// TestEventAxisOnACounterexample: the checker's counterexample (Peterson,
// untagged, bag, n = 4: 32 events at 4 time values) opens on the event
// axis, where each of its events has its own x, strictly increasing; on the
// time axis (the check box) they share 4 columns. Stepping changes the
// drawing on both axes (the current event is highlighted).
func TestEventAxisOnACounterexample(t *testing.T) {
	data := testdata(t, "peterson4-noleader.jsonl")
	ctx := openAt(t, data, "", 1366, 768)
	if a := eval[string](t, ctx, `elect.axis`); a != "event" {
		t.Fatalf("a counterexample opens on the %s axis", a)
	}
	xs := eval[[]float64](t, ctx, `Array.from({length: elect.events}, (_, k) => elect.eventX(k))`)
	for k := 1; k < len(xs); k++ {
		if !(xs[k] > xs[k-1]+1) {
			t.Fatalf("events %d and %d at x %.1f and %.1f", k-1, k, xs[k-1], xs[k])
		}
	}
	if len(xs) != 32 {
		t.Errorf("%d events, want 32", len(xs))
	}
	eval[any](t, ctx, `elect.seek(20)`)
	screenshot(t, ctx, "counterexample-event-axis")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#axis-event"))); err != nil {
		t.Fatal(err)
	}
	if a := eval[string](t, ctx, `elect.axis`); a != "time" {
		t.Fatalf("after the check box: the %s axis", a)
	}
	cols := eval[int](t, ctx, `new Set(Array.from({length: elect.events}, (_, k) => Math.round(elect.eventX(k)))).size`)
	if cols != 4 {
		t.Errorf("on the time axis the events take %d columns, want 4", cols)
	}
}

// TestEveryStepChangesTheDiagram: LCR n = 8 on the time axis, events 47 to
// 65 (all at one or two time values): each step changes the space-time
// drawing (the current event's message is drawn thick, its place ringed);
// they were pixel-identical.
func TestEveryStepChangesTheDiagram(t *testing.T) {
	ctx := openAt(t, lcrTrace(t, 8), "", 1100, 820)
	if a := eval[string](t, ctx, `elect.axis`); a != "time" {
		t.Fatalf("LCR opens on the %s axis", a)
	}
	prev := ""
	for p := 47; p <= 65; p++ {
		eval[any](t, ctx, fmt.Sprintf("elect.seek(%d)", p))
		img := stImage(t, ctx)
		if img == prev {
			t.Errorf("events %d and %d: the same drawing", p-1, p)
		}
		prev = img
	}
}

func hsTrace(t *testing.T, n int) []byte {
	t.Helper()
	idv, err := ids.Arrange("random", n, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := sim.Run(election.Config{Algorithm: ring.HS, Graph: topology.NewRing(n), IDs: idv, Delivery: election.FIFO, Trace: &buf}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func wheel(t *testing.T, ctx context.Context, x, y, dy float64, shift bool) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, x, y, func(p *input.DispatchMouseEventParams) {
		p.DeltaY, p.DeltaX = dy, 0.001 // both required by the protocol (a zero is left out)
		if shift {
			p.Modifiers = int64(chromedp.ModifierShift)
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	waitFrames(t, ctx)
}

// TestZoomChangesTheVisibleLanes: HS on a ring of 64 at 1366 x 768. The
// space-time diagram shows all 64 lanes (3 px each, unlabelled); the wheel
// with shift over its middle zooms into the lanes there (fewer than 20
// visible, labelled); "leader" shows the leader's 7 lanes; the wheel on
// the network zooms it (larger discs, IDs drawn). With a node's panel open,
// the space-time diagram stays within the window.
func TestZoomChangesTheVisibleLanes(t *testing.T) {
	ctx := openAt(t, hsTrace(t, 64), "#end", 1366, 768)
	if got := eval[int](t, ctx, `elect.visibleLanes().length`); got != 64 {
		t.Fatalf("%d lanes visible at first, want 64", got)
	}
	r := eval[struct{ X, Y, W, H float64 }](t, ctx, `(() => { const r = document.getElementById("st").getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`)
	wheel(t, ctx, r.X+r.W/2, r.Y+r.H/2, -600, true)
	lanes := eval[[]int](t, ctx, `elect.visibleLanes()`)
	if len(lanes) >= 20 || len(lanes) < 2 {
		t.Errorf("after zooming in: %d lanes visible (%v)", len(lanes), lanes)
	}
	if len(lanes) > 0 && (lanes[0] > 32 || lanes[len(lanes)-1] < 31) {
		t.Errorf("the zoom left the middle lanes: %v", lanes)
	}
	xy := eval[struct{ X, Y float64 }](t, ctx, `elect.nodeXY(0)`)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy.X, xy.Y)); err != nil {
		t.Fatal(err)
	}
	if b := eval[float64](t, ctx, `document.getElementById("st").getBoundingClientRect().bottom`); b > 768 {
		t.Errorf("with the node panel open the space-time diagram ends at y = %.0f, below the window (768)", b)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#lanes-leader"))); err != nil {
		t.Fatal(err)
	}
	waitFrames(t, ctx)
	leader := eval[int](t, ctx, `(() => { for (let i = 0; i < elect.n; i++) if (elect.decision(i) === 1) return i; return -1; })()`)
	lanes = eval[[]int](t, ctx, `elect.visibleLanes()`)
	if len(lanes) != 7 || lanes[3] != leader {
		t.Errorf("leader's lanes %v, want the 7 around node %d", lanes, leader)
	}
	r0 := eval[float64](t, ctx, `elect.radius`)
	nr := eval[struct{ X, Y, W, H float64 }](t, ctx, `(() => { const r = document.getElementById("net").getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`)
	wheel(t, ctx, nr.X+nr.W/2, nr.Y+20, -600, false)
	if z, r1 := eval[float64](t, ctx, `elect.netZoom()`), eval[float64](t, ctx, `elect.radius`); z < 2 || r1 <= r0 {
		t.Errorf("after the wheel on the network: zoom %.2f, radius %.1f (was %.1f)", z, r1, r0)
	}
	if shots != "" {
		// docs/viewer/hs64-zoomed.png: mid-run, the network zoomed on node
		// 16, the space-time diagram on lanes 8 to 24 and the first 60
		// time units.
		ctx := openAt(t, hsTrace(t, 64), "#e=1300", 1366, 768)
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#lanes"), "8-24\n")); err != nil {
			t.Fatal(err)
		}
		xy := eval[struct{ X, Y float64 }](t, ctx, `elect.nodeXY(16)`)
		wheel(t, ctx, xy.X, xy.Y, -330, false)
		// drag node 16 to the middle of the drawing
		xy = eval[struct{ X, Y float64 }](t, ctx, `elect.nodeXY(16)`)
		c := eval[struct{ X, Y float64 }](t, ctx, `(() => { const r = document.getElementById("net").getBoundingClientRect(); return {X: r.left + r.width / 2, Y: r.top + r.height / 2}; })()`)
		if err := chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MousePressed, xy.X, xy.Y, chromedp.ButtonLeft),
			chromedp.MouseEvent(chromedp.MouseMoved, (xy.X+c.X)/2, (xy.Y+c.Y)/2, func(p *input.DispatchMouseEventParams) { p.Buttons = 1 }),
			chromedp.MouseEvent(chromedp.MouseMoved, c.X, c.Y, func(p *input.DispatchMouseEventParams) { p.Buttons = 1 }),
			chromedp.MouseEvent(chromedp.MouseReleased, c.X, c.Y, chromedp.ButtonLeft)); err != nil {
			t.Fatal(err)
		}
		r := eval[struct{ X, Y, W, H float64 }](t, ctx, `(() => { const r = document.getElementById("st").getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`)
		wheel(t, ctx, r.X+60, r.Y+r.H/2, -400, false)
		screenshot(t, ctx, "hs64-zoomed")
	}
}

// waitFrames waits for two animation frames: the page redraws a zoom on
// the next one.
func waitFrames(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
}
