package experiment

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
)

// CSVWriter writes rows as CSV, one line per run and flushed line by line:
// the configuration columns, then every measure and flag named by the
// columns it was made with.
type CSVWriter struct {
	w       *csv.Writer
	columns []string
}

// CSVColumns returns the sorted union of the measures and flags of rows.
func CSVColumns(rows []Row) []string {
	set := map[string]bool{}
	for _, r := range rows {
		for k := range r.Measures {
			set[k] = true
		}
		for k := range r.Flags {
			set[k] = true
		}
	}
	cols := make([]string, 0, len(set))
	for k := range set {
		cols = append(cols, k)
	}
	slices.Sort(cols)
	return cols
}

// NewCSVWriter returns a writer on w with the given measure columns.
func NewCSVWriter(w io.Writer, columns []string) *CSVWriter {
	return &CSVWriter{w: csv.NewWriter(w), columns: columns}
}

// Header writes the header line.
func (c *CSVWriter) Header() error {
	h := append([]string{"kind", "algorithm", "n", "seed", "config", "ok"}, c.columns...)
	if err := c.w.Write(h); err != nil {
		return err
	}
	c.w.Flush()
	return c.w.Error()
}

// Write writes one row and flushes it; a column the row lacks is empty.
func (c *CSVWriter) Write(r Row) error {
	kind := "mp"
	if r.Kind == Population {
		kind = "pp"
	}
	rec := []string{kind, r.Name, strconv.Itoa(r.N), strconv.FormatUint(r.Seed, 10), r.Config, strconv.FormatBool(r.OK)}
	for _, col := range c.columns {
		if v, ok := r.Measures[col]; ok {
			rec = append(rec, strconv.FormatFloat(v, 'g', -1, 64))
		} else if b, ok := r.Flags[col]; ok {
			rec = append(rec, strconv.FormatBool(b))
		} else {
			rec = append(rec, "")
		}
	}
	if err := c.w.Write(rec); err != nil {
		return err
	}
	c.w.Flush()
	return c.w.Error()
}

// ProbeRows runs every point for at most one step and returns the rows, whose
// measure names (message types, protocol details) fix a CSV's columns before
// the sweep begins.
func ProbeRows(points []*Point) []Row {
	var rows []Row
	for _, p := range points {
		j := Job{Point: p}
		q := *p
		if p.Kind == Population {
			q.PP.Options.MaxSteps = 1
			q.PP.Options.TrackStates = false
		} else {
			q.Spec.MaxEvents = 1
		}
		j.Point = &q
		if r, err := RunJob(j, 0); err == nil {
			rows = append(rows, RowOf(r))
		}
	}
	return rows
}

// Pending returns the jobs whose runs are not among done (the rows of an
// earlier sweep's output), and the rows of done that belong to the jobs:
// a run is identified by its algorithm or protocol, size, configuration
// and seed, so that a sweep interrupted or extended (more sizes, more
// trials) resumes where its output stops.
func Pending(jobs []Job, done []Row, master uint64) (pending []Job, kept []Row) {
	type key struct {
		name, config string
		n            int
		seed         uint64
	}
	have := make(map[key]int, len(done))
	for i, r := range done {
		have[key{r.Name, r.Config, r.N, r.Seed}] = i
	}
	probe := map[*Point]Row{}
	for _, j := range jobs {
		row, ok := probe[j.Point]
		if !ok {
			if rows := ProbeRows([]*Point{j.Point}); len(rows) == 1 {
				row = rows[0]
			}
			probe[j.Point] = row
		}
		if i, ok := have[key{row.Name, row.Config, row.N, j.Seed(master)}]; ok && row.Name != "" {
			kept = append(kept, done[i])
			continue
		}
		pending = append(pending, j)
	}
	return pending, kept
}
