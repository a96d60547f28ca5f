package house

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the repository's module path.
const module = "github.com/electkit/elect"

// importGraph reads the import clauses of every non-test Go file of the
// repository (go/parser, nothing run) and returns, for each of its
// packages by path from the root ("" for the root package), the
// repository's packages it imports, sorted.
func importGraph(t *testing.T) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	graph := map[string][]string{}
	for _, file := range sourceFiles(t) {
		f, err := parser.ParseFile(fset, filepath.Join(root, file), nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if ignored(f.Comments) {
			continue
		}
		pkg := filepath.ToSlash(filepath.Dir(file))
		if pkg == "." {
			pkg = ""
		}
		if _, ok := graph[pkg]; !ok {
			graph[pkg] = nil
		}
		for _, spec := range f.Imports {
			p, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			var dep string
			switch {
			case p == module:
				dep = ""
			case strings.HasPrefix(p, module+"/"):
				dep = strings.TrimPrefix(p, module+"/")
			default:
				continue
			}
			if !slices.Contains(graph[pkg], dep) {
				graph[pkg] = append(graph[pkg], dep)
			}
		}
	}
	for pkg := range graph {
		slices.Sort(graph[pkg])
	}
	return graph
}

// ignored reports whether a file's comments carry the build constraint
// "ignore" (a program run by go run, not part of its folder's package).
func ignored(comments []*ast.CommentGroup) bool {
	for _, g := range comments {
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ignore") {
				return true
			}
		}
	}
	return false
}

// chain returns the shortest import chain from package from to package to
// (both ends included), or nil when from does not reach to.
func chain(graph map[string][]string, from, to string) []string {
	prev := map[string]string{from: from}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == to {
			var out []string
			for q := to; ; q = prev[q] {
				out = append(out, q)
				if q == from {
					break
				}
			}
			slices.Reverse(out)
			return out
		}
		for _, d := range graph[p] {
			if _, seen := prev[d]; !seen {
				prev[d] = p
				queue = append(queue, d)
			}
		}
	}
	return nil
}

// name writes a package as the import rule speaks of it.
func name(pkg string) string {
	if pkg == "" {
		return "the root package (" + module + ")"
	}
	return pkg
}

// showChain writes an import chain: live -> faultplan -> sim.
func showChain(c []string) string {
	text := make([]string, len(c))
	for i, p := range c {
		text[i] = p
		if p == "" {
			text[i] = "(root)"
		}
	}
	return strings.Join(text, " -> ")
}

// TestImportRule checks the import rule of docs/architecture.md on the
// repository's non-test imports: the real runtimes (live, cluster) reach
// neither engine (sim, reference); the two engines never reach each
// other, so that the differential test between them means something; no
// runtime imports another; and the algorithms import only the contract,
// the root package.
func TestImportRule(t *testing.T) {
	graph := importGraph(t)
	runtimes := []string{"sim", "reference", "live", "cluster"}
	for _, p := range append(runtimes, "ring", "complete", "general") {
		if _, ok := graph[p]; !ok {
			t.Fatalf("package %s is not in the repository any more: update the import rule and this test", p)
		}
	}
	mustNotReach := func(from, to, why string) {
		if c := chain(graph, from, to); c != nil {
			t.Errorf("%s reaches %s (%s): %s", from, to, why, showChain(c))
		}
	}
	for _, rt := range []string{"live", "cluster"} {
		for _, engine := range []string{"sim", "reference"} {
			mustNotReach(rt, engine, "a real runtime links no engine: whoever starts a run resolves what must be decided before it")
		}
	}
	for _, engine := range []string{"sim", "reference", "live", "cluster"} {
		mustNotReach("scenario", engine, "a description links no engine: package runner chooses one")
	}
	mustNotReach("sim", "reference", "the reference engine is the oracle of the fast one and shares no code with it")
	mustNotReach("reference", "sim", "the reference engine is the oracle of the fast one and shares no code with it")
	for _, a := range runtimes {
		for _, b := range runtimes {
			if a != b && slices.Contains(graph[a], b) {
				t.Errorf("%s imports %s: the runtimes stand beside each other, importing the shared package and never each other", a, b)
			}
		}
	}
	for _, alg := range []string{"ring", "complete", "general"} {
		for _, dep := range graph[alg] {
			if dep != "" {
				t.Errorf("%s imports %s: an algorithm imports only the contract, the root package (%s)", alg, name(dep), showChain([]string{alg, dep}))
			}
		}
	}
}

// TestImportRuleSeesAChain: the rule's search finds a chain that exists,
// through the packages between, and none that does not.
func TestImportRuleSeesAChain(t *testing.T) {
	graph := map[string][]string{"live": {"faultplan"}, "faultplan": {"election", "sim"}, "sim": {""}, "election": {""}}
	if got := showChain(chain(graph, "live", "sim")); got != "live -> faultplan -> sim" {
		t.Errorf("chain from live to sim: %q", got)
	}
	if c := chain(graph, "sim", "live"); c != nil {
		t.Errorf("a chain from sim to live: %v", c)
	}
	if got := showChain(chain(graph, "election", "")); got != "election -> (root)" {
		t.Errorf("chain from election to the root: %q", got)
	}
}
