package check

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/pp/protocols"
)

// Population protocols are checked over their configuration graph: agents
// are anonymous to the scheduler, so a configuration is how many agents
// are in each state, and an interaction of an initiator in state a with a
// responder in state b (a pair the configuration holds) leads to the
// configuration with those two agents replaced by the transition's
// results. Under the usual fairness of population protocols (a
// configuration reachable infinitely often is reached infinitely often:
// Angluin et al. 2006, as in seed 000), every fair execution ends in a
// bottom strongly connected component of this graph and visits all of
// it. So a protocol stabilises to a correct output from its initial
// configuration exactly when every bottom component holds only correct
// configurations: the goal reached (one leader, or every agent counted)
// and, for protocols that start with leaders, exactly one of them. The
// uniformly random scheduler of the simulator is fair with probability 1,
// and the probability that it ends in each bottom component is computed
// exactly (up to the tolerance of value iteration, 1e-12) over the same
// graph, for comparison with the simulator's measured rates.

// PopulationOptions describe a check of a population protocol.
type PopulationOptions struct {
	Protocol  string            // a name of Populations
	N         int               // agents
	Params    map[string]string // the protocol's parameters (Populations' Params)
	MaxStates int64             // configurations; 0: 2 million
}

// Bottom is one bottom strongly connected component: where fair executions
// end.
type Bottom struct {
	Configurations int     `json:"configurations"`
	Example        string  `json:"example"` // one of its configurations, as counts by state
	Leaders        int64   `json:"leaders"`
	Goal           int64   `json:"goal"`
	Correct        bool    `json:"correct"`
	Probability    float64 `json:"probability"` // of ending here under the uniformly random scheduler
	// Path is a shortest sequence of interactions, initiator's and
	// responder's states, from the initial configuration into it.
	Path []string `json:"path"`
}

// PopulationReport is the outcome of a population protocol's check.
type PopulationReport struct {
	Protocol       string   `json:"protocol"`
	N              int      `json:"n"`
	Verdict        string   `json:"verdict"` // ok, violation, incomplete
	Property       string   `json:"property"`
	Violation      string   `json:"violation,omitempty"`
	Configurations int64    `json:"configurations"`
	Transitions    int64    `json:"transitions"`
	Initial        string   `json:"initial"`
	Bottoms        []Bottom `json:"bottoms"`
	// CorrectProbability is the probability that the uniformly random
	// scheduler ends in a correct bottom component.
	CorrectProbability float64 `json:"correct_probability"`
	Seconds            float64 `json:"seconds"`
	StatesPerSec       float64 `json:"states_per_second"`
}

// PopulationEntry is a protocol the checker knows: those with few states
// per agent, where the configuration graph of n <= 10 agents is small.
type PopulationEntry struct {
	Name   string
	Params []protocols.Param
	run    func(o PopulationOptions) (*PopulationReport, error)
}

// Populations lists the protocols `elect check` explores.
var Populations = []PopulationEntry{
	{Name: "angluin", run: func(o PopulationOptions) (*PopulationReport, error) {
		return explorePopulation(o, protocols.NewAngluin(o.N), func(s uint8) string {
			if s == 1 {
				return "L"
			}
			return "F"
		})
	}},
	{Name: "epidemic", Params: []protocols.Param{{Name: "variant", Default: "prose", Help: "prose, or literal (seed 000's pseudo-code: leaders may reach zero)"}},
		run: func(o PopulationOptions) (*PopulationReport, error) {
			v := o.Params["variant"]
			if v != "" && v != "prose" && v != "literal" {
				return nil, fmt.Errorf("--variant %q: use prose or literal", v)
			}
			return explorePopulation(o, protocols.NewEpidemic(o.N, v), func(s uint32) string {
				name := strconv.Itoa(int(s &^ (1 << 31)))
				if s&(1<<31) != 0 {
					name += "*" // isLeader
				}
				return name
			})
		}},
	{Name: "approx-majority", Params: []protocols.Param{{Name: "a", Default: "n/2+1", Help: "agents that start with opinion A (the others hold B)"}},
		run: func(o PopulationOptions) (*PopulationReport, error) {
			a := int64(o.N/2 + 1)
			if v, ok := o.Params["a"]; ok && v != "" {
				x, err := strconv.ParseInt(v, 10, 64)
				if err != nil || x < 0 || x > int64(o.N) {
					return nil, fmt.Errorf("--a %q: the number of agents holding A, in 0..%d", v, o.N)
				}
				a = x
			}
			return explorePopulation(o, protocols.NewApproxMajority(int64(o.N), a), func(s uint8) string {
				return [...]string{protocols.AMBlank: "U", protocols.AMA: "A", protocols.AMB: "B"}[s]
			})
		}},
}

// LookupPopulation returns the entry called name.
func LookupPopulation(name string) (PopulationEntry, bool) {
	i := slices.IndexFunc(Populations, func(e PopulationEntry) bool { return e.Name == name })
	if i < 0 {
		return PopulationEntry{}, false
	}
	return Populations[i], true
}

