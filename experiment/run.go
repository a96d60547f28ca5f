package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/runner"
	"github.com/electkit/elect/scenario"
)

// Result is one finished job: its record and the JSON line that describes
// it (with the trailing newline), byte for byte what 'elect run --json' or
// 'elect pp --json' prints for the same run.
type Result struct {
	Job  Job
	MP   *scenario.Record // message passing
	PP   *pp.Result       // population protocols
	Line []byte
}

// Succeeded reports whether the run ended as its algorithm promises.
func (r *Result) Succeeded() bool {
	if r.MP != nil {
		return r.MP.Succeeded()
	}
	return r.PP.Outcome.Succeeded()
}

// RunJob runs one job with the grid's master seed. A panic inside the run
// (a forced configuration can drive an algorithm's code into a state it
// calls impossible) does not escape: the job's result is then outcome
// violation, "panic: ..." with the panic's message, and a sweep goes on.
func RunJob(j Job, master uint64) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = panicResult(j, master, p)
		}
	}()
	var buf bytes.Buffer
	res = &Result{Job: j}
	switch j.Point.Kind {
	case Population:
		cfg := j.Point.PP
		cfg.Seed = j.Seed(master)
		r, err := j.Point.Protocol.Run(cfg)
		if err != nil {
			return nil, err
		}
		res.PP = &r
		// As 'elect pp --json': a default encoder.
		if err := json.NewEncoder(&buf).Encode(r); err != nil {
			return nil, err
		}
	default:
		s := j.Point.Spec
		s.Seed = j.Seed(master)
		rec, err := runner.Run(s)
		if err != nil {
			return nil, err
		}
		res.MP = rec
		line, err := recordLine(rec)
		if err != nil {
			return nil, err
		}
		buf.Write(line)
	}
	res.Line = buf.Bytes()
	return res, nil
}

// recordLine is a record's JSON line as 'elect run --json' writes it: no
// HTML escaping.
func recordLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// panicResult is the result of job j whose run panicked with value p: the
// configuration as the job gives it, outcome violation and the panic's
// message; nothing was measured.
func panicResult(j Job, master uint64, p any) (*Result, error) {
	res := &Result{Job: j}
	var v any
	switch j.Point.Kind {
	case Population:
		cfg := j.Point.PP
		r := pp.Result{
			Protocol: j.Point.Protocol.Name, N: cfg.N, Seed: j.Seed(master),
			Engine: string(cfg.Options.Engine), Scheduler: cfg.Options.Scheduler.String(),
			Outcome: pp.Violation, Violation: election.NewViolation(election.PropPanic, fmt.Sprintf("the run panicked: %v", p)).String(), OneLeaderStep: -1,
		}
		res.PP, v = &r, r
	default:
		s := j.Point.Spec
		s.Seed = j.Seed(master)
		rec := scenario.PanicRecord(s, p)
		res.MP, v = rec, rec
	}
	line, err := recordLine(v)
	if err != nil {
		return nil, err
	}
	res.Line = line
	return res, nil
}

// Options configure Run.
type Options struct {
	// Workers is the number of runs in parallel (0: runtime.NumCPU()).
	Workers int
	// Progress, when set, is called after each result is emitted with the
	// number of jobs done, and the summed weight done and in total.
	Progress func(done, total int, weightDone, weightTotal float64)
}

// Weight is the rough relative cost of a job, for time-left estimates.
func (j Job) Weight() float64 {
	if j.Point.Kind == Population {
		return float64(j.Point.PP.N)
	}
	return float64(j.Point.Spec.N)
}

// Run runs the jobs on a pool of workers and calls emit with each result in
// the jobs' order, whatever the order they finish in. It stops at the first
// error (of a run or of emit) or when ctx is cancelled; results emitted
// before that stay emitted. It returns the number of results emitted.
func Run(ctx context.Context, jobs []Job, master uint64, opt Options, emit func(*Result) error) (int, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, max(len(jobs), 1))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// A window bounds how far workers may run ahead of the next result to
	// emit, so memory stays bounded when one long run holds the line.
	window := 4*workers + 16
	tokens := make(chan struct{}, window)
	type done struct {
		pos int
		res *Result
		err error
	}
	results := make(chan done, window)
	next := make(chan int)
	go func() {
		defer close(next)
		for pos := range jobs {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case next <- pos:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for pos := range next {
				if ctx.Err() != nil {
					return
				}
				r, err := RunJob(jobs[pos], master)
				if err != nil {
					err = fmt.Errorf("run %d (%s): %w", jobs[pos].Index, describe(jobs[pos]), err)
				}
				select {
				case results <- done{pos, r, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	var totalWeight, weightDone float64
	for _, j := range jobs {
		totalWeight += j.Weight()
	}
	pending := map[int]*Result{}
	emitted := 0
	for emitted < len(jobs) {
		var d done
		var ok bool
		select {
		case d, ok = <-results:
		case <-ctx.Done():
			return emitted, ctx.Err()
		}
		if !ok {
			// Workers stopped early (cancelled).
			if err := ctx.Err(); err != nil {
				return emitted, err
			}
			return emitted, fmt.Errorf("experiment: workers stopped after %d of %d runs", emitted, len(jobs))
		}
		if d.err != nil {
			return emitted, d.err
		}
		pending[d.pos] = d.res
		for {
			r, ok := pending[emitted]
			if !ok {
				break
			}
			delete(pending, emitted)
			if err := emit(r); err != nil {
				return emitted, err
			}
			emitted++
			weightDone += r.Job.Weight()
			<-tokens
			if opt.Progress != nil {
				opt.Progress(emitted, len(jobs), weightDone, totalWeight)
			}
		}
	}
	return emitted, nil
}

// describe names a job's configuration for error messages.
func describe(j Job) string {
	if j.Point.Kind == Population {
		return fmt.Sprintf("pp %s, n = %d, trial %d", j.Point.Protocol.Name, j.Point.PP.N, j.Trial)
	}
	s := j.Point.Spec
	return fmt.Sprintf("%s, n = %d, ids %s, trial %d", s.Algorithm, s.N, s.IDs, j.Trial)
}
