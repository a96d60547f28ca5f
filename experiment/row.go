package experiment

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/pp"
	"github.com/electkit/elect/scenario"
)

// Row is one run as summaries, plots and claims see it, whether it comes
// from a Result or from a JSON line of a sweep's output.
type Row struct {
	Kind Kind
	Name string // algorithm or protocol
	N    int
	Seed uint64
	// Config names everything but the size and the seed, e.g. "ids random,
	// fifo, all initiate"; rows with the same Name and Config form one curve.
	Config string
	// IDs is the message-passing ID arrangement ("" for populations).
	IDs string
	// File is the protocol file of a population protocol read from one
	// ("" for the built-in protocols).
	File string
	OK   bool
	// Outcome is the run's outcome (elected, symmetric, ...; "" when the
	// record has no result).
	Outcome string
	// Measures holds every number of the record by name: messages, time,
	// bits, leaders, messages:TYPE (message passing); interactions,
	// parallel_time, states_seen, leaders and the protocol's numeric details
	// (populations).
	Measures map[string]float64
	// Flags holds the protocol's boolean details (populations).
	Flags map[string]bool
	// Bounds are the run's checked bounds (message passing).
	Bounds []Bound
}

// Bound is a declared bound as a run checked it.
type Bound struct {
	Name     string
	Relation string
	Value    float64
	Actual   float64
	Holds    bool
}

// Get returns a measure, NaN when the row has none of that name.
func (r *Row) Get(measure string) float64 {
	if v, ok := r.Measures[measure]; ok {
		return v
	}
	return math.NaN()
}

// RowOf describes a result.
func RowOf(res *Result) Row {
	if res.MP != nil {
		return mpRow(res.MP)
	}
	var details map[string]any
	b, _ := json.Marshal(res.PP.Details)
	_ = json.Unmarshal(b, &details)
	return ppRow(res.PP, details)
}

func mpRow(r *scenario.Record) Row {
	row := Row{
		Kind: MessagePassing, Name: r.Algorithm, N: r.N, Seed: r.Seed, IDs: r.IDs,
		OK: r.Succeeded(), Measures: map[string]float64{},
	}
	init := "all initiate"
	if r.Initiators < r.N {
		init = fmt.Sprintf("%d initiators", r.Initiators)
	}
	parts := []string{"ids " + r.IDs, r.Topology, r.Delivery, init}
	if r.Announce {
		parts = append(parts, "announce")
	}
	keys := make([]string, 0, len(r.Params))
	for k := range r.Params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("--%s %s", k, r.Params[k]))
	}
	row.Config = strings.Join(parts, ", ")
	if r.Result == nil {
		return row
	}
	row.Outcome = string(r.Outcome)
	m := row.Measures
	m["messages"] = float64(r.Messages)
	m["bits"] = float64(r.Bits)
	m["time"] = r.Time
	m["leaders"] = float64(r.Leaders)
	m["max_node_messages"] = float64(r.MaxNodeMessages)
	for t, c := range r.MessagesByType {
		m["messages:"+t] = float64(c)
	}
	for _, c := range r.Checks {
		row.Bounds = append(row.Bounds, Bound{Name: c.Name, Relation: c.Relation, Value: c.Expected, Actual: c.Actual, Holds: c.Holds})
	}
	return row
}

func ppRow(r *pp.Result, details map[string]any) Row {
	row := Row{
		Kind: Population, Name: r.Protocol, N: r.N, Seed: r.Seed,
		OK: r.Outcome.Succeeded(), Outcome: string(r.Outcome), Measures: map[string]float64{}, Flags: map[string]bool{},
	}
	m := row.Measures
	m["interactions"] = float64(r.Interactions)
	m["parallel_time"] = r.ParallelTime
	m["leaders"] = float64(r.Leaders)
	m["states_seen"] = float64(r.StatesSeen)
	m["one_leader_step"] = float64(r.OneLeaderStep)
	keys := make([]string, 0, len(details))
	for k := range details {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := []string{r.Scheduler}
	for _, k := range keys {
		switch v := details[k].(type) {
		case float64:
			m[k] = v
		case bool:
			row.Flags[k] = v
		}
		switch k {
		case "variant", "min_interactions":
			parts = append(parts, fmt.Sprintf("%s %v", k, details[k]))
		case "fraction_a":
			parts = append(parts, fmt.Sprintf("fraction-a %v", details[k]))
		case "file":
			row.File, _ = details[k].(string)
			parts = append(parts, fmt.Sprintf("file %v", details[k]))
		case "m":
			// pll's default m = ceil(lg n) varies with n: not a curve's name.
			if v, ok := details[k].(float64); ok && !(strings.HasPrefix(r.Protocol, "pll") && int(v) == elect.CeilLog2(r.N)) {
				parts = append(parts, fmt.Sprintf("m %v", v))
			}
		}
	}
	row.Config = strings.Join(parts, ", ")
	return row
}

// ppLine is a population record as read back from JSON.
type ppLine struct {
	pp.Result
	Details map[string]any `json:"details"`
}

// ParseLine decodes one JSON line of a sweep's output.
func ParseLine(b []byte) (Row, error) {
	var probe struct {
		Algorithm *string `json:"algorithm"`
		Protocol  *string `json:"protocol"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return Row{}, fmt.Errorf("not a JSON record: %v", err)
	}
	switch {
	case probe.Algorithm != nil:
		var rec scenario.Record
		if err := json.Unmarshal(b, &rec); err != nil {
			return Row{}, fmt.Errorf("not an 'elect run' record: %v", err)
		}
		if rec.Result == nil {
			return Row{}, fmt.Errorf("an 'elect run' record without its result (no \"outcome\", \"messages\", ...)")
		}
		return mpRow(&rec), nil
	case probe.Protocol != nil:
		var l ppLine
		if err := json.Unmarshal(b, &l); err != nil {
			return Row{}, fmt.Errorf("not an 'elect pp' record: %v", err)
		}
		return ppRow(&l.Result, l.Details), nil
	}
	return Row{}, fmt.Errorf("neither an 'elect run' record (no \"algorithm\") nor an 'elect pp' record (no \"protocol\")")
}
