package cmdio

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/electkit/elect/internal/bounded"
)

// TestDistinctSeesTheSameFileUnderEveryName: two outputs, or an output
// and an input, are the same file when their cleaned absolute paths are
// equal, or when they exist and are one inode (a hard link, a symbolic
// link); different files pass, and "" and "-" are not files.
func TestDistinctSeesTheSameFileUnderEveryName(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("a", []byte("a\n"), 0o644)
	os.WriteFile("b", []byte("b\n"), 0o644)
	os.Link("a", "hard")
	os.Symlink(filepath.Join(dir, "a"), "soft")
	os.Mkdir("sub", 0o755)
	p := func(name string) Path { return Path{Flag: "--x", Name: name} }
	for _, c := range []struct {
		inputs, outputs []Path
		want            string // "" when accepted
	}{
		{nil, []Path{p("a"), p("b"), p("c"), p(""), p(""), p("-"), p("-")}, ""},
		{nil, []Path{p("c"), p("./sub/../c")}, "--x c and --x ./sub/../c are the same file"},
		{nil, []Path{p("c"), p(filepath.Join(dir, "c"))}, "are the same file"},
		{nil, []Path{p("a"), p("hard")}, "are the same file"},
		{nil, []Path{p("soft"), p("a")}, "are the same file"},
		{[]Path{p("a")}, []Path{p("b")}, ""},
		{[]Path{p("a")}, []Path{p("b"), p("hard")}, "--x hard is the input --x a"},
		{[]Path{p("-")}, []Path{p("-")}, ""},
		{[]Path{p("missing")}, []Path{p("./missing")}, "is the input"},
	} {
		err := Distinct(c.inputs, c.outputs)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v -> %v: refused: %v", c.inputs, c.outputs, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !IsRefusal(err)):
			t.Errorf("%v -> %v: %v, want a refusal with %q", c.inputs, c.outputs, err, c.want)
		}
	}
}

// TestStreamWritesWholeLinesAtOnce: every completed line is in the file as
// soon as Write returns, a line without its break is not, and Close adds
// it.
func TestStreamWritesWholeLinesAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	s, err := CreateStream(path, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ write, file string }{
		{"{\"a\":1}\n", "{\"a\":1}\n"},
		{"{\"b\":", "{\"a\":1}\n"},
		{"2}\n{\"c\"", "{\"a\":1}\n{\"b\":2}\n"},
		{":3}", "{\"a\":1}\n{\"b\":2}\n"},
	} {
		if n, err := s.Write([]byte(c.write)); n != len(c.write) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", c.write, n, err)
		}
		if got := records(t, path); got != c.file {
			t.Fatalf("after Write(%q) the file holds %.100q, want %q", c.write, got, c.file)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "{\"a\":1}\n{\"b\":2}\n{\"c\":3}" {
		t.Fatalf("after Close the file holds %q", got)
	}
}

// records is what a file holds before its unwritten end: the run of NUL
// bytes that ends it (a mapped window's rest, which Close cuts off), which
// must be NUL bytes only.
func records(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimRight(data, "\x00"))
}

