package faults

import (
	"math/rand/v2"
	"slices"

	"github.com/electkit/elect"
)

// Crash is one node's scheduled crash: at a time (Step 0), or right after
// its Step-th step (At -1).
type Crash struct {
	Node int32
	At   int64 // time units or rounds; -1: by step
	Step int64 // steps; 0: by time
}

// Fate is what the schedule does to one message sent.
type Fate struct {
	// Lost is FaultLoss or FaultPartition when the message is lost (by a
	// loss clause or a partition), else 0.
	Lost elect.Faults
	// Dup: the message is delivered twice (the copy travels as another
	// message sent right after it would).
	Dup bool
	// Delay is the time units the message is late by, on top of its
	// delivery model's delay.
	Delay int64
}

// Schedule is one run's faults, drawn from a Spec with the run's seed: the
// crashes, fixed before the run, and the fate of every message, decided in
// the order the messages are sent (Next). A Schedule is the state of one
// run: each engine makes its own.
type Schedule struct {
	crashes []Crash // sorted by (At, Node) for timed crashes first, then the stepped ones
	clauses []clauseState
	sent    int64
}

type clauseState struct {
	Clause
	msgs []int64 // drawn or given message numbers, sorted
	rng  *rand.Rand
	side []int8 // partition: 1 on side A, 2 on side B, by node
}

// Schedule draws the run's schedule for n nodes. stream gives the random
// source of a purpose and index, drawn from the run's seed (as
// election.Stream does): each clause draws from its own stream, so adding a
// clause never changes what another draws.
func (s *Spec) Schedule(n int, stream func(purpose string, index uint64) *rand.Rand) (*Schedule, error) {
	if err := s.Check(n); err != nil {
		return nil, err
	}
	sc := &Schedule{}
	crashed := map[int32]bool{}
	for k, c := range s.Clauses {
		st := clauseState{Clause: c}
		switch {
		case c.Kind == elect.FaultCrash && c.Node >= 0:
			if c.Step > 0 {
				sc.crashes = append(sc.crashes, Crash{Node: int32(c.Node), At: -1, Step: c.Step})
			} else {
				sc.crashes = append(sc.crashes, Crash{Node: int32(c.Node), At: c.At})
			}
			crashed[int32(c.Node)] = true
			continue
		case c.Kind == elect.FaultCrash:
			rng := stream("faults-crash", uint64(k))
			by := c.By
			if by == 0 {
				by = int64(n)
			}
			// K distinct nodes, in a uniformly random order; a node
			// another clause already crashes is drawn over again.
			perm := rng.Perm(n)
			got := int64(0)
			for _, i := range perm {
				if got == c.K {
					break
				}
				if crashed[int32(i)] {
					continue
				}
				crashed[int32(i)] = true
				sc.crashes = append(sc.crashes, Crash{Node: int32(i), At: rng.Int64N(by + 1)})
				got++
			}
			continue
		case c.Kind == elect.FaultPartition:
			st.side = make([]int8, n)
			for _, i := range c.A {
				st.side[i] = 1
			}
			for _, i := range c.B {
				st.side[i] = 2
			}
		case c.K > 0:
			rng := stream("faults-"+c.Kind.String(), uint64(k))
			by := c.By
			if by == 0 {
				by = int64(n)
			}
			k := min(c.K, by)
			// k distinct message numbers in 1..by (Floyd's sampling).
			chosen := map[int64]bool{}
			for j := by - k + 1; j <= by; j++ {
				t := 1 + rng.Int64N(j)
				if chosen[t] {
					t = j
				}
				chosen[t] = true
				st.msgs = append(st.msgs, t)
			}
			slices.Sort(st.msgs)
		case c.Msg > 0:
			st.msgs = []int64{c.Msg}
		case c.P > 0:
			st.rng = stream("faults-"+c.Kind.String(), uint64(k))
		}
		sc.clauses = append(sc.clauses, st)
	}
	slices.SortStableFunc(sc.crashes, func(a, b Crash) int {
		switch {
		case (a.Step == 0) != (b.Step == 0):
			if a.Step == 0 {
				return -1
			}
			return 1
		case a.At != b.At:
			return int(a.At - b.At)
		}
		return int(a.Node - b.Node)
	})
	return sc, nil
}

// Crashes returns the scheduled crashes: those at a time first, by time
// and node, then those after a step, in the order given.
func (sc *Schedule) Crashes() []Crash { return sc.crashes }

// Sent returns how many messages Next has seen.
func (sc *Schedule) Sent() int64 { return sc.sent }

// Next decides the fate of the next message sent, from node from to node
// to at time now (ticks, of which unit make one time unit or round). Every
// engine calls it once per message its nodes send, in sending order, so
// that equal runs give equal fates.
func (sc *Schedule) Next(from, to int32, now, unit int64) Fate {
	sc.sent++
	m := sc.sent
	var f Fate
	for k := range sc.clauses {
		c := &sc.clauses[k]
		hit := false
		switch {
		case c.side != nil:
			hit = now >= c.From*unit && now < c.To*unit && c.side[from] != 0 && c.side[to] != 0 && c.side[from] != c.side[to]
		case c.rng != nil:
			hit = c.rng.Float64() < c.P // drawn for every message, hit or not
		default:
			if len(c.msgs) > 0 && c.msgs[0] == m {
				c.msgs = c.msgs[1:]
				hit = true
			}
		}
		if !hit {
			continue
		}
		switch c.Kind {
		case elect.FaultLoss, elect.FaultPartition:
			if f.Lost == 0 {
				f.Lost = c.Kind
			}
		case elect.FaultDup:
			f.Dup = true
		case elect.FaultDelay:
			f.Delay += c.D
		}
	}
	if f.Lost != 0 {
		f.Dup, f.Delay = false, 0
	}
	return f
}
