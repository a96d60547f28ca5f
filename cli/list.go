package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
)

func init() {
	register(command{name: "list", summary: "list the algorithms with their models and bounds", run: listCommand})
}

const listUsage = `usage: elect list [--json]

Lists every message-passing algorithm: its source, the model it assumes,
its message types and its proven bounds (checked on every run).
Population protocols are listed by 'elect pp list'.

flags:
`

// algorithmInfo is an algorithm as 'elect list --json' prints it.
type algorithmInfo struct {
	Name       string   `json:"name"`
	Title      string   `json:"title"`
	Source     string   `json:"source"`
	Cited      string   `json:"cited"`
	Summary    string   `json:"summary"`
	Topology   string   `json:"topology"`
	Timing     []string `json:"timing"`
	FIFO       bool     `json:"fifo"`
	UniqueIDs  bool     `json:"unique_ids"`
	KnowsN     bool     `json:"knows_n"`
	SenseOfDir bool     `json:"sense_of_direction,omitempty"`
	Weighted   bool     `json:"weighted,omitempty"`
	KnowsIDs   bool     `json:"knows_ids,omitempty"`
	// Tolerates names the faults the algorithm is built to survive
	// (elect.Model.Tolerates; docs/faults.md), "none" for most.
	Tolerates  string      `json:"tolerates"`
	WakeUp     string      `json:"wake_up"`
	Elects     string      `json:"elects"`
	Announces  string      `json:"announces"`
	Messages   []string    `json:"messages"`
	Bounds     []boundInfo `json:"bounds"`
	Parameters []string    `json:"parameters,omitempty"`
}

// boundInfo is a bound of an algorithmInfo. Source (in both) is as the
// declaration writes it, naming the seeds by their keys ("seed 001", see
// docs/sources.md); Cited is what the text output prints: the full
// reference for the algorithm, the seeds' brief names for a bound.
type boundInfo struct {
	Quantity string `json:"quantity"`
	Bound    string `json:"bound"`
	Source   string `json:"source"`
	Cited    string `json:"cited"`
}

func describe(a *elect.Algorithm) algorithmInfo {
	m := a.Model
	info := algorithmInfo{
		Name: a.Name, Title: a.Title, Source: a.Source, Cited: catalog.Cite(a.Source), Summary: a.Summary,
		Topology: m.Topology.String(), FIFO: m.FIFO, UniqueIDs: m.UniqueIDs, KnowsN: m.KnowsN, Weighted: m.Weighted,
		SenseOfDir: m.SenseOfDirection, KnowsIDs: m.KnowsIDs, Tolerates: m.Tolerates.String(),
		WakeUp: m.WakeUp.String(), Elects: m.Elects.String(), Announces: m.Announce.String(),
	}
	if m.Sync {
		info.Timing = append(info.Timing, "sync")
	}
	if m.Async {
		info.Timing = append(info.Timing, "async")
	}
	for _, t := range a.Messages {
		info.Messages = append(info.Messages, fmt.Sprintf("%s(%s)", t.Name, strings.Join(t.Fields, ",")))
	}
	for _, b := range a.Bounds {
		info.Bounds = append(info.Bounds, boundInfo{Quantity: b.Name, Bound: fmt.Sprintf("%s %s", b.Relation, b.Formula),
			Source: b.Source, Cited: catalog.CiteBrief(b.Source)})
	}
	for _, p := range a.Params {
		info.Parameters = append(info.Parameters, fmt.Sprintf("--%s (default %s): %s", p.Name, p.Default, p.Help))
	}
	return info
}

func listCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("list", listUsage)
	asJSON := fs.Bool("json", false, "print one JSON object per algorithm")
	pos, err := parseInterleaved(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("list takes no arguments (got %q)", pos[0])
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	for _, a := range cat.All() {
		info := describe(a)
		if *asJSON {
			if err := enc.Encode(info); err != nil {
				return err
			}
			continue
		}
		var model []string
		model = append(model, info.Topology, strings.Join(info.Timing, " or "))
		if info.FIFO {
			model = append(model, "FIFO channels")
		}
		if info.UniqueIDs {
			model = append(model, "unique IDs")
		}
		if info.KnowsN {
			model = append(model, "knows n")
		}
		if info.SenseOfDir {
			model = append(model, "sense of direction")
		}
		if info.Weighted {
			model = append(model, "distinct edge weights")
		}
		if info.KnowsIDs {
			model = append(model, "knows every ID")
		}
		if m := a.Model.Tolerates; m != 0 {
			model = append(model, "tolerates: "+m.String())
		}
		model = append(model, "wake-up: "+info.WakeUp, "elects: "+info.Elects, "announces: "+info.Announces)
		fmt.Fprintf(stdout, "%-14s %s\n", a.Name, a.Title)
		fmt.Fprintf(stdout, "  %-10s %s\n", "source", info.Cited)
		fmt.Fprintf(stdout, "  %-10s %s\n", "rules", a.Summary)
		fmt.Fprintf(stdout, "  %-10s %s\n", "model", strings.Join(model, "; "))
		fmt.Fprintf(stdout, "  %-10s %s\n", "messages", strings.Join(info.Messages, ", "))
		for i, b := range info.Bounds {
			label := ""
			if i == 0 {
				label = "bounds"
			}
			fmt.Fprintf(stdout, "  %-10s %s %s  [%s]\n", label, b.Quantity, b.Bound, b.Cited)
		}
		for i, p := range info.Parameters {
			label := ""
			if i == 0 {
				label = "parameters"
			}
			fmt.Fprintf(stdout, "  %-10s %s\n", label, p)
		}
		fmt.Fprintln(stdout)
	}
	return nil
}
