package main

import (
	"testing"

	"github.com/electkit/elect/conformance"
)

// TestAllTheWayConforms runs the algorithm through every check the shipped
// catalog's algorithms pass (package conformance): its declaration and
// state encoding, elections on random rings under every delivery its model
// allows with random initiators, the simulator against the reference
// engine, snapshots, and the exhaustive checker on rings of 3 and 4 nodes.
// underTest is AllTheWay; built with -tags broken, it is a copy with a bug
// (broken_test.go), which the kit must catch.
func TestAllTheWayConforms(t *testing.T) {
	conformance.Run(t, underTest, conformance.Options{})
}
