package catalog_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/electkit/elect"
	"github.com/electkit/elect/catalog"
)

// TestREADMEAlgorithmTableListsTheCatalog: the README's algorithm table
// (columns name, network, source, checked bounds) lists exactly the
// catalog's algorithms, in catalog order, and each row's network column
// agrees with the algorithm's declared model (see networkProblems).
func TestREADMEAlgorithmTableListsTheCatalog(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range algorithmTableProblems(string(readme), catalog.All()) {
		t.Error("README.md: " + p)
	}
}

// TestAlgorithmTableProblemsAreFound: the check finds a missing row (and
// says where to add it), an extra one, rows out of order, a network column
// that contradicts the declaration, an unknown network and a missing table.
func TestAlgorithmTableProblemsAreFound(t *testing.T) {
	// Four algorithms by name, in this order: the cases below are about
	// them, wherever they stand in the catalog (a variant registered after
	// lcr must not change what this test demands).
	var algs []*elect.Algorithm
	for _, name := range []string{"lcr", "chang-roberts", "hs", "peterson"} {
		a, ok := catalog.Lookup(name)
		if !ok {
			t.Fatalf("the catalog has no %s", name)
		}
		algs = append(algs, a)
	}
	table := func(rows ...string) string {
		return "# elect\n\n| name | network | source (seed file, section) | checked bounds |\n| --- | --- | --- | --- |\n" +
			strings.Join(rows, "\n") + "\n\nAfter the table.\n"
	}
	lcr := "| `lcr` | unidirectional ring | 001 | x |"
	cr := "| `chang-roberts` | ring | 003 | x |"
	hs := "| `hs` | bidirectional ring | 003 | 2\\|E\\| |"
	peterson := "| `peterson` | unidirectional ring | 001 | x |"
	for _, c := range []struct {
		name, readme string
		want         []string // substrings, one per problem, in order
	}{
		{"correct", table(lcr, cr, hs, peterson), nil},
		{"missing row", table(lcr, hs, peterson), []string{"no row for `chang-roberts`: add `| `chang-roberts` | unidirectional ring |"}},
		{"missing first row", table(cr, hs, peterson), []string{"no row for `lcr`: add `| `lcr` | unidirectional ring | SOURCE | BOUNDS |` before the row of `chang-roberts`"}},
		{"extra row", table(lcr, cr, "| `bully` | any connected graph | - | - |", hs, peterson), []string{"row `bully` (line 7): not in the catalog"}},
		{"duplicate", table(lcr, cr, hs, hs, peterson), []string{"row `hs` (line 8) repeats"}},
		{"order", table(lcr, hs, cr, peterson), []string{"rows are not in catalog order: `lcr`, `hs`, `chang-roberts`, `peterson`; the catalog's: `lcr`, `chang-roberts`, `hs`, `peterson`"}},
		{"wrong class", table(lcr, cr, "| `hs` | unidirectional ring | 003 | x |", peterson), []string{"row `hs` (line 7): network \"unidirectional ring\" stands for the topology class \"unidirectional ring\", but hs declares \"oriented bidirectional ring\"; write \"bidirectional ring\""}},
		{"wrong qualifier", table(lcr, cr, hs, "| `peterson` | unidirectional ring, sync | 001 | x |"), []string{"\"sync\", but peterson also runs asynchronously"}},
		{"anonymous", table("| `lcr` | anonymous ring | 001 | x |", cr, hs, peterson), []string{"\"anonymous\", but lcr needs unique IDs"}},
		{"unknown network", table(lcr, "| `chang-roberts` | torus | 003 | x |", hs, peterson), []string{"network \"torus\" names no topology class"}},
		{"unknown qualifier", table(lcr, cr, hs, "| `peterson` | ring, fifo | 001 | x |"), []string{"qualifier \"fifo\" is none of"}},
		{"no table", "# elect\n", []string{"no algorithm table"}},
	} {
		got := algorithmTableProblems(c.readme, algs)
		ok := len(got) == len(c.want)
		for i := 0; ok && i < len(got); i++ {
			ok = strings.Contains(got[i], c.want[i])
		}
		if !ok {
			t.Errorf("%s: got problems\n\t%s\nwant ones containing\n\t%s", c.name, strings.Join(got, "\n\t"), strings.Join(c.want, "\n\t"))
		}
	}
}

// tableHeader starts the README's algorithm table.
const tableHeader = "| name | network |"

// networks maps the topology phrases of the table's network column to the
// topology classes they stand for. A bare "ring" is the seeds' ring, on
// which messages travel one way: a unidirectional ring algorithm runs on
// any ring, so the phrase fits it only.
var networks = map[string]elect.TopologyClass{
	"unidirectional ring": elect.UniRing,
	"ring":                elect.UniRing,
	"bidirectional ring":  elect.BiRing,
	"complete graph":      elect.Complete,
	"any connected graph": elect.General,
}

// qualifiers are the words the network column may add after the topology,
// each a claim about the declared model that must hold.
var qualifiers = map[string]struct {
	holds func(m elect.Model) bool
	else_ string // what the declaration says instead
}{
	"sync":               {func(m elect.Model) bool { return m.Sync && !m.Async }, "also runs asynchronously"},
	"knows n":            {func(m elect.Model) bool { return m.KnowsN }, "is not told n"},
	"sense of direction": {func(m elect.Model) bool { return m.SenseOfDirection }, "needs no port labels"},
}

// tableRow is one row of the algorithm table.
type tableRow struct {
	line    int // 1-based line number in the README
	name    string
	network string
	cells   []string
}

