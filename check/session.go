package check

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
	"github.com/electkit/elect/trace"
)

// A Session is one execution that a user schedules step by step ('elect
// explore', "be the scheduler"): at each state the steps the scheduler may
// take (the wake-ups, then a delivery of a message in flight), each with
// what any continuation after it can still achieve, from the checker's
// per-state extremes. Without --ids the first choice is the ID assignment
// (every one, up to rotation on rings, as 'elect check' explores them).
//
// Each configuration is searched whole once (without the partial-order
// reduction, so that every enabled step leads to a state whose extremes
// are known), then the session walks that state graph: a step applies to
// the current state and looks its result up among the states searched; an
// undo restores it, as the search itself does.
type Session struct {
	// Names are the quantities counted: each message type, "messages"
	// (all), and "time" (causal depth).
	Names []string
	opt   Options
	cfgs  []*config
	xs    []*stateSpace // by configuration, searched when needed; only the chosen one is kept
	// roots are each configuration's extremes from its start, found by
	// SearchRoots (in the background while the page is served) or when a
	// configuration is chosen, and kept when its search is dropped.
	roots rootSearch
	cur   int // the configuration chosen, -1 before
	x     *stateSpace
	s     *state
	undos []undo
	sent  [][]int64 // the messages each step taken sent, by quantity
	steps []step
}

// Choice is a step the scheduler may take.
type Choice struct {
	Label string `json:"label"`
	// Adds is what the step itself counts, by quantity; Max and Min the
	// most and fewest of each quantity an execution can reach in all,
	// from the start, if it takes this step (time: the largest causal
	// depth at the end). An ID assignment whose search has not ended yet
	// has neither (Pending); one whose search failed has Error instead.
	Adds    []int64 `json:"adds"`
	Max     []int64 `json:"max"`
	Min     []int64 `json:"min"`
	Pending bool    `json:"pending,omitempty"`
	Error   string  `json:"error,omitempty"`
}

// NewSession prepares a session for the algorithm and network of
// opt.Spec, with opt.IDs ("all": the user chooses among every assignment),
// opt.Delivery ("fifo" or "bag") and opt.MaxStates per configuration.
func NewSession(opt Options) (*Session, error) {
	if opt.Delivery == "sync" {
		return nil, errors.New("explore: it schedules asynchronous runs (--delivery fifo or bag): a synchronous run has one schedule")
	}
	if opt.Delivery == "" {
		opt.Delivery = "fifo"
	}
	if opt.IDs == "" {
		opt.IDs = "all"
	}
	if opt.MaxStates <= 0 {
		opt.MaxStates = 2_000_000
	}
	base, err := scenario.Build(withIDs(opt.Spec, "increasing", opt.Delivery))
	if err != nil {
		return nil, err
	}
	if _, ok := base.Algorithm.New(elect.NodeInfo{ID: 1, N: 2, Degree: 2, Params: base.Params}).(elect.Snapshotter); !ok {
		return nil, fmt.Errorf("explore: %s's nodes do not implement elect.Snapshotter: it needs to copy and compare their states", base.Algorithm.Name)
	}
	if base.Algorithm.RunModel(base.Params).Randomized {
		return nil, fmt.Errorf("explore: %s draws random numbers; explore schedules deterministic algorithms", base.Algorithm.Name)
	}
	cfgs, err := configurations(opt, base)
	if err != nil {
		return nil, err
	}
	ss := &Session{opt: opt, cfgs: cfgs, xs: make([]*stateSpace, len(cfgs)), cur: -1}
	ss.roots.init(len(cfgs))
	for _, m := range base.Algorithm.Messages {
		ss.Names = append(ss.Names, m.Name)
	}
	ss.Names = append(ss.Names, "messages", "time")
	return ss, nil
}

// search returns configuration k's searched state space.
func (ss *Session) search(k int) (*stateSpace, error) {
	if ss.xs[k] != nil {
		return ss.xs[k], nil
	}
	x, err := ss.searchConfig(k, nil)
	if err != nil {
		return nil, err
	}
	ss.xs[k] = x
	return x, nil
}

