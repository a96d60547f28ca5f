package ring

import "github.com/electkit/elect"

// Algorithm B of Dolev, Klawe and Rodeh (J. Algorithms 3(3), 1982), the
// improved algorithm that the paper bounds by 1.5n log n + O(n) messages:
// dolev-klawe-rodeh --variant b. The paper itself could not be read here;
// the rules follow the DiVinE model-checker benchmark
// leader-unicircle_dkr.cpp ("Leader election in an Uni-circle (Dolev,
// Klawe, Rodeh)", which calls it algorithm B and states the 1.5n log n +
// O(n) bound; see docs/sources.md). Its idea is to spare the basic
// algorithm's second message (m2) whenever a comparison already settles
// the phase. A process is active, waiting or passive; messages go
// clockwise on FIFO links:
//
//   - An active process of phase k sends M1(max, k, 2^k).
//   - Active, upon M1(v): if v > max, it takes v as its max and waits
//     (v beat it; whether v also beat the value before it is still
//     open); otherwise it turns passive and sends M2(max): its own value
//     beat the one before it.
//   - Waiting, upon M2: its value has beaten both neighbours: it becomes
//     active in phase k+1. Waiting, upon M1: it turns passive and handles
//     the message as a passive process.
//   - Passive, upon M1(v, k, c): if v >= max and c >= 1, it takes v as
//     its max and passes M1(v, k, c-1) on, except at c = 1, where it
//     becomes the value's new waiting place (phase k) and passes M1(v, k,
//     0) on; otherwise it passes M1(v, k, 0) on. Passive, upon M2(v): it
//     passes it on if v >= max, and drops it otherwise.
//   - A process that receives its own ID (in M1 or M2) is elected.
//
// The hop counter moves a surviving value 2^k links ahead in phase k, so
// that it waits where the next comparisons are due. Which process waits
// for M2(v) is settled by the filter: M2(v) passes the processes that took
// v and stops at the waiting one.
type bState uint8

const (
	bActive bState = iota
	bWaiting
	bPassive
)

func (p *dkrNode) sendBM1(env elect.Env) {
	env.Send(elect.Left, elect.Message{Type: dkrBM1, ID: p.max, A: int64(p.phase), B: int64(1) << p.phase})
}

func (p *dkrNode) receiveB(env elect.Env, m elect.Message) {
	if p.elected {
		return // the rest of the values that are still travelling
	}
	if m.ID == p.id {
		p.becomeLeader(env)
		return
	}
	switch p.state {
	case bActive:
		if m.Type != dkrBM1 {
			return // not with FIFO links and unique IDs
		}
		if m.ID > p.max {
			p.max, p.state = m.ID, bWaiting
			return
		}
		p.state = bPassive
		env.Send(elect.Left, elect.Message{Type: dkrBM2, ID: p.max})
		return
	case bWaiting:
		if m.Type == dkrBM2 {
			p.phase++
			p.state = bActive
			p.sendBM1(env)
			return
		}
		p.state = bPassive
	}
	p.passiveB(env, m)
}

// passiveB is the passive process's step.
func (p *dkrNode) passiveB(env elect.Env, m elect.Message) {
	if m.Type == dkrBM2 {
		if m.ID >= p.max {
			env.Send(elect.Left, m)
		}
		return
	}
	if m.ID >= p.max && m.B >= 1 {
		p.max = m.ID
		if m.B > 1 {
			env.Send(elect.Left, elect.Message{Type: dkrBM1, ID: m.ID, A: m.A, B: m.B - 1})
			return
		}
		p.state, p.phase = bWaiting, int32(m.A)
	}
	env.Send(elect.Left, elect.Message{Type: dkrBM1, ID: m.ID, A: m.A})
}
