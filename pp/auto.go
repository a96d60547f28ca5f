package pp

import (
	"fmt"
	"math"
	"unsafe"
)

// AgentArrayBudget is the most memory (bytes of agent states) the
// agent-array engine may use; beyond it (or beyond MaxN agents) a run that
// only the agent array can simulate is refused.
var AgentArrayBudget int64 = 8 << 30

// autoMinCount is the smallest n for which auto starts on the count
// engine: below it batches are short and never beat the agent array, so
// auto starts on the agent array and moves between it and null-skipping
// (autoswitch.go, startOnArray).
const autoMinCount = 1 << 14

// ChooseEngine returns the engine that Simulate runs for protocol p on n
// agents when asked for engine e (Auto: choose). The rules:
//
//   - a protocol without a Census numbers its agents (n distinct initial
//     states): agent array only, as is the with-repeats scheduler (the count
//     engines simulate the distinct-pair scheduler);
//     unless its agents start in a few states (fewInitialStates) and n <=
//     MaxInitCalls: then it is treated as the others;
//   - so is a protocol that is AgentArrayOnly, and a run at n < 2^14 that
//     records a trace (Options.Sample: its snapshots stay the agent
//     array's);
//   - otherwise auto takes the hybrid engine, which chooses by measured cost
//     among batches, null-skipping and, when it fits, the agent array,
//     re-deciding every n/4 interactions (autoswitch.go), and records which
//     it used (Result.Engine: "batched+null-skipping+agent-array" when it
//     used all three); for n < 2^14 it starts on the agent array, exactly
//     as Run, and moves between it and null-skipping only (a run that
//     stays on the array is Run's run and result);
//   - an explicit engine is honoured when it applies, and refused with a
//     one-line reason when it does not.
func ChooseEngine[S comparable, P Protocol[S]](p P, n int64, opt Options, e Engine) (Engine, error) {
	_, census := any(p).(Census[S])
	countOK := opt.Scheduler != WithRepeats && (census || n <= MaxInitCalls)
	switch e {
	case "", AgentArray:
		return AgentArray, agentArrayFits[S](p, n)
	case Batched, NullSkipping, Hybrid:
		if only, ok := any(p).(AgentArrayOnly); ok {
			return "", fmt.Errorf("pp: %s runs on the agent-array engine only: %s", p.Spec().Name, only.AgentArrayOnly())
		}
		if !countOK {
			if opt.Scheduler == WithRepeats {
				return "", fmt.Errorf("pp: the %s engine simulates the ordered scheduler; with-repeats runs on the agent-array engine only", e)
			}
			return "", fmt.Errorf("pp: %s numbers its agents (n distinct initial states): the %s engine needs n <= %d, got %d", p.Spec().Name, e, MaxInitCalls, n)
		}
		if n < 2 || n > MaxCountN {
			return "", fmt.Errorf("pp: n must be between 2 and %d for the %s engine, got %d", int64(MaxCountN), e, n)
		}
		return e, nil
	case Auto:
		_, only := any(p).(AgentArrayOnly)
		few := !census && n <= MaxInitCalls && fewInitialStates[S](p, n)
		if !(census || few) || opt.Scheduler == WithRepeats || only || (n < autoMinCount && opt.Sample != nil) {
			if err := agentArrayFits[S](p, n); err != nil {
				if !census {
					return "", fmt.Errorf("%v (%s numbers its agents, so only the agent-array engine applies)", err, p.Spec().Name)
				}
				return "", fmt.Errorf("%v (the with-repeats scheduler runs on the agent-array engine only)", err)
			}
			return AgentArray, nil
		}
		if n > MaxCountN {
			return "", fmt.Errorf("pp: n must be between 2 and %d, got %d", int64(MaxCountN), n)
		}
		return Hybrid, nil
	}
	return "", fmt.Errorf("pp: unknown engine %q; engines: agent-array, batched, null-skipping, auto", e)
}

// fewInitialStates reports whether a protocol without a census starts its
// agents in few states: at most 16 distinct among 256 agents spread evenly
// over the IDs. Numbered-known's agents all start alike but for the one
// with the largest ID, so the count engines set it up as n Init calls into
// two states, at about half the agent array's cost (whose set-up writes n
// states and whose result recounts them); the epidemics' agents start in n
// distinct states, which only the agent array handles well. The probe only
// chooses the engine: every engine has the same law.
func fewInitialStates[S comparable](p Protocol[S], n int64) bool {
	const probes, most = 256, 16
	seen := make(map[S]struct{}, most+1)
	for k := range int64(probes) {
		seen[p.Init(int(k*(n-1)/(probes-1)))] = struct{}{}
		if len(seen) > most {
			return false
		}
	}
	return true
}

// agentArrayFits checks that n agents fit the agent-array engine.
func agentArrayFits[S comparable, P Protocol[S]](p P, n int64) error {
	if n < 2 || n > MaxN {
		return fmt.Errorf("pp: the agent-array engine takes n between 2 and %d, got %d", MaxN, n)
	}
	var s S
	if need := n * int64(unsafe.Sizeof(s)); need > AgentArrayBudget {
		return fmt.Errorf("pp: the agent-array engine would need %d MiB for %d agents (budget %d MiB)", need>>20, n, AgentArrayBudget>>20)
	}
	return nil
}

// Simulate runs protocol p on n agents with the engine opt.Engine (the zero
// value is the agent-array reference engine; Auto chooses, see
// ChooseEngine). The result's Engine field names the engine that ran.
func Simulate[S comparable, P Protocol[S]](p P, n int, seed uint64, opt Options) (Result, error) {
	e, err := ChooseEngine[S](p, int64(n), opt, opt.Engine)
	if err != nil {
		return Result{}, err
	}
	if opt.Sample != nil {
		return simulateSampled[S](p, n, seed, opt, e)
	}
	if e == AgentArray {
		return Run[S](p, n, seed, opt), nil
	}
	s, err := NewCountSim[S](p, int64(n), seed, opt, e)
	if err != nil {
		return Result{}, err
	}
	if _, census := any(p).(Census[S]); census && e == Hybrid && opt.Engine == Auto && int64(n) < autoMinCount && s.arrayOK {
		s.startOnArray()
	}
	s.Advance(math.MaxInt64)
	return s.Result(), nil
}
