// Package ring holds the election algorithms for rings: unidirectional
// (nodes send on elect.Left, clockwise, only) and oriented bidirectional.
// Each algorithm is a pure state machine in its own file, which names its
// source and states its rules.
package ring