func (ss *Session) choose(k int) error {
	x, err := ss.search(k)
	if err != nil {
		return err
	}
	ss.cur, ss.x, ss.s = k, x, x.initial()
	return nil
}

// chooseOnly chooses the only configuration, when there is one (fixed
// IDs), the first time it is needed.
func (ss *Session) chooseOnly() error {
	if ss.cur >= 0 || len(ss.cfgs) != 1 {
		return nil
	}
	return ss.choose(0)
}

// IDs is the chosen ID assignment (nil before it is chosen).
func (ss *Session) IDs() []elect.ID {
	if ss.cur < 0 {
		return nil
	}
	return ss.cfgs[ss.cur].cfg.IDs
}

// Counts is what the steps taken so far counted, by quantity (time: the
// largest causal depth so far).
func (ss *Session) Counts() []int64 {
	c := make([]int64, len(ss.Names))
	for _, s := range ss.sent {
		for q := range c {
			c[q] += stepAdds(q, s)
		}
	}
	if ss.s != nil {
		c[len(c)-1] = maxDepth(ss.s)
	}
	return c
}

// id is the current state's index among the searched ones.
func (ss *Session) id() int32 {
	_, k := ss.x.keys(ss.s)
	id, ok := ss.x.memo.get(k)
	if !ok {
		panic("check: explore reached a state its search did not") // every step of a searched state was searched
	}
	return id
}

// Reach is the most and fewest of each quantity an execution can reach in
// all from the start, given the steps taken (before the ID assignment is
// chosen: over every assignment).
//
// Before the assignment is chosen, while SearchRoots runs, they are over
// the assignments searched so far (nil before the first).
func (ss *Session) Reach() (hi, lo []int64, err error) {
	if err := ss.chooseOnly(); err != nil {
		return nil, nil, err
	}
	if ss.cur < 0 {
		cs, err := ss.Choices()
		if err != nil {
			return nil, nil, err
		}
		for _, c := range cs {
			if c.Max == nil {
				continue
			}
			if hi == nil {
				hi, lo = slices.Clone(c.Max), slices.Clone(c.Min)
				continue
			}
			for q := range hi {
				hi[q], lo[q] = max(hi[q], c.Max[q]), min(lo[q], c.Min[q])
			}
		}
		return hi, lo, nil
	}
	h, l := ss.x.extremes(ss.id())
	return ss.total(h), ss.total(l), nil
}

// total adds what is left (extremes of the current state) to what was
// counted so far; time is the extreme itself.
func (ss *Session) total(left []int64) []int64 {
	c := ss.Counts()
	out := make([]int64, len(left))
	for q := range left {
		out[q] = c[q] + left[q]
	}
	out[len(out)-1] = left[len(left)-1]
	return out
}

// Choices lists the steps the scheduler may take now: the ID assignments
// first, when none is chosen (each with its extremes once SearchRoots or
// a choice has searched it); none at the end of the execution.
func (ss *Session) Choices() ([]Choice, error) {
	if err := ss.chooseOnly(); err != nil {
		return nil, err
	}
	if ss.cur < 0 {
		out := make([]Choice, 0, len(ss.cfgs))
		for k, c := range ss.cfgs {
			ch := Choice{Label: "IDs " + idsLabel(c.cfg.IDs), Adds: make([]int64, len(ss.Names))}
			hi, lo, err := ss.roots.get(k)
			switch {
			case err != nil:
				ch.Error = err.Error()
			case hi == nil:
				ch.Pending = true
			default:
				ch.Max, ch.Min = hi, lo
			}
			out = append(out, ch)
		}
		return out, nil
	}
	x, s := ss.x, ss.s
	steps := x.enabled(s, nil)
	out := make([]Choice, 0, len(steps))
	sent := make([]int64, len(ss.Names)-2)
	base := ss.Counts()
	for _, st := range steps {
		label := ss.label(st)
		var u undo
		x.save(&u, s, st.node)
		clear(sent)
		x.apply(s, st, sent)
		_, k := x.keys(s)
		child, ok := x.memo.get(k)
		depth := maxDepth(s)
		x.restore(s, &u)
		if !ok {
			return nil, errors.New("check: explore reached a state its search did not")
		}
		h, l := x.extremes(child)
		c := Choice{Label: label, Adds: make([]int64, len(ss.Names)), Max: make([]int64, len(ss.Names)), Min: make([]int64, len(ss.Names))}
		for q := range c.Adds {
			c.Adds[q] = stepAdds(q, sent)
			c.Max[q], c.Min[q] = base[q]+c.Adds[q]+h[q], base[q]+c.Adds[q]+l[q]
		}
		last := len(c.Adds) - 1
		c.Adds[last], c.Max[last], c.Min[last] = depth-base[last], h[last], l[last]
		out = append(out, c)
	}
	return out, nil
}

