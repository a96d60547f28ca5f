package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestViewSVGAxis: 'view --svg' draws a checker's counterexample on the
// event axis, its violation named; --svg-axis time draws it on the time
// axis; a bad --svg-axis, or one without --svg, is refused with one line.
func TestViewSVGAxis(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join("..", "view", "testdata", "lcr3-equal-ids.jsonl")
	for axis, want := range map[string]string{"": ">#14<", "time": ">end: t = 1<"} {
		out := filepath.Join(dir, "d"+axis+".svg")
		args := []string{"view", trace, "--svg", out}
		if axis != "" {
			args = append(args, "--svg-axis", axis)
		}
		if code, _, e := runCLI(args...); code != 0 {
			t.Fatalf("%v: %s", args, e)
		}
		data, _ := os.ReadFile(out)
		if !strings.Contains(string(data), want) || !strings.Contains(string(data), ">multiple-leaders<") {
			t.Errorf("axis %q: the diagram lacks %q or the violation's name", axis, want)
		}
	}
	wantBadInput(t, []string{"view", trace, "--svg", filepath.Join(dir, "x.svg"), "--svg-axis", "steps"}, `--svg-axis "steps": use time or event`)
	wantBadInput(t, []string{"view", trace, "--out", filepath.Join(dir, "x.html"), "--svg-axis", "event"}, "--svg-axis chooses the axis of --svg's diagram")
}
