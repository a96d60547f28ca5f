//go:build broken

package main

import "github.com/electkit/elect"

// underTest is, with -tags broken, a deliberately broken copy of AllTheWay:
// a node that is not an initiator, woken by the first message it receives,
// forgets to send its own ID. When every node initiates (the default of
// 'elect run') it elects as the original does; when some do not, their IDs
// never travel, they never decide, and the largest of them is never
// elected. The conformance kit must catch it.
var underTest = func() *elect.Algorithm {
	a := *AllTheWay
	a.New, a.Init = brokenNodes.New, brokenNodes.Init
	return &a
}()

var brokenNodes = elect.NodesOf(func(p *brokenNode, info elect.NodeInfo) { nodes.Init(&p.node, info) })

type brokenNode struct{ node }

func (p *brokenNode) Wake(env elect.Env, spontaneous bool) {
	if spontaneous { // the bug: a node woken by a message stays silent
		p.node.Wake(env, spontaneous)
	}
}

func (p *brokenNode) Clone() elect.Node { c := *p; return &c }
