package view_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/faults"
	"github.com/electkit/elect/ring"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
	"github.com/electkit/elect/view"
)

// faultTrace runs LCR on the FIFO ring of 6 nodes with the IDs of
// `elect run lcr --n 6` (seed 1) under spec and returns its trace.
func faultTrace(t testing.TB, spec string) []byte {
	t.Helper()
	s, err := faults.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_, err = sim.Run(election.Config{Algorithm: ring.LCR, Graph: topology.NewRing(6), IDs: []elect.ID{1, 4, 2, 3, 0, 5},
		Delivery: election.FIFO, Faults: s, Seed: 1, Trace: &buf})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// faultLines counts a trace's fault lines by the page's names of their
// marks (lost, cut, dup, delay, crash) and returns the event index (0:
// the first line after the header) of the first of each.
func faultLines(t testing.TB, data []byte) (map[string]int, map[string]int) {
	t.Helper()
	count, first := map[string]int{}, map[string]int{}
	for k, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n"))[1:] {
		var ev struct{ Ev, Cause string }
		if err := json.Unmarshal(l, &ev); err != nil {
			t.Fatal(err)
		}
		name := ev.Ev
		switch {
		case ev.Ev == "lose" && ev.Cause == "partition":
			name = "cut"
		case ev.Ev == "lose":
			name = "lost"
		case ev.Ev != "dup" && ev.Ev != "delay" && ev.Ev != "crash":
			continue
		}
		if _, ok := first[name]; !ok {
			first[name] = k
		}
		count[name]++
	}
	return count, first
}

