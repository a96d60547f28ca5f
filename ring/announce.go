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

// claimLeadership is what the elected node does in the algorithms whose
// leader learns the leader's ID (its own, or the maximum it carries): it
// records m's ID as the leader, decides elected and, when announce is set,
// sends m, the leader's message, round the ring through the left port.
func claimLeadership(env elect.Env, announce bool, m elect.Message) {
	env.SetLeader(m.ID)
	env.Decide(elect.Elected)
	if announce {
		env.Send(elect.Left, m)
	}
}
