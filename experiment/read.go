package experiment

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/electkit/elect/internal/bounded"
)

// MaxLine is the longest line of a sweep's output that readers accept
// (a record is a few kilobytes; a file without line breaks, such as
// /dev/zero, is refused at this length instead of read forever).
const MaxLine = 16 << 20

// MaxBytes is the largest sweep output (or shard) that readers accept:
// they hold it in memory, and a record is about a kilobyte.
const MaxBytes = 4 << 30

// Limits are a sweep output's limits, for its readers.
var Limits = bounded.Limits{What: "a sweep's output", MaxBytes: MaxBytes, MaxLine: MaxLine}

// readRecords reads the JSON lines of a sweep's output (or of 'elect run
// --json' and 'elect pp --json') from r through bounded.Lines and hands
// each non-blank line to use (trimmed, and the reader, whose Raw, Line and
// Read say more of it), which parses it, before reading the next. A line use
// refuses stops it at once with an error naming name and the line, its
// excerpts cut (bounded.Cut), or use's own error when it names them
// (*located); so does a last line cut short (no line break) unless cut
// takes it and use's error: true drops it.
func readRecords(r io.Reader, name string, use func(b []byte, sc *bounded.Lines) error, cut func(error) bool) error {
	sc := bounded.NewLines(r, name, Limits)
	for sc.Scan() {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		err := use(b, sc)
		switch {
		case err == nil:
		case sc.Cut() && cut != nil && cut(err):
			return nil
		case errors.As(err, new(*located)):
			return err
		default:
			return fmt.Errorf("%s:%d: %s", name, sc.Line(), bounded.Cut(err.Error()))
		}
	}
	if err := sc.Err(); err != nil {
		var be *bounded.Error
		if errors.As(err, &be) {
			return err
		}
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// located is an error of a line that names its file and line itself.
type located struct{ error }

func (l *located) Unwrap() error { return l.error }

// ReadRows reads the JSON lines of a sweep's output (message-passing and
// population records may be mixed), parsing each before reading the next:
// a file of anything else is refused at its first line. Blank lines are
// skipped; name says where the lines come from in errors.
func ReadRows(r io.Reader, name string) ([]Row, error) {
	var rows []Row
	err := readRecords(r, name, func(b []byte, _ *bounded.Lines) error {
		row, err := ParseLine(b)
		rows = append(rows, row)
		return err
	}, nil)
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// Resumed is a sweep's output read back to resume the sweep (ReadResume).
type Resumed struct {
	// Rows are its records.
	Rows []Row
	// Keep is the length of the file's part that the resumed sweep
	// continues: up to the end of its last record's line (a last line cut
	// short, or blank, is after it).
	Keep int64
	// NewLine reports that the last record has no line break (a record
	// whole but for it): the resumed sweep writes one first.
	NewLine bool
	// Cut reports that its last line was cut short (no line break, and
	// not a whole record: the sweep was killed while writing it); Rows
	// and Keep leave it out.
	Cut bool
}

// ReadResume reads the sweep output at path for 'elect sweep --resume' of
// the sweep of tag, parsing each line before reading the next: a file that
// is not a sweep's output, or one of another sweep or shard (CheckResume),
// is refused at its first line that is not a record of this sweep, except
// a last line cut short, which is dropped (Resumed.Cut). A file that does
// not exist yet holds no runs (a sweep's first start, or a shard's restart
// by its scheduler before its first line, runs the same command as every
// other start).
func ReadResume(path string, tag ShardTag) (*Resumed, error) {
	res := &Resumed{}
	f, err := bounded.Open(path, Limits)
	if errors.Is(err, fs.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	err = readRecords(f, path, func(b []byte, sc *bounded.Lines) error {
		if err := checkResumeLine(b, path, sc.Line(), tag); err != nil {
			return &located{err}
		}
		row, err := ParseLine(b)
		if err != nil {
			return err
		}
		res.Rows = append(res.Rows, row)
		res.Keep, res.NewLine = sc.Read(), sc.Cut()
		return nil
	}, func(err error) bool {
		var notJSON notSweepLine
		res.Cut = errors.As(err, &notJSON)
		return res.Cut
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
