package cli

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readerCases are the commands that read a trace, a sweep's output, a
// record, an edge list, a protocol file or a cluster description: {in} is
// the input they read (the FIFO {dir}/in, or {dir}/in.yaml for a protocol
// file, {dir}/cluster.json for a cluster's directory {dir}), {out} a path
// to write; random and endless are what the refusal of random bytes and of
// an endless number says ("" for a command that refuses a pipe without
// reading it).
var readerCases = []struct {
	args            []string
	input           string
	random, endless string
}{
	{[]string{"view", "{in}", "--out", "{out}.html"}, "in", "line 1 is not a JSON object", "{in}: line 1 is longer than 16 MiB"},
	{[]string{"view", "{in}", "--svg", "{out}.svg"}, "in", "line 1 is not a JSON object", "{in}: line 1 is longer than 16 MiB"},
	{[]string{"view", "{in}", "--shiviz", "{out}.log"}, "in", "line 1 is not a JSON object", "{in}: line 1 is longer than 16 MiB"},
	{[]string{"view", "{in}"}, "in", "line 1 is not a JSON object", "{in}: line 1 is longer than 16 MiB"},
	{[]string{"merge", "{in}"}, "in", "{in}:1: ", "{in}: line 1 is longer than 16 MiB"},
	{[]string{"plot", "{in}", "--out", "{out}.png"}, "in", "{in}:1: not a JSON record", "{in}: line 1 is longer than 16 MiB"},
	{[]string{"run", "lcr", "--n", "4", "--replay", "{in}"}, "in", "line 1 is not a JSON object", "{in}: line 1 is longer than 16 MiB"},
	{[]string{"run", "lcr", "--topology", "file:{in}"}, "in", "line 1: want an edge", "line 1 is longer than 1 MiB"},
	{[]string{"sweep", "lcr", "--n", "4", "--resume", "{in}"}, "in", "", ""},
	{[]string{"pp", "{in}", "--n", "10"}, "in.yaml", "", ""},
	{[]string{"cluster", "up", "{dir}"}, "cluster.json", "not a cluster description", "cluster.json: line 1 is longer than 1 MiB"},
}

// TestEveryReaderRefusesAnEndlessPipeOfGarbage (issue 42, Inputs): 'elect
// view' and 'elect merge' of a pipe of random bytes read up to 4 GiB
// before they parsed line 1. Every reader, run as elect is, now parses a
// line before it reads the next: fed a FIFO whose writer never stops
// (random bytes, or one endless JSON number), it exits 2 with one short
// line (any excerpt cut), at its first line or at the line limit, with a
// peak RSS under 100 MB. The time limit only keeps a hang from stalling
// the suite.
func TestEveryReaderRefusesAnEndlessPipeOfGarbage(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	random := make([]byte, 64<<10)
	rng := rand.New(rand.NewPCG(42, 42))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	endless := bytes.Repeat([]byte("1"), 64<<10)
	for _, c := range readerCases {
		for _, g := range []struct {
			name  string
			chunk []byte
			want  string
		}{{"random bytes", random, c.random}, {"an endless number", endless, c.endless}} {
			dir := t.TempDir()
			in := filepath.Join(dir, c.input)
			if err := syscall.Mkfifo(in, 0o600); err != nil {
				t.Skipf("no FIFO: %v", err)
			}
			fill := strings.NewReplacer("{in}", in, "{out}", filepath.Join(dir, "out"), "{dir}", dir)
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = fill.Replace(a)
			}
			line, rss := refusalOfAnEndlessPipe(t, self, args, in, g.chunk)
			t.Logf("%v, %s: peak RSS %d MB: %.150s", args, g.name, rss>>20, line)
			want := fill.Replace(g.want)
			switch {
			case line == "":
				// refusalOfAnEndlessPipe said what went wrong
			case !strings.Contains(line, want) || len(strings.ReplaceAll(line, in, "IN")) > 300:
				t.Errorf("%v, %s: %q (%d bytes); want one line of at most 300 bytes and the path with %q", args, g.name, line, len(line), want)
			case rss >= 100<<20:
				t.Errorf("%v, %s: peak RSS %d MB, want under 100 MB", args, g.name, rss>>20)
			}
		}
	}
}

