package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestHelpCommand: 'elect help CMD' is 'elect CMD --help' (the command's
// usage, exit 0), and help for something that is not a command is bad input:
// one line naming the commands, with the nearest as a suggestion, exit 2.
func TestHelpCommand(t *testing.T) {
	code, out, _ := runCLI("help", "run")
	if code != 0 || !strings.HasPrefix(out, "usage: elect run ALGORITHM") {
		t.Errorf("help run: exit %d, output %q; want run's usage and exit 0", code, firstLine(out))
	}
	code, out, errOut := runCLI("help", "rn")
	if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, `did you mean "run"`) {
		t.Errorf("help rn: exit %d, stdout %q, stderr %q; want exit 2 and one line suggesting run", code, out, errOut)
	}
}

// TestVersion: --version prints one line naming the build.
func TestVersion(t *testing.T) {
	code, out, _ := runCLI("--version")
	if code != 0 || !strings.HasPrefix(out, "elect ") || strings.Count(out, "\n") != 1 {
		t.Errorf("--version: exit %d, output %q; want one line starting with elect", code, out)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestBadOutputsAndMeasures: a plot into a directory that does not exist, a
// summary of a measure no run has, and a "sweep output" with no line breaks
// are bad input (exit 2, one line saying what is wrong), not an empty
// table, a failure at the end or a read that never ends.
func TestBadOutputsAndMeasures(t *testing.T) {
	sweep := t.TempDir() + "/s.jsonl"
	if code, _, errOut := runCLI("sweep", "lcr", "--n", "8", "--trials", "2", "--out", sweep); code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errOut)
	}
	for _, c := range []badInput{
		{[]string{"plot", sweep, "--out", "/nonexistent-dir/x.png"}, "does not exist"},
		{[]string{"sweep", "lcr", "--n", "8", "--trials", "2", "--measure", "mesages", "--summary"}, `did you mean "messages"`},
		// A file without line breaks is refused at the line limit, not read
		// forever, and the error names the file and the line.
		{[]string{"merge", "/dev/zero"}, "/dev/zero: holds a run of more than 16 MiB of NUL bytes: this is not a sweep's output"},
		{[]string{"plot", "/dev/zero", "--out", t.TempDir() + "/x.png"}, "/dev/zero: holds a run of more than 16 MiB of NUL bytes: this is not a sweep's output"},
	} {
		wantBadInput(t, c.args, c.want)
	}
}

// TestPPListJSONAndExplicitM: 'elect pp list --json' is JSON (one array, a
// record per protocol), and '--m 0' is refused rather than read as "the
// default".
func TestPPListJSONAndExplicitM(t *testing.T) {
	code, out, _ := runCLI("pp", "list", "--json")
	var list []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) < 6 || list[0].Name != "angluin" {
		t.Errorf("pp list --json: exit %d, %d records (%v); want a JSON array of the protocols", code, len(list), err)
	}
	code, _, errOut := runCLI("pp", "pll", "--n", "100", "--m", "0")
	if code != 2 || !strings.Contains(errOut, "--m must be at least 1") {
		t.Errorf("pp pll --m 0: exit %d, stderr %q; want exit 2", code, errOut)
	}
}

// TestListingsCiteTheSeeds: no listing prints a seed's key ("seed 001")
// where a reader looks for a reference: not the text of 'elect list', 'elect
// pp list' and 'elect reproduce --list', nor the "cited" fields of their
// JSON, which keep the keys in "source" for programs.
func TestListingsCiteTheSeeds(t *testing.T) {
	for _, args := range [][]string{{"list"}, {"pp", "list"}, {"reproduce", "--list"}} {
		code, out, _ := runCLI(args...)
		if i := strings.Index(out, "seed 00"); code != 0 || i >= 0 {
			t.Errorf("elect %s: exit %d, a seed key at byte %d: %.80q", strings.Join(args, " "), code, i, out[max(i, 0):])
		}
	}
	_, out, _ := runCLI("list", "--json")
	var keys, cited int
	for line := range strings.Lines(out) {
		var a struct {
			Source, Cited string
			Bounds        []struct{ Source, Cited string }
		}
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("list --json: %v in %q", err, line)
		}
		pairs := append([]struct{ Source, Cited string }{{a.Source, a.Cited}}, a.Bounds...)
		for _, p := range pairs {
			if strings.Contains(p.Source, "seed 00") {
				keys++
			}
			if p.Cited == "" || strings.Contains(p.Cited, "seed 00") {
				t.Errorf("list --json: source %q cited as %q", p.Source, p.Cited)
			}
			cited++
		}
	}
	if keys == 0 || cited < 50 {
		t.Errorf("list --json: %d sources, %d with seed keys; want the catalog's, with keys kept in source", cited, keys)
	}
	_, out, _ = runCLI("pp", "list", "--json")
	var pps []struct{ Source, Cited string }
	if err := json.Unmarshal([]byte(out), &pps); err != nil || len(pps) == 0 {
		t.Fatalf("pp list --json: %v", err)
	}
	for _, p := range pps {
		if p.Cited == "" || strings.Contains(p.Cited, "seed 00") {
			t.Errorf("pp list --json: source %q cited as %q", p.Source, p.Cited)
		}
	}
}

