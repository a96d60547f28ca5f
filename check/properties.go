package check

import (
	"fmt"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/election"
)

// broke returns the violation of property p that detail describes, with
// the nodes involved: what the model's checks return (nil when nothing
// broke).
func broke(p election.Property, detail string, nodes ...int32) *election.Violation {
	v := election.NewViolation(p, detail, nodes...)
	return &v
}

// terminal checks the properties of a state where nothing can happen, in
// the order in which every engine's monitor reports them at a run's end
// (election.Monitor.Finish), so that a counterexample replays to the
// property the check names: the number of leaders, the leader's recorded
// ID, what the other nodes know; then, when announcing, that every node
// decided.
func (m *model) terminal(s *state) *election.Violation {
	if m.waitsOnOpenEdge(s) {
		return nil // the end of an open execution, not of a run (openline.go)
	}
	if m.crashK > 0 {
		return m.terminalCrashed(s)
	}
	if s.elected != 1 {
		return broke(election.PropNoLeader, fmt.Sprintf("the execution ended with %d leaders", s.elected))
	}
	if m.knowsMax >= 0 {
		for i, d := range s.dec {
			if d == elect.Elected && s.knows[i] != m.knowsMax {
				return broke(election.PropWrongLeaderID, fmt.Sprintf("the leader (node %d) recorded %d, not the max ID %d", i, s.knows[i], m.knowsMax), int32(i))
			}
		}
	}
	want := m.knowsMax
	for i, k := range s.knows {
		if want < 0 {
			want = m.leaderID(s)
		}
		if m.announce && k != want {
			return broke(election.PropNotInformed, fmt.Sprintf("node %d knows %d as the leader's ID, not %d, after the announcement", i, k, want), int32(i))
		}
	}
	var undecided []string
	var nodes []int32
	for i, d := range s.dec {
		if d == elect.Undecided {
			undecided = append(undecided, fmt.Sprint(i))
			nodes = append(nodes, int32(i))
		}
	}
	if len(undecided) > 0 && m.announce {
		return broke(election.PropDeadlockUndecided, fmt.Sprintf("the execution ended with node(s) %s undecided", strings.Join(undecided, ", ")), nodes...)
	}
	return nil
}

func (m *model) leaderID(s *state) elect.ID {
	for i, d := range s.dec {
		if d == elect.Elected {
			return m.cfg.IDs[i]
		}
	}
	return -1
}
