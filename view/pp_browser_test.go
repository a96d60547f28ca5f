package view_test

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/protocols"
	"github.com/electkit/elect/trace"
)

// angluinTrace runs Angluin's protocol on n agents (all leaders at the
// start) on the agent array with seed 1 and returns its trace.
func angluinTrace(t testing.TB, n int) []byte {
	t.Helper()
	smp := &pp.Sampler{Points: 200}
	res, err := pp.Simulate(protocols.NewAngluin(n), n, 1, pp.Options{Sample: smp})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := pp.WriteTrace(&buf, pp.TraceHeader{Protocol: "angluin", Seed: 1}, smp, res); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var shots = os.Getenv("ELECT_SCREENSHOTS") // a directory: write docs/viewer's pictures there

// TestAngluinCurvesInTheBrowser opens Angluin's protocol at n = 1000 (every
// agent a leader at the start): the first snapshot shows 1000 leaders and
// the stacked area is all L; at the end (the page's >| button) one leader
// and 999 followers, and the area's right edge is F; one step back there
// are more leaders (the last snapshot is the step at which the second to
// last leader fell, the one before it is earlier); no console errors.
func TestAngluinCurvesInTheBrowser(t *testing.T) {
	ctx, ev, _ := open(t, angluinTrace(t, 1000))
	expectPage(t, ctx, "at the start", map[string]string{"#pp-leaders": "1000", `#pp-counts td[data-state="L"]`: "1000", `#pp-counts td[data-state="F"]`: "0"})
	click(t, ctx, "#to-end")
	expectPage(t, ctx, "at the end", map[string]string{"#pp-leaders": "1", `#pp-counts td[data-state="L"]`: "1", `#pp-counts td[data-state="F"]`: "999"})
	if s := text(t, ctx, "#pp-outcome"); !strings.Contains(s, "elected") {
		t.Errorf("outcome %q does not say elected", s)
	}
	// The stacked area at the end (nothing faded): its colours at the left
	// edge (t near 0: all leaders) and the right edge (all followers but
	// one), half way up the plot.
	px, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`(() => { const c = document.getElementById('area'), g = c.getContext('2d'), d = window.devicePixelRatio || 1;
		const at = (x, y) => Array.from(g.getImageData(Math.round(x * d), Math.round(y * d), 1, 1).data.slice(0, 3));
		return [...at(55, 170), ...at(c.width / d - 12, 170)]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	// L is drawn #f9a825 (249,168,37), F #5c6bc0 (92,107,192).
	if len(px) != 6 || !(px[0] > 200 && px[2] < 80) || !(px[5] > 150 && px[3] < 120) {
		t.Errorf("stacked area pixels %v: want the leaders' orange (249,168,37) on the left and the followers' blue (92,107,192) on the right", px)
	}
	click(t, ctx, "#back")
	if got := text(t, ctx, "#pp-leaders"); got == "1" || got == "" {
		t.Errorf("one step back from the end the page still shows %q leaders", got)
	}
	if shots != "" {
		click(t, ctx, "#to-end")
		_ = chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`elect.seek(Math.round(elect.events * 0.3))`))
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(shots+"/angluin-curves.png", shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	console, _ := ev.snapshot()
	if len(console) > 0 {
		t.Errorf("console errors: %q", console)
	}
}

// TestPLLStateFieldsInTheBrowser: P_LL declares the layout of its packed
// states once (protocols.Entry.StateFields); the trace header carries it
// and the page names each state's fields: at the start all 300 agents are
// in state 9, "leader=yes status=X epoch=1 ..."; at the end every state
// row shows its fields as Go decodes them from the header.
func TestPLLStateFieldsInTheBrowser(t *testing.T) {
	entry, ok := protocols.Lookup("pll")
	if !ok || len(entry.StateFields) == 0 {
		t.Fatal("pll declares no state fields")
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
	tr, err := trace.ReadAll(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Header.StateFields) != 8 {
		t.Fatalf("the header carries %d state fields", len(tr.Header.StateFields))
	}
	decode := func(name string) string {
		s, err := strconv.ParseUint(name, 10, 64)
		if err != nil {
			return ""
		}
		var parts []string
		for _, f := range tr.Header.StateFields {
			v := s >> f.Shift
			if f.Bits > 0 {
				v &= 1<<f.Bits - 1
			}
			w := strconv.FormatUint(v, 10)
			if v < uint64(len(f.Values)) {
				w = f.Values[v]
			}
			parts = append(parts, f.Name+"="+w)
		}
		return strings.Join(parts, " ")
	}
	ctx, ev, _ := open(t, buf.Bytes())
	want := "leader=yes status=X epoch=1 color=0 flag=0 coin=J statusL=0 v=0"
	if decode("9") != want {
		t.Fatalf("Go decodes state 9 as %q", decode("9"))
	}
	expectPage(t, ctx, "at the start", map[string]string{`#pp-counts td[data-fields="9"]`: want, `#pp-counts td[data-state="9"]`: "300"})
	click(t, ctx, "#to-end")
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[][2]string](`Array.from(document.querySelectorAll('#pp-counts td[data-fields]')).map((td) => [td.dataset.fields, td.textContent])`))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(tr.Header.States) {
		t.Errorf("%d state rows show fields, the header has %d states", len(got), len(tr.Header.States))
	}
	for _, r := range got {
		if w := decode(r[0]); w != r[1] || (w == "" && !strings.HasPrefix(r[0], "other")) {
			t.Errorf("state %s: the page shows %q, Go decodes %q", r[0], r[1], w)
		}
	}
	if console, _ := ev.snapshot(); len(console) > 0 {
		t.Errorf("console errors: %q", console)
	}
}
