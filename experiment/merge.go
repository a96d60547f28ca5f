package experiment

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/electkit/elect/pp"
)

// Merge interleaves the outputs of shards 1..k of one sweep, given in shard
// order, back into the unsharded sweep's output: shard i holds runs i-1,
// i-1+k, i-1+2k, ... of the grid order, so the merged output takes one line
// from each shard in turn. The shards' line counts must be those of complete
// shards (non-increasing, differing by at most one); otherwise a shard is
// missing lines, or the files are out of order, and Merge says which.
func Merge(w io.Writer, names []string, shards [][]byte) error {
	lines := make([][][]byte, len(shards))
	for i, data := range shards {
		for k, l := range bytes.SplitAfter(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) == 0 {
				continue
			}
			if l[len(l)-1] != '\n' {
				l = append(l, '\n')
			}
			if l[0] != '{' {
				return fmt.Errorf("experiment: %s:%d: not a JSON line of a sweep: %.40q", names[i], k+1, l)
			}
			lines[i] = append(lines[i], l)
		}
	}
	if err := checkShardCounts(names, lines); err != nil {
		return err
	}
	var merged [][]byte
	for r := 0; r < len(lines[0]); r++ {
		for i := range lines {
			if r < len(lines[i]) {
				merged = append(merged, lines[i][r])
			}
		}
	}
	if err := checkTrialOrder(merged, len(lines)); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, l := range merged {
		if _, err := bw.Write(l); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// checkTrialOrder checks that the merged lines are in grid order: every
// configuration's trials are consecutive lines whose seeds go S, S+1, S+2,
// ... (message passing) or S, pp.TrialSeed(S, 1), ... (populations), S being
// the sweep's master seed, the seed of the first line. Shards given out of
// order, missing, or from different sweeps break that sequence.
func checkTrialOrder(lines [][]byte, k int) error {
	var prev Row
	var master uint64
	t := 0
	for i, l := range lines {
		r, err := ParseLine(l)
		if err != nil {
			return fmt.Errorf("experiment: merged line %d: %v", i+1, err)
		}
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
