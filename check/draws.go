package check

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/sim"
	"github.com/electkit/elect/topology"
)

// Exact probabilities (Options.Draws). A randomized node draws from its
// random source; with Draws = K, the range its algorithm declares
// (Algorithm.DrawRange), every draw is a branch into K equally likely
// values instead of one seeded value: value q is the 64-bit word
// that makes IntN(K), Int64N(K) and Uint64N(K) return q (whether K is a
// power of two, which those read from the low bits, or not, which they
// read from the high half of a product) and whose top log2(K) bits are q
// when K is a power of two, so draws over K values (Itai-Rodeh's ids in
// 1..n with K = n, or b random bits with K = 2^b) take each value with
// probability exactly 1/K. Draws over other ranges, or floats, would be
// approximated: hence the declared range, which --draws must match.
//
// The search needs one schedule per state, so that the draws are the only
// choices and the state graph is a Markov chain: a unidirectional ring
// under fifo with the partial-order reduction, where one delivery stands
// for all (and the executions of one draw sequence are all equivalent).
// Each step is made once per sequence of values of the draws it makes,
// enumerated depth first (a step's handler is deterministic given its
// draws, so a branch that asks for a draw beyond its sequence is the same
// as the sequence extended by the value 0, and the next branch increments
// the last value). The number of draws made is part of the state, and an
// execution that would make more than MaxDraws is cut there: it counts as
// "cut", not as an end.
//
// Probabilities are counted exactly as integers: a state after d draws
// holds K^(MaxDraws-d) equally likely continuations of the draws, and its
// weights (by the number of messages still to come, for the executions
// that end; by the messages sent before the cut, for those cut) sum to
// that; a step's weights are its successor's, shifted by the messages it
// sent. The initial state's weights over K^MaxDraws are the exact
// probabilities.

// drawSource is the random source of a node in draws mode: it returns the
// values of the branch being explored (model.script).
type drawSource struct{ x *model }

func (d drawSource) Uint64() uint64 {
	x := d.x
	q := 0
	if x.drawPos < len(x.script) {
		q = x.script[x.drawPos]
	}
	x.drawPos++
	return drawWord(q, x.draws)
}

// drawWord is the word that IntN(k) and its kind turn into q: the middle
// of the q-th of k equal parts of the 64-bit range, with its lowest bits
// q (IntN masks them when k is a power of two; the high half of the
// product with k, which it uses otherwise, does not see them).
func drawWord(q, k int) uint64 {
	hi, _ := bits.Div64(uint64(2*q+1), 0, uint64(2*k)) // (2q+1) 2^64 / 2k
	low := uint64(1)<<bits.Len(uint(k)) - 1
	return hi&^low | uint64(q)
}

// weight is an amount of probability at a number of messages.
type weight struct {
	messages int64
	w        uint64
}

// weights are a state's: of the executions that end, by the messages
// still to come, and of those cut, by the messages sent before the cut;
// both sorted by messages.
type weights struct{ done, cut []weight }

// addShifted adds c's weights with every message count increased by m.
func (ws *weights) addShifted(c *weights, m int64) {
	ws.done = mergeWeights(ws.done, c.done, m)
	ws.cut = mergeWeights(ws.cut, c.cut, m)
}

func mergeWeights(a, b []weight, shift int64) []weight {
	for _, e := range b {
		e.messages += shift
		i, found := slices.BinarySearchFunc(a, e.messages, func(x weight, m int64) int {
			switch {
			case x.messages < m:
				return -1
			case x.messages > m:
				return 1
			}
			return 0
		})
		if found {
			a[i].w += e.w
		} else {
			a = slices.Insert(a, i, e)
		}
	}
	return a
}

// powK returns K^e.
func (m *model) powK(e int) uint64 {
	p := uint64(1)
	for range e {
		p *= uint64(m.draws)
	}
	return p
}

var errDrawsSchedule = errors.New("exact probabilities need one schedule per state (a unidirectional ring under fifo, with the partial-order reduction)")

