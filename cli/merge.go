package cli

import (
	"bytes"
	"errors"
	"io"
	"os"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/experiment"
	"github.com/electkit/elect/internal/atomicfile"
	"github.com/electkit/elect/internal/cmdio"
)

func init() {
	register(command{name: "merge", summary: "merge the outputs of 'elect sweep --shard i/k' into the full sweep", run: mergeCommand})
}

const mergeUsage = `usage: elect merge SHARD1 SHARD2 ... SHARDk [flags]

Interleaves the JSON lines of the k shards of one sweep ('elect sweep ...
--shard i/k', i = 1..k), given in shard order, into exactly the output the
unsharded sweep prints. Refuses shards whose line counts show a missing or
incomplete shard, or files out of order.

examples:
  elect merge shard-1.jsonl shard-2.jsonl shard-3.jsonl > sweep.jsonl
  elect merge shard-{1..8}.jsonl --out sweep.jsonl --summary

flags:
`

func mergeCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("merge", mergeUsage)
	out := fs.String("out", "", "write the merged lines to this file instead of standard output")
	summary := fs.Bool("summary", false, "print the summary table of the merged sweep (the lines then go only to --out)")
	measure := fs.String("measure", "", "measures of the summary, comma-separated (see 'elect sweep --help')")
	fit := fs.String("fit", "", "growth of the summary's fitted constant (see 'elect sweep --help')")
	pos, err := parseInterleaved(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("merge: no shard file given; e.g. 'elect merge shard-1.jsonl shard-2.jsonl'")
	}
	var shards []cmdio.Path
	for _, p := range pos {
		shards = append(shards, input("the shard", p))
	}
	// The merged lines are written whole, once every shard is read and
	// checked (a file renamed into place): a merge has all of its records
	// before it writes the first, so there is no finished part to keep.
	if err := declareFiles("merge", shards, output("--out", *out)); err != nil {
		return err
	}
	data := make([][]byte, len(pos))
	for i, p := range pos {
		if data[i], err = experiment.ReadLines(p); err != nil {
			if errors.Unwrap(err) != nil && os.IsNotExist(err) {
				return usagef("merge: cannot read %s: %v", p, errors.Unwrap(err))
			}
			return usagef("merge: %v", err)
		}
	}
	var merged bytes.Buffer
	if err := experiment.Merge(&merged, pos, data); err != nil {
		return usagef("merge: %s", trimPkg(err))
	}
	var rows []experiment.Row
	var measures []string
	if *summary {
		if rows, err = experiment.ReadRows(bytes.NewReader(merged.Bytes()), "merged shards"); err != nil {
			return usagef("merge: %s", trimPkg(err))
		}
		if *measure != "" {
			if measures, err = experiment.ParseList("measure", *measure); err != nil {
				return usagef("merge: --measure: %s", trimPkg(err))
			}
		}
	}
	switch {
	case *out != "":
		if err := atomicfile.WriteFile(*out, merged.Bytes(), 0o666); err != nil {
			return outputError(err)
		}
	case !*summary:
		if _, err := stdout.Write(merged.Bytes()); err != nil {
			return err
		}
	}
	if *summary {
		if err := experiment.WriteSummary(stdout, rows, measures, *fit); err != nil {
			return gridError(err)
		}
	}
	return nil
}
