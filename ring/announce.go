package ring

import "github.com/electkit/elect"

// passOnLeader is what a node other than the leader does when the leader's
// message m reaches it (the announcement of --announce, or an algorithm's
// own leader or termination message, whose ID is the leader's): it learns
// the leader, decides not-elected and sends m on through port to. The
// message stops at the leader: each algorithm tests that before calling.
func passOnLeader(env elect.Env, to elect.Port, m elect.Message) {
	env.SetLeader(m.ID)
	env.Decide(elect.NotElected)
	env.Send(to, m)
}
