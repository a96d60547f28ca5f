package cli

import (
	"strings"
	"testing"
)

// TestRunRandomizedAndSynchronousRingAlgorithms checks what elect run says
// about lcr-random, itai-rodeh, time-slice and slow-fast: the estimate of
// the two-leader probability of anonymous lcr-random, the symmetric outcome
// of a deterministic algorithm on an anonymous synchronous ring with the
// theorem it illustrates, the instant 10^9-ID time-slice run, and the
// refusals that say which IDs are allowed.
func TestRunRandomizedAndSynchronousRingAlgorithms(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want []string // substrings of stdout (code 0 or 1) or stderr (code 2)
	}{
		{[]string{"run", "lcr-random", "--ids", "anonymous", "--bits", "2", "--n", "8", "--trials", "300"}, 1,
			[]string{"multiple-leaders", "trials elected two or more nodes: p = ", "(standard error)"}},
		{[]string{"run", "lcr-random", "--ids", "decreasing", "--n", "32"}, 0, []string{"outcome   elected"}},
		{[]string{"run", "itai-rodeh", "--ids", "anonymous", "--n", "12", "--trials", "20", "--timing", "sync"}, 0,
			[]string{"elected 20 (100%)", "checks     all held in every trial"}},
		{[]string{"run", "slow-fast", "--n", "6", "--ids", "anonymous", "--force"}, 1,
			[]string{"outcome   symmetric", "Lemma 5.1.1", "impossibility theorem"}},
		{[]string{"run", "time-slice", "--n", "1000", "--ids", "range:1000000000..1000001000"}, 0,
			[]string{"messages  1000 (leader 1000)", "ok    time == n(m+1)"}},
		{[]string{"run", "slow-fast", "--n", "8", "--initiators", "nodes:1@0,3@1,5@2,6@0", "--ids", "9,3,7,5,2,8,4,6"}, 0,
			[]string{"outcome   elected: node 1 (ID 3)", "fast 8, slow 6", "time      50 rounds"}},
		{[]string{"run", "slow-fast", "--n", "4", "--ids", "61,62,63,64"}, 2,
			[]string{"smallest ID must be at most 62 - ceil(lg n) = 60; got 61"}},
		{[]string{"run", "time-slice", "--n", "40000", "--ids", "range:281474976670655..281474976710655"}, 2,
			[]string{"IDs must be at most 230584300921368"}},
		{[]string{"run", "lcr-random", "--bits", "64"}, 2, []string{"1..63"}},
	}
	for _, tc := range cases {
		code, out, errOut := runCLI(tc.args...)
		text := out
		if tc.code == 2 {
			text = errOut
		}
		if code != tc.code {
			t.Errorf("elect %s: exit %d, want %d\n%s%s", strings.Join(tc.args, " "), code, tc.code, out, errOut)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("elect %s: output lacks %q:\n%s", strings.Join(tc.args, " "), w, text)
			}
		}
	}
}
