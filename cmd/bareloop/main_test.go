package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestPrintsTheMessagesAndTheLeader pins the output on the decreasing ring
// of 10: LCR sends n(n+1)/2 = 55 messages and elects node 0, which holds
// the largest ID, as a plain loop and as the catalog's node through the
// contract.
func TestPrintsTheMessagesAndTheLeader(t *testing.T) {
	for _, alg := range []string{"lcr", "lcr-contract"} {
		var out, errs bytes.Buffer
		if code := run([]string{alg, "--n", "10", "--ids", "decreasing"}, &out, &errs); code != 0 {
			t.Fatalf("exit %d: %s", code, errs.String())
		}
		want := `{"algorithm":"` + alg + `","n":10,"ids":"decreasing","seed":1,"messages":55,"leader_index":0}` + "\n"
		if out.String() != want {
			t.Errorf("got %q, want %q", out.String(), want)
		}
	}
}

// TestBadInputIsOneLineAndExit2 checks the command's refusals.
func TestBadInputIsOneLineAndExit2(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"peterson"},
		{"lcr", "--n", "0"},
		{"lcr", "--n", "x"},
		{"hs", "--ids", "anonymous"},
		{"hs", "--ids", "list:1,1,2", "--n", "3"},
		{"lcr", "--frobnicate"},
		{"lcr", "extra"},
	} {
		var out, errs bytes.Buffer
		code := run(args, &out, &errs)
		if code != 2 || out.Len() != 0 || strings.Count(errs.String(), "\n") != 1 || !strings.HasPrefix(errs.String(), "bareloop: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, code, out.String(), errs.String())
		}
	}
}

// FuzzArguments runs the command on arbitrary algorithm names and ID
// arrangements (on small rings): it exits 0 with one line of output, or 2
// with one line of error, and never panics.
func FuzzArguments(f *testing.F) {
	f.Add("lcr", "random")
	f.Add("hs", "bit-reversal")
	f.Add("hs", "list:3,1,2,7,5,0,4,6")
	f.Add("lcr", "range:1..100")
	f.Add("lcr-random", "random")
	f.Add("hs-contract", "decreasing")
	f.Fuzz(func(t *testing.T, alg, arrangement string) {
		var out, errs bytes.Buffer
		code := run([]string{alg, "--n", "8", "--ids", arrangement}, &out, &errs)
		switch {
		case code == 0 && strings.Count(out.String(), "\n") == 1 && errs.Len() == 0:
		case code == 2 && out.Len() == 0 && strings.Count(errs.String(), "\n") == 1:
		default:
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errs.String())
		}
	})
}
