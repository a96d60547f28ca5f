// Package complete holds the election algorithms for complete networks,
// where every node has a direct link to every other one (topology.NewComplete:
// port p of node i leads to node p if p < i, else to node p+1; a node knows
// its n-1 ports through NodeInfo.Degree).
//
// AllToAll is the naive baseline of seed 002: every node sends its ID to
// every other node, n(n-1) messages. AfekGafni is Afek-Gafni algorithm B as
// seed 002 writes it up: candidates capture nodes one link at a time and
// eliminate each other by comparing (level, id), for O(n log n) messages.
// Beyond the seeds: Humblet (candidates compared by the size of what they
// own, then by ID), KMZ, the election of Korach, Moran and Zaks (kingdoms
// that grow by phases and merge), and LMW, the election of Loui,
// Matsushita and West on complete networks with a sense of direction
// (links labelled by the distance they span along one agreed cycle).
// Each algorithm is a pure state machine in its own file, which names its
// source and states its rules.
package complete
