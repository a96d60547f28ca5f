package ring

import "github.com/electkit/elect"

// The bound shapes and values that several ring algorithms declare alike.

// announcementBound is the bound of an announcement that goes once round the
// ring: with --announce, exactly n messages of type typ.
func announcementBound(typ, source string) elect.Bound {
	return elect.Bound{Name: typ + " messages", Quantity: elect.Messages, Types: []string{typ}, Relation: elect.Exactly,
		Formula: "n", Source: source, Value: boundN, Applies: announced}
}

// announced reports whether the run has the announcement (--announce).
func announced(c elect.BoundContext) bool { return c.Announce }

// timedFromZero reports whether a time bound derived for simultaneous
// starts applies: every node wakes at time 0, and time is that of an
// execution with delays of at most one unit, not a causal depth.
func timedFromZero(c elect.BoundContext) bool { return c.AllAtZero && !c.CausalTime }

// boundN is n.
func boundN(c elect.BoundContext) float64 { return float64(c.N) }

// boundTriangular is n(n+1)/2, LCR's forwarding on the decreasing ring:
// the k-th largest ID travels n-k+1 hops.
func boundTriangular(c elect.BoundContext) float64 { return float64(c.N) * float64(c.N+1) / 2 }

// boundTwoNMinusOne is 2n-1, LCR's forwarding on the increasing ring: the
// maximum travels n hops, every other ID one.
func boundTwoNMinusOne(c elect.BoundContext) float64 { return float64(2*c.N - 1) }

// boundTwoRounds is 4n (2n if n = 1): two rounds of 2n messages, one each
// way on every link, since with two or more candidates the first round
// cannot be the last.
func boundTwoRounds(c elect.BoundContext) float64 { return 2 * float64(c.N) * float64(min(c.N, 2)) }

// boundLgRounds is 2n*floor(lg n) + 2n: floor(lg n)+1 rounds of 2n messages,
// when two neighbouring candidates cannot both survive a round.
func boundLgRounds(c elect.BoundContext) float64 {
	return 2 * float64(c.N) * float64(elect.FloorLog2(c.N)+1)
}

// lgRoundsTime is n(floor(lg n)+1), plus n with the announcement: at most
// floor(lg n)+1 rounds, each over by n time units after the one before
// (franklin.go and dkr.go derive the n for their rounds).
func lgRoundsTime(c elect.BoundContext) float64 {
	return withAnnouncement(c, float64(c.N)*float64(elect.FloorLog2(c.N)+1))
}

// withAnnouncement is the time bound t of an election plus, when the run has
// the announcement, the n time units of its trip round the ring.
func withAnnouncement(c elect.BoundContext, t float64) float64 {
	if c.Announce {
		t += float64(c.N)
	}
	return t
}
