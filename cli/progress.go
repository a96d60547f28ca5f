package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/internal/format"
	"github.com/electkit/elect/scenario"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressScale is the total of a bar whose work is a fraction (a sweep's
// runs weighted by their size).
const progressScale = 1_000_000

// progressBar is the progress bar of a long run or a sweep on standard
// error, drawn by vbauerster/mpb: the share done, a line of figures the
// command keeps up to date, and the time left estimated from the speed so
// far. Commands create it with newProgressBar, which returns nil (and every
// method then does nothing) when standard error is not a terminal, so that
// piped output and --json stay free of it.
type progressBar struct {
	p   *mpb.Progress
	bar *mpb.Bar

	mu      sync.Mutex
	text    string
	spinner bool // no total: no estimate of the time left
	refresh chan any
}

// progressRefresh, when set (tests only), draws the bars on demand instead
// of every 150 ms: every set draws a frame, so that a test sees each state
// of the bar whatever the machine's speed.
var progressRefresh chan any

// newProgressBar starts a bar named name on w for work of the given total
// (0: unknown, a spinner with the elapsed time instead of an estimate);
// leftNote qualifies the estimate ("at most" when the total is an upper
// bound).
func newProgressBar(w io.Writer, name string, total int64, leftNote string) *progressBar {
	if !isTerminal(w) {
		return nil
	}
	opts := []mpb.ContainerOption{mpb.WithOutput(w), mpb.WithWidth(32), mpb.WithRefreshRate(150 * time.Millisecond)}
	if progressRefresh != nil {
		opts = append(opts, mpb.WithManualRefresh(progressRefresh))
	}
	b := &progressBar{p: mpb.New(opts...), refresh: progressRefresh}
	figures := decor.Any(func(decor.Statistics) string {
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.text
	}, decor.WCSyncSpaceR)
	if total <= 0 {
		b.spinner = true
		b.bar = b.p.New(0, mpb.SpinnerStyle(),
			mpb.PrependDecorators(decor.Name(name, decor.WCSyncSpaceR)),
			mpb.AppendDecorators(figures, decor.Name(" elapsed "), decor.Elapsed(decor.ET_STYLE_GO)),
			mpb.BarRemoveOnComplete())
		return b
	}
	left := " left"
	if leftNote != "" {
		left = " left (" + leftNote + ")"
	}
	b.bar = b.p.New(total, mpb.BarStyle(),
		mpb.PrependDecorators(decor.Name(name, decor.WCSyncSpaceR), decor.Percentage(decor.WCSyncSpace)),
		mpb.AppendDecorators(figures, decor.Name(" "), decor.AverageETA(decor.ET_STYLE_GO), decor.Name(left)),
		mpb.BarRemoveOnComplete())
	return b
}

// set records the work done and the figures shown beside the bar.
func (b *progressBar) set(done int64, text string) {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.text = text
	b.mu.Unlock()
	b.bar.SetCurrent(done)
	if b.refresh != nil {
		// The third request is taken only once the first frame is drawn
		// (mpb forwards one request at a time to its drawing loop).
		for range 3 {
			b.refresh <- struct{}{}
		}
	}
}

// finish removes the bar from the terminal, whether the work is complete or
// was stopped, and waits until it is gone.
func (b *progressBar) finish() {
	if b == nil {
		return
	}
	b.bar.Abort(true)
	b.p.Wait()
}

// limitNote warns, for a run whose bar has no estimate of the time left
// (a spinner), when at the speed so far its step limit is more than a day
// away: "; the --max-events limit (1e12) is about 3.2 days away at this
// speed: --time-limit bounds the run". It says nothing in the first two
// seconds, while the speed is not yet known.
func (b *progressBar) limitNote(done, limit int64, flag string, elapsed time.Duration) string {
	if b == nil || !b.spinner || limit <= 0 || done <= 0 || done >= limit || elapsed < 2*time.Second {
		return ""
	}
	return stepLimitNote(done, limit, flag, elapsed)
}

// stepLimitNote is limitNote's text, for any bar.
func stepLimitNote(done, limit int64, flag string, elapsed time.Duration) string {
	left := time.Duration(float64(elapsed) * float64(limit-done) / float64(done))
	if left < 24*time.Hour {
		return ""
	}
	return fmt.Sprintf("; the %s limit (%.3g) is about %.1f days away at this speed: --time-limit bounds the run",
		flag, float64(limit), left.Hours()/24)
}

// runProgressBar is the progress bar of one simulated run of s, built as
// cfg: messages against the algorithm's declared message bound, whose
// estimate of the time left is then an upper one, or a spinner when it
// declares none.
func runProgressBar(stderr io.Writer, s scenario.Spec, cfg *election.Config) *progressBar {
	if !isTerminal(stderr) || s.Runtime != "" && s.Runtime != "sim" {
		return nil
	}
	bound, ok := scenario.MessageBound(cfg.Algorithm, cfg.BoundContext())
	if !ok || bound > math.MaxInt64/2 {
		return newProgressBar(stderr, s.Algorithm, 0, "")
	}
	return newProgressBar(stderr, s.Algorithm, int64(bound), "at most: the bound")
}

// runProgress is the simulator's progress report: it moves bar (warning
// when the run's event limit, maxEvents, is days away) and stops the run
// after limit of wall-clock time (0: no limit) or once stop is cancelled
// (a signal); nil when none of these is wanted.
func runProgress(bar *progressBar, limit time.Duration, maxEvents int64, stop context.Context) func(election.Progress) bool {
	if bar == nil && limit <= 0 && stop.Done() == nil {
		return nil
	}
	start := time.Now()
	return func(p election.Progress) bool {
		bar.set(p.Messages, fmt.Sprintf("%s messages, time %s", format.Number(float64(p.Messages), 4), format.Number(p.Time, 4))+
			bar.limitNote(p.Events, maxEvents, "--max-events", time.Since(start)))
		return (limit <= 0 || time.Since(start) < limit) && stop.Err() == nil
	}
}
