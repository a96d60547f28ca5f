package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/electkit/elect/scenario"
)

// newFlagSet returns a flag set that reports errors instead of exiting; its
// usage text (printed for --help) is usage followed by the flag defaults.
func newFlagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		io.WriteString(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseInterleaved parses flags that may stand before, between or after
// positional arguments ("elect run lcr --n 8" and "elect run --n 8 lcr"), and
// returns the positional arguments. A -h/--help request prints the usage to
// stdout and yields errHelp; any other flag error is a UsageError.
func parseInterleaved(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	return parseRefusing(fs, args, stdout, nil)
}

// parseOne is parseInterleaved for a command that takes exactly one
// positional argument, which it returns; any other count is bad input,
// worded by countFormat (which formats the count, e.g. "view takes one
// trace file (got %d)").
func parseOne(fs *flag.FlagSet, args []string, stdout io.Writer, countFormat string) (string, error) {
	pos, err := parseInterleaved(fs, args, stdout)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", usagef(countFormat, len(pos))
	}
	return pos[0], nil
}

// parseRefusing is parseInterleaved for a command that refuses some flags
// of its family by name: refused maps such a flag to why ("is not a bench
// flag: ..."), which the error then says.
func parseRefusing(fs *flag.FlagSet, args []string, stdout io.Writer, refused map[string]string) ([]string, error) {
	var positional []string
	fs.SetOutput(io.Discard)
	args = numberArgs(fs, args)
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				fs.SetOutput(stdout)
				fs.Usage()
				return nil, errHelp
			}
			if name, ok := undefinedFlag(err); ok && refused[name] != "" {
				return nil, usagef("%s: --%s %s", fs.Name(), name, refused[name])
			}
			if m := invalidValue.FindStringSubmatch(err.Error()); m != nil {
				if strings.HasSuffix(m[3], "parse error") || strings.HasSuffix(m[3], "value out of range") {
					m[3] = valueHelp(fs, m[2], m[1])
				}
				return nil, usagef("%s: --%s: %s", fs.Name(), m[2], m[3])
			}
			if m := invalidBool.FindStringSubmatch(err.Error()); m != nil {
				return nil, usagef("%s: --%s takes no value (or =true, =false), not %q", fs.Name(), m[2], m[1])
			}
			return nil, usagef("%s: %s%s", fs.Name(), strings.TrimSpace(err.Error()), flagSuggestion(fs, err, refused))
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// The flag package's messages for a value its flag cannot take.
var (
	invalidValue = regexp.MustCompile(`^invalid value "(.*)" for flag -(\S+): (.*)$`)
	invalidBool  = regexp.MustCompile(`^invalid boolean value "(.*)" for -(\S+): (.*)$`)
)

// numberArgs rewrites, in args, the values of fs's integer flags written
// as 1e6 or 2^20 into plain integers, which the flag package then reads
// ("--trials 1e3", "--max-events=2^30").
func numberArgs(fs *flag.FlagSet, args []string) []string {
	integer := func(name string) bool {
		f := fs.Lookup(name)
		if f == nil {
			return false
		}
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return false
		}
		switch g.Get().(type) {
		case int, int64, uint, uint64:
			return true
		}
		return false
	}
	out := slices.Clone(args)
	for i := 0; i < len(out); i++ {
		a := out[i]
		if a == "--" {
			break
		}
		name, value, inline := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || !integer(name) {
			continue
		}
		if !inline {
			if i+1 >= len(out) {
				break
			}
			i++
			value = out[i]
		}
		n, err := parseSize(value)
		if err != nil {
			continue
		}
		if inline {
			out[i] = a[:strings.Index(a, "=")+1] + strconv.FormatInt(n, 10)
		} else {
			out[i] = strconv.FormatInt(n, 10)
		}
	}
	return out
}

// valueHelp says what a flag of fs takes, for the error about a value it
// cannot take.
func valueHelp(fs *flag.FlagSet, name, value string) string {
	if f := fs.Lookup(name); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			switch g.Get().(type) {
			case uint, uint64:
				if _, err := parseSize(value); err != nil && strings.Contains(err.Error(), "not a whole number") {
					return err.Error()
				}
				return fmt.Sprintf("%s is out of range: use a whole number from 0 to %d", value, uint64(math.MaxUint64))
			case int, int64:
				if _, err := parseSize(value); err != nil {
					return err.Error()
				}
				return fmt.Sprintf("%s is out of range: use a whole number from %d to %d", value, int64(math.MinInt64), int64(math.MaxInt64))
			case float64:
				return fmt.Sprintf("%q is not a number: write it as 0.5, 1e-3 or 12", value)
			case time.Duration:
				return fmt.Sprintf("%q is not a duration: write it as 30s, 5m or 1h30m", value)
			}
		}
	}
	return fmt.Sprintf("%q will not do", value)
}

