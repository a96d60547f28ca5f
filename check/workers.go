package check

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// defaultWorkers is Options.Workers when it is 0: one per processor Go
// runs on.
func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

// progressEvery is how many states a search explores between two looks at
// the check's stop flag (and two additions to its shared count): a power
// of two.
const progressEvery = 1 << 12

// shared is what the workers of one check share while it runs: the states
// explored so far (added every progressEvery states and at each
// configuration's end), the configurations finished, and the stop flag.
type shared struct {
	states atomic.Int64
	done   atomic.Int64
	stop   atomic.Bool
	// shortestBad is the fewest steps of a counterexample found so far
	// (math.MaxInt64 while none is): no longer one need be looked for
	// (shortenAll).
	shortestBad atomic.Int64
	// shortStates and shortEdges are the cost of the searches for the
	// shortest counterexample (Report.ShortestStates).
	shortStates, shortEdges atomic.Int64
	// shortCut counts the searches for the shortest counterexample that
	// their state limit cut (Report.ShortestCut).
	shortCut atomic.Int64
}

// newShared is the shared state of a check that starts.
func newShared() *shared {
	sh := &shared{}
	sh.shortestBad.Store(math.MaxInt64)
	return sh
}

// found notes a counterexample of steps steps.
func (sh *shared) found(steps int) {
	for {
		old := sh.shortestBad.Load()
		if int64(steps) >= old || sh.shortestBad.CompareAndSwap(old, int64(steps)) {
			return
		}
	}
}

// shortest returns the fewest steps of a counterexample found so far
// (math.MaxInt when none is).
func (sh *shared) shortest() int { return int(min(sh.shortestBad.Load(), math.MaxInt)) }

// tick adds progressEvery states and reports whether the check must stop.
func (sh *shared) tick() bool {
	sh.states.Add(progressEvery)
	return sh.stop.Load()
}

// Progress is how far a running check has gone (Options.Progress).
type Progress struct {
	Configurations int64 // to check in all
	Done           int64 // checked
	States         int64 // distinct states explored so far, over every configuration
	Elapsed        time.Duration
}

// searchAll checks every configuration on opt.Workers workers, calling
// opt.Progress and watching opt.Stop while they run, and returns what the
// workers shared (the stop flag says whether the check was interrupted).
func searchAll(opt Options, cfgs []*config, start time.Time) *shared {
	workers := opt.Workers
	if workers <= 0 {
		workers = defaultWorkers()
	}
	// The configurations wait in a full channel, so that taking the next
	// one never puts a worker to sleep.
	next := make(chan *config, len(cfgs))
	for _, c := range cfgs {
		next <- c
	}
	close(next)
	sh := newShared()
	finished := make(chan struct{})
	watchers := watch(opt, sh, int64(len(cfgs)), start, finished)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { work(opt, next, sh) })
	}
	wg.Wait()
	close(finished)
	watchers.Wait()
	return sh
}

// work is one worker: it checks the configurations it takes from next,
// each search reusing the memory of the one before, and starts none once
// the check must stop.
func work(opt Options, next <-chan *config, sh *shared) {
	var spare *stateSpace // the last search's memory, reused
	for c := range next {
		select {
		case <-opt.Stop: // nil: never
			sh.stop.Store(true)
		default:
		}
		if sh.stop.Load() {
			continue // interrupted: the rest are not started
		}
		spare = c.run(opt, spare, sh)
		sh.states.Add(c.states % progressEvery)
		sh.done.Add(1)
	}
}

// watch starts what runs beside the workers until finished is closed: a
// goroutine that turns opt.Stop into the stop flag, and one that calls
// opt.Progress every ProgressInterval. The returned group waits for them.
func watch(opt Options, sh *shared, configs int64, start time.Time, finished <-chan struct{}) *sync.WaitGroup {
	watchers := &sync.WaitGroup{}
	if opt.Stop != nil {
		watchers.Go(func() {
			select {
			case <-opt.Stop:
				sh.stop.Store(true)
			case <-finished:
			}
		})
	}
	if opt.Progress != nil {
		watchers.Go(func() {
			tick := time.NewTicker(ProgressInterval)
			defer tick.Stop()
			for {
				select {
				case <-tick.C:
					opt.Progress(Progress{Configurations: configs, Done: sh.done.Load(), States: sh.states.Load(), Elapsed: time.Since(start)})
				case <-finished:
					return
				}
			}
		})
	}
	return watchers
}
