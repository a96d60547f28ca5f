package cluster

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/electkit/elect/internal/atomicfile"
	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/trace"
)

// What Up reads of its nodes, read as every input of elect is (package
// bounded): a line at a time under a limit, each line parsed before the
// next is read, anything else refused at its first bad line with an error
// that names the node and the line and quotes at most 200 bytes of it. A
// node is elect's own program, but a node's standard output and its trace
// are files like any other (a node of another version, a wrapper script
// that prints, a full disk), and Up must not read a broken one until
// memory runs out nor judge a run on part of it.

// resultLimits are the limits of node i's standard output, on which it
// prints its result (NodeResult) as one line: its fixed fields and
// latency histogram (64 KiB cover them), a count per port (at most n - 1
// ports, each at most 20 digits and a comma), and a line per fault it
// applied, which its part of the fault plan lists: each of its messages
// there at most two (delayed and duplicated), of at most 400 bytes each,
// where the plan gives a message at least 25 bytes; so 32 bytes for each
// byte of the node's description file, which holds the part.
func resultLimits(n int, descBytes int64) bounded.Limits {
	size := min(64<<10+24*int64(n)+32*descBytes, 1<<30)
	size = (size + 1<<10 - 1) &^ (1<<10 - 1) // whole KiB, for the messages
	// Twice that in all: the line comes to its own limit first.
	return bounded.Limits{What: "a node's result line", MaxBytes: 2 * size, MaxLine: int(size)}
}

// nodeOutput is what Up read on a node's standard output: its result
// line, or why it is refused; cut says that the output ended inside a
// line (the node was killed while it wrote it).
type nodeOutput struct {
	line *NodeResult
	err  error
	cut  bool
}

// readResult reads node i's standard output: one JSON object, its result,
// on one line (blank lines aside). It reads to the end of r, or to its
// first bad line, and then closes r, so that a node that goes on writing
// after a refused line gets a broken pipe rather than waiting for a reader.
func readResult(r io.ReadCloser, i int, l bounded.Limits) nodeOutput {
	defer r.Close()
	name := fmt.Sprintf("node %d's standard output", i)
	sc := bounded.NewLines(r, name, l)
	var out nodeOutput
	for sc.Scan() {
		text := sc.Bytes()
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		out.cut = sc.Cut()
		if out.line != nil {
			out.line, out.err = nil, fmt.Errorf("%s, line %d: a node prints one result line, and this is another: %s", name, sc.Line(), bounded.Quote(text))
			return out
		}
		var line NodeResult
		err := json.Unmarshal(text, &line)
		if err == nil && bytes.TrimSpace(text)[0] != '{' {
			err = errors.New("not a JSON object")
		}
		if err != nil {
			out.err = fmt.Errorf("%s, line %d, is not a node's result line (%s): %s", name, sc.Line(), bounded.Cut(err.Error()), bounded.Quote(text))
			return out
		}
		out.line = &line
	}
	if err := sc.Err(); err != nil {
		out.line, out.err = nil, err
	}
	return out
}

// mergeTraces merges the nodes' traces into one file ordered by (Lamport
// time, node), keeping each node's own order: an order consistent with
// causality, since a delivery's time exceeds that of the handler that sent
// the message. Every node's trace begins with the same header (format
// version 2); the merged file has it once, first. A node's lines come in
// the order of its Lamport clock, which never goes back, so the merge
// streams: it holds one line per node, never a whole trace.
//
// Each trace is read by package trace, under its limits, each event
// checked before the next is read; a trace that is not one (a bad line, a
// line past the limit) is refused with the node and the line. A node that
// wrote none (it never started, or died first) has no part in the merge,
// and the trace of a node that was killed (killed[i]; nil: none was) is
// read up to its last line break, since the kill may have cut its last
// line short (cmdio.Stream).
func mergeTraces(dir string, n int, out string, killed []bool) error {
	type cursor struct {
		rd   *trace.Reader
		t    int64
		node int
		text []byte
	}
	// next reads c's next event (false at the end of its trace).
	next := func(c *cursor) (bool, error) {
		ev, err := c.rd.Next()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("node %d's %w", c.node, err)
		}
		c.t = 0
		if ev.T != "" {
			if c.t, err = strconv.ParseInt(string(ev.T), 10, 64); err != nil {
				return false, fmt.Errorf("node %d's trace: line %d: time %s is not a Lamport time (a whole number)", c.node, c.rd.Line(), bounded.QuoteString(string(ev.T)))
			}
		}
		c.text = c.rd.Text()
		return true, nil
	}
	var header []byte
	var live []*cursor
	for i := range n {
		r, closer, err := openNodeTrace(filepath.Join(dir, NodeName(i)+".jsonl"), killed != nil && killed[i])
		if err != nil {
			return fmt.Errorf("node %d's trace: %w", i, err)
		}
		if r == nil {
			continue // a node that never started or died before writing
		}
		defer closer.Close()
		rd, err := trace.NewNamedReader(r, "")
		if err != nil {
			return fmt.Errorf("node %d's %w", i, err)
		}
		if rd.Version() != trace.Version {
			return fmt.Errorf("node %d's trace has no header line (a node writes one, format version %d)", i, trace.Version)
		}
		if header == nil {
			header = slices.Clone(rd.Text())
		}
		c := &cursor{rd: rd, node: i}
		ok, err := next(c)
		if err != nil {
			return err
		}
		if ok {
			live = append(live, c)
		}
	}
	less := func(a, b *cursor) bool { return a.t < b.t || a.t == b.t && a.node < b.node }
	f, err := atomicfile.Create(out, 0o666)
	if err != nil {
		return err
	}
	defer f.Abort()
	w := bufio.NewWriter(f)
	if header != nil {
		w.Write(header)
		w.WriteByte('\n')
	}
	for len(live) > 0 {
		k := 0
		for j := range live {
			if less(live[j], live[k]) {
				k = j
			}
		}
		w.Write(live[k].text)
		w.WriteByte('\n')
		ok, err := next(live[k])
		if err != nil {
			return err
		}
		if !ok {
			live = slices.Delete(live, k, k+1)
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Commit()
}

// openNodeTrace opens a node's trace at path for mergeTraces: nil when
// there is none or it is empty; the whole file, or when the node was
// killed the file up to its last line break, which is where the kill may
// have cut it.
func openNodeTrace(path string, killed bool) (io.Reader, io.Closer, error) {
	f, err := bounded.Open(path, trace.Limits)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		f.Close()
		return nil, nil, err
	}
	if !killed {
		return f, f, nil
	}
	end, err := lastLineBreak(f, info.Size())
	if err != nil || end == 0 {
		f.Close()
		return nil, nil, err
	}
	return io.LimitReader(f, end), f, nil
}

// lastLineBreak is the length of f's first size bytes up to and including
// their last line break (0: none). It looks back at most a line's limit
// (trace.MaxLine): a longer last line is left whole, for the trace's
// reader to refuse.
func lastLineBreak(f *os.File, size int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for end := size; end > 0 && size-end <= trace.MaxLine; {
		start := max(end-int64(len(buf)), 0)
		chunk := buf[:end-start]
		if _, err := f.ReadAt(chunk, start); err != nil {
			return 0, err
		}
		if k := bytes.LastIndexByte(chunk, '\n'); k >= 0 {
			return start + int64(k) + 1, nil
		}
		end = start
	}
	if size > trace.MaxLine {
		return size, nil
	}
	return 0, nil
}
