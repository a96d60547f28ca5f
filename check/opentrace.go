package check

import (
	"fmt"
	"io"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
)

// OpenEdge returns the open edge of the execution as the two nodes it
// joins: node a and node a+1 (mod n).
func (e *OpenExecution) OpenEdge() (a, b int32) {
	return e.edge, (e.edge + 1) % int32(e.cfg.Graph.N)
}

// senderPort returns the port on which node from sent a message that
// arrives on link key.
func (m *model) senderPort(from int32, key int64) elect.Port {
	for p := range m.cfg.Graph.Degree(int(from)) {
		if to, q, ok := m.cfg.Route(from, elect.Port(p)); ok && to == m.linkTo[key] && q == m.linkPort[key] {
			return elect.Port(p)
		}
	}
	panic(fmt.Sprintf("check: node %d sent on no port to link %d", from, key)) // the model routed it
}

// OpenCutReason is the reason of the "cut" line that ends the trace of an
// open execution: not a whole run, since messages wait on its open edge.
func OpenCutReason(a, b int32) string {
	return fmt.Sprintf("open: nothing is delivered across the edge between node %d and node %d", a, b)
}

// WriteTrace writes the open execution as a trace (format version 2, the
// runtime "check"), which `elect view` shows: every wake-up, send,
// delivery, decision and state, and a last "cut" line (OpenCutReason) that
// says the record is not a whole run; `elect run --replay` refuses it as
// such. Its messages sent onto the open edge have a send line and no
// delivery. Times are causal depths, as in the checker's other traces. A
// node woken by a message has its wake line before the delivery, and the
// messages its wake-up sent after it, with the delivery's (the open
// executions of the checker wake every node first, so it has none).
func (e *OpenExecution) WriteTrace(w io.Writer) error {
	var m model
	m.init(e.cfg, false)
	m.openEdges(ringEdge(e.cfg.Graph, e.edge))
	s := m.initial()
	var now int64
	tr := election.NewTracer(w, e.cfg, func() int64 { return now })
	tr.SetRuntime("check")
	sent := make([]int64, m.nq()-2)
	for k, st := range e.steps {
		i := st.node
		dec, knows, halted := s.dec[i], s.knows[i], s.halted[i]
		if st.wake {
			now = s.depth[i]
			if !s.pending[i] || s.woken[i] || s.halted[i] {
				return fmt.Errorf("check: step %d of the open execution wakes node %d, which is awake", k+1, i)
			}
			tr.Wake(i, true)
		} else {
			key := m.cfg.Graph.PortIndex(i, st.port)
			if len(s.links[key]) == 0 || m.open[key] {
				return fmt.Errorf("check: step %d of the open execution delivers to node %d on port %d, where nothing can be delivered", k+1, i, st.port)
			}
			f := s.links[key][st.k]
			now = f.depth
			if !s.woken[i] && !s.halted[i] {
				tr.Wake(i, false)
			}
			tr.Deliver(i, st.port, f.msg, s.halted[i])
		}
		if v := m.apply(s, st, sent); v != nil {
			return fmt.Errorf("check: step %d of the open execution breaks %s", k+1, v)
		}
		m.linkLog = m.linkLog[:0]
		now = s.depth[i]
		for _, snd := range m.sends {
			tr.Send(i, m.senderPort(i, snd.key), m.linkTo[snd.key], snd.msg)
		}
		if s.dec[i] != dec {
			tr.Decide(i, s.dec[i])
		}
		if s.knows[i] != knows && !(s.dec[i] == elect.Elected && dec != elect.Elected && s.knows[i] == e.cfg.IDs[i]) {
			tr.Learn(i, s.knows[i])
		}
		if s.halted[i] && !halted {
			tr.Halt(i)
		}
		tr.State(i, s.nodes[i])
	}
	a, b := e.OpenEdge()
	tr.Cut(OpenCutReason(a, b))
	return tr.Flush()
}
