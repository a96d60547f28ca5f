package view_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/general"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/trace"
)

// TestStateNamesAndHistory: GHS declares the names of its node states
// (sleeping, find, found) and edge states (basic, branch, rejected) once;
// the trace header carries them, and the node panel shows them by name,
// with the node's state history (latest first, as many rows as its state
// lines so far, up to 12), whose rows jump to their events.
func TestStateNamesAndHistory(t *testing.T) {
	g, err := topology.Grid(3, 2)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := sim.Run(election.Config{Algorithm: general.GHS, Graph: g, IDs: []elect.ID{3, 1, 4, 6, 2, 5}, Delivery: election.FIFO, Trace: &buf}); err != nil {
		t.Fatal(err)
	}
	tr, err := trace.ReadAll(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tr.Header.StateValues["state"], ","); got != "sleeping,find,found" {
		t.Fatalf("the header names the node states %q", got)
	}
	lines := 0
	for _, ev := range tr.Events {
		if ev.Ev == "state" && ev.Node == 0 {
			lines++
		}
	}
	ctx := openAt(t, buf.Bytes(), "#end", 1366, 768)
	xy := eval[struct{ X, Y float64 }](t, ctx, `elect.nodeXY(0)`)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(xy.X, xy.Y)); err != nil {
		t.Fatal(err)
	}
	if got := text(t, ctx, `#node-state td[data-var="state"]`); got != "found" {
		t.Errorf("node 0's state shows %q, want found", got)
	}
	if got := text(t, ctx, `#node-state td[data-var="edges"]`); !strings.Contains(got, "branch") || strings.ContainsAny(got, "0123456789") {
		t.Errorf("node 0's edges show %q, want names", got)
	}
	hist := eval[string](t, ctx, `document.getElementById("node-history").innerText`)
	if !strings.Contains(hist, "state sleeping → found") && !strings.Contains(hist, "state find → found") {
		t.Errorf("node 0's history names no state change:\n%s", hist)
	}
	rows := eval[int](t, ctx, `document.querySelectorAll("#node-history tr").length`)
	if rows != min(12, lines) {
		t.Errorf("%d history rows, want %d (its state lines, at most 12)", rows, min(12, lines))
	}
	want := eval[int](t, ctx, `+document.querySelector("#node-history tr:last-child").dataset.pos`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#node-history tr:last-child"))); err != nil {
		t.Fatal(err)
	}
	if got := eval[int](t, ctx, `elect.pos`); got != want {
		t.Errorf("a history row went to %d, want %d", got, want)
	}
	if c := text(t, ctx, "#caption"); !strings.HasPrefix(c, "node 0 (ID 3)'s state: ") {
		t.Errorf("caption there %q", c)
	}
}
