package ppfile

import (
	"fmt"
	"io"
	"math"
	"os"
	"unicode/utf8"

	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/pp"
)

// Load reads and compiles the protocol file at path.
func Load(path string) (*File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, &Error{Path: path, Msg: "cannot read: " + pathErr(err)}
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{Path: path, Msg: "not a regular file"}
	}
	if fi.Size() > MaxBytes {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("file of %d bytes; protocol files are limited to %d", fi.Size(), MaxBytes)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{Path: path, Msg: "cannot read: " + pathErr(err)}
	}
	defer f.Close()
	data, err := readText(f, path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// fileLimits are a protocol file's limits for bounded.Lines: its size, and
// a line as long (a JSON protocol may be written on one line).
var fileLimits = bounded.Limits{What: "a protocol file", MaxBytes: MaxBytes, MaxLine: MaxBytes}

// readText reads a protocol file a line at a time (bounded.Lines), checking
// each line is text as YAML and JSON allow it (UTF-8 without control
// characters but tab and carriage return) before reading the next, so that
// a binary file is refused at its first line; the YAML reader then parses
// the text whole.
func readText(r io.Reader, path string) ([]byte, error) {
	sc := bounded.NewLines(r, path, fileLimits)
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		for i := 0; i < len(line); {
			c, size := utf8.DecodeRune(line[i:])
			if c == utf8.RuneError && size <= 1 {
				return nil, &Error{Path: path, Line: sc.Line(), Msg: fmt.Sprintf("byte %d (0x%02x) is not UTF-8 text; a protocol file is YAML or JSON text", i+1, line[i])}
			}
			if c < ' ' && c != '\t' && c != '\r' || c == 0x7f {
				return nil, &Error{Path: path, Line: sc.Line(), Msg: fmt.Sprintf("byte %d is a control character (0x%02x); a protocol file is YAML or JSON text", i+1, c)}
			}
			i += size
		}
		data = append(data, sc.Raw()...)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return data, nil
}

func pathErr(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// State is the agent state of a compiled protocol: the state's index, in a
// byte when the protocol has at most 256 states.
type State interface{ ~uint8 | ~uint16 }

// Protocol is a compiled file protocol for one population size: a
// pp.Protocol whose states are indices into the file's states and whose
// transition function is a table lookup. It has a Census (the initial
// configuration is given in counts), so every engine runs it.
type Protocol[S State] struct {
	f      *File
	n      int64
	spec   pp.Spec
	q      int
	dense  []step // f's dense table, nil for the hash table
	trans  *table
	leader []bool
	goal   []bool
	init   []S
	cum    []int64 // cum[i]: agents in init[0..i]
	counts []int64
}

// New compiles f for n agents; it fails when the initial configuration
// does not add up to n or S cannot hold f's states.
func New[S State](f *File, n int64) (*Protocol[S], error) {
	var zero S
	if q := len(f.States); uint64(q-1) > uint64(^zero) {
		return nil, fmt.Errorf("ppfile: %d states do not fit the state type", q)
	}
	states, counts, err := f.Initial(n)
	if err != nil {
		return nil, err
	}
	q := len(f.States)
	p := &Protocol[S]{f: f, n: n, q: q, counts: counts, leader: make([]bool, q), goal: make([]bool, q)}
	for s := range q {
		o := f.Output(s)
		p.leader[s] = o == LeaderOutput
		p.goal[s] = f.Stop.Kind == Consensus && o == f.Stop.Output
	}
	var c int64
	for i, s := range states {
		p.init = append(p.init, S(s))
		c += counts[i]
		p.cum = append(p.cum, c)
	}
	p.trans, p.dense = &f.trans, f.trans.dense
	nn := float64(n)
	lim := int64(math.MaxInt64)
	// A generous default limit: 100 n^2 (ln n + 1) interactions, which
	// covers the quadratic protocols (Angluin's, the four-state exact
	// majority) many times over.
	if x := 100*nn*nn*(math.Log(nn)+1) + 1000; x < 9e18 {
		lim = int64(x)
	}
	p.spec = pp.Spec{Name: f.Name, Goal: pp.GoalOneLeader, Monotone: f.monotone, StateSpace: uint64(q), DefaultMaxSteps: lim}
	if f.Stop.Kind == Consensus {
		p.spec.Goal, p.spec.Target, p.spec.Monotone, p.spec.NoElection = pp.GoalCount, n, false, true
	}
	return p, nil
}

// File returns the protocol's file.
func (p *Protocol[S]) File() *File { return p.f }

// Spec describes the instance: one leader, or consensus (a goal count of
// n agents giving the stop output).
func (p *Protocol[S]) Spec() pp.Spec { return p.spec }

// Init gives agent i its initial state: the first agents take the first
// state of the file's initial mapping, and so on.
func (p *Protocol[S]) Init(i int) S {
	for k, c := range p.cum {
		if int64(i) < c {
			return p.init[k]
		}
	}
	return p.init[len(p.init)-1]
}

// Census lists the initial configuration.
func (p *Protocol[S]) Census(int64) []pp.StateCount[S] {
	out := make([]pp.StateCount[S], len(p.init))
	for k, s := range p.init {
		out[k] = pp.StateCount[S]{State: s, Count: p.counts[k]}
	}
	return out
}

func (p *Protocol[S]) lookup(a, b S) step {
	if p.dense != nil {
		return p.dense[int(a)*p.q+int(b)]
	}
	return p.trans.get(int(a), int(b))
}

// Interact applies the file's rule for the ordered pair (a, b), if any.
func (p *Protocol[S]) Interact(a, b *S) pp.Delta {
	e := p.lookup(*a, *b)
	if !e.set {
		return pp.Delta{}
	}
	*a, *b = S(e.x), S(e.y)
	return pp.Delta{Leaders: int32(e.dl), Goal: int32(e.dg)}
}

// IsLeader: the state's output is leader.
func (p *Protocol[S]) IsLeader(s S) bool { return p.leader[s] }

// InGoal: the state's output is the consensus the run waits for.
func (p *Protocol[S]) InGoal(s S) bool { return p.goal[s] }

// Index is the state's index.
func (p *Protocol[S]) Index(s S) uint64 { return uint64(s) }

// InteractUntil implements pp.Batcher: the table lookups in one loop.
func (p *Protocol[S]) InteractUntil(s []S, pairs []pp.Pair) (int, pp.Delta) {
	dense, q := p.dense, p.q
	for i, pr := range pairs {
		if pr.U == pr.V {
			continue
		}
		a, b := &s[pr.U], &s[pr.V]
		var e step
		if dense != nil {
			e = dense[int(*a)*q+int(*b)]
		} else {
			e = p.trans.get(int(*a), int(*b))
		}
		if !e.set {
			continue
		}
		*a, *b = S(e.x), S(e.y)
		if e.dl != 0 || e.dg != 0 {
			return i, pp.Delta{Leaders: int32(e.dl), Goal: int32(e.dg)}
		}
	}
	return len(pairs), pp.Delta{}
}

// The engines find these capabilities by type assertion: a signature that
// drifts from theirs must fail here, not quietly slow every file protocol.
var (
	_ pp.Batcher[uint8] = (*Protocol[uint8])(nil)
	_ pp.Summer[uint16] = (*Protocol[uint16])(nil)
)

// InteractSum implements pp.Summer (file protocols report no tallies).
func (p *Protocol[S]) InteractSum(s []S, pairs []pp.Pair, eachLeaderChange bool, _ *[8]int64) (int, pp.Delta, pp.Delta) {
	if p.dense == nil {
		return p.interactSumSparse(s, pairs, eachLeaderChange)
	}
	dense, q := p.dense, p.q
	var dl, dg int32
	for i, pr := range pairs {
		if pr.U == pr.V {
			continue
		}
		a, b := &s[pr.U], &s[pr.V]
		e := dense[int(*a)*q+int(*b)]
		if !e.set {
			continue
		}
		*a, *b = S(e.x), S(e.y)
		if e.dl > 0 || (eachLeaderChange && e.dl != 0) {
			return i, pp.Delta{Leaders: dl, Goal: dg}, pp.Delta{Leaders: int32(e.dl), Goal: int32(e.dg)}
		}
		dl += int32(e.dl)
		dg += int32(e.dg)
	}
	return len(pairs), pp.Delta{Leaders: dl, Goal: dg}, pp.Delta{}
}

func (p *Protocol[S]) interactSumSparse(s []S, pairs []pp.Pair, eachLeaderChange bool) (int, pp.Delta, pp.Delta) {
	var sum pp.Delta
	for i, pr := range pairs {
		if pr.U == pr.V {
			continue
		}
		a, b := &s[pr.U], &s[pr.V]
		e := p.trans.get(int(*a), int(*b))
		if !e.set {
			continue
		}
		*a, *b = S(e.x), S(e.y)
		if e.dl > 0 || (eachLeaderChange && e.dl != 0) {
			return i, sum, pp.Delta{Leaders: int32(e.dl), Goal: int32(e.dg)}
		}
		sum.Leaders += int32(e.dl)
		sum.Goal += int32(e.dg)
	}
	return len(pairs), sum, pp.Delta{}
}

// Finish records the protocol's file and the number of agents giving each
// output (agent array).
func (p *Protocol[S]) Finish(states []S, r *pp.Result) {
	c := make([]int64, p.q)
	for _, s := range states {
		c[s]++
	}
	p.addOutputs(c, r)
}

// FinishCounts records the same figures on the count-based engines.
func (p *Protocol[S]) FinishCounts(counts []pp.StateCount[S], r *pp.Result) {
	c := make([]int64, p.q)
	for _, sc := range counts {
		c[sc.State] += sc.Count
	}
	p.addOutputs(c, r)
}

func (p *Protocol[S]) addOutputs(perState []int64, r *pp.Result) {
	per := make([]int64, len(p.f.Outputs))
	for s, k := range perState {
		per[p.f.out[s]] += k
	}
	out := make(pp.Details, len(per))
	for i, o := range p.f.Outputs {
		out[i] = pp.Detail{Key: o, Value: per[i]}
	}
	r.Add("file", p.f.Path)
	r.Add("outputs", out)
}

// Simulate runs f on n agents with the engine opt.Engine (auto chooses as
// for the built-in protocols, see pp.ChooseEngine).
func Simulate(f *File, n int, seed uint64, opt pp.Options) (pp.Result, error) {
	if len(f.States) <= 256 {
		p, err := New[uint8](f, int64(n))
		if err != nil {
			return pp.Result{}, err
		}
		return pp.Simulate[uint8](p, n, seed, opt)
	}
	p, err := New[uint16](f, int64(n))
	if err != nil {
		return pp.Result{}, err
	}
	return pp.Simulate[uint16](p, n, seed, opt)
}

// StateName names a state for traces (pp.StateNamer): its name in the file
// and its output.
func (p *Protocol[S]) StateName(s S) (name, output string) {
	return p.f.States[s], p.f.Outputs[p.f.out[s]]
}
