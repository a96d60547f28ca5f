// Package cli is the elect command: every subcommand is a function of its
// arguments and output streams, so the whole command runs in-process in tests.
//
// Exit status: 0 when every run elected as promised and every check held,
// 1 when a run ended in another outcome or a check failed (the output says
// which) or standard output could not be written, 2 for bad input (one line
// on standard error saying what is wrong and what is allowed), 130, 143 or
// 129 when SIGINT, SIGTERM or SIGHUP stopped the command.
//
// What every command shares at its edges goes through internal/cmdio and
// this package's files.go: each command declares its input and output
// files before the work (declareFiles), writes whole files through
// internal/atomicfile and streams of records through cmdio.Stream, and
// watches for the first signal (cmdio.Watch) where it has a safe point to
// stop at (docs/signals.md).
package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/internal/cmdio"
	"github.com/electkit/elect/scenario"
)

// command is one subcommand of elect.
type command struct {
	name    string
	summary string
	run     func(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

// register adds a subcommand; each subcommand's file calls it from init.
func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("cli: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// UsageError is bad input from the user: it is printed as one line and the
// command exits with status 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// usagef returns a UsageError with a formatted message.
func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// errFailed reports that the command ran but a run's outcome or a check was
// not what was promised; the output already says which. Exit status 1.
var errFailed = errors.New("a run did not elect as promised or a check failed")

// errExpectedFailure reports that every run that failed did so under a
// fault its algorithm does not declare it tolerates (exit status 4).
var errExpectedFailure = errors.New("a run failed under a fault its algorithm does not tolerate")

// errFault reports that a node of a cluster could not finish: a peer was
// lost or unreachable (exit status 3; the node has said why).
var errFault = errors.New("a node lost a peer")

// errHelp is returned when the user asked for help; it is not an error.
var errHelp = errors.New("help requested")

// Main runs elect with the arguments after the program name and returns the
// exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	return MainWith(catalog.Default(), args, stdout, stderr)
}

// MainWith is Main for the algorithms of cat: a program that extends the
// default catalog with its own algorithms (catalog.Default().With) hands it
// here, and every command (list, run, sweep, bench, plot of its sweeps)
// knows them. See examples/custom-algorithm.
func MainWith(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) int {
	release := cmdio.Catch()
	defer release()
	out := cmdio.NewStdout(stdout)
	err := run(cat, args, out, stderr)
	if werr := out.Err(); werr != nil && (err == nil || errors.Is(err, errHelp) || errors.Is(err, errFailed) || errors.Is(err, errExpectedFailure)) {
		// A report that went nowhere is a failure, whatever it said.
		fmt.Fprintf(stderr, "elect: writing standard output: %v\n", werr)
		return 1
	}
	var ue *UsageError
	switch {
	case err == nil, errors.Is(err, errHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "elect: %s\n", ue.Msg)
		return 2
	case errors.Is(err, errFailed):
		return 1
	case errors.Is(err, errFault):
		return 3
	case errors.Is(err, errExpectedFailure):
		return 4
	case errors.Is(err, errInterrupted):
		return cmdio.ExitCode()
	default:
		fmt.Fprintf(stderr, "elect: %v\n", err)
		return 1
	}
}

func run(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printHelp(stderr)
		return usagef("no command given; try 'elect run lcr --n 16' or 'elect help'")
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) == 1 {
			printHelp(stdout)
			return nil
		}
		// elect help CMD is elect CMD --help.
		if _, ok := commands[args[1]]; !ok {
			return usagef("no help for %q%s: it is not a command; commands: %s", args[1], suggest(args[1], commandNames()), strings.Join(commandNames(), ", "))
		}
		return run(cat, []string{args[1], "--help"}, stdout, stderr)
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, version())
		return nil
	}
	c, ok := commands[name]
	if !ok {
		return usagef("unknown command %q%s; commands: %s", name, suggest(name, commandNames()), strings.Join(commandNames(), ", "))
	}
	return c.run(cat, args[1:], stdout, stderr)
}

// version describes this build: the module's version (a tag, or
// "(devel)" for a build from a working tree) and, when the build recorded
// them, the VCS revision and whether the tree had changes.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "elect (no build information)"
	}
	v := "elect " + info.Main.Version
	rev, modified := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev != "" {
		v += ", revision " + rev
		if modified {
			v += " with local changes"
		}
	}
	return v + ", " + info.GoVersion
}

func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "elect: run, verify, measure and compare leader-election algorithms")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "usage: elect COMMAND [arguments]; elect help COMMAND (or elect COMMAND --help) for its flags;")
	fmt.Fprintln(w, "       elect --version for this build")
	fmt.Fprintln(w)
	for _, n := range commandNames() {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Signals (every command, docs/signals.md): the first SIGINT (Ctrl-C), SIGTERM or SIGHUP")
	fmt.Fprintln(w, "stops the work at its next safe point, keeps what finished, says where it stopped and")
	fmt.Fprintln(w, "exits 130, 143 or 129; a second one ends elect at once. Records (sweep lines, traces)")
	fmt.Fprintln(w, "are in their named files as soon as they are finished, even after a kill.")
}

// suggest returns ` (did you mean "x"?)` for the candidate nearest to name,
// or "" when none is close.
func suggest(name string, candidates []string) string {
	return scenario.Suggest(name, candidates)
}

// writeJSONLine writes v as one line of JSON, with <, > and & as they are.
func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
