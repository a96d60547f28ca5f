package cli

import "testing"

// TestExploreBadInput: one line and exit 2 for a network too large, a
// delivery model explore does not schedule, and an unknown algorithm.
func TestExploreBadInput(t *testing.T) {
	for _, c := range []badInput{
		{[]string{"explore", "lcr", "--n", "9"}, "--n 9: explore searches every state"},
		{[]string{"explore", "lcr", "--n", "4", "--delivery", "sync"}, `--delivery "sync": use fifo or bag`},
		{[]string{"explore", "lcx", "--n", "4"}, `unknown algorithm "lcx"`},
		{[]string{"explore", "itai-rodeh", "--n", "3"}, "explore schedules deterministic algorithms"},
	} {
		wantBadInput(t, c.args, c.want)
	}
}
