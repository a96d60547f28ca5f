//go:build !broken

package main

// underTest is the algorithm TestAllTheWayConforms checks.
var underTest = AllTheWay
