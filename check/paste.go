package check

import (
	"fmt"
	"slices"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
	"github.com/electkit/elect/scenario"
)

// Burns' pasting construction (seed 001 §5.4.1), built as the proof goes:
//
//  1. two open executions σ1 and σ2 of the two halves, lines of n/2
//     nodes (each the open execution with the most messages of its half,
//     found by MostOpen), pasted into a ring of n nodes by replacing each
//     half's open edge with the joints e (between node n/2-1 and node
//     n/2) and e' (between node n-1 and node 0): the halves exchange no
//     message, so each behaves as it did alone;
//  2. the longest extension σ3 that delivers nothing across e or e' (empty
//     when σ1 and σ2 end where their open executions can go no further,
//     as MostOpen's do), after which every node is quiescent;
//  3. a suffix σ4 that finishes the run (here: the oldest message in
//     flight first), stopped after its shortest prefix σ'4 that makes the
//     sets S and S' adjacent. A node not yet in either joins S when it
//     gets a message across e or one sent by a node of S (when it sent
//     it), S' likewise with e'; S and S' are adjacent when a node of one
//     is the neighbour of a node of the other. Then S and S' cover one
//     half between them, and one of them has at least n/4 nodes;
//  4. with S the larger (S' symmetrically), τ: the steps of σ'4 that do not
//     depend on a delivery across e' (a step depends on one when it is
//     one, or takes a message that depends on one, or is of a node that
//     took part in one before). σ1σ2σ3τ is an open execution of the ring
//     of n nodes, open at e': every node of S but the two at e joined it
//     on a message sent in τ, so it has at least 2T(n/2) + n/4 - 2
//     messages.
//
// The wake-ups of σ2 are moved in front of σ1's deliveries (every node an
// initiator wakes first, as everywhere in the checker): a wake-up commutes
// with every step of another node, so the execution is the same.

// PasteOptions describe the construction on a ring of Spec.N nodes.
type PasteOptions struct {
	Spec scenario.Spec // algorithm, N (even, at least 4), parameters
	// Low and High are the halves' IDs: nodes 0..N/2-1 and N/2..N-1.
	Low, High []elect.ID
	MaxStates int64 // for each half's search; 0: 2 million
}

// Pasting is the construction, part by part.
type Pasting struct {
	N   int
	IDs []elect.ID
	// Halves are the messages of σ1 and σ2, the open executions of the
	// halves with the most messages; HalfSteps their lengths.
	Halves, HalfSteps [2]int64
	// Quiescent counts σ3's steps and messages.
	QuiescentSteps, QuiescentMessages int64
	// FinishSteps is σ'4's length; Adjacent says S and S' became
	// adjacent (false: σ4 ended the run before, and the construction
	// stops there).
	FinishSteps int64
	Adjacent    bool
	// S and S' (S2), by node index, in increasing order.
	S, S2 []int32
	// OpenEdge is the joint across which the result delivers nothing
	// (e' when S is the larger, else e), as the edge between node
	// OpenEdge[0] and node OpenEdge[1] = OpenEdge[0]+1 mod N.
	OpenEdge [2]int32
	// TauSteps and TauMessages count τ; Messages the whole open execution
	// σ1σ2σ3τ.
	TauSteps, TauMessages, Messages int64
	exec                            *OpenExecution
}

// Larger names the larger of S and S' (S on a tie, as in the proof).
func (p *Pasting) Larger() string {
	if len(p.S) >= len(p.S2) {
		return "S"
	}
	return "S'"
}

// Execution is the open execution σ1σ2σ3τ (nil when S and S' never
// became adjacent).
func (p *Pasting) Execution() *OpenExecution { return p.exec }

// maxPasteSteps bounds σ3 and σ4: an algorithm that has not ended by then
// is reported, not followed for ever.
const maxPasteSteps = 1 << 22

