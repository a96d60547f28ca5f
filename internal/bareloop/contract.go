package bareloop

import (
	"math/rand/v2"

	"github.com/electkit/elect"
)

// Contract runs an algorithm's own node code (alg.New, Wake, Receive) on
// the ring of ids under unit delays, through the least an engine that
// keeps the contract can do: each delivery is one call of the receiver
// through elect.Node and each send one call of elect.Env, whose Send only
// works out the neighbour and appends the message to the next instant's
// list. No monitor, no counters per type or per node, no event limit, no
// status words, no trace, no prefetch. It is the floor under any runtime
// that calls the catalog's nodes through the contract: the gap between it
// and the plain loop (LCR, HS) is the cost of the two calls per message,
// and the gap between it and `elect run` the engine's own work.
//
// Every node wakes at time 0 in index order, as under the simulator's
// fifo delivery, so it sends exactly the simulator's messages (the tests
// check the counts and the leader). Rand is one seeded source for every
// node and Round the instant: enough for the ring algorithms the
// yardsticks run, which use neither.
func Contract(alg *elect.Algorithm, ids []elect.ID) Result {
	n := len(ids)
	nodes := make([]elect.Node, n)
	info := elect.NodeInfo{Degree: 2}
	if alg.Model.Topology == elect.UniRing {
		info.Degree = 1
	}
	for i := range nodes {
		info.ID = ids[i]
		if alg.Model.KnowsN {
			info.N = n
		}
		nodes[i] = alg.New(info)
	}
	env := &contractEnv{n: int32(n), leader: -1, now: make([]contractMsg, 0, n), next: make([]contractMsg, 0, n)}
	for i, p := range nodes {
		env.current = int32(i)
		p.Wake(env, true)
	}
	for len(env.next) > 0 {
		env.round++
		env.now, env.next = env.next, env.now[:0]
		for k := range env.now {
			m := &env.now[k]
			env.current = m.to
			nodes[m.to].Receive(env, m.port, m.msg)
		}
	}
	return Result{Messages: env.sent, Leader: env.leader}
}

// contractMsg is one pending delivery of Contract.
type contractMsg struct {
	to   int32
	port elect.Port
	msg  elect.Message
}

// contractEnv is Contract's elect.Env.
type contractEnv struct {
	n, current int32
	round      int64
	now, next  []contractMsg
	sent       int64
	leader     int
	rand       *rand.Rand
}

// Send routes m to the neighbour on port p: Left is the next node (its
// Right port), Right the one before (its Left port).
func (e *contractEnv) Send(p elect.Port, m elect.Message) {
	to, q := e.current+1, elect.Right
	if p == elect.Left {
		if to == e.n {
			to = 0
		}
	} else {
		to, q = e.current-1, elect.Left
		if to < 0 {
			to = e.n - 1
		}
	}
	e.sent++
	// Field by field into the slot: a composite literal would be built on
	// the stack and copied, which stalls store forwarding.
	k := len(e.next)
	if k == cap(e.next) {
		e.next = append(e.next, contractMsg{})[:k]
	}
	e.next = e.next[:k+1]
	s := &e.next[k]
	s.to, s.port, s.msg = to, q, m
}

func (e *contractEnv) Decide(d elect.Decision) {
	if d == elect.Elected {
		e.leader = int(e.current)
	}
}

func (e *contractEnv) SetLeader(elect.ID)    {}
func (e *contractEnv) SetTimer(int64, int64) {}
func (e *contractEnv) CancelTimers()         {}
func (e *contractEnv) Terminate()            {}
func (e *contractEnv) Round() int64          { return e.round }
func (e *contractEnv) Rand() *rand.Rand {
	if e.rand == nil {
		e.rand = rand.New(rand.NewPCG(1, 2))
	}
	return e.rand
}