// flagSuggestion returns ` (did you mean --x?)` when err is about a flag
// the set does not define and one of its flags is close to it, or, when
// none is, where to find them.
func flagSuggestion(fs *flag.FlagSet, err error, refused map[string]string) string {
	name, ok := undefinedFlag(err)
	if !ok {
		return ""
	}
	if why := retiredFlags[name]; why != "" {
		return "; it was retired: " + why
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	for r := range refused {
		names = append(names, r)
	}
	slices.Sort(names)
	if near := scenario.Nearest(name, names); near != "" {
		if why := refused[near]; why != "" {
			return fmt.Sprintf(" (did you mean --%s? it %s)", near, why)
		}
		return fmt.Sprintf(" (did you mean --%s?)", near)
	}
	return "; 'elect " + fs.Name() + " --help' lists its flags"
}

// retiredFlags are flags elect once took, with why they are gone and what
// to do instead.
var retiredFlags = map[string]string{
	"fault-tick": "a delay fault is late by d time units of the simulator's time on every runtime (goroutines and TCP hold the message until nothing can pass it, and no longer wait d ticks of wall time); drop the flag (docs/faults.md)",
}

// undefinedFlag is the name of the flag err (from FlagSet.Parse) says is
// not defined.
func undefinedFlag(err error) (string, bool) {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	return strings.TrimLeft(strings.TrimSpace(name), "-"), ok
}

// sizeFlag is an integer flag that also takes sizes written as powers: 1e6,
// 10^6 or 2^20 (elect pp pll --n 1e9).
type sizeFlag struct{ p *int }

// sizeVar defines a size flag with a default value.
func sizeVar(fs *flag.FlagSet, p *int, name string, value int, usage string) {
	*p = value
	fs.Var(sizeFlag{p}, name, usage)
}

func (s sizeFlag) String() string {
	if s.p == nil {
		return "0"
	}
	return strconv.Itoa(*s.p)
}

func (s sizeFlag) Set(v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	*s.p = int(n)
	return nil
}

// parseSize reads an integer written plainly (1000000), in scientific
// notation with an integer value (1e6), or as a power (2^20, 10^6).
func parseSize(v string) (int64, error) {
	bad := fmt.Errorf("%q is not a whole number: write it as 1000000, 1e6 or 2^20", v)
	v = strings.TrimSpace(v)
	if base, exp, ok := strings.Cut(v, "^"); ok {
		b, err1 := strconv.ParseInt(base, 10, 64)
		e, err2 := strconv.ParseInt(exp, 10, 64)
		if err1 != nil || err2 != nil || b < 0 || e < 0 {
			return 0, bad
		}
		n := int64(1)
		for range e {
			if b != 0 && n > math.MaxInt64/b {
				return 0, fmt.Errorf("%s is larger than %d", v, int64(math.MaxInt64))
			}
			n *= b
		}
		return n, nil
	}
	outOfRange := fmt.Errorf("%s is out of range: use a whole number from %d to %d", v, int64(math.MinInt64), int64(math.MaxInt64))
	n, err := strconv.ParseInt(v, 10, 64)
	if err == nil {
		return n, nil
	}
	if errors.Is(err, strconv.ErrRange) {
		return 0, outOfRange
	}
	if strings.ContainsAny(v, "eE") {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f != math.Trunc(f) {
			return 0, bad
		}
		if math.Abs(f) >= 1<<62 {
			return 0, outOfRange
		}
		return int64(f), nil
	}
	return 0, bad
}

// bytesFlag is a size in bytes: 6GiB, 500MB or 8e9 (scenario.ParseBytes);
// what 0 means is the flag's to say.
type bytesFlag struct{ p *int64 }

// bytesVar defines a size flag with a default value.
func bytesVar(fs *flag.FlagSet, p *int64, name string, value int64, usage string) {
	*p = value
	fs.Var(bytesFlag{p}, name, usage)
}

func (b bytesFlag) String() string {
	if b.p == nil || *b.p == 0 {
		return ""
	}
	return strconv.FormatInt(*b.p, 10)
}

func (b bytesFlag) Set(v string) error {
	n, err := scenario.ParseBytes(v)
	if err != nil {
		return err
	}
	*b.p = n
	return nil
}

// memLimitVar defines --mem-limit: the memory a run may be estimated to
// take before it is refused, and that a run's messages in flight may not
// outgrow while it runs.
func memLimitVar(fs *flag.FlagSet, p *int64) {
	fs.Var(bytesFlag{p}, "mem-limit", "refuse a run estimated to need more memory than this, and stop one whose messages in flight outgrow it (outcome memory-limit), as 6GiB, 500MB or 8e9 (default "+scenario.DefaultMemLimitText()+")")
}
