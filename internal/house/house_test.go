// Package house checks the rules of the repository's layout that
// docs/architecture.md states: which packages may import which, how long a
// function and a file may be, and that each property of an election is
// named in one place. It has tests only.
package house

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// root is the repository's top folder, from this package's.
const root = "../.."

// sourceFiles returns every non-test Go file of the repository, by path
// from the root.
func sourceFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if name == "testdata" || (strings.HasPrefix(name, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// MaxFunctionLines and MaxFileLines are the longest a non-test function and
// a non-test file may be.
const (
	MaxFunctionLines = 150
	MaxFileLines     = 800
)

func TestNoFunctionOver150Lines(t *testing.T) {
	fset := token.NewFileSet()
	for _, rel := range sourceFiles(t) {
		f, err := parser.ParseFile(fset, filepath.Join(root, rel), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		// Every function, declared or literal (a closure counts on its own
		// and inside the function that holds it).
		ast.Inspect(f, func(n ast.Node) bool {
			var name string
			switch fn := n.(type) {
			case *ast.FuncDecl:
				if fn.Body == nil {
					return true
				}
				name = fn.Name.Name
				if fn.Recv != nil && len(fn.Recv.List) > 0 {
					name = recvName(fn.Recv.List[0].Type) + "." + name
				}
			case *ast.FuncLit:
				name = "a function literal at line " + itoa(fset.Position(fn.Pos()).Line)
			default:
				return true
			}
			lines := fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1
			if lines > MaxFunctionLines {
				t.Errorf("%s: %s is %d lines (at most %d)", rel, name, lines, MaxFunctionLines)
			}
			return true
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return recvName(x.X)
	case *ast.IndexExpr:
		return recvName(x.X)
	case *ast.IndexListExpr:
		return recvName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}

func TestNoFileOver800Lines(t *testing.T) {
	for _, rel := range sourceFiles(t) {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Count(string(b), "\n"); lines > MaxFileLines {
			t.Errorf("%s: %d lines (at most %d)", rel, lines, MaxFileLines)
		}
	}
}
