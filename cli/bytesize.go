package cli

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
)

// byteSizeFlag is a size in bytes written as 123, 500KB, 100MB or 2GB
// (powers of 1000; KiB, MiB and GiB for powers of 1024).
type byteSizeFlag struct{ p *int64 }

// byteSizeVar defines a byte size flag with a default value.
func byteSizeVar(fs *flag.FlagSet, p *int64, name string, value int64, usage string) {
	*p = value
	fs.Var(byteSizeFlag{p}, name, usage)
}

func (s byteSizeFlag) String() string {
	if s.p == nil {
		return "0"
	}
	return strconv.FormatInt(*s.p, 10)
}

var byteUnits = []struct {
	suffix string
	mult   int64
}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}

func (s byteSizeFlag) Set(v string) error {
	text := strings.ToUpper(strings.TrimSpace(v))
	mult := int64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(text, u.suffix) {
			text, mult = strings.TrimSpace(strings.TrimSuffix(text, u.suffix)), u.mult
			break
		}
	}
	x, err := strconv.ParseInt(text, 10, 64)
	if err != nil || x < 0 || x > (1<<62)/mult {
		return fmt.Errorf("%q is not a size in bytes (123, 500KB, 100MB, 2GB)", v)
	}
	*s.p = x * mult
	return nil
}
