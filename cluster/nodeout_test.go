package cluster

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/scenario"
)

// endless is an input that never ends: one byte, again and again; read
// counts what was read of it.
type endless struct {
	b    byte
	read int64
}

func (e *endless) Read(p []byte) (int, error) {
	for k := range p {
		p[k] = e.b
	}
	e.read += int64(len(p))
	return len(p), nil
}

func (e *endless) Close() error { return nil }

// TestResultLineRefusedAtItsFirstBadLine: a node's standard output is one
// JSON object, its result, on one line; anything else is refused at its
// first bad line, the error naming the node and the line and quoting at
// most 200 bytes of it, and an endless line at the limit, after at most
// the limit and a buffer of it. A line cut short is reported as cut (Up
// takes it as no result when the node was killed).
func TestResultLineRefusedAtItsFirstBadLine(t *testing.T) {
	limits := resultLimits(4, 1000)
	long := strings.Repeat("x", 5000)
	for _, c := range []struct {
		name, out, want string
		cut             bool
	}{
		{"garbage", "\n" + long + "\n", `node 2's standard output, line 2, is not a node's result line (invalid character 'x' looking for beginning of value): "` + strings.Repeat("x", 200) + `"…`, false},
		{"null", "null\n", `node 2's standard output, line 1, is not a node's result line (not a JSON object): "null"`, false},
		{"two lines", `{"index":2}` + "\n" + `{"index":3}` + "\n", `node 2's standard output, line 2: a node prints one result line, and this is another: "{\"index\":3}"`, false},
		{"cut", `{"index":2,"deci`, `node 2's standard output, line 1, is not a node's result line (unexpected end of JSON input): "{\"index\":2,\"deci"`, true},
	} {
		out := readResult(io.NopCloser(strings.NewReader(c.out)), 2, limits)
		if out.err == nil || out.err.Error() != c.want || out.cut != c.cut || out.line != nil {
			t.Errorf("%s: %+v, want the error %q (cut %v)", c.name, out, c.want, c.cut)
		}
	}
	in := &endless{b: '7'}
	out := readResult(in, 2, limits)
	var limit *bounded.Error
	if !errors.As(out.err, &limit) || out.err.Error() != "node 2's standard output: line 1 is longer than 96 KiB, the longest line a node's result line may have (is it a node's result line?)" {
		t.Errorf("an endless line: %v", out.err)
	}
	if in.read > int64(limits.MaxLine)+64<<10 {
		t.Errorf("an endless line: %d bytes read for a limit of %d", in.read, limits.MaxLine)
	}
	for _, text := range []string{`{"index":2,"decision":"elected","leader":5}` + "\n\n", `{"index":2,"decision":"elected","leader":5}`} {
		out = readResult(io.NopCloser(strings.NewReader(text)), 2, limits)
		if out.err != nil || out.line == nil || out.line.Index != 2 || out.line.Decision != "elected" || out.line.Leader != 5 {
			t.Errorf("%q: %+v", text, out)
		}
	}
	if out = readResult(io.NopCloser(strings.NewReader("")), 2, limits); out.err != nil || out.line != nil {
		t.Errorf("no output: %+v, want no line and no error", out)
	}
}

// TestUpRefusesANodesBadOutput runs nodes as real processes that print
// garbage, or an endless line, instead of their result: Up refuses the
// run in one line, naming the first node and its line, with the excerpt
// cut, and how many other nodes' output it refused.
func TestUpRefusesANodesBadOutput(t *testing.T) {
	dir, _ := initCluster(t, scenario.Spec{Algorithm: "lcr", N: 2, Seed: 1})
	long := strings.Repeat("y", 1000)
	for _, c := range []struct {
		script string
		want   string
	}{
		{"echo '" + long + "'", `node 0's standard output, line 1, is not a node's result line (invalid character 'y' looking for beginning of value): "` + strings.Repeat("y", 200) + `"…`},
		// tr ends on the broken pipe Up leaves it once it refused the line.
		{"exec tr '\\0' z < /dev/zero", "node 0's standard output: line 1 is longer than "},
	} {
		rec, _, err := Up(context.Background(), dir, UpOptions{Command: []string{"sh", "-c", c.script, "sh"}})
		if err == nil || rec != nil {
			t.Fatalf("%s: %v %v, want an error", c.script, rec, err)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, c.want) || !strings.HasSuffix(msg, " (and node 1's output too)") || strings.Contains(msg, "\n") || len(msg) > 400 {
			t.Errorf("%s: %q, want a line starting %q", c.script, err, c.want)
		}
	}
}

// traceHeader is a node's trace header of LCR on 2 nodes.
const traceHeader = `{"ev":"header","format":"elect-trace","version":2,"algorithm":"lcr","n":2,"seed":1,"topology":{"kind":"ring","name":"ring"},"ids":[1,0],"delivery":"fifo","time":"causal depth","runtime":"cluster","announce":false,"messages":[{"name":"election","fields":["j"]},{"name":"leader","fields":["j"]}]}` + "\n"