// Paste builds Burns' construction for opt.
func Paste(opt PasteOptions) (*Pasting, error) {
	n := opt.Spec.N
	h := n / 2
	switch {
	case n < 4 || n%2 != 0:
		return nil, fmt.Errorf("check: the pasting construction joins two halves of n/2 >= 2 nodes; n = %d", n)
	case len(opt.Low) != h || len(opt.High) != h:
		return nil, fmt.Errorf("check: the halves' IDs are %d and %d, not %d each", len(opt.Low), len(opt.High), h)
	}
	half := opt.Spec
	half.N = h
	var halves [2]*OpenExecution
	for k, ids := range [][]elect.ID{opt.Low, opt.High} {
		x, err := MostOpen(half, ids, opt.MaxStates)
		if err != nil {
			return nil, err
		}
		halves[k] = x
	}
	base, err := openBase(opt.Spec)
	if err != nil {
		return nil, err
	}
	cfg, err := openConfig(base, append(slices.Clone(opt.Low), opt.High...))
	if err != nil {
		return nil, err
	}
	p := &Pasting{N: n, IDs: cfg.IDs}
	e, e2 := ringEdge(cfg.Graph, int32(h-1)), ringEdge(cfg.Graph, int32(n-1))
	w := newPaster(cfg, e, e2)
	w.m.openEdges(append(slices.Clone(e), e2...))
	// σ1σ2, the wake-ups first.
	var wakes, deliveries []step
	for k, x := range halves {
		for _, st := range x.steps {
			st.node += int32(k * h)
			if st.wake {
				wakes = append(wakes, st)
			} else {
				deliveries = append(deliveries, st)
			}
		}
		p.Halves[k], p.HalfSteps[k] = x.Messages, int64(len(x.steps))
	}
	if err := w.run(append(wakes, deliveries...)); err != nil {
		return nil, err
	}
	if got := w.messages; got != p.Halves[0]+p.Halves[1] {
		return nil, fmt.Errorf("check: the pasted halves sent %d messages, not %d + %d: they did not behave as alone", got, p.Halves[0], p.Halves[1])
	}
	// σ3: everything but the joints, until nothing is left.
	before := w.messages
	if p.QuiescentSteps, err = w.drain(func() bool { return false }); err != nil {
		return nil, err
	}
	p.QuiescentMessages = w.messages - before
	prefix := len(w.steps)
	// σ'4: the joints deliver too, until S and S' are adjacent.
	w.m.openEdges(nil)
	if p.FinishSteps, err = w.drain(w.adjacent); err != nil {
		return nil, err
	}
	p.Adjacent = w.adjacent()
	for i, k := range w.member {
		switch k {
		case inS:
			p.S = append(p.S, int32(i))
		case inS2:
			p.S2 = append(p.S2, int32(i))
		}
	}
	if !p.Adjacent {
		return p, nil
	}
	// τ: the steps of σ'4 that do not depend on the other joint.
	exclude, open := dependsE2, e2
	p.OpenEdge = [2]int32{int32(n - 1), 0}
	if p.Larger() == "S'" {
		exclude, open = dependsE, e
		p.OpenEdge = [2]int32{int32(h - 1), int32(h)}
	}
	tau := slices.Clone(w.steps[:prefix])
	for k, st := range w.steps[prefix:] {
		if w.stepDeps[prefix+k]&exclude == 0 {
			tau = append(tau, st)
		}
	}
	// The result, replayed with only its open edge closed: every step
	// must be possible, and none may deliver across it.
	v := newPaster(cfg, e, e2)
	v.m.openEdges(open)
	if err := v.run(tau); err != nil {
		return nil, fmt.Errorf("check: σ1σ2σ3τ is not an open execution: %w", err)
	}
	p.Messages = v.messages
	p.TauSteps = int64(len(tau) - prefix)
	p.TauMessages = p.Messages - p.Halves[0] - p.Halves[1] - p.QuiescentMessages
	p.exec = &OpenExecution{cfg: cfg, edge: p.OpenEdge[0], steps: tau, Messages: p.Messages}
	return p, nil
}

// The sets of the construction a node is in (paster.member), and the
// joints a step or a message depends on (paster.deps: bits).
const (
	inS  int8 = 1
	inS2 int8 = 2

	dependsE  uint8 = 1
	dependsE2 uint8 = 2
)

// provenance is what the construction knows of a message in flight: its
// place in the sending order, the set its sender was in when it sent it,
// and the joints it depends on.
type provenance struct {
	seq  int64
	from int8
	deps uint8
}

