package cli

import (
	"io"
	"strings"
	"testing"
)

// FuzzPPArguments: no argument list makes elect pp panic; every outcome is
// exit 0, 1 or 2, and exit 2 comes with one line on stderr.
func FuzzPPArguments(f *testing.F) {
	f.Add("angluin --n 50 --trials 2")
	f.Add("pll --n 64 --m 6 --json")
	f.Add("epidemic-term --n 40 --m 4 --variant literal")
	f.Add("pll-sym --n 3 --scheduler symmetric")
	f.Add("angluin --n 1125899906842624 --engine agent-array")
	f.Add("../examples/protocols/exact-majority.yaml --n 41 --engine batched")
	f.Add("../examples/protocols/epidemic.json --n 100 --json")
	f.Fuzz(func(t *testing.T, line string) {
		args := append([]string{"pp"}, strings.Fields(line)...)
		if n := nArg(args); n > 300 && !strings.Contains(line, "agent-array") || strings.Contains(line, "trials") && !strings.Contains(line, "--trials 2") {
			return // keep each input fast
		}
		var errOut strings.Builder
		code := Main(args, io.Discard, &errOut)
		switch code {
		case 0, 1:
		case 2:
			if strings.Count(errOut.String(), "\n") != 1 {
				t.Fatalf("%q: exit 2 with stderr %q", line, errOut.String())
			}
		default:
			t.Fatalf("%q: exit %d", line, code)
		}
	})
}
