package experiment

import (
	"fmt"
	"io"
	"reflect"
	"runtime"
	"time"
)

// BenchResult is one benchmark line: iterations, time per run and the
// domain measures per run.
type BenchResult struct {
	Name       string // e.g. Elect/alg=hs/n=1024
	Iterations int
	NsPerOp    float64
	Metrics    []Metric
}

// Metric is one value/unit pair of a benchmark line.
type Metric struct {
	Value float64
	Unit  string
}

// BenchName names the benchmark of a grid point, in the form
// Elect/alg=NAME/n=N (populations: Elect/pp=NAME/n=N).
func BenchName(p *Point) string {
	if p.Kind == Population {
		return fmt.Sprintf("Elect/pp=%s/n=%d", p.Protocol.Name, p.PP.N)
	}
	s := p.Spec
	name := fmt.Sprintf("Elect/alg=%s/n=%d", s.Algorithm, s.N)
	if s.IDs != "" && s.IDs != "random" {
		name += "/ids=" + s.IDs
	}
	if s.Delivery != "" {
		name += "/delivery=" + s.Delivery
	}
	return name
}

// Bench runs trials of p (seeds master, master+1, ... as a sweep does) until
// at least minTime has passed and minIters runs are done, and reports the
// mean time and measures per run: messages and events per run and messages
// per second (message passing), interactions per run and ns per interaction
// (populations).
func Bench(p *Point, master uint64, minTime time.Duration, minIters int) (BenchResult, error) {
	var total time.Duration
	var msgs, events, inter float64
	iters := 0
	for iters < minIters || total < minTime {
		j := Job{Point: p, Trial: iters}
		start := time.Now()
		r, err := RunJob(j, master)
		total += time.Since(start)
		if err != nil {
			return BenchResult{}, err
		}
		if r.MP != nil {
			msgs += float64(r.MP.Messages)
			events += float64(r.MP.Events)
		} else {
			inter += float64(r.PP.Interactions)
		}
		iters++
		if iters >= 1<<30 {
			break
		}
	}
	n := float64(iters)
	res := BenchResult{Name: BenchName(p), Iterations: iters, NsPerOp: float64(total.Nanoseconds()) / n}
	if p.Kind == Population {
		res.Metrics = []Metric{{inter / n, "interactions/op"}}
		if inter > 0 {
			res.Metrics = append(res.Metrics, Metric{float64(total.Nanoseconds()) / inter, "ns/interaction"})
		}
	} else {
		res.Metrics = []Metric{{msgs / n, "msgs/op"}, {events / n, "events/op"}}
		if total > 0 {
			res.Metrics = append(res.Metrics, Metric{msgs / total.Seconds(), "msgs/s"})
		}
	}
	return res, nil
}

// benchPackage is the import path of this package, which 'go test -bench
// Elect ./experiment' prints on its pkg line: github.com/electkit/elect/experiment.
var benchPackage = reflect.TypeFor[BenchResult]().PkgPath()

// WriteBenchHeader writes the lines that start 'go test -bench' output, the
// same as 'go test -bench Elect ./experiment' writes them (pkg: the
// package's import path), so that benchstat groups the results of both.
func WriteBenchHeader(w io.Writer) {
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: %s\n", runtime.GOOS, runtime.GOARCH, benchPackage)
}

// WriteBench writes r as a Go benchmark line.
func WriteBench(w io.Writer, r BenchResult) {
	fmt.Fprintf(w, "Benchmark%s-%d\t%8d\t%12.0f ns/op", r.Name, runtime.GOMAXPROCS(0), r.Iterations, r.NsPerOp)
	for _, m := range r.Metrics {
		fmt.Fprintf(w, "\t%12.4g %s", m.Value, m.Unit)
	}
	fmt.Fprintln(w)
}
