package check

import (
	"fmt"
	"strings"

	"github.com/electkit/elect"
)

// terminal checks the properties of a state where nothing can happen, in
// the order in which every engine's monitor reports them at a run's end
// (election.Monitor.Finish), so that a counterexample replays to the
// property the check names: the number of leaders, the leader's recorded
// ID, what the other nodes know; then, when announcing, that every node
// decided.
func (m *model) terminal(s *state) string {
	if m.crashK > 0 {
		return m.terminalCrashed(s)
	}
	if s.elected != 1 {
		return fmt.Sprintf("no-leader: the execution ended with %d leaders", s.elected)
	}
	if m.knowsMax >= 0 {
		for i, d := range s.dec {
			if d == elect.Elected && s.knows[i] != m.knowsMax {
				return fmt.Sprintf("wrong-leader-id: the leader (node %d) recorded %d, not the max ID %d", i, s.knows[i], m.knowsMax)
			}
		}
	}
	want := m.knowsMax
	for i, k := range s.knows {
		if want < 0 {
			want = m.leaderID(s)
		}
		if m.announce && k != want {
			return fmt.Sprintf("not-informed: node %d knows %d as the leader's ID, not %d, after the announcement", i, k, want)
		}
	}
	var undecided []string
	for i, d := range s.dec {
		if d == elect.Undecided {
			undecided = append(undecided, fmt.Sprint(i))
		}
	}
	if len(undecided) > 0 && m.announce {
		return fmt.Sprintf("deadlock-undecided: the execution ended with node(s) %s undecided", strings.Join(undecided, ", "))
	}
	return ""
}

func (m *model) leaderID(s *state) elect.ID {
	for i, d := range s.dec {
		if d == elect.Elected {
			return m.cfg.IDs[i]
		}
	}
	return -1
}
