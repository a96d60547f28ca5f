package cli

import (
	"strings"
	"testing"
)

// TestHelpCommand: 'elect help CMD' is 'elect CMD --help' (the command's
// usage, exit 0), and help for something that is not a command is bad input:
// one line naming the commands, with the nearest as a suggestion, exit 2.
func TestHelpCommand(t *testing.T) {
	code, out, _ := runCLI("help", "run")
	if code != 0 || !strings.HasPrefix(out, "usage: elect run ALGORITHM") {
		t.Errorf("help run: exit %d, output %q; want run's usage and exit 0", code, firstLine(out))
	}
	code, out, errOut := runCLI("help", "rn")
	if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, `did you mean "run"`) {
		t.Errorf("help rn: exit %d, stdout %q, stderr %q; want exit 2 and one line suggesting run", code, out, errOut)
	}
}

// TestVersion: --version prints one line naming the build.
func TestVersion(t *testing.T) {
	code, out, _ := runCLI("--version")
	if code != 0 || !strings.HasPrefix(out, "elect ") || strings.Count(out, "\n") != 1 {
		t.Errorf("--version: exit %d, output %q; want one line starting with elect", code, out)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
