package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electkit/elect/experiment/claims"
)

// TestReproduceQuickPasses: 'elect reproduce --quick' checks every available
// claim (exact, bound, statistical and asymptotic rules) and none fails;
// each writes its table and figures. The population reproductions are
// skipped under -short.
func TestReproduceQuickPasses(t *testing.T) {
	dir := t.TempDir()
	args := []string{"reproduce", "--quick", "--out", dir}
	if testing.Short() {
		for _, r := range claims.All() {
			if !strings.HasPrefix(r.Name, "seed0") && r.Name != "angluin" {
				args = append(args, r.Name)
			}
		}
	}
	code, out, errOut := runCLI(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	if strings.Contains(out, "FAIL") {
		t.Fatalf("a claim failed:\n%s", out)
	}
	if !testing.Short() {
		readmeClaimsAgree(t, out) // every reproduction ran: the README counts them and their claims
	}
	for _, name := range []string{"chang-roberts", "lcr", "time-slice"} {
		for _, ext := range []string{".md", ".png", ".svg"} {
			if _, err := os.Stat(filepath.Join(dir, name+ext)); err != nil {
				t.Errorf("missing %s%s: %v", name, ext, err)
			}
		}
	}
	// A reproduction's other files (the traces of Burns' construction).
	if _, err := os.Stat(filepath.Join(dir, "burns-lcr.jsonl")); err != nil {
		t.Errorf("missing burns' trace: %v", err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "chang-roberts.md"))
	if !strings.Contains(string(md), "elect reproduce chang-roberts --quick --out") || !strings.Contains(string(md), "| n(n+1)/2 |") {
		t.Errorf("chang-roberts.md lacks its command or the worst-case row:\n%s", md)
	}
}

// TestReproduceListAndBadInput: --list names every reproduction; unknown
// names are refused with one line and exit 2.
func TestReproduceListAndBadInput(t *testing.T) {
	code, out, _ := runCLI("reproduce", "--list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, name := range claims.Names() {
		if !strings.Contains(out, name) {
			t.Errorf("--list lacks %s", name)
		}
	}
	for _, c := range []badInput{
		{[]string{"reproduce", "chang-robert"}, `(did you mean "chang-roberts"?)`},
		{[]string{"reproduce", "--list", "lcr"}, "--list takes no names"},
		{[]string{"reproduce", "--workers", "0"}, "--workers must be between"},
		{[]string{"plot"}, "no sweep output given"},
		{[]string{"plot", "x.jsonl"}, "--out is required"},
		{[]string{"plot", "x.jsonl", "--out", "x.gif"}, "use a .png, .svg or .pdf"},
		{[]string{"plot", "missing.jsonl", "--out", "x.png"}, "cannot read"},
		{[]string{"plot", "x.jsonl", "--out", "x.png", "--curves", "n^3"}, "unknown curve"},
	} {
		wantBadInput(t, c.args, c.want)
	}
}

// TestPlotFromSweepOutput: a sweep's lines plot to PNG and SVG.
func TestPlotFromSweepOutput(t *testing.T) {
	dir := t.TempDir()
	lines := filepath.Join(dir, "s.jsonl")
	if code, _, e := runCLI("sweep", "lcr,hs", "--n", "8..64x2", "--trials", "3", "--out", lines); code != 0 {
		t.Fatalf("sweep: %s", e)
	}
	png, svg := filepath.Join(dir, "f.png"), filepath.Join(dir, "f.svg")
	if code, _, e := runCLI("plot", lines, "--out", png+","+svg, "--measure", "messages"); code != 0 {
		t.Fatalf("plot: %s", e)
	}
	for _, f := range []string{png, svg} {
		if st, err := os.Stat(f); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if code, _, e := runCLI("plot", lines, "--out", png, "--measure", "nothing"); code != 2 || !strings.Contains(e, `--measure nothing: no record of lcr has it`) {
		t.Errorf("unknown measure: exit %d, %q", code, e)
	}
	if code, _, e := runCLI("plot", lines, "--out", png+","+svg+","+png); code != 2 || !strings.Contains(e, "--out names "+png+" twice") {
		t.Errorf("an output named twice: exit %d, %q", code, e)
	}
	// A Greek title is drawn in every format, the PDF's font embedded; a
	// character the figures' font lacks is refused before any file is
	// written.
	png2, pdf := filepath.Join(dir, "g.png"), filepath.Join(dir, "g.pdf")
	if code, _, e := runCLI("plot", lines, "--out", png2+","+pdf, "--title", "Θ(n log n)"); code != 0 {
		t.Errorf("Greek title in a PDF: exit %d, %q", code, e)
	}
	png3, pdf3 := filepath.Join(dir, "h.png"), filepath.Join(dir, "h.pdf")
	if code, _, e := runCLI("plot", lines, "--out", png3+","+pdf3, "--title", "8n⌈lg n⌉"); code != 2 || !strings.Contains(e, `has no "⌈", "⌉"`) {
		t.Errorf("ceiling brackets in a title: exit %d, %q", code, e)
	}
	for _, f := range []string{png3, pdf3} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s written by a refused plot: %v", f, err)
		}
	}
}

// TestBenchPrintsGoBenchmarkLines: 'elect bench' prints the header and one
// BenchmarkElect line per algorithm and size, in the format benchstat reads.
func TestBenchPrintsGoBenchmarkLines(t *testing.T) {
	code, out, e := runCLI("bench", "hs,pp:angluin", "--n", "16,32", "--benchtime", "1ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3+4 || lines[0] != "goos: linux" && !strings.HasPrefix(lines[0], "goos: ") {
		t.Fatalf("output:\n%s", out)
	}
	for _, want := range []string{"BenchmarkElect/alg=hs/n=16-", "BenchmarkElect/pp=angluin/n=32-"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q line:\n%s", want, out)
		}
	}
	for _, l := range lines[3:] {
		f := strings.Fields(l)
		if len(f) < 4 || len(f)%2 != 0 || f[3] != "ns/op" {
			t.Errorf("not a benchmark line: %q", l)
		}
	}
}
