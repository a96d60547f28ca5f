package general

import (
	"github.com/electkit/elect"
)

// YoYo is Santoro's YO-YO election with pruning, for any connected network
// (Santoro 2007, the YO-YO section, 3.8 as recalled: the book was not at
// hand; the Wikipedia article "Yo-yo (algorithm)" summarises the same
// rules). It elects the minimum ID.
//
//   - Set-up: every node sends ID(id) on every link; each link is then
//     directed from the smaller ID to the larger, which makes the network
//     acyclic: sources (no incoming link) are the candidates, every other
//     node has lost already.
//   - YO- (down): a source sends VALUE(id) on its outgoing links; any other
//     node waits for a VALUE on every incoming link, and sends the smallest
//     it received on every outgoing link.
//   - -YO (up): a node that has a vote from every outgoing link (a sink at
//     once) votes on its incoming links: NO on all of them if it received a
//     NO, else YES on the links that brought the smallest value and NO on the
//     others. A source that receives a NO has lost.
//   - Every link that carried a NO is reversed, so a losing source stops
//     being a source and the survivors keep the acyclic orientation.
//   - Pruning, piggybacked on the votes (the PRUNE flag of YES and NO): a
//     node that received the same value on several incoming links keeps the
//     first of them (by port) and asks the others to cut the link; a node
//     left with no outgoing link and a single incoming one (a leaf sink,
//     also once its own out-neighbours were pruned in this -YO) cuts that
//     link too and leaves the computation. A cut link is never used again.
//   - The source that is left with no link at all after a -YO is the only
//     node left: it is elected.
//   - A lost node can be left with no incoming link when every NO it
//     received came with a cut (so no link turned towards it) while its NOs
//     turned all its incoming links away. The book's rules, as recalled
//     here (see docs/breadth.md), do not say what it does then; it starts
//     the next YO- like a source, with its own ID (it stays not-elected).
//     Every value keeps a single origin, so a duplicate value comes over two
//     paths from one node and cutting one of them keeps the network
//     connected; the minimum, never told NO, is the last node left.
//
// Every VALUE is answered by exactly one vote, so YES+NO = VALUE; the set-up
// costs exactly 2|E| ID messages; an iteration sends at most one VALUE per
// link still in use. Pruning keeps the remaining network connected (a cut
// duplicate link joins two nodes that another remaining path joins, and a
// leaf is cut off alone), which is why a source without links is alone.
//
// Model: asynchronous, any links (a node waits for one message per link in
// each phase; a VALUE of the next iteration that comes while the node still
// waits for votes, or before the set-up ended, is held back); any set of
// initiators (a node woken by a message sends its ID first). No announcement:
// nodes know only that they lost.
var YoYo = &elect.Algorithm{
	Name:   "yoyo",
	Title:  "YO-YO with pruning (any connected network)",
	Source: "Santoro 2007, section 3.8 (YO-YO, with pruning)",
	Summary: "Links point from smaller to larger IDs; sources push the minimum down (YO-), sinks vote YES/NO back up (-YO), " +
		"links that carried NO are reversed and redundant links are pruned, until one source is left.",
	Model: elect.Model{
		Topology: elect.General, Async: true, UniqueIDs: true,
		WakeUp: elect.AnySubset, Elects: elect.ElectsMin, Announce: elect.NoAnnounce,
	},
	Growth: elect.Growth{Messages: "n lg n", Time: "n"},
	Messages: []elect.MessageType{
		{Name: "ID", Fields: []string{"id"}},
		{Name: "VALUE", Fields: []string{"id"}},
		{Name: "YES", Fields: []string{"prune"}, Bits: voteBits},
		{Name: "NO", Fields: []string{"prune"}, Bits: voteBits},
	},
	Bounds: []elect.Bound{
		{Name: "ID messages", Quantity: elect.Messages, Types: []string{"ID"}, Relation: elect.Exactly,
			Formula: "2|E|", Source: "Santoro 2007, YO-YO set-up: every node sends its ID on every link",
			Value: func(c elect.BoundContext) float64 { return 2 * float64(c.Edges) }},
		{Name: "VALUE messages", Quantity: elect.Messages, Types: []string{"VALUE"}, Relation: elect.AtMost,
			Formula: "|E|*(ceil(lg n)+2)", Source: yoyoIterations,
			Value: func(c elect.BoundContext) float64 {
				return float64(c.Edges) * float64(elect.CeilLog2(c.N)+2)
			}},
		{Name: "votes", Quantity: elect.Messages, Types: []string{"YES", "NO"}, Relation: elect.AtMost,
			Formula: "|E|*(ceil(lg n)+2)", Source: yoyoIterations + "; one vote per VALUE",
			Value: func(c elect.BoundContext) float64 {
				return float64(c.Edges) * float64(elect.CeilLog2(c.N)+2)
			}},
	},
	New:  yoyoNodes.New,
	Init: yoyoNodes.Init,
}

