package cluster

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/electkit/elect/scenario"
)

// readyWriter counts the lines "ready" the nodes log and calls ready once
// every node has logged one.
type readyWriter struct {
	mu    sync.Mutex
	seen  int
	n     int
	ready func()
}

func (w *readyWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen += bytes.Count(b, []byte("ready"))
	if w.seen == w.n {
		w.ready()
	}
	return len(b), nil
}

// TestUpKillsNodesThatIgnoreSIGTERM: nodes that ignore the SIGTERM Up
// forwards when its context is cancelled are killed once StopWait has
// passed (or at once, when Hurry is closed), and the error says so; the
// temporary directory of the nodes' traces is gone.
func TestUpKillsNodesThatIgnoreSIGTERM(t *testing.T) {
	for _, hurry := range []bool{false, true} {
		dir, d := initCluster(t, scenario.Spec{Algorithm: "lcr", N: 3, Seed: 1})
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		ctx, cancel := context.WithCancelCause(context.Background())
		hurried := make(chan struct{})
		log := &readyWriter{n: d.N, ready: func() {
			cancel(errors.New("the test's signal"))
			if hurry {
				close(hurried)
			}
		}}
		opt := UpOptions{
			// A node that ignores SIGTERM (an ignored signal stays
			// ignored across exec), says it is ready, and hangs.
			Command: []string{"sh", "-c", `trap "" TERM; echo ready >&2; exec sleep 600`, "sh"},
			Log:     log, Trace: filepath.Join(t.TempDir(), "merged.jsonl"),
			StopWait: 50 * time.Millisecond, Hurry: hurried,
		}
		if hurry {
			opt.StopWait = time.Hour
		}
		rec, _, err := Up(ctx, dir, opt)
		var stopped *StoppedError
		if !errors.As(err, &stopped) || rec != nil {
			t.Fatalf("hurry %v: %v %v, want a *StoppedError", hurry, rec, err)
		}
		if got, want := err.Error(), "cluster up stopped (the test's signal) "; !strings.HasPrefix(got, want) ||
			!strings.HasSuffix(got, "no node had exited, no node ended on SIGTERM (no node resumed from SIGSTOP first), nodes 0, 1, 2 killed; nothing judged, temporary files removed") {
			t.Errorf("hurry %v: %q", hurry, got)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("hurry %v: left in TMPDIR: %v", hurry, left)
		}
		if _, err := os.Stat(opt.Trace); err == nil {
			t.Errorf("hurry %v: the trace of a stopped run was written", hurry)
		}
	}
}
