package general

import (
	"fmt"

	"github.com/electkit/elect"
)

// Echo is election by echo waves with extinction on any connected network,
// the broadcast/convergecast strategy of the lecture notes (seed 001, section
// 5.3: "each node initiate[s] a breadth-first-search and convergecast, with
// nodes refusing to participate in the protocol for any initiator with a
// lower ID ... only the node with the maximum ID can finish its protocol").
// The wave is the echo algorithm (Segall's PIF; extinction as in Tel,
// Introduction to Distributed Algorithms, section 7.3):
//
//   - a node starts its wave r = its own ID by sending WAVE(r) on every port;
//   - a node that receives WAVE(r) for r larger than its current wave joins
//     wave r: its father is the sender, it forgets the smaller wave, and it
//     sends WAVE(r) on every other port; a message of a smaller wave is
//     ignored (the smaller wave dies out there);
//   - every message of the node's current wave, WAVE or ECHO, is counted;
//     when one has arrived on every port, a node with a father sends ECHO(r)
//     to it, and the node that started wave r is elected;
//   - the leader sends LEADER(r) to the nodes that echoed to it (its children
//     in the wave's tree), which decide not-elected and pass it on to theirs.
//
// Every node initiates (the notes' assumption); a node woken by a message
// starts its own wave first, unless that message already carries a larger
// ID, as a late node does in Chang-Roberts (seed 003). So the maximum always
// starts a wave, that wave is never extinguished, and it alone completes. The
// notes' introduction words the same strategy with the smallest ID; section
// 5.3 uses the largest, as here (the direction changes nothing measurable).
//
// Messages. In a wave that a node joins it sends exactly one message on each
// port (WAVE, or ECHO to its father), deg(v) in all, so a wave that reaches
// every node costs exactly 2|E| messages: 2|E|-(n-1) WAVE and n-1 ECHO. A
// node joins only waves whose ID is at least its own, at most once each, so
// it joins at most rank(v) waves (rank 1 = the maximum) and
//
//	2|E| <= WAVE+ECHO <= sum over v of deg(v)*rank(v) <= 2|E|*n,
//
// with equality on the left when only the maximum initiates. The
// announcement follows the final tree: exactly n-1 LEADER messages.
var Echo = &elect.Algorithm{
	Name:   "echo",
	Title:  "Echo with extinction",
	Source: "seed 001 (lecture notes), section 5.3 (broadcast/convergecast election in general networks)",
	Summary: "Every node starts an echo wave with its ID; a node joins a wave with a larger ID and drops the smaller one; " +
		"the node whose wave echoes back from every port is elected and announces down the wave's tree.",
	// The current wave's tree: each node's port to its father.
	TreePorts: elect.TreePorts{Field: "father"},
	Model: elect.Model{
		Topology: elect.General, Async: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMax, Announce: elect.AlwaysAnnounce,
	},
	Growth: elect.Growth{Messages: "n H_n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "WAVE", Fields: []string{"r"}},
		{Name: "ECHO", Fields: []string{"r"}},
		{Name: "LEADER", Fields: []string{"r"}},
	},
	Bounds: []elect.Bound{
		{Name: "wave messages", Quantity: elect.Messages, Types: []string{"WAVE", "ECHO"}, Relation: elect.AtMost,
			Formula: "2|E|*n", Source: "each node joins at most n waves (one per ID >= its own) and sends deg(v) messages in each",
			Value: func(c elect.BoundContext) float64 { return 2 * float64(c.Edges) * float64(c.N) }},
		{Name: "wave messages", Quantity: elect.Messages, Types: []string{"WAVE", "ECHO"}, Relation: elect.AtLeast,
			Formula: "2|E|", Source: "the maximum's wave reaches every node and costs one message per port",
			Value: func(c elect.BoundContext) float64 { return 2 * float64(c.Edges) }},
		{Name: "ECHO messages", Quantity: elect.Messages, Types: []string{"ECHO"}, Relation: elect.AtLeast,
			Formula: "n-1", Source: "one ECHO per edge of the winning wave's spanning tree",
			Value: func(c elect.BoundContext) float64 { return float64(c.N - 1) }},
		{Name: "LEADER messages", Quantity: elect.Messages, Types: []string{"LEADER"}, Relation: elect.Exactly,
			Formula: "n-1", Source: "the announcement follows the winning wave's spanning tree",
			Value: func(c elect.BoundContext) float64 { return float64(c.N - 1) }},
	},
	// Several waves may cross a link in one instant (a node forwards each
	// larger wave it receives on its other ports): the memory estimate
	// counts two messages per port (measured: 13.5 deliveries' worth a
	// node at the peak of a 300x300 grid, see docs/runtimes.md).
	InFlight: func(c elect.BoundContext) float64 { return 4 * float64(c.Edges) },
	New:      echoNodes.New,
	Init:     echoNodes.Init,
}

