package house

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/electkit/elect/election"
)

// TestEachPropertyIsNamedOnce: every property of election's table has a
// name of its own, and that name is spelled in one place of the non-test
// code, the table, as a string literal: no other literal is the name or
// starts with "name: " (a violation's text written by hand), so that the
// monitor, the checker, the judge of the TCP cluster, the population
// engines and the command cannot disagree on it (issue 41).
func TestEachPropertyIsNamedOnce(t *testing.T) {
	table := election.Properties()
	if len(table) == 0 {
		t.Fatal("election.Properties is empty")
	}
	seen := map[string]bool{}
	for _, p := range table {
		switch {
		case p.Name == "":
			t.Errorf("a property without a name: %+v", p)
		case seen[p.Name]:
			t.Errorf("property %q is declared twice", p.Name)
		case p.Meaning == "":
			t.Errorf("property %q has no meaning", p.Name)
		}
		seen[p.Name] = true
	}

	where := map[string][]string{} // name -> the places of its literals
	fset := token.NewFileSet()
	for _, path := range sourceFiles(t) {
		f, err := parser.ParseFile(fset, filepath.Join(root, path), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for name := range seen {
				if s == name || strings.HasPrefix(s, name+": ") {
					pos := fset.Position(lit.Pos())
					rel, _ := filepath.Rel(root, pos.Filename)
					where[name] = append(where[name], rel+":"+strconv.Itoa(pos.Line))
				}
			}
			return true
		})
	}
	for _, p := range table {
		if got := where[p.Name]; len(got) != 1 {
			t.Errorf("property %q is spelled %d times in non-test code, want once (its declaration): %s", p.Name, len(got), strings.Join(got, ", "))
		}
	}
}

// TestPropertyNamesReadBack: every property's name reads back as the
// property (the decoders' way, election.ParseProperty), and no other
// name does.
func TestPropertyNamesReadBack(t *testing.T) {
	for _, info := range election.Properties() {
		p, ok := election.ParseProperty(info.Name)
		if !ok || p.String() != info.Name || p.Meaning() != info.Meaning || p.Kind() != info.Kind {
			t.Errorf("ParseProperty(%q) = %v (%q, %v), %v", info.Name, p, p.Meaning(), p.Kind(), ok)
		}
	}
	for _, name := range []string{"", "violation", "no-leader:", "Multiple-Leaders", "step-limit"} {
		if p, ok := election.ParseProperty(name); ok {
			t.Errorf("ParseProperty(%q) = %v, want none", name, p)
		}
	}
}