// Run checks the protocol of o.
func (e PopulationEntry) Run(o PopulationOptions) (*PopulationReport, error) {
	if o.N < 2 || o.N > 1000 {
		return nil, fmt.Errorf("--n %d: a population needs at least 2 agents, and the checker at most 1000 (expect n <= 10 to be practical)", o.N)
	}
	if o.MaxStates <= 0 {
		o.MaxStates = 2_000_000
	}
	return e.run(o)
}

// popGraph is the configuration graph: configurations as counts over the
// states met so far (in the order they were met), their successors with
// the number of ordered agent pairs that lead there.
type popGraph[S comparable] struct {
	states  []S
	index   map[S]int
	configs [][]int32 // counts by state index (shorter when later states were met after)
	key     map[string]int
	succ    [][]popEdge
	parent  []popStep // the BFS tree: how each configuration was first reached
}

type popEdge struct {
	to    int
	pairs int64 // ordered pairs of agents that lead there
}

type popStep struct {
	from int
	a, b int // the states of the initiator and the responder
}

func (g *popGraph[S]) stateIndex(s S) int {
	if i, ok := g.index[s]; ok {
		return i
	}
	g.index[s] = len(g.states)
	g.states = append(g.states, s)
	return len(g.states) - 1
}

func configKey(c []int32) string {
	for len(c) > 0 && c[len(c)-1] == 0 {
		c = c[:len(c)-1]
	}
	b := make([]byte, 0, 4*len(c))
	for _, x := range c {
		b = strconv.AppendInt(b, int64(x), 36)
		b = append(b, ',')
	}
	return string(b)
}

// add returns the index of configuration c, adding it when it is new.
func (g *popGraph[S]) add(c []int32, from popStep) (int, bool) {
	k := configKey(c)
	if i, ok := g.key[k]; ok {
		return i, false
	}
	i := len(g.configs)
	g.key[k] = i
	g.configs = append(g.configs, c)
	g.succ = append(g.succ, nil)
	g.parent = append(g.parent, from)
	return i, true
}

func explorePopulation[S comparable](o PopulationOptions, p pp.Protocol[S], name func(S) string) (*PopulationReport, error) {
	start := time.Now()
	spec := p.Spec()
	g := &popGraph[S]{index: map[S]int{}, key: map[string]int{}}
	init := make([]int32, 0)
	for i := range o.N {
		k := g.stateIndex(p.Init(i))
		for len(init) <= k {
			init = append(init, 0)
		}
		init[k]++
	}
	g.add(init, popStep{from: -1})
	r := &PopulationReport{Protocol: spec.Name, N: o.N, Verdict: "ok"}
	leaders := func(c []int32) int64 {
		var l int64
		for s, x := range c {
			if x > 0 && p.IsLeader(g.states[s]) {
				l += int64(x)
			}
		}
		return l
	}
	goal := func(c []int32) int64 {
		var n int64
		for s, x := range c {
			if x > 0 && inGoal(p, g.states[s]) {
				n += int64(x)
			}
		}
		return n
	}
	elects := leaders(init) > 0
	switch {
	case spec.Goal == pp.GoalOneLeader:
		r.Property = "every fair execution stabilises to exactly one leader"
	case elects:
		r.Property = fmt.Sprintf("every fair execution stabilises to %d agents in the goal, with exactly one leader", spec.Target)
	default:
		r.Property = fmt.Sprintf("every fair execution stabilises to %d agents in the goal", spec.Target)
	}
	correct := func(c []int32) bool {
		if spec.Goal == pp.GoalOneLeader {
			return leaders(c) == 1
		}
		return goal(c) == spec.Target && (!elects || leaders(c) == 1)
	}
	// Breadth-first over configurations; a monotone protocol's leaders
	// are checked on every transition.
	for i := 0; i < len(g.configs); i++ {
		c := g.configs[i]
		var edges map[int]int64
		for a := range c {
			for b := range c {
				pairs := int64(c[a]) * int64(c[b])
				if a == b {
					pairs = int64(c[a]) * int64(c[a]-1)
				}
				if pairs == 0 {
					continue
				}
				x, y := g.states[a], g.states[b]
				p.Interact(&x, &y)
				next := slices.Clone(c)
				next[a]--
				next[b]--
				for _, s := range [2]int{g.stateIndex(x), g.stateIndex(y)} {
					for len(next) <= s {
						next = append(next, 0)
					}
					next[s]++
				}
				j, isNew := g.add(next, popStep{from: i, a: a, b: b})
				if isNew && int64(len(g.configs)) > o.MaxStates {
					r.Verdict = "incomplete"
					return finishPopulation(r, g, start), nil
				}
				if spec.Monotone && r.Violation == "" {
					before, after := leaders(c), leaders(g.configs[j])
					if after > before || after == 0 {
						r.Violation = fmt.Sprintf("monotone leaders: %s meeting %s takes the leaders from %d to %d, after %s",
							name(g.states[a]), name(g.states[b]), before, after, strings.Join(popPath(g, i, name), ", "))
					}
				}
				if edges == nil {
					edges = map[int]int64{}
				}
				edges[j] += pairs
			}
		}
		for _, j := range slices.Sorted(maps.Keys(edges)) {
			g.succ[i] = append(g.succ[i], popEdge{to: j, pairs: edges[j]})
			r.Transitions++
		}
	}
	comp, bottoms := bottomComponents(g.succ)
	prob := absorption(g.succ, comp, bottoms, int64(o.N)*int64(o.N-1))
	r.Initial = popConfig(g, init, name)
	r.CorrectProbability = 0
	for k, members := range bottoms {
		c := g.configs[members[0]]
		ok := true
		for _, m := range members {
			ok = ok && correct(g.configs[m])
		}
		b := Bottom{Configurations: len(members), Example: popConfig(g, c, name), Leaders: leaders(c), Goal: goal(c),
			Correct: ok, Probability: prob[k], Path: popPath(g, members[0], name)}
		if ok {
			r.CorrectProbability += prob[k]
		} else if r.Violation == "" {
			r.Violation = fmt.Sprintf("a bottom component (%s) is not correct: fair executions that reach it never stabilise correctly", b.Example)
		}
		r.Bottoms = append(r.Bottoms, b)
	}
	if r.Violation != "" {
		r.Verdict = "violation"
	}
	return finishPopulation(r, g, start), nil
}

