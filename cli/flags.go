package cli

import (
	"flag"
	"io"
	"strings"
)

// newFlagSet returns a flag set that reports errors instead of exiting; its
// usage text (printed for --help) is usage followed by the flag defaults.
func newFlagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		io.WriteString(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseInterleaved parses flags that may stand before, between or after
// positional arguments ("elect run lcr --n 8" and "elect run --n 8 lcr"), and
// returns the positional arguments. A -h/--help request prints the usage to
// stdout and yields errHelp; any other flag error is a UsageError.
func parseInterleaved(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	var positional []string
	fs.SetOutput(io.Discard)
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				fs.SetOutput(stdout)
				fs.Usage()
				return nil, errHelp
			}
			return nil, usagef("%s: %s", fs.Name(), strings.TrimSpace(err.Error()))
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}