// yoyoIterations is where the VALUE bound comes from.
const yoyoIterations = "Santoro 2007: at most one VALUE per link per iteration; at most ceil(lg diam)+1 iterations " +
	"until one source is left (diam <= n-1), and one more in which the pruning collapses the network onto it"

// voteBits: a vote is a type tag and the prune flag.
func voteBits(c elect.BitContext) int { return elect.TagBits(c.Types) + 1 }

var yoyoNodes = elect.NodesOf(func(p *yoyoNode, info elect.NodeInfo) {
	*p = yoyoNode{id: info.ID, links: make([]yoyoLink, info.Degree)}
})

// Message types of YoYo, in the order of YoYo.Messages; a vote's A is 1 when
// it asks to cut the link.
const (
	yyID elect.MsgType = iota
	yyValue
	yyYes
	yyNo
)

// Link directions.
const (
	linkUnknown uint8 = iota // set-up: the neighbour's ID has not come
	linkIn                   // from a smaller ID: values come in on it
	linkOut                  // to a larger ID: values go out on it
	linkCut                  // pruned
)

// Node phases.
const (
	yyIdle  uint8 = iota // not woken yet
	yySetup              // waiting for the neighbours' IDs
	yyDown               // waiting for a VALUE on every incoming link
	yyUp                 // waiting for a vote on every outgoing link
	yyGone               // pruned, or elected
)

// yoyoLink is what a node knows of one of its links.
type yoyoLink struct {
	dir   uint8
	has   bool     // a VALUE (or, in set-up, the ID) of this phase has come
	value elect.ID // that VALUE
	early bool     // a VALUE of the next iteration is held back
	next  elect.ID
	no    bool // up: the vote that came on this outgoing link was NO
	cut   bool // up: that vote asked to cut the link
}

type yoyoNode struct {
	id     elect.ID
	phase  uint8
	source bool     // has no incoming link: still a candidate
	count  int32    // IDs (set-up), values (down) or votes (up) received
	need   int32    // incoming links (down) or outgoing links (up) of this phase
	min    elect.ID // down: the smallest value received (own ID for a source)
	links  []yoyoLink
}

func (p *yoyoNode) Wake(env elect.Env, spontaneous bool) {
	p.phase = yySetup
	if len(p.links) == 0 {
		p.phase = yyGone
		env.Decide(elect.Elected)
		return
	}
	sendAllBut(env, len(p.links), noPort, elect.Message{Type: yyID, ID: p.id})
}

func (p *yoyoNode) Receive(env elect.Env, from elect.Port, m elect.Message) {
	l := &p.links[from]
	switch m.Type {
	case yyID:
		switch {
		case m.ID == p.id:
			// The node's own ID: with unique IDs this link leads back to
			// the node itself (the ring of one node is a self-loop), and
			// carries nothing: cut it.
			l.dir = linkCut
		case m.ID < p.id:
			l.dir = linkIn
		default:
			l.dir = linkOut
		}
		p.count++
		if int(p.count) < len(p.links) {
			return
		}
		p.source = p.linksOf(linkIn) == 0
		if !p.source {
			env.Decide(elect.NotElected)
		}
		p.startIteration(env)
	case yyValue:
		if p.phase != yyDown {
			l.early, l.next = true, m.ID
			return
		}
		p.takeValue(env, l, m.ID)
	case yyYes, yyNo:
		l.no, l.cut = m.Type == yyNo, m.A == 1
		p.count++
		p.maybeVote(env)
	}
}

// startIteration begins a YO-: a source sends its ID down; another node
// takes the values already held back and waits for the rest.
func (p *yoyoNode) startIteration(env elect.Env) {
	p.phase, p.count, p.need = yyDown, 0, p.linksOf(linkIn)
	if p.source || p.need == 0 {
		// A source sends its own ID. So does a lost node left with no
		// incoming link: every NO it received came with a cut, so no link
		// turned towards it, and the NOs it sent turned all its incoming
		// links away. It starts the YO- as a source would, so that every
		// value still has a single origin (what makes cutting duplicate
		// links safe).
		p.min = p.id
		p.sendDown(env)
		return
	}
	for q := range p.links {
		if l := &p.links[q]; l.early {
			l.early = false
			p.takeValue(env, l, l.next)
		}
	}
}

// linksOf counts the node's links in direction dir.
func (p *yoyoNode) linksOf(dir uint8) int32 {
	k := int32(0)
	for q := range p.links {
		if p.links[q].dir == dir {
			k++
		}
	}
	return k
}

