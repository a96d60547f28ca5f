package cli

import (
	"bufio"
	"flag"
	"io"
	"time"

	"github.com/electkit/elect/catalog"
	"github.com/electkit/elect/experiment"
	"github.com/electkit/elect/internal/atomicfile"
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

// benchRefuses names the sweep flags bench does not take, and why.
var benchRefuses = map[string]string{
	"csv":     "is not a bench flag: bench writes Go benchmark lines (for benchstat), not runs; use 'elect sweep --csv'",
	"summary": "is not a bench flag: benchstat summarises the lines ('elect bench ... --count 10 > a.txt; benchstat a.txt'); use 'elect sweep --summary' for a table of runs",
	"measure": "is not a bench flag: every line reports ns/op, msgs/op, events/op and msgs/s; use 'elect sweep --summary --measure' for other measures",
	"fit":     "is not a bench flag: use 'elect sweep --summary --fit'",
	"shard":   "is not a bench flag: benchmarks must not share the machine, so they cannot be split across processes; run fewer algorithms or sizes per call instead",
	"trials":  "is not a bench flag: --benchtime and --count say how long and how often each benchmark runs",
	"workers": "is not a bench flag: benchmarks run one at a time, so that they do not disturb each other",
}

func benchCommand(cat *catalog.Catalog, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", benchUsage)
	var f sweepFlags
	// The sweep's flags that describe the configurations; those about a
	// sweep's output and trials mean nothing here and are refused by name.
	all := flag.NewFlagSet("sweep", flag.ContinueOnError)
	f.register(all, cat)
	all.VisitAll(func(fl *flag.Flag) {
		if _, refused := benchRefuses[fl.Name]; !refused {
			fs.Var(fl.Value, fl.Name, fl.Usage)
		}
	})
	fs.Lookup("n").DefValue = "1024"
	_ = fs.Set("n", "1024")
	fs.Lookup("out").Usage = "write the benchmark lines to this file instead of standard output"
	benchtime := fs.Duration("benchtime", time.Second, "minimum time per benchmark")
	count := fs.Int("count", 1, "repetitions of each benchmark line")
	pos, err := parseRefusing(fs, args, stdout, benchRefuses)
	if err != nil {
		return err
	}
	var outFile *atomicfile.File
	if f.out != "" {
		if err := declareFiles("bench", nil, output("--out", f.out)); err != nil {
			return err
		}
		if outFile, err = createOutput("bench: --out", f.out); err != nil {
			return err
		}
		defer outFile.Abort()
		stdout = bufio.NewWriter(outFile)
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
	reportSkipped(stderr, "bench", g)
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
	if outFile != nil {
		if err := stdout.(*bufio.Writer).Flush(); err != nil {
			return err
		}
		return outFile.Commit()
	}
	return nil
}