// writeTraces writes the nodes' traces into a directory, as Up's nodes do.
func writeTraces(t *testing.T, traces ...string) string {
	t.Helper()
	dir := t.TempDir()
	for i, text := range traces {
		if err := os.WriteFile(filepath.Join(dir, NodeName(i)+".jsonl"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestMergeTracesRefusesABadLine: the nodes' traces merge in Lamport
// order; a line that is not a trace event is refused (it was skipped),
// the error naming the node and the line with the excerpt cut, as is a
// time that is not a Lamport time and a line past the trace's limit. A
// killed node's last line cut short is left out, a node that exited on
// its own has none.
func TestMergeTracesRefusesABadLine(t *testing.T) {
	node0 := traceHeader + `{"t":0,"ev":"wake","node":0,"spontaneous":true}` + "\n" +
		`{"t":1,"ev":"send","from":0,"to":1,"port":"left","type":"election","payload":{"j":1}}` + "\n"
	node1 := traceHeader + `{"t":0,"ev":"wake","node":1,"spontaneous":true}` + "\n" +
		`{"t":2,"ev":"deliver","from":0,"to":1,"port":"right","type":"election","payload":{"j":1}}` + "\n"
	merged := filepath.Join(t.TempDir(), "merged.jsonl")
	if err := mergeTraces(writeTraces(t, node0, node1), 2, merged, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(merged)
	want := traceHeader + `{"t":0,"ev":"wake","node":0,"spontaneous":true}` + "\n" +
		`{"t":0,"ev":"wake","node":1,"spontaneous":true}` + "\n" +
		`{"t":1,"ev":"send","from":0,"to":1,"port":"left","type":"election","payload":{"j":1}}` + "\n" +
		`{"t":2,"ev":"deliver","from":0,"to":1,"port":"right","type":"election","payload":{"j":1}}` + "\n"
	if string(got) != want {
		t.Errorf("merged:\n%s\nwant\n%s", got, want)
	}

	cut := `{"t":3,"ev":"dec` // a kill in the middle of a line
	for _, killed := range [][]bool{nil, {false, true}} {
		err := mergeTraces(writeTraces(t, node0, node1+cut), 2, merged, killed)
		if killed == nil {
			// The trace reader refuses a last line without its line break
			// (internal/bounded's rule for a writer killed mid-line).
			if err == nil || !strings.HasPrefix(err.Error(), `node 1's trace: line 4, the last, was cut short`) {
				t.Errorf("a cut line of a node that was not killed: %v", err)
			}
		} else if err != nil {
			t.Errorf("a cut line of a killed node: %v", err)
		} else if got, _ := os.ReadFile(merged); string(got) != want {
			t.Errorf("a cut line of a killed node: merged\n%s", got)
		}
	}

	garbage := strings.Repeat("\x01", 5000) + "\n"
	huge := `{"t":` + strings.Repeat("9", 5000) + `,"ev":"wake","node":1}` + "\n"
	for _, c := range []struct{ node1, want string }{
		{node1 + garbage + node1, `node 1's trace: line 4: not a trace event: invalid character '\x01' looking for beginning of value`},
		{traceHeader + huge, `node 1's trace: line 2: time "` + strings.Repeat("9", 200) + `"… is not a number`},
		{traceHeader + `{"t":1.5,"ev":"wake","node":1}` + "\n", `node 1's trace: line 2: time "1.5" is not a Lamport time (a whole number)`},
		{strings.Repeat("garbage", 1000), `node 1's trace: line 1 is not a JSON object: invalid character 'g' looking for beginning of value`},
		{traceHeader + strings.Repeat("z", 16<<20+1), "node 1's trace: line 2 is longer than 16 MiB, the longest line a trace may have (is it a trace?)"},
	} {
		err := mergeTraces(writeTraces(t, node0, c.node1), 2, merged, nil)
		if err == nil || err.Error() != c.want {
			t.Errorf("%.40q: %.400v, want %q", c.node1, err, c.want)
		}
	}
}

// FuzzReadResult: whatever a node prints, readResult returns a result or
// an error of one line whose excerpts are cut, never both, and never
// panics.
func FuzzReadResult(f *testing.F) {
	f.Add(`{"index":2,"decision":"elected","leader":5}` + "\n")
	f.Add("null\n")
	f.Add(`{"index":1}` + "\n" + `{"index":1}`)
	f.Add(`{"sent_by_port":[1,2,` + strings.Repeat("3", 300) + `]}`)
	f.Add("\xff\x00garbage\n\n")
	f.Fuzz(func(t *testing.T, text string) {
		out := readResult(io.NopCloser(strings.NewReader(text)), 1, resultLimits(2, 100))
		if out.err != nil && out.line != nil {
			t.Errorf("both a line and an error: %v", out.err)
		}
		if out.err != nil && (strings.Contains(out.err.Error(), "\n") || len(out.err.Error()) > 2*bounded.MaxExcerpt+300) {
			t.Errorf("an error of %d bytes, or of more than a line: %q", len(out.err.Error()), out.err)
		}
	})
}
