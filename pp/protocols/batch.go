package protocols

import "github.com/electkit/elect/pp"

// The InteractUntil methods below implement pp.Batcher: the same loop for
// each protocol, so that the transition function is called directly (and
// inlined where small) rather than once per interaction through the generic
// engine. The copies are on purpose: the generic interactUntil, which calls
// Interact through the interface, took 4.3 ns per interaction against 2.5
// for Angluin's own loop (256 pairs among 2^16 followers, 2 cores).

// The engines find these capabilities by type assertion: a signature that
// drifts from theirs must fail here, not quietly slow the protocol.
var (
	_ pp.Batcher[uint8]  = (*Angluin)(nil)
	_ pp.Summer[uint32]  = (*Epidemic)(nil)
	_ pp.Batcher[uint32] = (*PLL)(nil)
)

// InteractUntil implements pp.Batcher.
func (p *Angluin) InteractUntil(s []uint8, pairs []pp.Pair) (int, pp.Delta) {
	for i, pr := range pairs {
		if pr.U == pr.V {
			continue
		}
		if d := p.Interact(&s[pr.U], &s[pr.V]); d != (pp.Delta{}) {
			return i, d
		}
	}
	return len(pairs), pp.Delta{}
}

// InteractUntil implements pp.Batcher. Early in a run the comparison of
// the two leader values is a coin flip, so the plain cases of Algorithm 2 (a
// follower adopts a larger value that is not the maximum; equal values that
// are not both the maximum with a leader among them) are computed without a
// branch on it: both new states are selected by conditional moves and stored
// unconditionally. One predictable branch sends every other interaction (a
// leader resigns, an agent adopts the maximum, the eventual leader meets a
// follower) through Interact, which also keeps the counters of Theorems 2
// and 3. The literal variant takes the plain loop.
func (p *Epidemic) InteractUntil(s []uint32, pairs []pp.Pair) (int, pp.Delta) {
	if p.literal {
		return interactUntil(p, s, pairs)
	}
	top := p.max
	for i, pr := range pairs {
		if pr.U == pr.V {
			continue
		}
		a, b := &s[pr.U], &s[pr.V]
		x, y := *a, *b
		lx, ly := x&numValueMask, y&numValueMask
		// na, nb: the new states when nothing but a value changes; loser:
		// the state of the agent that adopts the other's value (0 if none).
		na, nb, loser := x, y, uint32(0)
		if lx < ly {
			na, loser = ly, x
		}
		if lx > ly {
			nb, loser = lx, y
		}
		// Interact is needed when the loser was a leader, or when the larger
		// value is the maximum and either the values differ or one of the
		// two agents is a leader.
		// isTop is all ones when max(lx, ly) == top and 0 otherwise (the
		// values are below 2^31, so only 0 - 1 sets the sign bit).
		isTop := uint32(int32(max(lx, ly)^top-1) >> 31)
		special := loser&numLeaderBit | isTop&(lx^ly|(x|y)&numLeaderBit)
		if special != 0 {
			if d := p.Interact(a, b); d != (pp.Delta{}) {
				return i, d
			}
			continue
		}
		*a, *b = na, nb
	}
	return len(pairs), pp.Delta{}
}

// InteractSum implements pp.Summer: the loop of InteractUntil, with the
// counters of Algorithm 2 (resignations, adoptions of the maximum) and of
// Theorems 2 and 3 (conversions, meetings) added up by masks instead of
// branches. The only branch that depends on the states is taken when a
// leader resigns while eachLeaderChange is set. The literal variant reports
// each change (its Delta is never summed).
func (p *Epidemic) InteractSum(s []uint32, pairs []pp.Pair, eachLeaderChange bool, tallies *[8]int64) (int, pp.Delta, pp.Delta) {
	if p.literal {
		return interactEach(p, s, pairs)
	}
	top := p.max
	stopMask := uint32(0)
	if eachLeaderChange {
		stopMask = numLeaderBit
	}
	var resigned, adopted, conversions, meetings uint32
	for i, pr := range pairs {
		if pr.U == pr.V {
			continue
		}
		a, b := &s[pr.U], &s[pr.V]
		x, y := *a, *b
		lx, ly := x&numValueMask, y&numValueMask
		// winner: the state of the agent whose value spreads (0 when the
		// values are equal; values are IDs >= 1, so a winner is never 0).
		na, nb, loser, winner := x, y, uint32(0), uint32(0)
		if lx < ly {
			na, loser, winner = ly, x, y
		}
		if lx > ly {
			nb, loser, winner = lx, y, x
		}
		if loser&stopMask != 0 {
			tallies[tallyConversion] += int64(conversions)
			tallies[tallyMeeting] += int64(meetings)
			sum := pp.Delta{Leaders: -int32(resigned), Goal: int32(adopted)}
			return i, sum, p.Interact(a, b)
		}
		isTop := uint32(int32(max(lx, ly)^top-1) >> 31) // all ones iff max(lx, ly) == top
		differ := (winner | -winner) >> 31              // 1 iff the values differ
		resigned += loser >> 31
		adopted += isTop & differ
		conversions += isTop & (winner >> 31)
		meetings += isTop & (differ ^ 1) & ((x | y) >> 31)
		*a, *b = na, nb
	}
	tallies[tallyConversion] += int64(conversions)
	tallies[tallyMeeting] += int64(meetings)
	return len(pairs), pp.Delta{Leaders: -int32(resigned), Goal: int32(adopted)}, pp.Delta{}
}

// interactEach is InteractSum for a protocol that reports every change: it
// stops at the first interaction whose Delta is not zero.
func interactEach[S comparable](p pp.Protocol[S], s []S, pairs []pp.Pair) (int, pp.Delta, pp.Delta) {
	i, d := interactUntil(p, s, pairs)
	return i, pp.Delta{}, d
}

// interactUntil is InteractUntil with one call of Interact per interaction,
// through the protocol's interface (for the variants that do not need the
// speed: Epidemic's literal one).
func interactUntil[S comparable](p pp.Protocol[S], s []S, pairs []pp.Pair) (int, pp.Delta) {
	for i, pr := range pairs {
		if pr.U == pr.V {
			continue
		}
		if d := p.Interact(&s[pr.U], &s[pr.V]); d != (pp.Delta{}) {
			return i, d
		}
	}
	return len(pairs), pp.Delta{}
}

// InteractUntil implements pp.Batcher.
func (p *PLL) InteractUntil(s []uint32, pairs []pp.Pair) (int, pp.Delta) {
	for i, pr := range pairs {
		if pr.U == pr.V {
			continue
		}
		if d := p.Interact(&s[pr.U], &s[pr.V]); d != (pp.Delta{}) {
			return i, d
		}
	}
	return len(pairs), pp.Delta{}
}