// drawSteps makes each of the steps at s (one, see above) once per
// sequence of values of its draws, and sums the weights of state id.
func (x *stateSpace) drawSteps(s *state, id int32, at int, steps []step, sent []int64) error {
	if len(steps) != 1 {
		return errDrawsSchedule
	}
	depth := len(x.path)
	for len(x.scriptBufs) <= depth {
		x.scriptBufs = append(x.scriptBufs, nil)
	}
	var ws weights
	st := steps[0]
	script := x.scriptBufs[depth][:0]
	budget := x.maxDraws - s.drawn
	j := 0
	for {
		var u undo
		x.save(&u, s, st.node)
		drawnBefore := s.drawn
		x.script, x.drawPos = script, 0
		clear(sent)
		v := x.apply(s, st, sent)
		used := x.drawPos
		x.script = nil
		for len(script) < min(used, budget) {
			script = append(script, 0) // the values the branch drew beyond its sequence
		}
		if used > budget {
			// Cut: the branch of its first budget draws, each of its
			// continuations past the cap.
			x.restore(s, &u)
			ws.cut = mergeWeights(ws.cut, []weight{{0, 1}}, 0)
		} else {
			x.edges++
			if v != nil {
				x.violation = v
				x.badPath = append(append([]step(nil), x.path...), st)
				return errViolation
			}
			x.setDrawn(s, drawnBefore+used)
			x.path = append(x.path, st)
			child, err := x.visit(s)
			x.path = x.path[:len(x.path)-1]
			if err != nil {
				return err
			}
			x.restore(s, &u)
			x.extremeStep(at, j == 0, child, sent)
			j++
			var total int64
			for _, c := range sent {
				total += c
			}
			ws.addShifted(&x.weights[child], total)
		}
		for len(script) > 0 && script[len(script)-1] == x.draws-1 {
			script = script[:len(script)-1]
		}
		if len(script) == 0 {
			break
		}
		script[len(script)-1]++
	}
	x.scriptBufs[depth] = script
	x.weights[id] = ws
	if j == 0 {
		// Every branch was cut: no execution from here ends within the
		// cap, so none counts in the extremes (which are of the
		// executions that end; the cut ones are Probabilities.CutMessages).
		for q := range x.quantities {
			x.max[at+q], x.min[at+q] = noEndMax, noEndMin
		}
	}
	return nil
}

// noEndMax and noEndMin are the extremes of a state from which no
// execution ends within the draws' cap: far below (above) any count, so
// that a step's extremes, which add a few messages, keep them out of the
// largest (smallest), and far from overflow.
const (
	noEndMax = math.MinInt64 / 4
	noEndMin = math.MaxInt64 / 4
)

// setDrawn records that n draws have been made on the way to s.
func (m *model) setDrawn(s *state, n int) {
	if m.draws == 0 {
		return
	}
	s.sumH = addKey(subKey(s.sumH, drawnPart(s.drawn)), drawnPart(n))
	s.drawn = n
}

// drawnPart is the hash of the number of draws made, a part of the state
// in draws mode.
func drawnPart(n int) stateKey { return newHasher(drawnTag, uint64(n)).sum() }

// Fraction is an exact probability.
type Fraction struct {
	Num   uint64  `json:"num"`
	Den   uint64  `json:"den"`
	Value float64 `json:"value"`
}

