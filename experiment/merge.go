package experiment

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/electkit/elect/internal/bounded"
	"github.com/electkit/elect/pp"
)

// ShardFile is one shard's output as ReadShard read it: its lines without
// their shard tags, the tags, and the records.
type ShardFile struct {
	Name  string
	lines [][]byte
	tags  []*ShardTag
	rows  []Row
}

// ReadShard reads one shard's output ('elect sweep --shard i/k') for Merge,
// parsing each line (its shard tag, then its record) before reading the
// next: a file that is not a sweep's output is refused at its first line.
// name is the file's name in errors.
func ReadShard(r io.Reader, name string) (*ShardFile, error) {
	s := &ShardFile{Name: name}
	err := readRecords(r, name, func(b []byte, sc *bounded.Lines) error {
		if b[0] != '{' {
			return fmt.Errorf("not a JSON line of a sweep: %s", bounded.Quote(b))
		}
		l := bytes.Clone(sc.Raw())
		if l[len(l)-1] != '\n' {
			l = append(l, '\n')
		}
		l, tag, err := untag(l)
		if err != nil {
			return err
		}
		row, err := ParseLine(l)
		if err != nil {
			return err
		}
		s.lines = append(s.lines, l)
		s.tags = append(s.tags, tag)
		s.rows = append(s.rows, row)
		return nil
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("experiment: %w", err)
	}
	return s, nil
}

// Merge interleaves the outputs of shards 1..k of one sweep, given in shard
// order, back into the unsharded sweep's output: shard i holds runs i-1,
// i-1+k, i-1+2k, ... of the grid order, so the merged output takes one line
// from each shard in turn. The shards' line counts must be those of complete
// shards (non-increasing, differing by at most one); otherwise a shard is
// missing lines, or the files are out of order, and Merge says which. It
// returns the merged records, in the merged order.
func Merge(w io.Writer, shards []*ShardFile) ([]Row, error) {
	names := make([]string, len(shards))
	lines := make([][][]byte, len(shards))
	tags := make([][]*ShardTag, len(shards))
	rows := make([][]Row, len(shards))
	for i, s := range shards {
		names[i], lines[i], tags[i], rows[i] = s.Name, s.lines, s.tags, s.rows
	}
	// Tagged shards (every sweep --shard writes its tag) must cover their
	// grid exactly; they are merged in index order, whatever the order of
	// the files.
	order, tagged, err := checkTags(names, tags, lines)
	if err != nil {
		return nil, err
	}
	if tagged {
		sorted := make([][][]byte, len(order))
		sortedRows := make([][]Row, len(order))
		sortedNames := make([]string, len(order))
		for i, j := range order {
			if j < 0 { // a shard of no run, given as an empty file
				sortedNames[i] = fmt.Sprintf("shard %d (no runs)", i+1)
				continue
			}
			sorted[i], sortedRows[i], sortedNames[i] = lines[j], rows[j], names[j]
		}
		lines, rows, names = sorted, sortedRows, sortedNames
	}
	if err := checkShardCounts(names, lines); err != nil {
		return nil, err
	}
	var merged [][]byte
	var mergedRows []Row
	for r := 0; r < len(lines[0]); r++ {
		for i := range lines {
			if r < len(lines[i]) {
				merged = append(merged, lines[i][r])
				mergedRows = append(mergedRows, rows[i][r])
			}
		}
	}
	if err := checkTrialOrder(mergedRows, len(lines)); err != nil {
		return nil, err
	}
	bw := bufio.NewWriter(w)
	for _, l := range merged {
		if _, err := bw.Write(l); err != nil {
			return nil, err
		}
	}
	return mergedRows, bw.Flush()
}

// checkTrialOrder checks that the merged lines are in grid order: every
// configuration's trials are consecutive lines whose seeds go S, S+1, S+2,
// ... (message passing) or S, pp.TrialSeed(S, 1), ... (populations), S being
// the sweep's master seed, the seed of the first line. Shards given out of
// order, missing, or from different sweeps break that sequence.
func checkTrialOrder(rows []Row, k int) error {
	var prev Row
	var master uint64
	t := 0
	for i, r := range rows {
		same := r.Kind == prev.Kind && r.Name == prev.Name && r.Config == prev.Config && r.N == prev.N
		switch {
		case i == 0:
			master = r.Seed
		case same && r.Seed == trialSeed(r.Kind, master, t+1):
			t++
		case r.Seed == master:
			t = 0
		default:
			return fmt.Errorf("experiment: merged line %d (%s, n = %d, seed %d) is not the next trial after seed %d: the files are not shards 1..%d of one sweep in shard order, or one is incomplete", i+1, r.Name, r.N, r.Seed, prev.Seed, k)
		}
		prev = r
	}
	return nil
}

func trialSeed(k Kind, master uint64, t int) uint64 {
	if k == Population {
		return pp.TrialSeed(master, t)
	}
	return master + uint64(t)
}

func checkShardCounts(names []string, lines [][][]byte) error {
	if len(lines) == 0 {
		return fmt.Errorf("experiment: no shard given")
	}
	first := len(lines[0])
	for i := 1; i < len(lines); i++ {
		c, prev := len(lines[i]), len(lines[i-1])
		if c > prev || c < first-1 {
			return fmt.Errorf("experiment: %s (shard %d of %d) has %d lines but %s has %d: complete shards of one sweep differ by at most one line, the later ones shorter; give every shard, in shard order 1..%d, each run to the end",
				names[i], i+1, len(lines), c, names[i-1], prev, len(lines))
		}
	}
	return nil
}

// ShardTag is what every line of a sharded sweep ('elect sweep --shard
// i/k') carries as its field "shard", so that Merge can tell whether a set
// of shards covers one grid exactly: the shard's index and count, the
// number of runs of the whole grid, and the grid's fingerprint
// (Grid.Fingerprint). Merge removes it: the merged lines are those the
// unsharded sweep prints.
type ShardTag struct {
	Index int    `json:"index"`
	Count int    `json:"count"`
	Runs  int    `json:"runs"`
	Grid  string `json:"grid"`
}

// shardField opens the tag at the end of a line.
var shardField = []byte(`,"shard":{`)

// TagLine returns the JSON line with t added as its last field, "shard".
func TagLine(line []byte, t ShardTag) []byte {
	body := bytes.TrimRight(line, "\n")
	body = bytes.TrimSuffix(body, []byte("}"))
	tag, _ := json.Marshal(t)
	out := make([]byte, 0, len(body)+len(tag)+12)
	out = append(out, body...)
	out = append(out, `,"shard":`...)
	out = append(out, tag...)
	return append(out, "}\n"...)
}

// untag splits a line into the record without its shard tag and the tag
// (nil when the line has none).
func untag(line []byte) ([]byte, *ShardTag, error) {
	i := bytes.LastIndex(line, shardField)
	if i < 0 {
		return line, nil, nil
	}
	rest := bytes.TrimRight(line[i+len(`,"shard":`):], "\n")
	rest = bytes.TrimSuffix(rest, []byte("}"))
	var t ShardTag
	if err := json.Unmarshal(rest, &t); err != nil {
		return nil, nil, fmt.Errorf("its shard tag %s is not one elect writes: %v", bounded.Quote(rest), err)
	}
	out := make([]byte, 0, i+2)
	out = append(out, line[:i]...)
	return append(out, "}\n"...), &t, nil
}

// Fingerprint is a short hash of what decides the grid's runs and their
// order: algorithms, sizes, configurations, faults, parameters, limits,
// trials and seed. Two sweeps with the same fingerprint run the same runs.
// (The faults were added after the rest, and only when there are some, so
// that a grid without faults keeps the fingerprint it had.)
func (g *Grid) Fingerprint() string {
	h := sha256.New()
	fmt.Fprintf(h, "%q|%v|%q|%q|%q|%q|%q|%v|%v|%q|%d|%d|%v|%v|%v|%d|%v|%d|%d|",
		g.Algorithms, g.Sizes, g.IDs, g.Deliveries, g.Initiators, g.Timing, g.Topology, g.Announce, g.Force,
		g.Runtime, g.MaxEvents, g.MaxTime, g.Strict, g.Scheduler, g.Engine, g.MaxSteps, g.NoStates, g.Trials, g.Seed)
	if g.Faults != "" {
		fmt.Fprintf(h, "faults=%q|", g.Faults)
	}
	for _, k := range slices.Sorted(maps.Keys(g.Params)) {
		fmt.Fprintf(h, "%q=%q|", k, g.Params[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// checkTags checks that the shards' tags describe every shard of one grid,
// each complete, and returns the shards in index order (order[i] is the
// file of shard i+1); ok is false when no line is tagged (shards of an
// elect before tags, which the line counts and seeds alone check).
func checkTags(names []string, tags [][]*ShardTag, lines [][][]byte) (order []int, ok bool, err error) {
	var first *ShardTag
	firstFile := -1
	for i := range tags {
		for k, t := range tags[i] {
			if t == nil && first != nil || t != nil && first == nil && (i > 0 || k > 0) {
				return nil, false, fmt.Errorf("experiment: %s:%d: some lines carry a shard tag and some do not: the files are not shards of one sweep", names[i], k+1)
			}
			if t == nil {
				continue
			}
			if first == nil {
				first, firstFile = t, i
			}
			if *t != *tags[i][0] {
				return nil, false, fmt.Errorf("experiment: %s:%d is from shard %d/%d but the file's first line from shard %d/%d: the file mixes shards", names[i], k+1, t.Index, t.Count, tags[i][0].Index, tags[i][0].Count)
			}
		}
	}
	if first == nil {
		return nil, false, nil
	}
	byIndex := make([]int, first.Count)
	for i := range byIndex {
		byIndex[i] = -1
	}
	empty := 0 // files without lines: shards of no run, when the grid has fewer runs than shards
	for i := range tags {
		if len(tags[i]) == 0 {
			empty++
			continue
		}
		t := tags[i][0]
		if t.Grid == first.Grid && t.Count != first.Count {
			return nil, false, fmt.Errorf("experiment: %s is shard %d/%d but %s is shard %d/%d of the same sweep: merge the shards of one split, 1/k..k/k",
				names[i], t.Index, t.Count, names[firstFile], first.Index, first.Count)
		}
		if t.Grid != first.Grid || t.Count != first.Count || t.Runs != first.Runs {
			return nil, false, fmt.Errorf("experiment: %s is shard %d/%d of a grid of %d runs (%s), but %s is shard %d/%d of a grid of %d runs (%s): shards of different sweeps",
				names[i], t.Index, t.Count, t.Runs, t.Grid, names[firstFile], first.Index, first.Count, first.Runs, first.Grid)
		}
		if t.Index < 1 || t.Index > t.Count {
			return nil, false, fmt.Errorf("experiment: %s says it is shard %d/%d", names[i], t.Index, t.Count)
		}
		if j := byIndex[t.Index-1]; j >= 0 {
			return nil, false, fmt.Errorf("experiment: %s and %s are both shard %d/%d", names[j], names[i], t.Index, t.Count)
		}
		byIndex[t.Index-1] = i
		want := (t.Runs - (t.Index - 1) + t.Count - 1) / t.Count
		if got := len(lines[i]); got != want {
			return nil, false, fmt.Errorf("experiment: %s (shard %d/%d) has %d of its %d runs: run it to the end (elect sweep ... --shard %d/%d --resume %s)", names[i], t.Index, t.Count, got, want, t.Index, t.Count, names[i])
		}
	}
	var missing []string
	for i, j := range byIndex {
		if j >= 0 {
			continue
		}
		if i >= first.Runs && empty > 0 { // a shard of no run: an empty file stands for it
			empty--
			continue
		}
		missing = append(missing, fmt.Sprintf("%d/%d", i+1, first.Count))
	}
	if empty > 0 {
		return nil, false, fmt.Errorf("experiment: %d of the files given have no lines, but every shard of the sweep has runs: a shard that ran to the end has its lines", empty)
	}
	if len(missing) > 0 {
		return nil, false, fmt.Errorf("experiment: shard %s of the sweep is missing: the %d files given do not cover its %d runs", strings.Join(missing, ", "), len(names), first.Runs)
	}
	return byIndex, true, nil
}