// label says what a step does.
func (ss *Session) label(st step) string {
	x, s := ss.x, ss.s
	g := x.cfg.Graph
	who := func(i int32) string { return fmt.Sprintf("node %d (ID %d)", i, x.cfg.IDs[i]) }
	if st.wake {
		return who(st.node) + " wakes up"
	}
	f := s.links[g.PortIndex(st.node, st.port)][st.k]
	mt := x.cfg.Algorithm.Messages[f.msg.Type]
	vals := [3]int64{int64(f.msg.ID), f.msg.A, f.msg.B}
	var p []string
	for k := range mt.Fields {
		p = append(p, fmt.Sprint(vals[k]))
	}
	from, _ := g.Neighbor(st.node, st.port)
	return fmt.Sprintf("%s receives %s(%s) from node %d on its %s port", who(st.node), mt.Name, strings.Join(p, ", "), from, g.PortName(st.port))
}

// Step takes choice j of Choices.
func (ss *Session) Step(j int) error {
	if err := ss.chooseOnly(); err != nil {
		return err
	}
	if ss.cur < 0 {
		if j < 0 || j >= len(ss.cfgs) {
			return fmt.Errorf("check: no ID assignment %d", j)
		}
		return ss.choose(j)
	}
	steps := ss.x.enabled(ss.s, nil)
	if j < 0 || j >= len(steps) {
		return fmt.Errorf("check: no step %d (there are %d)", j, len(steps))
	}
	var u undo
	ss.x.save(&u, ss.s, steps[j].node)
	sent := make([]int64, len(ss.Names)-2)
	ss.x.apply(ss.s, steps[j], sent)
	ss.undos = append(ss.undos, u)
	ss.sent = append(ss.sent, sent)
	ss.steps = append(ss.steps, steps[j])
	return nil
}

// Undo takes back the last step (or, at the start, the choice of IDs when
// there was one); it reports whether there was one.
func (ss *Session) Undo() bool {
	if len(ss.undos) == 0 {
		if ss.cur >= 0 && len(ss.cfgs) > 1 {
			ss.xs[ss.cur] = nil
			ss.cur, ss.x, ss.s = -1, nil, nil
			return true
		}
		return false
	}
	k := len(ss.undos) - 1
	ss.x.restore(ss.s, &ss.undos[k])
	ss.undos, ss.sent, ss.steps = ss.undos[:k], ss.sent[:k], ss.steps[:k]
	return true
}

// Taken is how many steps were taken.
func (ss *Session) Taken() int { return len(ss.steps) }

// Decisions is each node's decision so far (nil before the IDs are
// chosen).
func (ss *Session) Decisions() []elect.Decision {
	if ss.s == nil {
		return nil
	}
	return slices.Clone(ss.s.dec)
}

// Config is the chosen configuration (nil before).
func (ss *Session) Config() *election.Config {
	if ss.cur < 0 {
		return nil
	}
	return ss.cfgs[ss.cur].cfg
}

// Header is the trace header of the chosen configuration (before the
// choice, of the first): the algorithm, the network and the bounds that
// apply, evaluated.
func (ss *Session) Header() trace.Header {
	c := ss.cfgs[0].cfg
	if ss.cur >= 0 {
		c = ss.cfgs[ss.cur].cfg
	}
	return election.Header(c, "explore")
}

// CanUndo reports whether Undo has something to take back.
func (ss *Session) CanUndo() bool { return len(ss.undos) > 0 || ss.cur >= 0 && len(ss.cfgs) > 1 }
