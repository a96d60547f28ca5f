package check

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/electkit/elect"
)

// rootSearch is what a session knows of each configuration's extremes from
// its start: found by SearchRoots on its workers while the page is served,
// or by the search of a configuration the user chose first. Its fields are
// shared between those goroutines and the session's caller.
type rootSearch struct {
	mu     sync.Mutex
	hi, lo [][]int64 // by configuration; nil: not searched yet
	err    []error   // by configuration: why its search failed
	done   int       // configurations searched (or failed)
	failed int
	start  time.Time // of SearchFirst
	end    time.Duration
	// progress counts the states searched so far, over every
	// configuration (by progressEvery while a search runs, the rest at
	// its end), and holds the stop flag.
	progress shared
	next     atomic.Int64 // the next configuration a SearchRoots worker takes
}

func (r *rootSearch) init(configs int) {
	r.hi, r.lo, r.err = make([][]int64, configs), make([][]int64, configs), make([]error, configs)
	r.start = time.Now()
}

// get is configuration k's extremes from its start (nil: not known yet)
// or why its search failed.
func (r *rootSearch) get(k int) (hi, lo []int64, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hi[k], r.lo[k], r.err[k]
}

// put records configuration k's search: its extremes from the start, or
// its failure; the first record of a configuration counts.
func (r *rootSearch) put(k int, x *stateSpace, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hi[k] != nil || r.err[k] != nil {
		return
	}
	r.done++
	if err != nil {
		r.err[k] = err
		r.failed++
	} else {
		_, key := x.keys(x.initial())
		id, _ := x.memo.get(key)
		h, l := x.extremes(id)
		r.hi[k], r.lo[k] = slices.Clone(h), slices.Clone(l)
	}
	if r.done == len(r.hi) {
		r.end = time.Since(r.start)
	}
}

// errTooMany ends the error of a search past the state limit.
var errTooMany = errors.New("explore is for small networks")

// searchConfig searches configuration k whole (no reduction: every step
// the user may take leads to a state whose extremes are known), reusing
// spare's memory when it is not nil, and records its extremes from the
// start. It returns the search even when it failed: the memory spare gave
// it is its own now (its tables grew), so a worker's next search must
// take it over from this one, not from spare.
func (ss *Session) searchConfig(k int, spare *stateSpace) (*stateSpace, error) {
	x := newStateSpace(ss.cfgs[k].cfg, ss.opt.Delivery == "bag", ss.opt.MaxStates)
	x.reuseMemory(spare)
	x.reduce = false
	x.shared = &ss.roots.progress
	_, err := x.search()
	ss.roots.progress.states.Add(x.states % progressEvery)
	switch {
	case err != nil && x.violation != nil:
		err = fmt.Errorf("explore: with IDs %s an execution breaks a property (%s): 'elect check' writes it as a counterexample", idsLabel(ss.cfgs[k].cfg.IDs), x.violation)
	case err != nil && x.interrupted:
		return x, fmt.Errorf("explore: the search with IDs %s was stopped", idsLabel(ss.cfgs[k].cfg.IDs))
	case err != nil:
		err = fmt.Errorf("explore: with IDs %s the search passed %d states (--max-states): %w", idsLabel(ss.cfgs[k].cfg.IDs), ss.opt.MaxStates, errTooMany)
	}
	ss.roots.put(k, x, err)
	return x, err
}

// SearchFirst searches the first configuration, so that a network or
// algorithm explore cannot show is refused before the page is served: a
// violated property, or a search past the state limit (with an estimate
// of the whole search). With fixed IDs (one configuration) it is chosen.
func (ss *Session) SearchFirst() error {
	x, err := ss.searchConfig(0, nil)
	if err != nil {
		if len(ss.cfgs) > 1 && errors.Is(err, errTooMany) {
			err = fmt.Errorf("%w; with %d ID assignments the whole search would pass about %.2g states if each is as large", err, len(ss.cfgs), float64(len(ss.cfgs))*float64(ss.opt.MaxStates))
		}
		return err
	}
	if len(ss.cfgs) == 1 {
		ss.xs[0] = x
		ss.cur, ss.x, ss.s = 0, x, x.initial()
	}
	return nil
}

// SearchRoots searches every configuration not searched yet on workers
// goroutines (0: one per processor), each search reusing its worker's last
// memory and dropped once its extremes from the start are recorded, until
// all are done or stop is closed. It returns when its workers have.
func (ss *Session) SearchRoots(workers int, stop <-chan struct{}) {
	if workers <= 0 {
		workers = defaultWorkers()
	}
	finished := make(chan struct{})
	defer close(finished)
	if stop != nil {
		go func() {
			select {
			case <-stop:
				ss.roots.progress.stop.Store(true)
			case <-finished:
			}
		}()
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var spare *stateSpace
			for {
				k := int(ss.roots.next.Add(1) - 1)
				if k >= len(ss.cfgs) || ss.roots.progress.stop.Load() {
					return
				}
				if hi, _, err := ss.roots.get(k); hi != nil || err != nil {
					continue
				}
				spare, _ = ss.searchConfig(k, spare)
			}
		})
	}
	wg.Wait()
}

// SearchProgress is how far the search of every ID assignment's extremes
// has gone.
type SearchProgress struct {
	Configurations int           `json:"configurations"`
	Done           int           `json:"done"`   // searched or failed
	Failed         int           `json:"failed"` // a violation or the state limit
	States         int64         `json:"states"` // searched so far, over every configuration
	Elapsed        time.Duration `json:"-"`
	Seconds        float64       `json:"seconds"` // Elapsed, or the whole search's time once done
	// StatesPerSecond is the speed so far; SecondsLeft the time left at
	// that speed, estimated from the configurations done (0 when done).
	StatesPerSecond float64 `json:"states_per_second"`
	SecondsLeft     float64 `json:"seconds_left"`
}

// Progress is how far the search of every configuration has gone.
func (ss *Session) Progress() SearchProgress {
	r := &ss.roots
	r.mu.Lock()
	p := SearchProgress{Configurations: len(r.hi), Done: r.done, Failed: r.failed, Elapsed: time.Since(r.start)}
	if r.done == len(r.hi) {
		p.Elapsed = r.end
	}
	r.mu.Unlock()
	p.States = r.progress.states.Load()
	p.Seconds = p.Elapsed.Seconds()
	if p.Seconds > 0 {
		p.StatesPerSecond = float64(p.States) / p.Seconds
	}
	if p.Done > 0 && p.Done < p.Configurations {
		p.SecondsLeft = p.Seconds * float64(p.Configurations-p.Done) / float64(p.Done)
	}
	return p
}

// idsLabel is an ID assignment as the user writes it ("1,2,3").
func idsLabel(ids []elect.ID) string { return strings.TrimPrefix(idsText(ids), "list:") }
