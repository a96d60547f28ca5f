package cli

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/electkit/elect/internal/atomicfile"
	"github.com/electkit/elect/internal/cmdio"
	"github.com/electkit/elect/view"
)

// This file is the command side of internal/cmdio: how a command declares
// the files it reads and writes, creates them, and says that a signal
// stopped it. Every command goes through it.

// input names a file a command reads, with the flag (or argument) that gave
// it.
func input(flag, path string) cmdio.Path { return cmdio.Path{Flag: flag, Name: path} }

// output names a file a command writes, with the flag that gave it.
func output(flag, path string) cmdio.Path { return cmdio.Path{Flag: flag, Name: path} }

// declareFiles refuses, before any work, outputs that are the same file
// as each other or as an input (internal/cmdio.Distinct) and outputs that
// cannot be written (a directory, a device, a read-only file, a missing
// directory: internal/atomicfile). Every command that writes files calls
// it with all of them before it starts.
func declareFiles(command string, inputs []cmdio.Path, outputs ...cmdio.Path) error {
	if err := cmdio.Distinct(inputs, outputs); err != nil {
		return usagef("%s: %v", command, err)
	}
	for _, o := range outputs {
		if o.Name == "" || o.Name == "-" {
			continue
		}
		if err := atomicfile.Check(o.Name); err != nil {
			return usagef("%s: %s: %v", command, o.Flag, err)
		}
	}
	return nil
}

// createStream starts a new stream of records (a sweep's lines, a trace)
// at path; a path that holds a file already is refused as bad input, with
// resume (if not "") as the way to continue it.
func createStream(command, path, resume string) (*cmdio.Stream, error) {
	s, err := cmdio.CreateStream(path, resume)
	if err != nil {
		return nil, usagef("%s: %v", command, err)
	}
	return s, nil
}

// createOutput starts a whole-file output of command, before the work: a
// path that cannot be written is bad input, said at once.
func createOutput(command, path string) (*atomicfile.File, error) {
	f, err := atomicfile.Create(path, 0o666)
	if err != nil {
		return nil, usagef("%s: %v", command, err)
	}
	return f, nil
}

// checkOutputs refuses, before the work, output paths that cannot be
// written and two that are the same file.
func checkOutputs(command string, paths ...string) error {
	var outs []cmdio.Path
	for _, p := range paths {
		outs = append(outs, output("", p))
	}
	return declareFiles(command, nil, outs...)
}

// outputError is a refusal of an output's path as bad input; other errors
// as they are.
func outputError(err error) error {
	var ae *atomicfile.Error
	if errors.As(err, &ae) || cmdio.IsRefusal(err) {
		return usagef("%v", err)
	}
	return err
}

// errInterrupted reports that a signal stopped the command at a safe
// point, after what had ended was written and the command said where it
// stopped: exit status 128 plus the signal's number (cmdio.ExitCode).
var errInterrupted = errors.New("interrupted")

// stoppedBy names the signal that stopped the command, for the line that
// says where it stopped: "interrupted (SIGTERM)".
func stoppedBy() string {
	if sig := cmdio.Received(); sig != nil {
		return fmt.Sprintf("interrupted (%s)", cmdio.Name(sig))
	}
	return "interrupted"
}

// serveUntilSignal serves h on ln until a signal closes the listener (a
// server's safe point is any moment: what it served is done) and says so;
// the exit status is then the signal's.
func serveUntilSignal(ln *view.Listener, h http.Handler, stderr io.Writer) error {
	stop := cmdio.Watch()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-stop.Done():
			ln.Close()
		case <-done:
		}
	}()
	err := view.ServeHandler(ln, h)
	if stop.Err() != nil {
		fmt.Fprintf(stderr, "elect: server %s; stopped serving\n", stoppedBy())
		return errInterrupted
	}
	return err
}

// signalName names the signal that stopped the command as a user knows
// it: Ctrl-C for SIGINT (also when none was received: a stop in-process).
func signalName() string {
	if sig := cmdio.Received(); sig != nil && sig != os.Interrupt {
		return cmdio.Name(sig)
	}
	return "Ctrl-C"
}
