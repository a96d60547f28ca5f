// Package cmdio is what every elect command shares at its edges, written
// once: the files it writes, its standard output, and what a signal does
// to it.
//
// Outputs. A command declares its input and output paths before it does
// any work (Distinct); two outputs that are the same file (the same path
// once cleaned and made absolute, or the same device and inode when the
// file exists, as through a link) or an output that is also an input are
// refused then. Whole files (a page, a plot, a CSV table) are written
// through internal/atomicfile: a temporary file renamed into place. A
// stream of records (a sweep's lines, a run's trace) is written to its
// final path, whole lines only, each record handed to the operating
// system as soon as it is finished (Stream), so that a process killed
// in any way (SIGKILL, the out-of-memory killer) leaves every record it
// had finished; only a kill can cut the last line short (the kernel may
// stop a write between two pages), which a resumed sweep drops. A stream never replaces
// a file: a new stream refuses a path that holds anything, and a resumed
// one appends.
//
// Standard output. Stdout wraps a command's standard output and keeps the
// first write error, so that a command whose output went nowhere (a full
// disk, /dev/full) can fail instead of exiting 0.
//
// Signals. Catch installs one policy for the whole process: the first
// SIGINT, SIGTERM or SIGHUP cancels the context that Stopping returns, so
// that a command that watches it stops at its next safe point, keeps
// what finished, says where it stopped and exits 128 plus the signal's
// number (130, 143, 129: ExitCode); a command that does not watch it
// (Watch was not called) is ended at once, as is every command on a
// second signal, unless it took that one too (Hurry: it then ends
// promptly itself, as 'cluster up' does after killing its nodes). Either way the temporary files of unfinished whole-file
// outputs are removed first (atomicfile.RemovePending).
package cmdio
