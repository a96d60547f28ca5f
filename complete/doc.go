// Package complete holds the election algorithms for complete networks,
// where every node has a direct link to every other one (topology.NewComplete:
// port p of node i leads to node p if p < i, else to node p+1; a node knows
// its n-1 ports through NodeInfo.Degree).
//
// AllToAll is the naive baseline of seed 002: every node sends its ID to
// every other node, n(n-1) messages. AfekGafni is Afek-Gafni algorithm B as
// seed 002 writes it up: candidates capture nodes one link at a time and
// eliminate each other by comparing (level, id), for O(n log n) messages.
// Each algorithm is a pure state machine in its own file, which names its
// source and states its rules.
package complete
