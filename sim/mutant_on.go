//go:build elect_mutant

package sim

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// Mutants are the deliberate bugs this build can put in the fault routing,
// by the name ELECT_MUTANT gives (empty: none):
//
//   - lost-delivered: a lost message is recorded as lost, and delivered all
//     the same;
//   - loss-next-message: a loss hits the message sent after the one the
//     schedule chose;
//   - dup-wrong-port: a duplicate's copy arrives on another port of its
//     receiver (the next one, when it has two or more);
//   - dup-copy-late: a duplicate's copy is late by its message's delay;
//   - crash-step-late: a crash after a node's S-th step happens after its
//     S+1-th.
var Mutants = []string{"lost-delivered", "loss-next-message", "dup-wrong-port", "dup-copy-late", "crash-step-late"}

// mutant is the bug this run carries: ELECT_MUTANT, checked at start-up so
// that a misspelt name cannot pass for a mutant the tests did not catch.
var mutant = func() string {
	m := os.Getenv("ELECT_MUTANT")
	if m != "" && !slices.Contains(Mutants, m) {
		panic(fmt.Sprintf("sim: ELECT_MUTANT=%q is none of the mutants: %s", m, strings.Join(Mutants, " ")))
	}
	return m
}()
