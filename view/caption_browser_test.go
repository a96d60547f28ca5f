package view_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/electkit/elect/trace"
)

// TestCaptionSaysWhatHappened: LCR on the decreasing ring of 8 (IDs 8..1;
// node i sends on its left port to node i+1). Where node 3 (ID 5) receives
// the 7 that node 2 forwarded, the caption says so and that it forwards
// it; the next events are its send and its state change; at the end node
// 0 receives its own 8 and is elected. The in-flight panel counts the
// messages Go counts in flight at that point, and the links they are on.
func TestCaptionSaysWhatHappened(t *testing.T) {
	data := lcrTrace(t, 8)
	tr, err := trace.ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	k := -1
	for i, ev := range tr.Events {
		if ev.Ev == "deliver" && ev.To == 3 && ev.Payload["j"] == 7 {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatal("no delivery of election(7) to node 3")
	}
	inFlight, links := 0, map[[2]int32]bool{}
	onLink := map[[2]int32]int{}
	for _, ev := range tr.Events[:k+1] {
		switch ev.Ev {
		case "send":
			inFlight++
			onLink[[2]int32{ev.From, ev.To}]++
		case "deliver", "drop":
			inFlight--
			onLink[[2]int32{ev.From, ev.To}]--
		}
	}
	for l, c := range onLink {
		if c > 0 {
			links[l] = true
		}
	}
	E := len(tr.Events)
	ctx := openAt(t, data, "", 1100, 820)
	for _, c := range []struct {
		pos  int
		want string
	}{
		{0, "the run has not started: step forward (the arrow key) to see its first event"},
		{1, "node 0 (ID 8) wakes up spontaneously and sends election(8) on its left port"},
		{k + 1, "node 3 (ID 5) receives election(7) on its right port and forwards it on its left port"},
		{k + 2, "node 3 (ID 5) sends election(7) on its left port to node 4"},
		{k + 3, "node 3 (ID 5)'s state: maxID 6 → 7"},
		{E - 2, "node 0 (ID 8) receives election(8) on its right port and is elected"},
		{E - 1, "node 0 (ID 8) is elected"},
		{E, "node 0 (ID 8)'s state: leader false → true"},
	} {
		eval[any](t, ctx, fmt.Sprintf("elect.seek(%d)", c.pos))
		if got := text(t, ctx, "#caption"); got != c.want {
			t.Errorf("event %d: caption %q, want %q", c.pos, got, c.want)
		}
	}
	eval[any](t, ctx, fmt.Sprintf("elect.seek(%d)", k+1))
	want := fmt.Sprintf("%d on %d links", inFlight, len(links))
	if got := text(t, ctx, "#flight-count"); got != want {
		t.Errorf("in flight at event %d: %q, want %q", k+1, got, want)
	}
	// docs/viewer/lcr8-caption.png: the page at 1366 x 768, mid-run.
	if shots != "" {
		ctx := openAt(t, data, fmt.Sprintf("#e=%d", k+1), 1366, 768)
		screenshot(t, ctx, "lcr8-caption")
	}
	// Hovering node 3 shows what it is.
	xy := eval[struct{ X, Y float64 }](t, ctx, `elect.nodeXY(3)`)
	if err := chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, xy.X, xy.Y)); err != nil {
		t.Fatal(err)
	}
	if got := text(t, ctx, "#tip"); !strings.HasPrefix(got, "node 3 (ID 5)\nundecided, awake\nsent 2, received 2") {
		t.Errorf("hovering node 3: %q", got)
	}
}

// screenshot writes the page as docs/viewer/NAME.png when ELECT_SCREENSHOTS
// names a directory.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if shots == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
