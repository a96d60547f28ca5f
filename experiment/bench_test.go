package experiment

import (
	"strings"
	"testing"
)

// BenchmarkElect runs the benchmarks 'elect bench' prints, in the same
// format: go test -bench Elect ./experiment | benchstat.
func BenchmarkElect(b *testing.B) {
	g := Grid{Algorithms: []string{"lcr", "hs", "peterson", "franklin", "pp:epidemic", "pp:pll"}, Sizes: []int{1024, 16384}, Trials: 1, Seed: 1, NoStates: true}
	points, err := g.Points()
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range points {
		name := BenchName(p)[len("Elect/"):]
		b.Run(name, func(b *testing.B) {
			var msgs, inter float64
			t := 0
			for b.Loop() {
				r, err := RunJob(Job{Point: p, Trial: t}, g.Seed)
				if err != nil {
					b.Fatal(err)
				}
				t++
				if r.MP != nil {
					msgs += float64(r.MP.Messages)
				} else {
					inter += float64(r.PP.Interactions)
				}
			}
			if p.Kind == Population {
				b.ReportMetric(inter/float64(t), "interactions/op")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/inter, "ns/interaction")
			} else {
				b.ReportMetric(msgs/float64(t), "msgs/op")
				b.ReportMetric(msgs/b.Elapsed().Seconds(), "msgs/s")
			}
		})
	}
}

// TestBenchLineFormat: the lines parse as Go benchmark lines: name, count,
// value-unit pairs.
func TestBenchLineFormat(t *testing.T) {
	g := Grid{Algorithms: []string{"hs"}, Sizes: []int{16}, Trials: 1, Seed: 1}
	points, err := g.Points()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Bench(points[0], 1, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	if r.Iterations != 3 || r.Name != "Elect/alg=hs/n=16" || r.Metrics[0].Unit != "msgs/op" || r.Metrics[0].Value <= 0 {
		t.Fatalf("%+v", r)
	}
}

// TestBenchHeaderNamesTheModulePath: the header's pkg line is the import
// path 'go test -bench Elect ./experiment' prints, so that benchstat puts
// the lines of 'elect bench' and of go test in one group.
func TestBenchHeaderNamesTheModulePath(t *testing.T) {
	var b strings.Builder
	WriteBenchHeader(&b)
	lines := strings.Split(b.String(), "\n")
	if len(lines) < 3 || lines[2] != "pkg: github.com/electkit/elect/experiment" {
		t.Fatalf("header %q, want its third line to be pkg: github.com/electkit/elect/experiment", b.String())
	}
}
