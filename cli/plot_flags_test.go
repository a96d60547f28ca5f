package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlotFigureFlags: --size, --font-size, --legend, --xlabel, --ylabel
// and --bounds make the figure asked for (its SVG as wide as --size, the
// labels given, no text under 8 pt); a bad value of any is refused with
// one line before any input is read (the sweep named does not exist).
func TestPlotFigureFlags(t *testing.T) {
	dir := t.TempDir()
	lines := filepath.Join(dir, "s.jsonl")
	if code, _, e := runCLI("sweep", "lcr,hs", "--n", "8,16,32", "--trials", "2", "--out", lines); code != 0 {
		t.Fatalf("sweep: %s", e)
	}
	svg := filepath.Join(dir, "f.svg")
	if code, _, e := runCLI("plot", lines, "--out", svg, "--size", "7x3in", "--font-size", "10", "--legend", "right",
		"--xlabel", "ring size n", "--ylabel", "messages sent", "--bounds", "all"); code != 0 {
		t.Fatalf("plot: %s", e)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`width="504pt" height="216pt"`, ">ring size n<", ">messages sent<", "hs ≥ "} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the figure lacks %q", want)
		}
	}
	if strings.Contains(string(data), `font-size="7`) || strings.Contains(string(data), `font-size="6`) {
		t.Error("the figure has text under 8 pt")
	}
	missing := filepath.Join(dir, "missing.jsonl")
	out := filepath.Join(dir, "x.png")
	for _, c := range []badInput{
		{[]string{"plot", missing, "--out", out, "--size", "3.5x2.6"}, `--size "3.5x2.6": no unit; write WxH and a unit (in, cm or pt)`},
		{[]string{"plot", missing, "--out", out, "--size", "3.5 x 2.6in"}, `"3.5 " is not a plain decimal number`},
		{[]string{"plot", missing, "--out", out, "--size", "40x20cm"}, "each side must be 1 to 12 in"},
		{[]string{"plot", missing, "--out", out, "--font-size", "7"}, `--font-size "7": use a number of points from 8 to 36`},
		{[]string{"plot", missing, "--out", out, "--font-size", "nine"}, `--font-size "nine"`},
		{[]string{"plot", missing, "--out", out, "--legend", "inside"}, `--legend "inside": use auto, top-left, top-right, bottom-left, bottom-right, below, right, none`},
		{[]string{"plot", missing, "--out", out, "--bounds", "some"}, `--bounds "some": use all, upper, lower, none`},
		{[]string{"plot", missing, "--out", out, "--xlabel", " "}, "--xlabel is empty"},
	} {
		wantBadInput(t, c.args, c.want)
	}
	// A legend that cannot fit where it is asked to go, and a figure too
	// small for its text, are refused with one line, and nothing written.
	wantBadInput(t, []string{"plot", lines, "--out", out, "--size", "1x1in", "--font-size", "20"}, "leaves no room for the plot")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s written by a refused plot: %v", out, err)
	}
}