var echoNodes = elect.NodesOf(echoInit)

func echoInit(p *echoNode, info elect.NodeInfo) {
	*p = echoNode{id: info.ID, degree: int32(info.Degree), wave: -1, father: noFather}
}

// Message types of Echo, in the order of Echo.Messages.
const (
	echoWave elect.MsgType = iota
	echoEcho
	echoLeader
)

// noFather marks the node that started its current wave.
const noFather elect.Port = -1

type echoNode struct {
	id       elect.ID
	wave     elect.ID // the current wave's ID (its initiator's); -1 before any
	father   elect.Port
	degree   int32
	received int32        // messages of the current wave received so far
	children []elect.Port // ports that sent ECHO in the current wave
}

func (p *echoNode) Wake(env elect.Env, spontaneous bool) {
	if spontaneous {
		p.startWave(env)
	}
	// A node woken by a message decides in Receive whether to start its
	// own wave (see maybeStart).
}

func (p *echoNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	switch m.Type {
	case echoWave:
		p.handleWave(env, from, m.ID)
	case echoEcho:
		p.handleEcho(env, from, m.ID)
	case echoLeader:
		p.handleLeader(env, m.ID)
	}
}

// startWave makes the node the root of its own wave.
func (p *echoNode) startWave(env elect.Env) {
	p.join(env, p.id, noFather)
	p.maybeComplete(env)
}

// join forgets the current wave and enters wave r through port father
// (noFather for the node's own wave), sending WAVE(r) on every other port.
func (p *echoNode) join(env elect.Env, r elect.ID, father elect.Port) {
	p.wave, p.father, p.received = r, father, 0
	p.children = p.children[:0]
	sendAllBut(env, int(p.degree), father, elect.Message{Type: echoWave, ID: r})
}

func (p *echoNode) handleWave(env elect.Env, from elect.Port, r elect.ID) {
	if p.wave < 0 && r < p.id {
		// Woken by a smaller wave: start our own, which extinguishes it.
		p.startWave(env)
	}
	switch {
	case r > p.wave:
		p.join(env, r, from)
	case r < p.wave:
		return // extinction: a smaller wave dies here
	}
	p.received++
	p.maybeComplete(env)
}

func (p *echoNode) handleEcho(env elect.Env, from elect.Port, r elect.ID) {
	switch {
	case r < p.wave:
		return // the echo of a wave this node has left
	case r > p.wave:
		// A node echoes only to the father it joined through, which was in
		// wave r then and never moves to a smaller wave.
		panic(fmt.Sprintf("echo: ECHO(%d) reached a node in wave %d", r, p.wave))
	}
	p.children = append(p.children, from)
	p.received++
	p.maybeComplete(env)
}

// maybeComplete ends the node's part in the current wave once a message of
// it has arrived on every port: echo to the father, or, at the root, win.
func (p *echoNode) maybeComplete(env elect.Env) {
	if p.received < p.degree {
		return
	}
	if p.father != noFather {
		env.Send(p.father, elect.Message{Type: echoEcho, ID: p.wave})
		return
	}
	env.Decide(elect.Elected)
	p.announce(env, p.id)
}

func (p *echoNode) handleLeader(env elect.Env, r elect.ID) {
	if r != p.wave {
		panic(fmt.Sprintf("echo: LEADER(%d) reached a node in wave %d", r, p.wave))
	}
	env.SetLeader(r)
	env.Decide(elect.NotElected)
	p.announce(env, r)
}

// announce sends LEADER(r) down the wave's tree; the node has nothing left
// to do (only messages of extinguished waves can still reach it).
func (p *echoNode) announce(env elect.Env, r elect.ID) {
	for _, q := range p.children {
		env.Send(q, elect.Message{Type: echoLeader, ID: r})
	}
	env.Terminate()
}