// refusalOfAnEndlessPipe runs elect with args while a writer writes chunk
// to the FIFO in for as long as the command runs, and returns the line the
// command printed on standard error and its peak RSS in bytes; "" when it
// did not exit 2 with one line and nothing on standard output (it says
// so).
func refusalOfAnEndlessPipe(t *testing.T, self string, args []string, in string, chunk []byte) (string, int64) {
	t.Helper()
	stop := make(chan struct{})
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		f, err := os.OpenFile(in, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := f.Write(chunk); err != nil {
				return // the reader is gone (EPIPE)
			}
		}
	}()
	defer func() {
		close(stop)
		// A writer still waiting for a reader to open the FIFO is let go.
		if r, err := os.OpenFile(in, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close()
		}
		<-wrote
	}()
	peak := filepath.Join(t.TempDir(), "peak-rss")
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), "ELECT_CLI_AS_MAIN=1", "ELECT_TEST_PEAK_RSS="+peak)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Errorf("%v: still reading the pipe after 2 minutes", args)
		return "", 0
	}
	var exit *exec.ExitError
	line := strings.TrimSuffix(stderr.String(), "\n")
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || stdout.Len() > 0 || line == "" || strings.Contains(line, "\n") {
		t.Errorf("%v: %v, stdout %q, stderr %.600q; want exit 2 and one line", args, err, stdout.String(), stderr.String())
		return "", 0
	}
	rss, err := os.ReadFile(peak)
	kib, _ := strconv.ParseInt(string(rss), 10, 64)
	if err != nil || kib <= 0 {
		// Without /proc: the child's own maximum, which on Linux starts
		// at the test process's (os/exec's vfork shares its memory until
		// the exec), so it can only be larger than the child's peak.
		kib = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	}
	return line, kib << 10
}

// writePeakRSS writes the process's peak resident set size in KiB
// (VmHWM, /proc/self/status) to the file path, when path is set: the
// command's own peak, for TestEveryReaderRefusesAnEndlessPipeOfGarbage.
// (The rusage of a child that os/exec started counts the parent's peak
// too: the child shares the parent's memory until its exec.)
func writePeakRSS(path string) {
	if path == "" {
		return
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			os.WriteFile(path, []byte(strings.TrimSuffix(strings.TrimSpace(v), " kB")), 0o644)
		}
	}
}

// TestEveryReaderCutsAHugeNumberInItsError (issue 42): an error line
// echoed a 5 MB JSON number whole; each reader now quotes at most 200
// bytes of it, with an ellipsis.
func TestEveryReaderCutsAHugeNumberInItsError(t *testing.T) {
	dir := t.TempDir()
	number := strings.Repeat("1", 5_000_000)
	header := `{"ev":"header","format":"elect-trace","version":2,"algorithm":"lcr","n":4,"seed":1,"topology":{"kind":"ring","name":"ring"},"ids":[2,3,0,1],"delivery":"fifo","time":"time units","runtime":"sim","announce":false,"messages":[{"name":"election","fields":["j"]},{"name":"leader","fields":["j"]}]}`
	files := map[string]string{
		"trace.jsonl": header + "\n" + `{"t":0,"ev":"wake","node":` + number + "}\n",
		"sweep.jsonl": `{"algorithm":"lcr","n":` + number + "}\n",
		// An edge list's lines are limited to 1 MiB.
		"edges.txt": "0 " + number[:500_000] + "\n",
	}
	// A sweep's own line, its "n" made huge: --resume checks the line's
	// grid before it reads the record.
	code, line, errOut := runCLI("sweep", "lcr", "--n", "4", "--trials", "1")
	if code != 0 || !strings.Contains(line, `"n":4,`) {
		t.Fatalf("sweep: exit %d, %q, %s", code, line, errOut)
	}
	files["resume.jsonl"] = strings.Replace(line, `"n":4,`, `"n":`+number+`,`, 1)
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := func(name string) string { return filepath.Join(dir, name) }
	for _, args := range [][]string{
		{"view", at("trace.jsonl"), "--out", at("out.html")},
		{"view", at("trace.jsonl")},
		{"run", "lcr", "--n", "4", "--replay", at("trace.jsonl")},
		{"merge", at("sweep.jsonl")},
		{"plot", at("sweep.jsonl"), "--out", at("out.png")},
		{"sweep", "lcr", "--n", "4", "--trials", "1", "--resume", at("resume.jsonl")},
		{"run", "lcr", "--topology", "file:" + at("edges.txt")},
	} {
		code, out, errOut := runCLI(args...)
		line := strings.ReplaceAll(strings.TrimSuffix(errOut, "\n"), dir, "DIR")
		if code != 2 || out != "" || strings.Contains(line, "\n") || !strings.Contains(line, strings.Repeat("1", 200)) || !strings.Contains(line, "…") || strings.Contains(line, strings.Repeat("1", 201)) || len(line) > 400 {
			t.Errorf("%v: exit %d, stdout %q, stderr (%d bytes) %.500q; want exit 2 and one line quoting 200 bytes of the number", args, code, out, len(errOut), errOut)
		}
	}
}