func fraction(num, den uint64) Fraction {
	g := gcd(num, den)
	if g == 0 {
		g = 1
	}
	return Fraction{num / g, den / g, float64(num) / float64(den)}
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (f Fraction) String() string {
	if f.Den == 1 {
		return fmt.Sprintf("%d", f.Num)
	}
	return fmt.Sprintf("%d/%d = %.6f", f.Num, f.Den, f.Value)
}

// MessagesProbability is the exact probability that an execution ends
// with a number of messages, and the simulator's measured rate of it.
type MessagesProbability struct {
	Messages    int64    `json:"messages"`
	Probability Fraction `json:"probability"`
	Measured    float64  `json:"measured"`
	MeasuredSE  float64  `json:"measured_se"`
}

// Probabilities are the exact probabilities of a check with --draws.
type Probabilities struct {
	Draws    int      `json:"draws"`
	MaxDraws int      `json:"max_draws"`
	Ends     Fraction `json:"ends"` // an execution ends (one leader, every check held) within MaxDraws draws
	Cut      Fraction `json:"cut"`  // it needs more draws
	// Messages are the probabilities of each total number of messages of
	// the executions that end within the cap; for every count below
	// ExactBelow they are the whole probability of that count (no
	// execution cut at the cap has sent fewer messages by then).
	Messages   []MessagesProbability `json:"messages"`
	ExactBelow int64                 `json:"exact_below"`
	// CutMessages are the probabilities of the executions cut at the
	// cap, by the number of messages they sent before it: apart from
	// Messages and from the report's extremes, which are of the
	// executions that end.
	CutMessages []MessagesProbability `json:"cut_messages"`
	// Trials is how many runs of the simulator (seeds 1..Trials) the
	// measured rates come from.
	Trials int `json:"trials"`
}

// probabilities turns the initial state's weights into the report's.
func (x *stateSpace) probabilities(root int32) *Probabilities {
	ws := x.weights[root]
	den := x.powK(x.maxDraws)
	p := &Probabilities{Draws: x.draws, MaxDraws: x.maxDraws, ExactBelow: -1}
	var ends, cut uint64
	for _, e := range ws.done {
		ends += e.w
		p.Messages = append(p.Messages, MessagesProbability{Messages: e.messages, Probability: fraction(e.w, den)})
	}
	for _, e := range ws.cut {
		cut += e.w
		p.CutMessages = append(p.CutMessages, MessagesProbability{Messages: e.messages, Probability: fraction(e.w, den)})
	}
	if len(ws.cut) > 0 {
		p.ExactBelow = ws.cut[0].messages
	}
	p.Ends, p.Cut = fraction(ends, den), fraction(cut, den)
	return p
}

var errNoTraceWithDraws = errors.New("no trace with --draws: a trace replays with the nodes' seeded streams, not the branches' draws")

// checkDraws validates a check with draws, and fills in its defaults.
func checkDraws(opt *Options, base *election.Config, configs int) error {
	model := base.Algorithm.RunModel(base.Params)
	alg := base.Algorithm
	switch {
	case !model.Randomized:
		return fmt.Errorf("--draws: %s draws nothing; exact probabilities are for randomized algorithms", alg.Name)
	case alg.DrawRange == nil:
		return fmt.Errorf("--draws: %s does not declare the range of its draws (Algorithm.DrawRange), so they cannot be branched on exactly", alg.Name)
	}
	if opt.Draws < 0 {
		opt.Draws = alg.DrawRange(base.Graph.N, base.Params)
	}
	switch k := alg.DrawRange(base.Graph.N, base.Params); {
	case opt.Draws != k:
		return fmt.Errorf("--draws: %s's draws take %d values on %d nodes with these parameters, not %d", alg.Name, k, base.Graph.N, opt.Draws)
	case opt.Draws < 2:
		return fmt.Errorf("--draws: %s's draws take %d value: nothing to branch on", alg.Name, opt.Draws)
	case opt.Delivery != "fifo" || opt.NoReduction || base.Graph.Kind != topology.Ring || base.Algorithm.Model.Topology != elect.UniRing:
		return fmt.Errorf("--draws: %v; %s with --delivery %s does not give that", errDrawsSchedule, base.Algorithm.Name, opt.Delivery)
	case configs != 1:
		return fmt.Errorf("--draws: one configuration at a time (got %d): give --ids an arrangement and leave --initiators at all", configs)
	}
	if opt.MaxDraws == 0 {
		opt.MaxDraws = 3 * base.Graph.N
	}
	if opt.MaxDraws < 1 {
		return fmt.Errorf("--max-draws %d: use 1 or more", opt.MaxDraws)
	}
	if float64(opt.MaxDraws)*math.Log2(float64(opt.Draws)) > 62 {
		return fmt.Errorf("--draws: %d draws (--max-draws) of %d values each make more than 2^62 branches, beyond exact counting in 64 bits; lower --max-draws or the draws' range (lcr-random: --bits)", opt.MaxDraws, opt.Draws)
	}
	switch {
	case opt.Trials == 0:
		opt.Trials = 10_000
	case opt.Trials < 0:
		opt.Trials = 0 // none asked for
	}
	return nil
}

// measureRates runs the simulator trials times on cfg (seeds 1..trials)
// and sets the measured rate of each message count of p, with its
// standard error.
func measureRates(p *Probabilities, cfg *election.Config, trials int) error {
	p.Trials = trials
	if trials == 0 {
		return nil
	}
	count := map[int64]int{}
	for seed := 1; seed <= trials; seed++ {
		c := *cfg
		c.Seed = uint64(seed)
		res, err := sim.Run(c)
		if err != nil {
			return err
		}
		count[res.Messages]++
	}
	for i := range p.Messages {
		f := float64(count[p.Messages[i].Messages]) / float64(trials)
		p.Messages[i].Measured, p.Messages[i].MeasuredSE = f, math.Sqrt(f*(1-f)/float64(trials))
	}
	return nil
}