// paster makes the construction's steps on one model and state, keeping
// beside each link's messages their provenance, each node's set and the
// joints it depends on, and each step's.
type paster struct {
	m        *model
	s        *state
	joint    []uint8 // by link: dependsE for e's links, dependsE2 for e''s
	flights  [][]provenance
	member   []int8
	deps     []uint8
	steps    []step
	stepDeps []uint8
	seq      int64
	messages int64
	sent     []int64
}

func newPaster(cfg *election.Config, e, e2 []int64) *paster {
	w := &paster{m: &model{}}
	w.m.init(cfg, false)
	w.m.openEdges(nil)
	w.s = w.m.initial()
	ports := cfg.Graph.Ports()
	w.joint, w.flights = make([]uint8, ports), make([][]provenance, ports)
	for _, k := range e {
		w.joint[k] = dependsE
	}
	for _, k := range e2 {
		w.joint[k] = dependsE2
	}
	w.member, w.deps = make([]int8, cfg.Graph.N), make([]uint8, cfg.Graph.N)
	w.sent = make([]int64, w.m.nq()-2)
	return w
}

// run makes steps, each of which must be possible.
func (w *paster) run(steps []step) error {
	for k, st := range steps {
		if err := w.step(st); err != nil {
			return fmt.Errorf("step %d: %w", k+1, err)
		}
	}
	return nil
}

// drain delivers the oldest message in flight on a link that delivers
// (an open one does not) until done says so or none is left, and returns
// the steps it made.
func (w *paster) drain(done func() bool) (int64, error) {
	var made int64
	for !done() {
		st, ok := w.oldest()
		if !ok {
			break
		}
		if made == maxPasteSteps {
			return made, fmt.Errorf("check: %s has not ended after %d more steps", w.m.cfg.Algorithm.Name, made)
		}
		if err := w.step(st); err != nil {
			return made, err
		}
		made++
	}
	return made, nil
}

// oldest returns the delivery of the message sent first among those that
// can be delivered (the head of its link, which is FIFO).
func (w *paster) oldest() (step, bool) {
	best := int64(-1)
	for k, l := range w.flights {
		if len(l) == 0 || w.m.open != nil && w.m.open[k] {
			continue
		}
		if best < 0 || l[0].seq < w.flights[best][0].seq {
			best = int64(k)
		}
	}
	if best < 0 {
		return step{}, false
	}
	return step{node: w.m.linkTo[best], port: w.m.linkPort[best]}, true
}

// step makes st, which must be possible: a wake-up of a node that has not
// woken, or the delivery of the head of a link that is not open. It
// updates the sets and the dependences: the node takes its message's and
// its link's, and joins the set of the joint it came across or else of
// the message's sender, unless it is in one already.
func (w *paster) step(st step) error {
	m, s, i := w.m, w.s, st.node
	var d uint8
	if st.wake {
		if !s.pending[i] {
			return fmt.Errorf("node %d wakes twice", i)
		}
	} else {
		key := m.cfg.Graph.PortIndex(i, st.port)
		if len(w.flights[key]) == 0 || m.open != nil && m.open[key] {
			return fmt.Errorf("node %d takes a message on port %d, where none can be delivered", i, st.port)
		}
		f := w.flights[key][0]
		w.flights[key] = w.flights[key][1:]
		w.deps[i] |= f.deps | w.joint[key]
		if w.member[i] == 0 {
			switch {
			case w.joint[key] == dependsE:
				w.member[i] = inS
			case w.joint[key] == dependsE2:
				w.member[i] = inS2
			default:
				w.member[i] = f.from
			}
		}
		d = w.deps[i]
	}
	clear(w.sent)
	if v := m.apply(s, st, w.sent); v != nil {
		return fmt.Errorf("the step breaks %s", v)
	}
	m.linkLog = m.linkLog[:0] // nothing is undone
	for _, snd := range m.sends {
		w.flights[snd.key] = append(w.flights[snd.key], provenance{seq: w.seq, from: w.member[i], deps: w.deps[i]})
		w.seq++
	}
	for _, c := range w.sent {
		w.messages += c
	}
	w.steps = append(w.steps, st)
	w.stepDeps = append(w.stepDeps, d)
	return nil
}

// adjacent reports whether a node of S and a node of S' are neighbours.
func (w *paster) adjacent() bool {
	n := len(w.member)
	for a := range n {
		x, y := w.member[a], w.member[(a+1)%n]
		if x != 0 && y != 0 && x != y {
			return true
		}
	}
	return false
}
