package check

import (
	"fmt"
	"math"
	"math/big"
	"unsafe"

	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/topology"
)

// Estimate is what a check will take, known before it starts: how many
// configurations it checks (counted, not listed) and the memory that
// holding their results and the workers' searches takes at most.
type Estimate struct {
	Configurations int64
	// Bytes is the memory the check needs at most: each configuration's
	// results, and each worker's search at --max-states states.
	Bytes float64
	// Limit is the memory guard (Options.MemLimit, or
	// scenario.DefaultMemLimit).
	Limit int64
	// Describe says where the configurations come from ("every assignment
	// of 1..8 up to rotation, every non-empty set of initiators").
	Describe string
}

// bytesPerState is what one distinct state of a search keeps: its key and
// index in the visited set (an open-addressing table at most half full:
// 40 bytes), and its extremes, nq values of 8 bytes each, twice.
func bytesPerState(nq int) float64 { return 40 + 16*float64(nq) }

// bytesPerConfig is what one configuration's results keep until the report
// is made: its record, its own copy of the run's configuration, its IDs
// and wake-ups, and its extremes; with a quarter for the allocator's
// rounding.
func bytesPerConfig(n, nq int, wakes int) float64 {
	b := float64(unsafe.Sizeof(config{})) + float64(unsafe.Sizeof(election.Config{})) +
		float64(n)*8 + float64(wakes)*float64(unsafe.Sizeof(election.Wake{})) + 2*float64(nq)*8 + 16
	return b * 1.25
}

// countConfigurations counts the configurations opt describes without
// listing them: the ID assignments (n!, or (n-1)! on a ring of a
// deterministic algorithm, up to rotation) times the initiator sets
// (2^n - 1 with subsets; with times, every choice of a round in
// 0..last or none for each node with some node at round 0:
// (last+2)^n - (last+1)^n). It saturates at MaxInt64.
func countConfigurations(opt Options, base *election.Config) (int64, string) {
	n := base.Graph.N
	count := big.NewInt(1)
	describe := "one ID assignment"
	if opt.IDs == "all" {
		k := n
		describe = fmt.Sprintf("every assignment of 1..%d", n)
		if base.Graph.Kind == topology.Ring && !base.Algorithm.RunModel(base.Params).Randomized && n > 0 {
			k = n - 1
			describe += " up to rotation"
		}
		count.MulRange(1, int64(max(k, 1)))
	}
	switch opt.Initiators {
	case "subsets":
		sets := new(big.Int).Lsh(big.NewInt(1), uint(n))
		count.Mul(count, sets.Sub(sets, big.NewInt(1)))
		describe += ", every non-empty set of initiators"
	case "times":
		last := opt.WakeRounds
		if last <= 0 {
			last = n - 1
		}
		a := new(big.Int).Exp(big.NewInt(int64(last+2)), big.NewInt(int64(n)), nil)
		b := new(big.Int).Exp(big.NewInt(int64(last+1)), big.NewInt(int64(n)), nil)
		count.Mul(count, a.Sub(a, b))
		describe += fmt.Sprintf(", every choice of wake-up rounds in 0..%d", last)
	}
	if !count.IsInt64() {
		return math.MaxInt64, describe
	}
	return count.Int64(), describe
}

// Estimated returns what the check opt describes will take, without
// listing its configurations or exploring anything; an error for an
// algorithm or options the check would refuse.
func Estimated(opt Options) (*Estimate, error) {
	base, err := scenario.Build(withIDs(opt.Spec, "increasing", opt.Delivery))
	if err != nil {
		return nil, err
	}
	return estimate(opt, base), nil
}

func estimate(opt Options, base *election.Config) *Estimate {
	count, describe := countConfigurations(opt, base)
	n := base.Graph.N
	nq := len(base.Algorithm.Messages) + 2
	wakes := 0
	if opt.Initiators == "subsets" || opt.Initiators == "times" {
		wakes = n
	}
	maxStates := opt.MaxStates
	if maxStates <= 0 {
		maxStates = defaultMaxStates
	}
	workers := int64(opt.Workers)
	if workers <= 0 {
		workers = int64(defaultWorkers())
	}
	e := &Estimate{Configurations: count, Describe: describe, Limit: opt.MemLimit}
	if e.Limit <= 0 {
		e.Limit = scenario.DefaultMemLimit()
	}
	e.Bytes = float64(count) * bytesPerConfig(n, nq, wakes)
	if base.Delivery != election.Sync {
		e.Bytes += float64(min(workers, count)) * float64(maxStates) * bytesPerState(nq)
	}
	return e
}

// refusal is the error of a check that its memory guard refuses, with what
// to pass instead.
func (e *Estimate) refusal(opt Options, base *election.Config) error {
	if e.Bytes <= float64(e.Limit) {
		return nil
	}
	n := base.Graph.N
	perConfig := e.Bytes / float64(max(e.Configurations, 1))
	advice := "lower --max-states or --workers"
	if e.Configurations > 1 {
		// The largest n whose configurations fit.
		fit := n - 1
		for ; fit > 1; fit-- {
			g := &topology.Graph{N: fit, Kind: base.Graph.Kind}
			c, _ := countConfigurations(opt, &election.Config{Algorithm: base.Algorithm, Params: base.Params, Graph: g})
			if float64(c)*perConfig <= float64(e.Limit)/2 {
				break
			}
		}
		advice = fmt.Sprintf("pass --ids LIST (or --ids random) to check one assignment, or --n %d or less", fit)
		if opt.Initiators == "subsets" || opt.Initiators == "times" {
			advice = fmt.Sprintf("pass --ids LIST (or --ids random) and --initiators all, or --n %d or less", fit)
		}
	}
	return fmt.Errorf("%s --n %d: %s configurations (%s) need about %s to check, beyond the memory guard's %s; %s",
		base.Algorithm.Name, n, groupDigits(e.Configurations), e.Describe, scenario.BytesString(int64(math.Min(e.Bytes, math.MaxInt64/2))),
		scenario.BytesString(e.Limit), advice)
}

// groupDigits writes k with thousands separators.
func groupDigits(k int64) string {
	s := fmt.Sprint(k)
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