// TestFaultsDrawnInTheBrowser: LCR at n = 6 under a loss, a crash, a
// duplicate and a delay (the trace has one line of each), and under a
// partition of nodes 0-2 from 3-5 from time 1 to 6 with the same faults.
// The space-time diagram draws as many lost and cut crosses, dup and delay
// marks and crash crosses as the trace has lines, and one band per
// partition; the legend names every kind; the faults list has a row per
// fault line (and per partition) naming it; the caption at each fault
// names it; hovering the lost message says it was lost; the crashed node
// is crashed at the end.
func TestFaultsDrawnInTheBrowser(t *testing.T) {
	for _, c := range []struct {
		spec       string
		partitions int
	}{
		{"loss:msg=3;crash:node=2@t=4;dup:msg=5;delay:msg=6,d=3", 0},
		{"partition:0-2|3-5@1-6;loss:msg=3;crash:node=2@t=4;dup:msg=5;delay:msg=6,d=3", 1},
	} {
		data := faultTrace(t, c.spec)
		count, first := faultLines(t, data)
		if c.partitions == 0 && (count["lost"] != 1 || count["dup"] != 1 || count["delay"] != 1 || count["crash"] != 1) {
			t.Fatalf("%s: fault lines %v, want one of each", c.spec, count)
		}
		if c.partitions > 0 && count["cut"] == 0 {
			t.Fatalf("%s: no message cut by the partition: %v", c.spec, count)
		}
		ctx, ev, _ := open(t, data)
		marks := eval[map[string]int](t, ctx, `elect.faultMarks()`)
		t.Logf("%s: trace lines %v, marks %v", c.spec, count, marks)
		for _, k := range []string{"lost", "cut", "dup", "delay", "crash"} {
			if marks[k] != count[k] {
				t.Errorf("%s: %d %s marks drawn, the trace has %d such lines", c.spec, marks[k], k, count[k])
			}
			rows := eval[int](t, ctx, fmt.Sprintf(`document.querySelectorAll('#faults tr[data-kind=%q]').length`, k))
			if rows != count[k] {
				t.Errorf("%s: %d %s rows in the faults list, want %d", c.spec, rows, k, count[k])
			}
		}
		if marks["partition"] != c.partitions {
			t.Errorf("%s: %d partition bands, want %d", c.spec, marks["partition"], c.partitions)
		}
		if rows := eval[int](t, ctx, `document.querySelectorAll('#faults tr[data-kind="partition"]').length`); rows != c.partitions {
			t.Errorf("%s: %d partition rows, want %d", c.spec, rows, c.partitions)
		}
		legend := text(t, ctx, "#fault-legend")
		for _, w := range []string{"lost", "cut (partition)", "dup", "delay +d", "crash", "partition"} {
			if !strings.Contains(legend, w) {
				t.Errorf("%s: the legend %q does not name %q", c.spec, legend, w)
			}
		}
		// The caption at each fault, and the list's row, name it.
		for kind, want := range map[string]string{"lost": "is lost, never delivered", "cut": "is cut by the partition: lost",
			"dup": "is duplicated: a copy (dup) follows it", "delay": "is delayed by 3 time units", "crash": "node 2 (ID 2) crashes"} {
			k, ok := first[kind]
			if !ok {
				continue
			}
			eval[any](t, ctx, fmt.Sprintf("elect.seek(%d)", k+1))
			if got := text(t, ctx, "#caption"); !strings.HasPrefix(got, "FAULT: ") || !strings.Contains(got, want) {
				t.Errorf("%s: the caption at the first %s line (event %d) is %q", c.spec, kind, k, got)
			}
			row := text(t, ctx, fmt.Sprintf(`#faults tr[data-pos="%d"]`, k+1))
			if !strings.Contains(row, kind+":") {
				t.Errorf("%s: the faults list's row of event %d is %q", c.spec, k, row)
			}
		}
		// Hover the lost (or cut) message near its cross.
		lost := eval[[]int](t, ctx, `elect.lostMessages()`)
		if len(lost) != count["lost"]+count["cut"] {
			t.Fatalf("%s: %d lost messages, want %d", c.spec, len(lost), count["lost"]+count["cut"])
		}
		xy := eval[struct{ X, Y float64 }](t, ctx, fmt.Sprintf(`(() => { const g = elect.messageLine(%d); return elect.canvasXY(g.x0 + 0.9 * (g.x1 - g.x0), g.y0 + 0.9 * (g.y1 - g.y0)); })()`, lost[0]))
		if err := chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, xy.X, xy.Y)); err != nil {
			t.Fatal(err)
		}
		if got := text(t, ctx, "#tip"); !strings.Contains(got, "lost") || !strings.Contains(got, "never delivered") {
			t.Errorf("%s: hovering the lost message %d: %q", c.spec, lost[0], got)
		}
		click(t, ctx, "#to-end")
		if !eval[bool](t, ctx, `elect.crashed(2) && !elect.crashed(1)`) {
			t.Errorf("%s: node 2 is not shown crashed at the end (or node 1 is)", c.spec)
		}
		if console, _ := ev.snapshot(); len(console) > 0 {
			t.Errorf("%s: console errors: %q", c.spec, console)
		}
	}
	// In windows of 10 events: the window after the crash starts with node
	// 2 crashed (the checkpoint says so), and the page shows it crashed at
	// the end, with its lane's crash mark in the window that holds it.
	data := faultTrace(t, "loss:msg=3;crash:node=2@t=4;dup:msg=5;delay:msg=6,d=3")
	_, first := faultLines(t, data)
	small := view.Options{Threshold: 10, Window: 10}
	h, err := view.NewHandler(data, small)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	events := view.CountEvents(data)
	last := (events - 1) / small.Window
	if first["crash"]/small.Window == last {
		t.Fatalf("the crash (event %d) is in the last window (%d events): make the windows smaller", first["crash"], events)
	}
	r, err := srv.Client().Get(fmt.Sprintf("%s/window?k=%d", srv.URL, last))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	var cp struct{ Crashed []int }
	if err := json.Unmarshal(bytes.SplitN(body, []byte("\n"), 2)[0], &cp); err != nil || len(cp.Crashed) != 6 || cp.Crashed[2] != 1 || cp.Crashed[1] != 0 {
		t.Errorf("the checkpoint before the last window: crashed %v (%v)", cp.Crashed, err)
	}
	ctx, _ := tab(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/#end"), chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`body[data-window="%d"]`, last)))); err != nil {
		t.Fatal(err)
	}
	if !eval[bool](t, ctx, `elect.crashed(2) && !elect.crashed(1)`) {
		t.Error("windowed: node 2 is not shown crashed at the end")
	}
	eval[any](t, ctx, fmt.Sprintf("elect.seek(%d)", first["crash"]+1))
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`body[data-window="%d"]`, first["crash"]/small.Window)))); err != nil {
		t.Fatal(err)
	}
	if m := eval[map[string]int](t, ctx, `elect.faultMarks()`); m["crash"] != 1 {
		t.Errorf("windowed: the window of the crash draws %v", m)
	}
	if got := text(t, ctx, "#caption"); !strings.Contains(got, "node 2 (ID 2) crashes") {
		t.Errorf("windowed: the caption at the crash is %q", got)
	}

	// Without faults: no legend, no list, no marks.
	ctx, _, _ = open(t, lcrTrace(t, 6))
	if !eval[bool](t, ctx, `document.getElementById('fault-legend').hidden && document.getElementById('faultbox').hidden`) {
		t.Error("a trace without faults shows the faults legend or list")
	}
	if marks := eval[map[string]int](t, ctx, `elect.faultMarks()`); marks["lost"]+marks["dup"]+marks["delay"]+marks["crash"]+marks["partition"] != 0 {
		t.Errorf("a trace without faults has fault marks %v", marks)
	}
}