// algorithmTableProblems checks the README's algorithm table against algs,
// in order, and returns what is wrong, one sentence each, saying which row
// to add, remove or fix.
func algorithmTableProblems(readme string, algs []*elect.Algorithm) []string {
	rows, ok := algorithmTable(readme)
	if !ok {
		return []string{fmt.Sprintf("no algorithm table (a line starting %q)", tableHeader)}
	}
	var problems []string
	byName := map[string]*elect.Algorithm{}
	for _, a := range algs {
		byName[a.Name] = a
	}
	seen := map[string]bool{}
	var listed []string // the rows' names that are in algs, once each
	for _, r := range rows {
		a, ok := byName[r.name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("row `%s` (line %d): not in the catalog; remove it or fix its name (the catalog: %s)",
				r.name, r.line, strings.Join(catalogNames(algs), ", ")))
			continue
		case seen[r.name]:
			problems = append(problems, fmt.Sprintf("row `%s` (line %d) repeats an earlier row; remove one", r.name, r.line))
			continue
		}
		seen[r.name] = true
		listed = append(listed, r.name)
		problems = append(problems, networkProblems(r, a)...)
	}
	for i, a := range algs {
		if seen[a.Name] {
			continue
		}
		where := "at the end of the table"
		if i > 0 {
			where = fmt.Sprintf("after the row of `%s`", algs[i-1].Name)
		} else if len(algs) > 1 {
			where = fmt.Sprintf("before the row of `%s`", algs[1].Name)
		}
		problems = append(problems, fmt.Sprintf("no row for `%s`: add `| `%s` | %s | SOURCE | BOUNDS |` %s",
			a.Name, a.Name, networkPhrase(a.Model), where))
	}
	var want []string
	for _, a := range algs {
		if seen[a.Name] {
			want = append(want, a.Name)
		}
	}
	if !slices.Equal(listed, want) {
		problems = append(problems, fmt.Sprintf("rows are not in catalog order: %s; the catalog's: %s",
			quoteNames(listed), quoteNames(want)))
	}
	return problems
}

// algorithmTable returns the rows of the README's algorithm table.
func algorithmTable(readme string) ([]tableRow, bool) {
	lines := strings.Split(readme, "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, tableHeader) })
	if start < 0 {
		return nil, false
	}
	var rows []tableRow
	for i := start + 2; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
		cells := splitRow(lines[i])
		r := tableRow{line: i + 1, cells: cells}
		if len(cells) > 0 {
			r.name = strings.Trim(cells[0], "`")
		}
		if len(cells) > 1 {
			r.network = cells[1]
		}
		rows = append(rows, r)
	}
	return rows, true
}

// splitRow returns the trimmed cells of a Markdown table row; an escaped
// bar (\|) stays inside its cell.
func splitRow(line string) []string {
	const bar = "\x00"
	line = strings.ReplaceAll(line, `\|`, bar)
	line = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "|"), "|")
	cells := strings.Split(line, "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(strings.ReplaceAll(c, bar, `|`))
	}
	return cells
}

// networkProblems checks a row's network column, "[anonymous ]TOPOLOGY[,
// QUALIFIER...]", against a's declaration: TOPOLOGY must stand for its
// topology class (networks), "anonymous" requires that it does not need
// unique IDs, and each qualifier must hold (qualifiers).
func networkProblems(r tableRow, a *elect.Algorithm) []string {
	m := a.Model
	prefix := fmt.Sprintf("row `%s` (line %d): network %q", r.name, r.line, r.network)
	parts := strings.Split(r.network, ",")
	topo := strings.TrimSpace(parts[0])
	var problems []string
	if rest, ok := strings.CutPrefix(topo, "anonymous "); ok {
		topo = rest
		if m.UniqueIDs {
			problems = append(problems, fmt.Sprintf("%s says \"anonymous\", but %s needs unique IDs; remove the word", prefix, a.Name))
		}
	}
	class, ok := networks[topo]
	switch {
	case !ok:
		problems = append(problems, fmt.Sprintf("%s names no topology class; start it with one of %s (write %q)",
			prefix, quoteKeys(networks), networkPhrase(m)))
	case class != m.Topology:
		problems = append(problems, fmt.Sprintf("%s stands for the topology class %q, but %s declares %q; write %q",
			prefix, class, a.Name, m.Topology, networkPhrase(m)))
	}
	for _, q := range parts[1:] {
		q = strings.TrimSpace(q)
		rule, ok := qualifiers[q]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s: qualifier %q is none of %s", prefix, q, quoteKeys(qualifiers)))
		case !rule.holds(m):
			problems = append(problems, fmt.Sprintf("%s says %q, but %s %s; remove it", prefix, q, a.Name, rule.else_))
		}
	}
	return problems
}

// networkPhrase is the network column a row for an algorithm of model m
// may have: its topology and the qualifiers that hold.
func networkPhrase(m elect.Model) string {
	phrase := map[elect.TopologyClass]string{
		elect.UniRing: "unidirectional ring", elect.BiRing: "bidirectional ring",
		elect.Complete: "complete graph", elect.General: "any connected graph",
	}[m.Topology]
	if !m.UniqueIDs && m.Topology <= elect.BiRing {
		phrase = "anonymous " + strings.TrimPrefix(phrase, "unidirectional ")
	}
	for _, q := range sortedKeys(qualifiers) {
		if qualifiers[q].holds(m) {
			phrase += ", " + q
		}
	}
	return phrase
}

func catalogNames(algs []*elect.Algorithm) []string {
	var names []string
	for _, a := range algs {
		names = append(names, a.Name)
	}
	return names
}

func quoteNames(names []string) string {
	var q []string
	for _, n := range names {
		q = append(q, "`"+n+"`")
	}
	return strings.Join(q, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func quoteKeys[V any](m map[string]V) string {
	var q []string
	for _, k := range sortedKeys(m) {
		q = append(q, fmt.Sprintf("%q", k))
	}
	return strings.Join(q, ", ")
}
