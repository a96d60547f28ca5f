package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electkit/elect/trace"
)

// TestViewExports: a run's trace becomes a self-contained page (the trace
// inlined, nothing loaded from elsewhere), an SVG space-time diagram with
// an arrow per message (36 for LCR on the decreasing ring of 8, seed 001
// §5.2.1.1), and a ShiViz log whose first line is its parsing expression
// and whose clocks tick once per event of a node.
func TestViewExports(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "lcr.jsonl")
	if code, _, errOut := runCLI("run", "lcr", "--n", "8", "--ids", "8,7,6,5,4,3,2,1", "--trace", tr); code != 0 {
		t.Fatalf("run: %s", errOut)
	}
	page, svg, log := filepath.Join(dir, "p.html"), filepath.Join(dir, "d.svg"), filepath.Join(dir, "s.log")
	code, out, errOut := runCLI("view", tr, "--out", page, "--svg", svg, "--shiviz", log)
	if code != 0 || !strings.Contains(out, "wrote "+page) {
		t.Fatalf("view: exit %d\n%s%s", code, out, errOut)
	}
	html, _ := os.ReadFile(page)
	if !bytes.Contains(html, []byte(`"algorithm":"lcr"`)) || bytes.Contains(html, []byte("/*TRACE*/")) ||
		bytes.Contains(html, []byte("http://")) || bytes.Contains(html, []byte("https://")) || bytes.Contains(html, []byte("src=")) {
		t.Errorf("the page does not inline the trace, or refers to something outside it")
	}
	s, _ := os.ReadFile(svg)
	if n := bytes.Count(s, []byte("<line ")) - 8; n != 36 || !bytes.HasPrefix(s, []byte("<svg ")) {
		t.Errorf("the SVG has %d message arrows, want 36", n)
	}
	l, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimRight(string(l), "\n"), "\n")
	if lines[0] != `(?<host>\S+) (?<clock>\{[^}]*\}) (?<event>.*)` || lines[1] != "" {
		t.Fatalf("ShiViz header %q", lines[:2])
	}
	// node0 (ID 8) wakes, sends 8, receives IDs 1..7 (each outlived the
	// smaller IDs between) and swallows them, receives 8 and decides:
	// 1 + 1 + 8 + 1 = 11 events; its last clock has seen node7's 16th
	// event (node7, ID 1, forwards 2..8: 1 + 1 + 7 receptions + 7 sends).
	last := ""
	for _, line := range lines[2:] {
		if strings.HasPrefix(line, "node0 ") {
			last = line
		}
	}
	if !strings.Contains(last, `"node0":11,`) || !strings.Contains(last, `"node7":16}`) || !strings.Contains(last, "decide elected") {
		t.Errorf("node0's last ShiViz line %q, want its 11th event, the decision, after node7's 16th", last)
	}
}

// TestViewBadInput: one line on stderr and exit 2 for a missing file, a
// damaged trace and a version 1 trace (which still replays).
func TestViewBadInput(t *testing.T) {
	dir := t.TempDir()
	v1 := filepath.Join(dir, "v1.jsonl")
	os.WriteFile(v1, []byte(`{"t":0,"ev":"wake","node":0,"spontaneous":true}`+"\n"), 0o644)
	v1h := filepath.Join(dir, "v1h.jsonl")
	os.WriteFile(v1h, []byte(`{"ev":"header","format":"elect-trace","version":1}`+"\n"), 0o644)
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{\"ev\":\"header\",\"format\":\"elect-trace\",\"version\":2}\n"), 0o644)
	for _, c := range []badInput{
		{[]string{"view", filepath.Join(dir, "none.jsonl")}, "no such file"},
		{[]string{"view", v1}, "version 1 trace"},
		{[]string{"view", bad}, "line 1, the header"},
		{[]string{"view", v1h}, "line 1 is a header of format version 1, but version 1 traces have no header"},
		{[]string{"view"}, "view takes one trace file"},
		{[]string{"run", "lcr", "--trace-limit", "lots"}, `"lots" is not a size in bytes: write it as 6GiB, 500MB or 8e9`},
	} {
		wantBadInput(t, c.args, c.want)
	}
}

