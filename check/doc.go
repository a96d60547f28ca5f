// Package check is the exhaustive checker behind `elect check`: it runs
// the very node code the simulator and the real runtimes run, over every
// schedule of a small network, and reports whether the election's
// properties hold in all of them, and the exact extremes of the messages
// sent (by type and in all) and of the time.
//
// # What is explored
//
// A state is the whole network: every node's state (elect.Snapshotter's
// encoding, so the checker needs nothing from an algorithm beyond its
// declaration), its flags, decision and learned leader, its causal depth,
// and every link's messages in flight, each with its causal depth (under
// bag delivery a link's contents as a multiset). The choices at a state
// are which message is delivered next: under fifo the oldest message of
// any link, under bag any message in flight. Initiators wake at time 0,
// before any message can arrive (as in the simulator); a node that is not
// an initiator wakes when its first message comes (--initiators subsets
// checks every set of initiators). Wake-ups commute with one another, so
// one order of them is explored. A depth-first search visits every
// reachable state once (states are known by a 128-bit hash of their
// parts; see keys and hashSeeds), and computes for each state, over every
// execution from it, the largest and smallest number of messages still to
// come and the final time; the extremes of the initial state are the
// extremes over all executions, and following, from each state, a step
// whose extreme is the state's gives an execution that reaches each one
// (schedule).
//
// Time is the causal depth (the longest chain of messages each caused by
// the previous one), the time of an execution in which every message took
// one unit: it is a function of the state because depths are part of it.
//
// # Properties
//
// At every state: no decision changes, at most one leader, and a leader
// holds the promised ID. At every terminal state (nothing can happen):
// exactly one leader (a terminal state without one is a deadlock), and
// when the algorithm announces, every node decided and knows the leader's
// ID (without an announcement, nodes other than the leader need not learn
// the outcome: LCR's do not). A state the search returns to while
// still exploring from it is a cycle: an infinite execution, reported as
// non-termination with the path to it. A node whose code panics breaks
// the property "panic" (as on every engine), and its execution ends there.
// A violated property is reported with the shortest execution that
// reaches it (found breadth-first once the depth-first search has found
// one), written as a trace that `elect run --replay` replays to the same
// property: the step that breaks it is whole (every effect of the node's
// handler), and the execution is completed to the end of a run when that
// run still breaks the property, or else ends where it broke (a "cut"
// line of reason "violation", at which the replay stops). The declared
// bounds are checked against the exact extremes: a bound that fails in
// some execution makes the verdict "bound-failed".
//
// # Reductions, and what is not reduced
//
// ID assignments: with --ids all every assignment of the IDs 1..n is
// checked, up to rotation on rings: rotating the assignment and the node
// indexes together gives an isomorphic network (a ring's ports are the
// same at every node), and node code sees only its ID, its ports and its
// own random stream, so every execution of a rotated assignment is an
// execution of the original with nodes renamed, with the same counts and
// outcome. That last step needs deterministic nodes: for a randomized
// algorithm every assignment is checked.
//
// Randomized algorithms are checked with their seeds fixed: node i draws
// from election.StreamSource(seed, "node", i) as on every runtime, and the
// stream's position is part of the state, so the check covers every
// schedule of the draws that one seed gives (the report says so), not
// every coin flip.
//
// Partial-order reduction (under fifo; --reduction none turns it off):
// steps of different nodes are independent (delivering to node i and
// delivering to node j, i != j, can be taken in either order, reach the
// same state, and neither disables the other: a send only appends to a
// link, and under FIFO the head of a non-empty link stays its head). Under
// FIFO a node's deliveries are one per non-empty incoming link, each "take
// the next message of that link". At a state, let T be the deliveries to
// the first node (by index) that has a message on every incoming link that
// can carry one (on a unidirectional ring there is one such link, so T is
// any single delivery), or a single delivery to a halted node (which only
// drops messages, so commutes with its other deliveries too). T is a
// persistent set: on a path from the state that avoids T, every step is
// of another node (the node has no other deliveries to take: its links'
// heads stay the same until it takes them), so independent of T, and T
// stays enabled along it. Hence every maximal execution from the state is
// equivalent (the same events at each node, in the same order; only
// independent steps swapped) to one that starts with a step of T: it
// cannot avoid T and end, so it contains a first step of T, which every
// step before it commutes with. By induction every execution of the full
// graph has an equivalent in the reduced one, whose steps at a state are
// T (the choice depends on the state alone, so the state cache is sound).
// Equivalent executions send the same messages of each type, have the
// same causal depths (the happens-before order is the same), pass each
// node through the same decisions and end in the same state, so the exact
// extremes and the properties (decisions that change, a second leader or
// a wrong one: all irrevocable, so visible at the end) are those of the
// full graph. An infinite execution is kept too: if it contains a step of
// T, that step moves to its front; if not, T stays enabled along it and
// one of its steps can be put in front of it; so the reduced graph has an
// infinite path, a cycle. Where no node qualifies, every step is taken.
// Wake-ups of initiators commute likewise and are taken in one order.
// Under bag delivery a message arriving later on a non-empty link is a
// new step of its node, dependent on the others, so there the search
// explores every interleaving. The state cache makes each diamond cost its
// states, not its paths; what is left is the number of states, which
// --max-states bounds: a search that reaches it ends with the verdict
// "incomplete", never "ok". A test (TestReductionKeepsExtremes) requires
// equal extremes and verdicts with and without the reduction on
// unidirectional and bidirectional rings, complete graphs and general
// graphs.
//
// Synchronous algorithms have no scheduling choices: given IDs and
// wake-up times an execution is determined, so each configuration is run
// once in the simulator. Their choices are the IDs and the initiators'
// wake-up rounds: --initiators times (Options.Initiators "times") takes
// every round in 0..WakeRounds, or none, for each node, the earliest at 0
// (nothing happens before the first wake-up, so a run whose initiators
// all start k rounds later is the same run shifted by k).
//
// Configurations (ID assignments and initiator sets) are checked in
// parallel, one search per configuration; the results are merged in a
// fixed order, so the report does not depend on the number of workers.
//
// # Where each part lives
//
// The model of one configuration is the type model: what a state is and
// what each step does to it (model.go), the hashes that name a state and
// its parts (hash.go), the moves learnt once and replayed (moves.go),
// faults as moves (faults.go) and draws as branches (draws.go). It changes
// one state in place and undoes the change; it knows nothing of a search.
// The properties every state and every end must keep are asked of it in
// properties.go (terminal) and in its steps (model.call).
//
// The search is the type stateSpace, which embeds a model and drives it:
// the depth-first search of every state with each state's extremes
// (statespace.go), the partial-order reduction (reduction.go), the
// executions the report shows, found again: the shortest counterexample,
// breadth-first, and a schedule to each extreme (witnesses.go); the state
// and memory limits, estimated before a check starts (limits.go); the workers, one search per
// configuration (workers.go). A configuration and its results are a config
// (configs.go).
//
// The questions asked of the results and the answer: the declared bounds
// (bounds.go), exact probabilities (draws.go), the report and its merging
// in configuration order (report.go), its steps (steps.go) and the traces
// it writes (counterexample.go). Run (check.go) is the list of those
// steps; Session (session.go) walks one configuration's states by hand;
// population protocols have their own small search (population.go).
// Burns' open executions (an edge that delivers nothing) are searched by
// the same model and search (openline.go), and his pasting construction
// built from them (paste.go) and written as a trace (opentrace.go).
package check
