package pp

// The optional capabilities of a population protocol. A protocol is its core
// (Protocol: Spec, Init, Interact, IsLeader); everything below is optional,
// each a small interface an engine discovers with a type assertion. Without
// one, every engine still runs the protocol exactly; what a capability buys
// is said with it.
//
//	capability      engines that use it       without it
//	Goaler          all                       required when Spec.Goal is GoalCount (else no agent counts)
//	Indexer         agent array (states met)  distinct states are kept in a map, not a bitset
//	Batcher         agent array               one call per interaction through the interface
//	Summer          agent array               the run returns to the engine at every leader change
//	Finisher        agent array               no protocol details in the result
//	Census          count engines             Init is called per agent (n <= MaxInitCalls)
//	CountFinisher   count engines             no protocol details in the result
//	PartnerClasser  count engines             batches are matched state by state, not class by class
//	AgentArrayOnly  auto and count engines    the count engines may run it
//	StateNamer      all, with Options.Sample  traces name states by fmt.Sprint, outputs L/F by IsLeader
//
// Runs are identical with and without Batcher and Summer
// (TestBatcherMatchesInteract), and the count engines are equal in
// distribution to the agent array (equiv_test.go).

// Goaler is implemented by protocols whose goal is a count of agents
// (Spec.Goal == GoalCount): InGoal says whether an agent in state s counts
// towards the goal counter.
type Goaler[S comparable] interface {
	InGoal(s S) bool
}

// inGoal is Goaler.InGoal, false for a protocol that has no goal counter.
func inGoal[S comparable](p Protocol[S], s S) bool {
	if g, ok := p.(Goaler[S]); ok {
		return g.InGoal(s)
	}
	return false
}

// Indexer is implemented by protocols that bound their state space
// (Spec.StateSpace > 0): Index maps s into [0, Spec.StateSpace)
// injectively, so that distinct states are recorded in a bitset.
type Indexer[S comparable] interface {
	Index(s S) uint64
}

// Batcher is implemented by protocols that want their hot loop compiled
// with their own (inlined) transition function instead of one call per
// interaction through the generic engine. InteractUntil must apply Interact
// to states[pairs[i].U], states[pairs[i].V] for i = 0, 1, ... in order,
// skipping pairs with U == V, and return right after the first interaction
// whose Delta is not zero: its index and its Delta. When no interaction
// changed a counter it returns len(pairs) and the zero Delta. The engine
// then accounts for the Delta at its exact step, so runs are identical with
// and without a Batcher (TestBatcherMatchesInteract).
type Batcher[S comparable] interface {
	InteractUntil(states []S, pairs []Pair) (int, Delta)
}

// Summer is implemented by Batchers that can also apply a stretch of
// interactions adding up their Deltas instead of returning at each one; the
// engine uses it only when it has shown that no prefix of the stretch can
// reach the goal or make the leader count 1 or 0 (every Delta moves each
// counter by at most 2). InteractSum applies Interact to
// states[pairs[i].U], states[pairs[i].V] for i = 0, 1, ... in order,
// skipping pairs with U == V, and stops right after the first interaction
// whose Delta has Leaders > 0 or Events != 0 or, when eachLeaderChange is
// true, Leaders != 0: it returns that interaction's index j, the sum of the
// Deltas of the interactions before it, and its own Delta. When there is no
// such interaction it returns len(pairs), the sum of all the Deltas and the
// zero Delta. The summed interactions' tally bits (Delta.Tally) are added
// to tallies (the engine's counts; sum.Tally is not read). Runs are
// identical with and without it (TestBatcherMatchesInteract).
type Summer[S comparable] interface {
	InteractSum(states []S, pairs []Pair, eachLeaderChange bool, tallies *[8]int64) (j int, sum, last Delta)
}

// Finisher is implemented by protocols that add details to a result or refine
// its outcome once the run has stopped.
type Finisher[S comparable] interface {
	Finish(states []S, r *Result)
}

// Census is implemented by protocols whose initial configuration can be
// given as counts of states, without one Init call per agent: anonymous
// protocols (every agent starts alike) and protocols such as approximate
// majority whose initial states depend on the agent only through counts.
// The count-based engines need it when n is too large to call Init n times
// (n > MaxInitCalls); the counts must add up to n.
type Census[S comparable] interface {
	Census(n int64) []StateCount[S]
}

// CountFinisher is implemented by protocols that add details to the result
// of a count-based engine; counts lists the final configuration (states in
// the order they were discovered, zero counts omitted).
type CountFinisher[S comparable] interface {
	FinishCounts(counts []StateCount[S], r *Result)
}

// PartnerClasser is implemented by protocols in which an agent's new state
// depends on its partner's state only through a class of that state: for
// all states a, b, b' with PartnerClass(b) == PartnerClass(b'),
// Interact(a, b) gives the initiator the same new state as Interact(a, b'),
// and Interact(b, a) gives the responder the same new state as
// Interact(b', a). The count engines then draw the matchings of their
// epochs class by class (classmatch.go); a protocol's tests should check
// the promise on the pairs of states its runs meet.
type PartnerClasser[S comparable] interface {
	PartnerClass(s S) uint64
}

// AgentArrayOnly is implemented by protocols that the count-based engines
// must not run (for example because the outcome is judged from per-agent
// statistics that transitions cached per state pair would not keep); the
// method says why.
type AgentArrayOnly interface{ AgentArrayOnly() string }
