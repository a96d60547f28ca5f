//go:build !elect_mutant

package sim

// mutant names a deliberate bug in the simulator's fault routing, for the
// reference engine's test that the differential test catches such bugs
// (reference/mutant_test.go; sim/mutant_on.go, built with the tag
// elect_mutant, reads it from ELECT_MUTANT). In every normal build it is
// the empty constant: each `mutant == ...` is false at compile time and
// its branch is not compiled in.
const mutant = ""
