package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestExploreBadInput: one line and exit 2 for a network too large, a
// delivery model explore does not schedule, and an unknown algorithm.
func TestExploreBadInput(t *testing.T) {
	for _, c := range []badInput{
		{[]string{"explore", "lcr", "--n", "9"}, "--n 9: explore searches every state"},
		{[]string{"explore", "lcr", "--n", "4", "--delivery", "sync"}, `--delivery "sync": use fifo or bag`},
		{[]string{"explore", "lcx", "--n", "4"}, `unknown algorithm "lcx"`},
		{[]string{"explore", "itai-rodeh", "--n", "3"}, "explore schedules deterministic algorithms"},
	} {
		wantBadInput(t, c.args, c.want)
	}
}

// TestExploreRefusesATooLargeNetworkAtOnce: a first ID assignment whose
// search passes --max-states is refused before anything is served, with
// the estimate of the whole search (HS at n = 7: 720 assignments).
func TestExploreRefusesATooLargeNetworkAtOnce(t *testing.T) {
	wantBadInput(t, []string{"explore", "hs", "--n", "7", "--max-states", "5000"},
		"explore: with IDs 1,2,3,4,5,6,7 the search passed 5000 states (--max-states): explore is for small networks; with 720 ID assignments the whole search would pass about 3.6e+06 states if each is as large")
}

// TestExploreServesAtOnceAndFillsInTheExtremes (issue 44: the explorer
// serves the page at once and fills in the extremes as they are found):
// 'elect explore lcr --n 5' as a real process prints its address after
// the first assignment's search; the page's state then counts the search
// of all 24 assignments to the end, when the reach is LCR's 9..15
// election messages (seed 001 §5.2.1.1) and stderr says what was
// searched; a step that is not a number is answered in explore's words;
// SIGTERM stops the server with exit 143.
func TestExploreServesAtOnceAndFillsInTheExtremes(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "explore", "lcr", "--n", "5")
	cmd.Env = append(os.Environ(), "ELECT_CLI_AS_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no address printed: %v (stderr %s)", err, stderr.String())
	}
	url := strings.Fields(strings.TrimPrefix(line, "elect explore: "))[0]
	get := func(path string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest("GET", url+path, nil)
		req.Header.Set("X-Elect-Explore", "1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var st map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	deadline := time.Now().Add(2 * time.Minute)
	var st map[string]any
	for {
		st = get("state")
		search := st["search"].(map[string]any)
		if search["configurations"].(float64) != 24 {
			t.Fatalf("search %v, want 24 configurations", search)
		}
		if search["done"] == 24.0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the search never ended: %v", search)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if hi, lo := st["max"].([]any)[0], st["min"].([]any)[0]; hi != 15.0 || lo != 9.0 {
		t.Errorf("reach %v..%v election messages, want 9..15", lo, hi)
	}
	if e, _ := get("step?j=abc")["error"].(string); !strings.HasPrefix(e, `explore: step j="abc" is not a choice's number`) {
		t.Errorf("a bad step answers %q", e)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitStatus(cmd.Wait()); code != 143 {
		t.Errorf("SIGTERM: exit %d, want 143 (stderr %s)", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "elect explore: searched all 24 ID assignments (") {
		t.Errorf("stderr %q does not say what was searched", stderr.String())
	}
}

// lockedBuffer is a bytes.Buffer that a process's output goroutine may
// write while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
