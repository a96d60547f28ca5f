package experiment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/electkit/elect/internal/bounded"
)

// A sweep's lines say which sweep they belong to: every line ends with the
// field "grid", the grid's fingerprint (Grid.Fingerprint), and a shard's
// lines also with the field "shard" (ShardTag). 'elect merge' removes the
// second and keeps the first, so that the merged shards are the unsharded
// sweep's output byte for byte; '--resume' reads both to refuse a file of
// another sweep (CheckResume).

// gridField opens the grid's fingerprint on a line.
var gridField = []byte(`,"grid":"`)

// Apply returns the record line as the sweep of tag writes it: with the
// field "grid" (tag.Grid), and with the field "shard" when the sweep is one
// shard of several.
func (t ShardTag) Apply(line []byte) []byte {
	body := bytes.TrimSuffix(bytes.TrimRight(line, "\n"), []byte("}"))
	out := make([]byte, 0, len(body)+len(gridField)+len(t.Grid)+3)
	out = append(out, body...)
	out = append(out, gridField...)
	out = append(out, t.Grid...)
	out = append(out, "\"}\n"...)
	if t.Count > 1 {
		return TagLine(out, t)
	}
	return out
}

// lineSweep is what a line says of the sweep that wrote it.
type lineSweep struct {
	Grid  *string   `json:"grid"`
	Shard *ShardTag `json:"shard"`
}

// CheckResume checks that every line of data, the file name that '--resume'
// appends to, was written by the sweep of tag: the same grid (the field
// "grid") and the same shard (the field "shard", or none when neither is
// sharded). A line without the field "grid" was written by an elect that
// did not record it: nothing then shows which sweep it is from (a line of
// another sweep names its configuration and seed as a line of this one
// would), and the file is refused.
func CheckResume(data []byte, name string, tag ShardTag) error {
	for k, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := checkResumeLine(line, name, k+1, tag); err != nil {
			return err
		}
	}
	return nil
}

// notSweepLine is checkResumeLine's refusal of a line that is not JSON
// (a line cut short by a kill, when it is the last).
type notSweepLine struct{ error }

// checkResumeLine is CheckResume of line k of the file name.
func checkResumeLine(line []byte, name string, k int, tag ShardTag) error {
	want := "the sweep without --shard"
	if tag.Count > 1 {
		want = fmt.Sprintf("shard %d/%d", tag.Index, tag.Count)
	}
	var l lineSweep
	if err := json.Unmarshal(line, &l); err != nil {
		return notSweepLine{fmt.Errorf("experiment: %s:%d: not a JSON line of a sweep: %s", name, k, bounded.Cut(err.Error()))}
	}
	if l.Grid == nil {
		return fmt.Errorf("experiment: %s:%d has no field \"grid\" (the fingerprint of the sweep that wrote it; an older elect wrote none): nothing shows it is from this sweep; finish it with the elect that started it, or write this sweep to a new file", name, k)
	}
	if *l.Grid != tag.Grid {
		grid := *l.Grid
		if len(grid) > 64 || strings.Trim(grid, "0123456789abcdef") != "" {
			grid = bounded.QuoteString(grid) // not a fingerprint: quoted, cut
		}
		return fmt.Errorf("experiment: %s:%d is from another sweep (grid %s, this one's is %s): another algorithm, size, configuration, limit, number of trials or seed; resume a file with the command that started it, or write this sweep to a new file", name, k, grid, tag.Grid)
	}
	got := "the sweep without --shard"
	if l.Shard != nil && l.Shard.Count > 1 {
		got = fmt.Sprintf("shard %d/%d", l.Shard.Index, l.Shard.Count)
	}
	if got != want {
		return fmt.Errorf("experiment: %s:%d is from %s, not %s: resume each shard's file with its own --shard", name, k, got, want)
	}
	return nil
}