func finishPopulation[S comparable](r *PopulationReport, g *popGraph[S], start time.Time) *PopulationReport {
	r.Configurations = int64(len(g.configs))
	r.Seconds = time.Since(start).Seconds()
	if r.Seconds > 0 {
		r.StatesPerSec = float64(r.Configurations) / r.Seconds
	}
	return r
}

func inGoal[S comparable](p pp.Protocol[S], s S) bool {
	if g, ok := p.(pp.Goaler[S]); ok {
		return g.InGoal(s)
	}
	return false
}

// popConfig writes a configuration as counts by state, in the order the
// states were met.
func popConfig[S comparable](g *popGraph[S], c []int32, name func(S) string) string {
	var parts []string
	for s, x := range c {
		if x > 0 {
			parts = append(parts, fmt.Sprintf("%s:%d", name(g.states[s]), x))
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// popPath is the interactions of the BFS tree from the initial
// configuration to configuration i: a shortest way there.
func popPath[S comparable](g *popGraph[S], i int, name func(S) string) []string {
	var out []string
	for g.parent[i].from >= 0 {
		st := g.parent[i]
		out = append(out, name(g.states[st.a])+"+"+name(g.states[st.b]))
		i = st.from
	}
	slices.Reverse(out)
	return out
}

// bottomComponents finds the strongly connected components (Tarjan's
// algorithm, iteratively) and returns each configuration's component and
// the members of the bottom ones (no edge leaves them), in the order of
// their first member.
func bottomComponents(succ [][]popEdge) ([]int, [][]int) {
	n := len(succ)
	index, low, comp := make([]int, n), make([]int, n), make([]int, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	onStack := make([]bool, n)
	var stack []int
	var comps [][]int
	next := 0
	type frame struct{ v, e int }
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		calls := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			if f.e < len(succ[f.v]) {
				w := succ[f.v][f.e].to
				f.e++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					calls = append(calls, frame{w, 0})
				case onStack[w]:
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				u := calls[len(calls)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				var members []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = len(comps)
					members = append(members, w)
					if w == v {
						break
					}
				}
				slices.Sort(members)
				comps = append(comps, members)
			}
		}
	}
	var bottoms [][]int
	for k, members := range comps {
		bottom := true
		for _, v := range members {
			for _, e := range succ[v] {
				bottom = bottom && comp[e.to] == k
			}
		}
		if bottom {
			bottoms = append(bottoms, members)
		}
	}
	slices.SortFunc(bottoms, func(a, b []int) int { return a[0] - b[0] })
	return comp, bottoms
}

// absorption returns, for each bottom component, the probability that the
// uniformly random scheduler (every ordered pair of distinct agents alike,
// total pairs in all) ends there from configuration 0: Gauss-Seidel
// iterations of x(c) = sum over c's successors of P(c, c') x(c'), until no
// value moves by more than 1e-12 (or a million sweeps).
func absorption(succ [][]popEdge, comp []int, bottoms [][]int, total int64) []float64 {
	out := make([]float64, len(bottoms))
	bottomOf := map[int]int{}
	for k, members := range bottoms {
		bottomOf[comp[members[0]]] = k
	}
	x := make([]float64, len(succ))
	for k := range bottoms {
		for i := range x {
			x[i] = 0
			if b, ok := bottomOf[comp[i]]; ok && b == k {
				x[i] = 1
			}
		}
		for sweep := 0; sweep < 1_000_000; sweep++ {
			moved := 0.0
			for i := len(succ) - 1; i >= 0; i-- {
				if _, ok := bottomOf[comp[i]]; ok {
					continue
				}
				var stay int64
				var sum float64
				for _, e := range succ[i] {
					if e.to == i {
						stay += e.pairs
						continue
					}
					sum += float64(e.pairs) * x[e.to]
				}
				v := sum / float64(total-stay)
				moved = math.Max(moved, math.Abs(v-x[i]))
				x[i] = v
			}
			if moved < 1e-12 {
				break
			}
		}
		out[k] = x[0]
	}
	return out
}
