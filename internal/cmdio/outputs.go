package cmdio

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Path is one file a command names: the flag or argument that named it
// (for messages: "--out", "the trace") and the path as given.
type Path struct {
	Flag string
	Name string
}

// Error is a refusal of the paths a command was given; its text says
// which paths and why, for a one-line message.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Distinct refuses outputs that name the same file as each other, and an
// output that names the same file as an input: the same path once cleaned
// and made absolute, or, for files that exist, the same file
// (os.SameFile: the same device and inode, so a hard or symbolic link is
// seen through). Paths that are empty or "-" (standard input or output)
// are not files and are left out.
func Distinct(inputs, outputs []Path) error {
	type seen struct {
		p    Path
		abs  string
		info fs.FileInfo
	}
	resolve := func(p Path) (seen, bool) {
		if p.Name == "" || p.Name == "-" {
			return seen{}, false
		}
		abs, err := filepath.Abs(p.Name)
		if err != nil {
			abs = filepath.Clean(p.Name)
		}
		s := seen{p: p, abs: abs}
		if info, err := os.Stat(p.Name); err == nil {
			s.info = info
		}
		return s, true
	}
	same := func(a, b seen) bool {
		return a.abs == b.abs || a.info != nil && b.info != nil && os.SameFile(a.info, b.info)
	}
	var outs []seen
	for _, o := range outputs {
		so, ok := resolve(o)
		if !ok {
			continue
		}
		for _, prev := range outs {
			if same(prev, so) {
				return &Error{Msg: describe(prev.p) + " and " + describe(so.p) + " are the same file; each output needs a file of its own"}
			}
		}
		outs = append(outs, so)
	}
	for _, i := range inputs {
		si, ok := resolve(i)
		if !ok {
			continue
		}
		for _, so := range outs {
			if same(si, so) {
				return &Error{Msg: describe(so.p) + " is the input " + describe(si.p) + "; writing it would destroy what is read: name another output file"}
			}
		}
	}
	return nil
}

// describe names a path with the flag that gave it.
func describe(p Path) string {
	if p.Flag == "" {
		return p.Name
	}
	return p.Flag + " " + p.Name
}

// IsRefusal reports whether err is a refusal of paths (an *Error).
func IsRefusal(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