// TestTraceLimit: a run whose trace reaches --trace-limit finishes, says so
// on stderr, and leaves a trace that ends with the marker, within the limit.
func TestTraceLimit(t *testing.T) {
	tr := filepath.Join(t.TempDir(), "t.jsonl")
	code, out, errOut := runCLI("run", "lcr", "--n", "100", "--trace", tr, "--trace-limit", "20KB", "--json")
	if code != 0 || !strings.Contains(errOut, "--trace-limit") || !strings.Contains(out, `"trace_truncated":true`) {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	data, _ := os.ReadFile(tr)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if lines[len(lines)-1] != `{"ev":"truncated","limit":20000}` || len(data)-len(lines[len(lines)-1])-1 > 20000 {
		t.Fatalf("%d bytes, last line %s", len(data), lines[len(lines)-1])
	}
	if _, err := trace.ReadAll(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI("run", "lcr", "--n", "100", "--replay", tr)
	if code != 2 || !strings.Contains(errOut, "size limit") {
		t.Errorf("replaying a truncated trace: exit %d, %s", code, errOut)
	}
}

// TestPPTraceView: 'elect pp --trace' writes a population trace that the
// reader accepts (counts adding up to n, the last snapshot the run's end),
// from a catalog protocol and from a protocol file; 'elect view --out'
// writes its page; --svg and --shiviz refuse it, and --trace with several
// trials is refused, each with one line and exit 2.
func TestPPTraceView(t *testing.T) {
	dir := t.TempDir()
	for _, proto := range []string{"angluin", "../examples/protocols/angluin.yaml"} {
		tr := filepath.Join(dir, "pp.jsonl")
		code, out, errOut := runCLI("pp", proto, "--n", "300", "--seed", "5", "--trace", tr)
		if code != 0 || !strings.Contains(errOut, "trace: "+tr) {
			t.Fatalf("pp %s --trace: exit %d\n%s%s", proto, code, out, errOut)
		}
		f, err := os.Open(tr)
		if err != nil {
			t.Fatal(err)
		}
		got, err := trace.ReadAll(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		h := got.Header
		if !h.Population() || h.N != 300 || h.Seed != 5 || h.Engine != "agent-array" || len(h.States) != 2 {
			t.Errorf("%s: header %+v", proto, h)
		}
		last := got.Events[len(got.Events)-2]
		if end := got.Events[len(got.Events)-1]; last.Ev != "counts" || last.Leaders != 1 || end.Ev != "result" || end.Outcome != "elected" || end.Interactions != last.Step {
			t.Errorf("%s: ends with %+v, %+v", proto, last, end)
		}
		page := filepath.Join(dir, "pp.html")
		if code, out, errOut := runCLI("view", tr, "--out", page); code != 0 || !strings.Contains(out, "wrote") {
			t.Fatalf("view --out: exit %d\n%s%s", code, out, errOut)
		}
		html, _ := os.ReadFile(page)
		if !bytes.Contains(html, []byte(`"kind":"population"`)) {
			t.Error("the page does not inline the population trace")
		}
		code, _, errOut = runCLI("view", tr, "--svg", filepath.Join(dir, "x.svg"))
		if code != 2 || !strings.Contains(errOut, "population protocol's run") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("view --svg of a population trace: exit %d, %q", code, errOut)
		}
	}
	code, _, errOut := runCLI("pp", "angluin", "--n", "100", "--trials", "2", "--trace", filepath.Join(dir, "t.jsonl"))
	if code != 2 || !strings.Contains(errOut, "--trace records one trial") {
		t.Errorf("--trace with 2 trials: exit %d, %q", code, errOut)
	}
}
