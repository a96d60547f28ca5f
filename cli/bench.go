package cli

import (
	"io"
	"time"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/experiment"
)

func init() {
	register(command{name: "bench", summary: "benchmark algorithms in the Go benchmark format (for benchstat)", run: benchCommand})
}

const benchUsage = `usage: elect bench ALGORITHM[,ALGORITHM...] [flags]

Runs each algorithm (or population protocol) at each size for at least
--benchtime, --count times, and prints Go benchmark lines such as

  BenchmarkElect/alg=hs/n=1024-2   1200   950000 ns/op   8600 msgs/op   ...

so that two runs compare with benchstat ('elect bench hs --count 10 > old.txt',
change something, 'elect bench hs --count 10 > new.txt', 'benchstat old.txt
new.txt'). Runs are sequential; trial t uses seed --seed + t as in a sweep.
The same benchmarks run under 'go test -bench Elect ./experiment'.

flags:
`

func benchCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", benchUsage)
	var f sweepFlags
	f.register(fs, cat)
	fs.Lookup("n").DefValue = "1024"
	_ = fs.Set("n", "1024")
	benchtime := fs.Duration("benchtime", time.Second, "minimum time per benchmark")
	count := fs.Int("count", 1, "repetitions of each benchmark line")
	pos, err := parseInterleaved(fs, args, stdout)
	if err != nil {
		return err
	}
	f.trials = 1
	g, _, err := f.grid(fs, pos)
	if err != nil {
		return err
	}
	if *benchtime <= 0 || *count < 1 {
		return usagef("bench: --benchtime must be positive and --count at least 1")
	}
	points, err := g.Points()
	if err != nil {
		return gridError(err)
	}
	experiment.WriteBenchHeader(stdout)
	for range *count {
		for _, p := range points {
			r, err := experiment.Bench(p, g.Seed, *benchtime, 1)
			if err != nil {
				return err
			}
			experiment.WriteBench(stdout, r)
		}
	}
	return nil
}