// TestSizes: --n takes 1000, 1e3, 10^3 and 2^10; anything else that is not
// a whole number is refused with what is allowed, exit 2.
func TestSizes(t *testing.T) {
	for in, want := range map[string]int64{"1000": 1000, "1e3": 1000, "10^3": 1000, "2^10": 1024, "1E9": 1_000_000_000, "2^62": 1 << 62} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"1.5", "1.5e0", "2^x", "e6", "2^64", "-2^3", ""} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
	code, _, errOut := runCLI("run", "lcr", "--n", "1.5e0")
	if code != 2 || !strings.Contains(errOut, "write it as 1000000, 1e6 or 2^20") {
		t.Errorf("run --n 1.5e0: exit %d, stderr %q; want exit 2 saying how to write a size", code, errOut)
	}
}

// TestFlagSuggestions (issue 21): a misspelt flag is bad input that names
// the nearest flag; with no flag near, the line says where the flags are.
func TestFlagSuggestions(t *testing.T) {
	for _, c := range []badInput{
		{[]string{"run", "lcr", "--topolgy", "ring"}, "run: flag provided but not defined: -topolgy (did you mean --topology?)"},
		{[]string{"pp", "angluin", "--tirals", "3"}, "(did you mean --trials?)"},
		{[]string{"sweep", "lcr", "--xyzzy", "3"}, "-xyzzy; 'elect sweep --help' lists its flags"},
		{[]string{"bench", "lcr", "--tirals", "3"}, "(did you mean --trials? it is not a bench flag"},
	} {
		wantBadInput(t, c.args, c.want)
	}
}

// TestBenchFlags (issue 21): bench refuses, by name and with the reason,
// the sweep flags that mean nothing to it, and --out writes its lines to
// the file.
func TestBenchFlags(t *testing.T) {
	for _, name := range []string{"csv", "summary", "measure", "fit", "shard", "trials", "workers"} {
		code, _, errOut := runCLI("bench", "lcr", "--n", "8", "--"+name, "1")
		if code != 2 || !strings.HasPrefix(errOut, "elect: bench: --"+name+" is not a bench flag: ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("--%s: exit %d, stderr %q", name, code, errOut)
		}
	}
	out := t.TempDir() + "/bench.txt"
	code, stdout, errOut := runCLI("bench", "lcr", "--n", "8", "--benchtime", "1ms", "--out", out)
	data, err := os.ReadFile(out)
	if code != 0 || stdout != "" || err != nil || !strings.Contains(string(data), "BenchmarkElect/alg=lcr/n=8-") {
		t.Errorf("--out: exit %d, stdout %q, stderr %q, file %q (%v)", code, stdout, errOut, data, err)
	}
}

// TestNumberFlags (issue 21): every integer flag takes 1e3 and 2^10 as
// --n does, and a value a flag cannot take is named with what it takes,
// not the flag package's "parse error".
func TestNumberFlags(t *testing.T) {
	code, out, _ := runCLI("run", "lcr", "--n", "8", "--trials", "1e1", "--max-events=2^20")
	if code != 0 || !strings.Contains(out, "10 trials") {
		t.Errorf("--trials 1e1: exit %d\n%s", code, out)
	}
	for _, c := range []badInput{
		{[]string{"run", "lcr", "--seed", "x"}, `run: --seed: "x" is not a whole number: write it as 1000000, 1e6 or 2^20`},
		{[]string{"sweep", "lcr", "--trials=1e2x"}, `sweep: --trials: "1e2x" is not a whole number`},
		{[]string{"run", "lcr", "--trials", "2^70"}, "run: --trials: 2^70 is larger than"},
		{[]string{"run", "lcr", "--announce=maybe"}, `run: --announce takes no value (or =true, =false), not "maybe"`},
		{[]string{"run", "lcr", "--time-limit", "5"}, `run: --time-limit: "5" is not a duration: write it as 30s, 5m or 1h30m`},
		{[]string{"pp", "approx-majority", "--fraction-a", "x"}, `pp: --fraction-a: "x" is not a number`},
	} {
		if errOut := wantBadInput(t, c.args, c.want); strings.Contains(errOut, "parse error") {
			t.Errorf("%v: stderr %q says the flag package's \"parse error\"", c.args, errOut)
		}
	}
}
