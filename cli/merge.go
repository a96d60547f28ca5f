package cli

import (
	"bytes"
	"errors"
	"io"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/experiment"
	"github.com/electkit/elect/internal/atomicfile"
	"github.com/electkit/elect/internal/bounded"
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
	var inputs []cmdio.Path
	for _, p := range pos {
		inputs = append(inputs, input("the shard", p))
	}
	// The merged lines are written whole, once every shard is read and
	// checked (a file renamed into place): a merge has all of its records
	// before it writes the first, so there is no finished part to keep.
	if err := declareFiles("merge", inputs, output("--out", *out)); err != nil {
		return err
	}
	shards := make([]*experiment.ShardFile, len(pos))
	for i, p := range pos {
		if shards[i], err = readShard(p); err != nil {
			return err
		}
	}
	var merged bytes.Buffer
	rows, err := experiment.Merge(&merged, shards)
	if err != nil {
		return usagef("merge: %s", trimPkg(err))
	}
	var measures []string
	if *summary && *measure != "" {
		if measures, err = experiment.ParseList("measure", *measure); err != nil {
			return usagef("merge: --measure: %s", trimPkg(err))
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

// readShard reads the shard file at path, parsing each line as it reads
// it (experiment.ReadShard): a file that is not a sweep's output, or a
// pipe of anything else, is refused at its first line.
func readShard(path string) (*experiment.ShardFile, error) {
	f, err := bounded.Open(path, experiment.Limits)
	var limit *bounded.Error
	if errors.As(err, &limit) {
		return nil, usagef("merge: %v", err)
	}
	if err != nil {
		return nil, usagef("merge: cannot read %s: %v", path, errors.Unwrap(err))
	}
	defer f.Close()
	s, err := experiment.ReadShard(f, path)
	if err != nil {
		return nil, usagef("merge: %s", trimPkg(err))
	}
	return s, nil
}