// TestStreamSurvivesSIGKILL: a process that writes records to a stream and
// is killed by SIGKILL, with no chance to flush or cut anything, leaves
// every record whose Write had returned, then only NUL bytes (the window's
// unwritten end, which readers drop: internal/bounded).
func TestStreamSurvivesSIGKILL(t *testing.T) {
	if os.Getenv("ELECT_STREAM_CHILD") != "" {
		s, err := CreateStream(os.Getenv("ELECT_STREAM_CHILD"), "")
		if err != nil {
			os.Exit(3)
		}
		for i := 0; ; i++ {
			fmt.Fprintf(s, "{\"record\":%d}\n", i)
			if i == 5000 {
				os.Stdout.WriteString("5000 written\n")
			}
		}
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestStreamSurvivesSIGKILL$")
	cmd.Env = append(os.Environ(), "ELECT_STREAM_CHILD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "5000 written\n" {
		cmd.Process.Kill()
		t.Fatalf("the writer said %q, %v", line, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	data, _ := os.ReadFile(path)
	kept := bytes.TrimRight(data, "\x00")
	whole := kept[:bytes.LastIndexByte(kept, '\n')+1]
	lines := strings.Split(string(whole), "\n")
	lines = lines[:len(lines)-1]
	if len(lines) <= 5000 {
		t.Fatalf("%d records kept, want more than the 5000 the writer had reported", len(lines))
	}
	for i, l := range lines {
		if want := fmt.Sprintf("{\"record\":%d}", i); l != want {
			t.Fatalf("record %d is %q, want %q", i, l, want)
		}
	}
	if cut := kept[len(whole):]; !strings.HasPrefix(fmt.Sprintf("{\"record\":%d}", len(lines)), string(cut)) {
		t.Fatalf("after the whole records: %q, want the start of the next at most", cut)
	}
	if tail := len(data) - len(kept); tail > bounded.MaxUnwritten {
		t.Fatalf("an unwritten end of %d bytes, more than bounded.MaxUnwritten", tail)
	}
}

// TestStreamCutToItsRecords: Close and Discard leave the file holding
// exactly its records (no unwritten end), across windows, and a resumed
// stream cuts a killed stream's unwritten end off before it appends.
func TestStreamCutToItsRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	s, err := CreateStream(path, "")
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	for i := range 200000 { // about 3 MiB: several windows
		fmt.Fprintf(io.MultiWriter(s, &want), "{\"record\":%d}\n", i)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("after Close the file has %d bytes, want its %d bytes of records", len(got), want.Len())
	}
	// A killed stream's file: records, then its window's unwritten end.
	os.WriteFile(path, append([]byte("{\"a\":1}\n"), make([]byte, 300000)...), 0o644)
	s, err = ResumeStream(path, 8)
	if err != nil {
		t.Fatal(err)
	}
	s.Write([]byte("{\"b\":2}\n"))
	s.Discard()
	if got, _ := os.ReadFile(path); string(got) != "{\"a\":1}\n{\"b\":2}\n" {
		t.Fatalf("the resumed file holds %.60q (%d bytes)", got, len(got))
	}
}

// TestCreateStreamNeverReplacesAFile: a new stream refuses a file with
// anything in it (saying how to continue it) and a device, takes an empty
// file as it is, and a stream that failed before its first record removes
// only the file it made.
func TestCreateStreamNeverReplacesAFile(t *testing.T) {
	dir := t.TempDir()
	kept := filepath.Join(dir, "kept")
	os.WriteFile(kept, []byte("precious\n"), 0o644)
	_, err := CreateStream(kept, "--resume kept")
	if err == nil || !strings.Contains(err.Error(), "exists; elect never replaces a file it is not continuing: --resume kept, remove it or name another file") {
		t.Fatalf("CreateStream of a file that holds something: %v", err)
	}
	if got, _ := os.ReadFile(kept); string(got) != "precious\n" {
		t.Fatalf("the file now holds %q", got)
	}
	if _, err := os.Stat("/dev/null"); err == nil {
		if _, err := CreateStream("/dev/null", ""); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("CreateStream(/dev/null): %v", err)
		}
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o644)
	s, err := CreateStream(empty, "")
	if err != nil {
		t.Fatal(err)
	}
	s.Write([]byte("x\n"))
	s.Close()
	if got, _ := os.ReadFile(empty); string(got) != "x\n" {
		t.Fatalf("the empty file now holds %q", got)
	}
	fresh := filepath.Join(dir, "fresh")
	s, err = CreateStream(fresh, "")
	if err != nil {
		t.Fatal(err)
	}
	s.Discard()
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a stream discarded before its first record left its file: %v", err)
	}
}

