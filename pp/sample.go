package pp

import (
	"fmt"
	"math"
)

// Sampling a run's configuration over time, for traces (elect pp --trace,
// docs/trace.md, "Population runs"): the engine stops at evenly spaced
// steps and reports the number of agents in each state.
//
// The run's length is not known in advance, so the spacing doubles: samples
// are taken every Delta steps, and when 2*Points of them have been taken,
// every other one is dropped and Delta doubles. The kept samples are then
// evenly spaced, between Points and 2*Points of them whatever the run's
// length and engine. Since most protocols change fastest at the start
// (Angluin's leaders fall like n/(1+t)), there are also samples at
// geometrically spaced steps, n/100 times powers of 1.15 (parallel time
// 0.01, 0.0115, ...: about 16 per factor of 10), and the first and the
// last configuration.

// StateNamer is implemented by protocols that name their states for
// traces: a short name and the state's output ("L", "F", or a file
// protocol's output name). Without it a state is named by fmt.Sprint and
// its output is "L" or "F" by IsLeader.
type StateNamer[S comparable] interface {
	StateName(s S) (name, output string)
}

// NamedCount is the number of agents in one named state.
type NamedCount struct {
	Name   string
	Output string
	Count  int64
}

// Snapshot is the configuration at one step: the states that hold agents,
// in a deterministic order (the agent array: the order in which a scan of
// the agents meets them; the count engines: the order in which the run
// discovered them), merged by name.
type Snapshot struct {
	Step    int64
	Leaders int64
	Counts  []NamedCount
}

// Sampler asks Simulate for snapshots: Points is the least number of
// evenly spaced snapshots of a run long enough to have them (the most is
// 2*Points), plus the first and the last.
type Sampler struct {
	Points int
	// Snapshots holds the kept snapshots once the run has stopped, step 0
	// first and the final configuration last.
	Snapshots []Snapshot
	// Delta is the final spacing in steps.
	Delta int64
}

// sampleRun advances a run (agent array or count engine) to its end,
// taking snapshots.
func sampleRun(smp *Sampler, n int64, advance func(int64) bool, steps func() int64, take func() Snapshot) {
	if smp.Points < 1 {
		smp.Points = 1
	}
	first := take()
	// Start at a spacing of 1/64 parallel time unit: short runs still get
	// detail, and a long run doubles it only lg(length / (n/64)) times.
	delta := max(1, n/64)
	nextEven := delta
	g := float64(n) / 100
	nextGeo := max(1, int64(math.Ceil(g)))
	var evens, geos []Snapshot
	for {
		target := min(nextEven, nextGeo)
		stopped := advance(target - steps())
		if stopped || steps() < target {
			break // the goal, a violation or the step limit: the last snapshot is taken below
		}
		snap := take()
		if target == nextEven {
			evens = append(evens, snap)
			nextEven += delta
			if len(evens) >= 2*smp.Points {
				half := evens[:0]
				for i := 1; i < len(evens); i += 2 {
					half = append(half, evens[i])
				}
				evens = half
				delta *= 2
				nextEven = evens[len(evens)-1].Step + delta
			}
		}
		if target == nextGeo {
			geos = append(geos, snap)
			for nextGeo <= target {
				g *= 1.15
				nextGeo = int64(math.Ceil(g))
			}
		}
	}
	last := take()
	// Merge the two series by step.
	out := append(smp.Snapshots[:0], first)
	i, j := 0, 0
	for i < len(evens) || j < len(geos) {
		var s Snapshot
		if j >= len(geos) || (i < len(evens) && evens[i].Step <= geos[j].Step) {
			s = evens[i]
			i++
		} else {
			s = geos[j]
			j++
		}
		if s.Step > out[len(out)-1].Step {
			out = append(out, s)
		}
	}
	if last.Step > out[len(out)-1].Step || len(out) == 1 {
		out = append(out, last)
	}
	smp.Snapshots = out
	smp.Delta = delta
}

// namer returns a function naming p's states.
func namer[S comparable, P Protocol[S]](p P) func(S) (string, string) {
	if sn, ok := any(p).(StateNamer[S]); ok {
		return sn.StateName
	}
	return func(s S) (string, string) {
		out := "F"
		if p.IsLeader(s) {
			out = "L"
		}
		return fmt.Sprint(s), out
	}
}

// merge appends the count of a state to a snapshot's counts, merging
// states of the same name.
func merge(at map[string]int, counts []NamedCount, name, output string, k int64) []NamedCount {
	if j, ok := at[name]; ok {
		counts[j].Count += k
		return counts
	}
	at[name] = len(counts)
	return append(counts, NamedCount{name, output, k})
}

// simulateSampled is Simulate with snapshots (opt.Sample is set).
func simulateSampled[S comparable, P Protocol[S]](p P, n int, seed uint64, opt Options, e Engine) (Result, error) {
	name := namer[S](p)
	smp := opt.Sample
	if e == AgentArray {
		sim := NewSim[S](p, n, seed, opt)
		order := map[S]int{}
		var list []S
		var cnt []int64
		take := func() Snapshot {
			clear(order)
			list, cnt = list[:0], cnt[:0]
			for _, st := range sim.states {
				j, ok := order[st]
				if !ok {
					j = len(list)
					order[st] = j
					list = append(list, st)
					cnt = append(cnt, 0)
				}
				cnt[j]++
			}
			at := map[string]int{}
			var counts []NamedCount
			for j, st := range list {
				nm, out := name(st)
				counts = merge(at, counts, nm, out, cnt[j])
			}
			return Snapshot{Step: sim.step, Leaders: sim.leaders, Counts: counts}
		}
		sampleRun(smp, int64(n), sim.Advance, sim.Steps, take)
		return sim.Result(), nil
	}
	s, err := NewCountSim[S](p, int64(n), seed, opt, e)
	if err != nil {
		return Result{}, err
	}
	take := func() Snapshot {
		at := map[string]int{}
		var counts []NamedCount
		for _, sc := range s.Counts() {
			nm, out := name(sc.State)
			counts = merge(at, counts, nm, out, sc.Count)
		}
		return Snapshot{Step: s.step, Leaders: s.c.leaders, Counts: counts}
	}
	sampleRun(smp, int64(n), s.Advance, s.Steps, take)
	return s.Result(), nil
}
