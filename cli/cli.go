// Package cli is the elect command: every subcommand is a function of its
// arguments and output streams, so the whole command runs in-process in tests.
//
// Exit status: 0 when every run elected as promised and every check held,
// 1 when a run ended in another outcome or a check failed (the output says
// which), 2 for bad input (one line on standard error saying what is wrong and
// what is allowed).
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/internal/atomicfile"
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

// errInterrupted reports that the user interrupted the command (Ctrl-C)
// after what had ended was written: exit status 130, as a shell reports a
// command killed by SIGINT.
var errInterrupted = errors.New("interrupted")

// errTerminated reports that SIGTERM stopped the command after what had
// ended was kept: exit status 143, as a shell reports a command killed by
// SIGTERM.
var errTerminated = errors.New("terminated")

// interruptBetweenTrials returns a context that Ctrl-C cancels when a
// command runs several trials, so that it stops after the running trial
// and reports the ones that ended; a single run ends on Ctrl-C as any
// program does (the shell sees status 130 either way).
func interruptBetweenTrials(trials int) (context.Context, context.CancelFunc) {
	if trials <= 1 {
		return context.Background(), func() {}
	}
	return signal.NotifyContext(context.Background(), os.Interrupt)
}

// removeOnInterrupt makes Ctrl-C (or SIGTERM) during a command that does
// not handle it itself remove the temporary files of the outputs not yet
// written whole (internal/atomicfile), and then end the process as the
// signal would have; stop undoes it. Without it, an interrupted
// 'elect run --trace F' would leave F's temporary file behind.
func removeOnInterrupt() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			atomicfile.RemovePending()
			signal.Reset(sig)
			syscall.Kill(os.Getpid(), sig.(syscall.Signal))
		case <-done:
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
		})
	}
}

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
	err := run(cat, args, stdout, stderr)
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
		return 130
	case errors.Is(err, errTerminated):
		return 143
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