// TestResumeStreamDropsOnlyTheCutLine: a resumed stream removes the bytes
// after the records its caller kept (a line a kill cut short) and appends
// after them; a size that does not match the file is refused.
func TestResumeStreamDropsOnlyTheCutLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte("{\"a\":1}\n{\"b\":"), 0o644)
	if _, err := ResumeStream(path, 100); err == nil {
		t.Error("a resume past the file's end was accepted")
	}
	s, err := ResumeStream(path, 8)
	if err != nil {
		t.Fatal(err)
	}
	s.Write([]byte("{\"b\":2}\n"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "{\"a\":1}\n{\"b\":2}\n" {
		t.Fatalf("the file holds %q", got)
	}
}

// TestFailedStreamWriteKeepsWholeLines: a write that fails writes
// nothing of its lines, and every later write and Close report it.
func TestFailedStreamWriteKeepsWholeLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	s, err := CreateStream(path, "")
	if err != nil {
		t.Fatal(err)
	}
	restore := FailWrites(10)
	_, err1 := s.Write([]byte("0123456\n"))
	_, err2 := s.Write([]byte("789\n"))
	_, err3 := s.Write([]byte("x\n"))
	restore()
	if err1 != nil || err2 == nil || err3 == nil || s.Close() == nil {
		t.Fatalf("errors %v, %v, %v; want the second write to fail and stay failed", err1, err2, err3)
	}
	if got, _ := os.ReadFile(path); string(got) != "0123456\n" {
		t.Fatalf("the file holds %q", got)
	}
}

// TestStdoutKeepsTheFirstError: a write error is kept and nothing is
// written after it.
func TestStdoutKeepsTheFirstError(t *testing.T) {
	var buf bytes.Buffer
	w := &failing{after: 1, w: &buf}
	s := NewStdout(w)
	s.Write([]byte("a"))
	s.Write([]byte("b"))
	s.Write([]byte("c"))
	if s.Err() == nil || buf.String() != "a" || w.calls != 2 {
		t.Fatalf("err %v, wrote %q in %d calls", s.Err(), buf.String(), w.calls)
	}
}

type failing struct {
	after, calls int
	w            *bytes.Buffer
}

func (f *failing) Write(p []byte) (int, error) {
	f.calls++
	if f.calls > f.after {
		return 0, errors.New("no space left on device")
	}
	return f.w.Write(p)
}

// TestSignalPolicy: under Catch, the first signal cancels Watch's context
// and a second ends the process at once with 128 + its number; without a
// watcher the first ends it at once. (Real signals to real processes are
// in cli's tests; here the policy's decisions, with exit replaced.)
func TestSignalPolicy(t *testing.T) {
	exited := make(chan int, 1)
	exit, stderr = func(code int) { exited <- code }, io.Discard
	defer func() { exit, stderr = os.Exit, os.Stderr }()

	release := Catch()
	ctx := Watch()
	catching.ch <- syscall.SIGTERM
	<-ctx.Done()
	if cause := context.Cause(ctx); cause == nil || cause.Error() != "SIGTERM" || !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("the context's cause is %v, its error %v", cause, ctx.Err())
	}
	if Received() != syscall.SIGTERM || ExitCode() != 143 {
		t.Fatalf("received %v, exit code %d; want SIGTERM, 143", Received(), ExitCode())
	}
	catching.ch <- os.Interrupt
	if code := <-exited; code != 130 {
		t.Errorf("the second signal exited %d, want 130", code)
	}
	release()

	release = Catch()
	catching.ch <- syscall.SIGHUP
	if code := <-exited; code != 129 {
		t.Errorf("an unwatched first signal exited %d, want 129", code)
	}
	release()

	release = Catch()
	ctx = Watch()
	hurry := Hurry()
	catching.ch <- os.Interrupt
	<-ctx.Done()
	catching.ch <- os.Interrupt
	<-hurry // the caller's to handle: no exit
	catching.ch <- syscall.SIGTERM
	if code := <-exited; code != 143 {
		t.Errorf("a third signal exited %d, want 143", code)
	}
	release()
	if ctx := Watch(); ctx.Done() != nil {
		t.Error("Watch without Catch can be cancelled")
	}
}