func (p *yoyoNode) takeValue(env elect.Env, l *yoyoLink, v elect.ID) {
	l.has, l.value = true, v
	if p.count == 0 || v < p.min {
		p.min = v
	}
	p.count++
	if p.count == p.need {
		p.sendDown(env)
	}
}

// sendDown ends the YO-: the smallest value goes out on every outgoing link,
// and the node waits for their votes (a sink votes at once).
func (p *yoyoNode) sendDown(env elect.Env) {
	p.phase, p.count, p.need = yyUp, 0, p.linksOf(linkOut)
	for q := range p.links {
		if p.links[q].dir == linkOut {
			env.Send(elect.Port(q), elect.Message{Type: yyValue, ID: p.min})
		}
	}
	p.maybeVote(env)
}

// maybeVote ends the -YO once every outgoing link has voted.
func (p *yoyoNode) maybeVote(env elect.Env) {
	if p.count < p.need {
		return
	}
	// The votes, and the outgoing links that stay after this -YO.
	gotNo, outLeft := false, 0
	for q := range p.links {
		if l := &p.links[q]; l.dir == linkOut {
			gotNo = gotNo || l.no
			if !l.cut {
				outLeft++
			}
		}
	}
	if p.source {
		if gotNo {
			p.source = false
			env.Decide(elect.NotElected)
		}
	} else {
		p.vote(env, gotNo, outLeft)
	}
	if p.phase == yyGone {
		return
	}
	// Reverse the links that carried a NO, drop the cut ones.
	left := 0
	for q := range p.links {
		l := &p.links[q]
		switch {
		case l.dir == linkCut:
		case l.cut:
			l.dir = linkCut
		case l.no && l.dir == linkOut:
			l.dir = linkIn
		case l.no && l.dir == linkIn:
			l.dir = linkOut
		}
		l.no, l.cut, l.has = false, false, false
		if l.dir != linkCut {
			left++
		}
	}
	if left == 0 {
		// Only a source can be left without links: every other node keeps
		// an incoming link or leaves.
		p.phase = yyGone
		env.Decide(elect.Elected)
		return
	}
	if p.linksOf(linkOut) == 0 && (p.source || p.linksOf(linkIn) == 0) {
		// The next iteration would need no message (no outgoing link to
		// wait for, nothing to take in): it would recurse for ever. Only
		// a fault gets here (set-up messages lost or duplicated leave
		// links without a direction, or a source with incoming links); no
		// run on reliable links does.
		panic("yo-yo: an iteration with nothing to wait for")
	}
	p.startIteration(env)
}

// vote sends the votes of a node that is not a source on its incoming links,
// with the pruning requests, and leaves if it is a leaf; the links' no and
// cut flags record what it sent, for the reversal.
func (p *yoyoNode) vote(env elect.Env, gotNo bool, outLeft int) {
	kept := 0
	first := make(map[elect.ID]bool, p.need) // values whose first link is kept (looked up only)
	for q := range p.links {
		l := &p.links[q]
		if l.dir != linkIn {
			continue
		}
		l.no = gotNo || l.value != p.min
		// Keep the first incoming link of each value, cut the others.
		if first[l.value] {
			l.cut = true
		} else {
			first[l.value] = true
			kept++
		}
	}
	leaf := outLeft == 0 && kept == 1
	for q := range p.links {
		l := &p.links[q]
		if l.dir != linkIn {
			continue
		}
		l.cut = l.cut || leaf
		t := yyYes
		if l.no {
			t = yyNo
		}
		var prune int64
		if l.cut {
			prune = 1
		}
		env.Send(elect.Port(q), elect.Message{Type: t, A: prune})
	}
	if leaf {
		p.phase = yyGone
		env.Terminate()
	}
}

// Clone implements elect.Snapshotter.
func (p *yoyoNode) Clone() elect.Node {
	c := *p
	c.links = append([]yoyoLink(nil), p.links...)
	return &c
}

// AppendState implements elect.Snapshotter.
func (p *yoyoNode) AppendState(b []byte) []byte {
	b = elect.AppendInt(b, int64(p.id))
	b = elect.AppendUint(b, uint64(p.phase))
	b = elect.AppendBool(b, p.source)
	b = elect.AppendInts(b, int64(p.count), int64(p.need), int64(p.min))
	return elect.AppendList(b, p.links, appendYoyoLink)
}

func appendYoyoLink(b []byte, l yoyoLink) []byte {
	b = elect.AppendUint(b, uint64(l.dir))
	b = elect.AppendBool(b, l.has)
	b = elect.AppendInt(b, int64(l.value))
	b = elect.AppendBool(b, l.early)
	b = elect.AppendInt(b, int64(l.next))
	b = elect.AppendBool(b, l.no)
	return elect.AppendBool(b, l.cut)
}
