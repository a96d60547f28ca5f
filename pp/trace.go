package pp

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"

	"github.com/electkit/elect/trace"
)

// TraceColumns is the most states a population trace names one by one;
// the states met after the first TraceColumns-2 are merged into "other L"
// and "other F" by their output (so that a protocol with n states, such as
// epidemic, still gives a chart).
const TraceColumns = 48

// TraceHeader is what a population trace's header says besides the states
// (WriteTrace fills those in from the snapshots).
type TraceHeader struct {
	Protocol, Title string
	Params          map[string]string
	Seed            uint64
	Engine          string // the engine asked for; the result's engine is written
	// StateFields, when the protocol declares them (protocols.Entry's
	// StateFields), name the fields of its packed states.
	StateFields []trace.StateField
}

// WriteTrace writes a population run as a version 2 trace (docs/trace.md,
// "Population runs"): the header with the states in the order the
// snapshots first met them, one "counts" line per snapshot (t is parallel
// time, step / n) and a "result" line. The same run and sampler give the
// same bytes.
func WriteTrace(w io.Writer, th TraceHeader, smp *Sampler, res Result) error {
	n := int64(res.N)
	// Columns: states by first appearance, merged by name, then "other".
	col := map[string]int{}
	var states []trace.State
	other := map[string]int{}
	columnOf := func(c NamedCount) int {
		if j, ok := col[c.Name]; ok {
			return j
		}
		if len(states) < TraceColumns-2 {
			col[c.Name] = len(states)
			states = append(states, trace.State{Name: c.Name, Output: c.Output})
			return col[c.Name]
		}
		key := "other F"
		if c.Output == "L" {
			key = "other L"
		}
		if j, ok := other[key]; ok {
			col[c.Name] = j
			return j
		}
		other[key] = len(states)
		col[c.Name] = len(states)
		out := "F"
		if key == "other L" {
			out = "L"
		}
		states = append(states, trace.State{Name: key, Output: out})
		return col[c.Name]
	}
	rows := make([][]int64, len(smp.Snapshots))
	for i, s := range smp.Snapshots {
		for _, c := range s.Counts {
			j := columnOf(c)
			for len(rows[i]) <= j {
				rows[i] = append(rows[i], 0)
			}
			rows[i][j] += c.Count
		}
	}
	// The header's fields of a population run, in the order of
	// docs/trace.md (trace.Header without the network's fields).
	type header struct {
		Ev        string             `json:"ev"`
		Format    string             `json:"format"`
		Version   int                `json:"version"`
		Kind      string             `json:"kind"`
		Protocol  string             `json:"protocol"`
		Algorithm string             `json:"algorithm"`
		Title     string             `json:"title,omitempty"`
		Params    map[string]string  `json:"params,omitempty"`
		N         int                `json:"n"`
		Seed      uint64             `json:"seed"`
		Engine    string             `json:"engine"`
		Scheduler string             `json:"scheduler"`
		Time      string             `json:"time"`
		Runtime   string             `json:"runtime"`
		States    []trace.State      `json:"states"`
		Fields    []trace.StateField `json:"state_fields,omitempty"`
	}
	h := header{Ev: "header", Format: trace.Format, Version: trace.Version, Kind: trace.KindPopulation,
		Protocol: th.Protocol, Algorithm: th.Protocol, Title: th.Title, Params: th.Params, N: res.N, Seed: th.Seed,
		Engine: res.Engine, Scheduler: res.Scheduler, Time: "parallel time", Runtime: "pp", States: states, Fields: th.StateFields}
	bw := bufio.NewWriter(w)
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	bw.Write(b)
	bw.WriteByte('\n')
	var line []byte
	for i, s := range smp.Snapshots {
		line = append(line[:0], `{"t":`...)
		line = strconv.AppendFloat(line, float64(s.Step)/float64(n), 'g', -1, 64)
		line = append(line, `,"ev":"counts","step":`...)
		line = strconv.AppendInt(line, s.Step, 10)
		line = append(line, `,"leaders":`...)
		line = strconv.AppendInt(line, s.Leaders, 10)
		line = append(line, `,"counts":[`...)
		for j := range states {
			if j > 0 {
				line = append(line, ',')
			}
			var k int64
			if j < len(rows[i]) {
				k = rows[i][j]
			}
			line = strconv.AppendInt(line, k, 10)
		}
		line = append(line, "]}\n"...)
		bw.Write(line)
	}
	type result struct {
		T            float64 `json:"t"`
		Ev           string  `json:"ev"`
		Outcome      Outcome `json:"outcome"`
		Violation    string  `json:"message,omitempty"`
		Interactions int64   `json:"interactions"`
		Leaders      int     `json:"leaders"`
	}
	b, err = json.Marshal(result{res.ParallelTime, "result", res.Outcome, res.Violation, res.Interactions, res.Leaders})
	if err != nil {
		return err
	}
	bw.Write(b)
	bw.WriteByte('\n')
	return bw.Flush()
}
